// pld.tensor.matmul_reduce_scatter (docs/pld-decompose-collectives.md,
// "`matmul_reduce_scatter`"): `fused` becomes a GEMM task on core_num
// blocks that stores its own block into `out` first (the base of the sum,
// announced to the peers) and publishes the other blocks' tiles, a
// communication task on twice as many blocks that adds each into its
// owner's `out` by atomic-add stores, and a task that joins them; `unfused`
// the GEMM task, then a reduce_scatter of `partial` seen as one row per
// rank, then a copy of this rank's rows into `out`. Results:
// test/Execution/matmul-reduce-scatter.test.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=remarks=false --verify-diagnostics | FileCheck %s
// Asked for by the pass option, the fused form needs `out` in the window.
// RUN: %expect_exit 1 -- pld-opt %s --split-input-file --pld-decompose-collectives='algorithm=fused remarks=false' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// Before the decomposition the race rule runs the op as a task of its own
// and decides it (Transforms/pld-verify-fused-gemm.mlir): no remark, only
// the error of the InCore case below.
// RUN: %expect_exit 1 -- pld-opt %s --split-input-file --pld-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECIDED --implicit-check-not=remark:

// DECIDED: error: 'pld.tensor.matmul_reduce_scatter' is only legal in host code
// CHECK-LABEL: func.func @fused
// CHECK: %[[GEMM:.*]] = pl.spmd %{{.*}} name "matmul_reduce_scatter.matmul" deps[%[[DEP:.*]]] {
// CHECK:   pld.system.nranks
// CHECK:   scf.for
// CHECK:     pl.load {{.*}} -> !pl.tile<45x40xf16>
// CHECK:     pl.load {{.*}} -> !pl.tile<40x256xf16>
// CHECK:     pl.matmul {{.*}} -> !pl.tile<45x256xf32>
// CHECK:     pl.store {{.*}} !pld.dtensor<45x300xf32>
// CHECK:     scf.for
// CHECK:       pld.system.notify {{.*}} op atomic_add
// CHECK:   scf.for
// CHECK:     pl.matmul
// CHECK:     pl.store {{.*}} !pld.dtensor<360x300xf32>
// CHECK:     pld.system.notify {{.*}} op atomic_add
// CHECK: %[[COMM:.*]] = pl.spmd %{{.*}} name "matmul_reduce_scatter.communicate" deps[%[[DEP]]] {
// CHECK:   scf.for
// CHECK:     pld.system.wait
// CHECK:     pld.system.wait
// CHECK:     pld.system.notify {{.*}} value %c-1_i32
// CHECK:     pl.load {{.*}} : !pld.dtensor<360x300xf32> -> !pl.tile<32x256xf32>
// CHECK:     pld.tile.remote_store {{.*}} atomic add : !pl.tile<32x256xf32>, !pld.dtensor<45x300xf32>
// CHECK:     pld.system.notify
// CHECK:   scf.for
// CHECK:     pld.system.wait
// CHECK: %[[DONE:.*]] = pl.at level core_group name "matmul_reduce_scatter" deps[%[[GEMM]], %[[COMM]]] {
// CHECK-NEXT: }
// CHECK: pl.at level core_group name "after" deps[%[[DONE]]]
// CHECK-NOT: pld.tensor.matmul_reduce_scatter
func.func @fused(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %p: !pld.dtensor<360x300xf32>,
                 %o: !pld.dtensor<45x300xf32>, %sig: !pld.dtensor<8x4xi32>, %row: memref<1x8xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pl.at level core_group name "before" {
  }
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum algorithm fused core_num 2 deps [%first] : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x4xi32>
  %after = pl.at level core_group name "after" deps [%t] {
    %x = pl.load %o[0, 0] : !pld.dtensor<45x300xf32> -> !pl.tile<1x8xf32>
    pl.store %x, %row[0, 0] : !pl.tile<1x8xf32>, memref<1x8xf32>
  }
  return
}

// -----

// An f16 sum moves subtiles of 64 rows.
// CHECK-LABEL: func.func @f16
// CHECK: pl.matmul {{.*}} -> !pl.tile<64x24xf32>
// CHECK: pld.tile.remote_store {{.*}} atomic add : !pl.tile<64x24xf16>
func.func @f16(%a: memref<128x16xf16>, %b: memref<16x24xf16>, %p: !pld.dtensor<128x24xf16>,
               %o: !pld.dtensor<64x24xf16>, %sig: !pld.dtensor<2x6xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum algorithm fused : memref<128x16xf16>, memref<16x24xf16>, !pld.dtensor<128x24xf16>, !pld.dtensor<64x24xf16>, !pld.dtensor<2x6xi32>
  return
}

// -----

// CHECK-LABEL: func.func @unfused
// CHECK: %[[GEMM:.*]] = pl.spmd %{{.*}} name "matmul_reduce_scatter.matmul" {
// CHECK-NOT: pld.system.notify
// CHECK: %[[RS:.*]] = pl.spmd %{{.*}} name "matmul_reduce_scatter.reduce_scatter" deps[%[[GEMM]]] {
// CHECK:   pld.tensor.reshape %{{.*}} : !pld.dtensor<360x300xf32> to !pld.dtensor<8x13500xf32>
// CHECK:   pld.tile.remote_load
// CHECK: pl.spmd %{{.*}} name "matmul_reduce_scatter.copy" deps[%[[RS]]] {
// CHECK:   pl.load {{.*}} : !pld.dtensor<360x300xf32> -> !pl.tile<32x256xf32>
// CHECK:   pl.store {{.*}} : !pl.tile<32x256xf32>, memref<45x300xf32>
// CHECK-NOT: pld.tensor.reduce_scatter
// OPTION: error: algorithm fused cannot run here: the fused form adds every rank's tiles into the owner's 'out', which is memref<45x300xf32> (not a window tensor)
func.func @unfused(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %p: !pld.dtensor<360x300xf32>,
                   %o: memref<45x300xf32>, %sig: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum algorithm unfused core_num 2 : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, memref<45x300xf32>, !pld.dtensor<8x4xi32>
  %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum core_num 2 deps [%t] : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, memref<45x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// -----

// 8 blocks of 2 tiles, and a ready cell for each of 2 vector cores: 18
// cells.
func.func @small_signal(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %p: !pld.dtensor<360x300xf32>,
                        %o: !pld.dtensor<45x300xf32>, %sig: !pld.dtensor<8x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{the fused form needs a signal of at least 18 cells (a cell per tile of each of the 8 ranks' blocks, 2 tiles of 45 x 256, and one per vector core), found [8, 2]: use [8, 4]}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum algorithm unfused : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x2xi32>
  return
}

// -----

func.func @in_a_kernel(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>,
                       %o: !pld.dtensor<16x32xf32>, %sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' launches its GEMM and its communication as tasks of a host orchestrator, but it stands in InCore code: call it from host code}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}
