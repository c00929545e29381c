// GEMMs fused with communication (docs/pld-decompose-collectives.md, "GEMMs
// fused with communication"): `fused` becomes a GEMM task on core_num
// blocks that publishes each 128 x 256 tile, a communication task on as
// many blocks (round by round, the reduce-scatter of its GEMM block's tile,
// then the allgather of subtiles of the round before) and a task after both
// that clears the subtiles' counts; `unfused` the GEMM task, then a core_num-block
// allreduce of `c` after it. Results: test/Execution/fused.test.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=remarks=false --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @fused
// CHECK: %[[GEMM:.*]] = pl.spmd %{{.*}} name "matmul_allreduce.matmul" deps[%[[DEP:.*]]] {
// CHECK:   pl.get_block_idx
// CHECK:   scf.for
// CHECK:     pl.load {{.*}} -> !pl.tile<128x48xf16>
// CHECK:     pl.load {{.*}} -> !pl.tile<48x256xf16>
// CHECK:     pl.matmul {{.*}} -> !pl.tile<128x256xf32>
// CHECK:     pl.store
// CHECK:     pld.system.notify {{.*}} op atomic_add
// CHECK: %[[COMM:.*]] = pl.spmd %c2{{(_[0-9]+)?}} name "matmul_allreduce.communicate" deps[%[[DEP]]] {
// CHECK:   scf.for %{{.*}} = %{{.*}} to %c3
// CHECK:     arith.cmpi ult
// CHECK:     scf.if
// CHECK:       pld.system.wait
// CHECK:       pld.tile.remote_store {{.*}} atomic add : !pl.tile<32x256xf32>
// CHECK:     scf.for
// CHECK:       pld.system.wait
// CHECK:       pld.tile.remote_store {{.*}} : !pl.tile<32x256xf32>
// CHECK: %[[DONE:.*]] = pl.at level core_group name "matmul_allreduce" deps[%[[GEMM]], %[[COMM]]] {
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       pld.system.notify {{.*}} op atomic_add
// CHECK-NOT:   pld.system.wait
// CHECK: }
// CHECK: pl.at level core_group name "after" deps[%[[DONE]]]
// CHECK-NOT: pld.tensor.matmul_allreduce
func.func @fused(%a: memref<200x48xf16>, %b: memref<48x300xf16>, %c: !pld.dtensor<200x300xf32>,
                 %sig: !pld.dtensor<8x4xi32>, %out: memref<1x8xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pl.at level core_group name "before" {
  }
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %sig, op sum algorithm fused core_num 2 deps [%first] : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  %after = pl.at level core_group name "after" deps [%t] {
    %row = pl.load %c[0, 0] : !pld.dtensor<200x300xf32> -> !pl.tile<1x8xf32>
    pl.store %row, %out[0, 0] : !pl.tile<1x8xf32>, memref<1x8xf32>
  }
  return
}

// -----

// An f16 `c` moves subtiles of 64 rows; a product narrower than a tile
// takes tiles of its own width.
// CHECK-LABEL: func.func @narrow
// CHECK: pl.matmul {{.*}} -> !pl.tile<40x24xf32>
// CHECK: pld.tile.remote_store {{.*}} atomic add : !pl.tile<40x24xf16>
func.func @narrow(%a: memref<40x16xf16>, %b: memref<16x24xf16>, %c: !pld.dtensor<40x24xf16>,
                  %sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %sig, op sum algorithm fused : memref<40x16xf16>, memref<16x24xf16>, !pld.dtensor<40x24xf16>, !pld.dtensor<4x2xi32>
  return
}

// -----

// CHECK-LABEL: func.func @unfused
// CHECK: %[[GEMM:.*]] = pl.spmd %{{.*}} name "matmul_allreduce.matmul" {
// CHECK-NOT: pld.system.notify
// CHECK: pl.spmd %{{.*}} name "matmul_allreduce.allreduce" deps[%[[GEMM]]] {
// CHECK:   pld.tile.remote_load
// CHECK-NOT: pld.tensor.allreduce
func.func @unfused(%a: memref<200x48xf16>, %b: memref<48x300xf16>, %c: !pld.dtensor<200x300xf32>,
                   %sig: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %sig, op sum algorithm unfused core_num 2 : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// -----

// 4 tiles of 4 subtiles, 2 ready cells and a final cell: 19 cells.
func.func @small_signal(%a: memref<200x48xf16>, %b: memref<48x300xf16>, %c: !pld.dtensor<200x300xf32>,
                        %sig: !pld.dtensor<4x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{the fused form needs a signal of at least 19 cells (4 tiles of 128 x 256 in 4 subtiles each, a ready cell per cube core and a final cell), found [4, 4]: use [4, 8]}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %sig, op sum algorithm fused core_num 2 : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<4x4xi32>
  return
}

// -----

func.func @in_a_kernel(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>,
                       %sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' launches its GEMM and its communication as tasks of a host orchestrator, but it stands in InCore code: call it from host code}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %sig, op sum : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}
