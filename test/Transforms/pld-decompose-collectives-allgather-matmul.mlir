// pld.tensor.allgather_matmul (docs/pld-decompose-collectives.md,
// "`allgather_matmul`"): `fused` becomes a communication task on twice
// core_num blocks that grants the peers their puts (a unit per chunk),
// puts `a` into every peer's `gathered` in chunks of 128 rows and adds a
// unit per tile of the chunk's row; a GEMM task on core_num blocks that
// computes this rank's rows from `a` with no wait, then the peers' rows
// chunk by chunk, each once its cell holds a unit; and a task that joins
// them. `unfused` is an allgather task (of `a` and `gathered` seen as rows
// of one rank's elements), then the GEMM task after it.
// Results: test/Execution/allgather-matmul.test.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=remarks=false --verify-diagnostics | FileCheck %s
// Before the decomposition the race rule runs the op as a task of its own
// and decides it (Transforms/pld-verify-fused-gemm.mlir): no remark, only
// the error of the InCore case below.
// RUN: %expect_exit 1 -- pld-opt %s --split-input-file --pld-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECIDED --implicit-check-not=remark:

// DECIDED: error: 'pld.tensor.allgather_matmul' is only legal in host code
// CHECK-LABEL: func.func @fused
// CHECK: %[[COMM:.*]] = pl.spmd %{{.*}} name "allgather_matmul.communicate" deps[%[[DEP:.*]]] {
// CHECK:   scf.for
// CHECK:     pld.system.notify {{.*}} value %c2_i32
// CHECK:   scf.for
// CHECK:     scf.if
// CHECK:       pld.system.wait
// CHECK:       pld.tensor.put %arg1, peer %{{.*}}, %arg0 {{.*}} chunk_rows 128 chunk_cols 40 pipeline
// CHECK:       pld.system.notify {{.*}} value %c3_i32
// CHECK:     } else {
// CHECK:       pld.tensor.put %arg1, peer
// CHECK: %[[GEMM:.*]] = pl.spmd %{{.*}} name "allgather_matmul.matmul" deps[%[[DEP]]] {
// CHECK:   scf.for
// CHECK-NOT:   pld.system.wait
// CHECK:     pl.load %arg0{{.*}} : memref<200x40xf16> -> !pl.tile<128x40xf16>
// CHECK:     pl.matmul {{.*}} -> !pl.tile<128x256xf32>
// CHECK:     pl.store {{.*}} memref<800x600xf32>
// CHECK:   scf.for
// CHECK:     pld.system.wait
// CHECK:     pld.system.notify {{.*}} value %c-1_i32
// CHECK:     pl.load %arg1{{.*}} : !pld.dtensor<800x40xf16> -> !pl.tile<128x40xf16>
// CHECK:     pl.matmul
// CHECK:     pl.store {{.*}} memref<800x600xf32>
// CHECK: %[[DONE:.*]] = pl.at level core_group name "allgather_matmul" deps[%[[COMM]], %[[GEMM]]] {
// CHECK-NEXT: }
// CHECK: pl.at level core_group name "after" deps[%[[DONE]]]
// CHECK-NOT: pld.tensor.allgather_matmul
func.func @fused(%a: memref<200x40xf16>, %g: !pld.dtensor<800x40xf16>, %b: memref<40x600xf16>,
                 %c: memref<800x600xf32>, %sig: !pld.dtensor<4x4xi32>, %row: memref<1x8xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pl.at level core_group name "before" {
  }
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %sig algorithm fused core_num 2 deps [%first] : memref<200x40xf16>, !pld.dtensor<800x40xf16>, memref<40x600xf16>, memref<800x600xf32>, !pld.dtensor<4x4xi32>
  %after = pl.at level core_group name "after" deps [%t] {
    %x = pl.load %c[0, 0] : memref<800x600xf32> -> !pl.tile<1x8xf32>
    pl.store %x, %row[0, 0] : !pl.tile<1x8xf32>, memref<1x8xf32>
  }
  return
}

// -----

// `a` in the window is seen as one row by a reshape, a memref by
// collapsing and expanding it.
// CHECK-LABEL: func.func @unfused
// CHECK: %[[GATHER:.*]] = pl.spmd %{{.*}} name "allgather_matmul.allgather" {
// CHECK:   pld.tensor.reshape %arg0 : !pld.dtensor<45x40xf16> to !pld.dtensor<1x1800xf16>
// CHECK:   pld.tensor.reshape %arg1 : !pld.dtensor<360x40xf16> to !pld.dtensor<8x1800xf16>
// CHECK:   pld.tile.remote_load
// CHECK: pl.spmd %{{.*}} name "allgather_matmul.matmul" deps[%[[GATHER]]] {
// CHECK-NOT: pld.system.wait
// CHECK: pl.matmul
// CHECK-LABEL: func.func @unfused_memref
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<45x40xf16> into memref<1800xf16>
// CHECK: memref.expand_shape {{.*}} output_shape [1, 1800] : memref<1800xf16> into memref<1x1800xf16>
// CHECK-NOT: pld.tensor.allgather
func.func @unfused(%a: !pld.dtensor<45x40xf16>, %g: !pld.dtensor<360x40xf16>, %b: memref<40x300xf16>,
                   %c: !pld.dtensor<360x300xf16>, %sig: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %sig algorithm unfused core_num 2 : !pld.dtensor<45x40xf16>, !pld.dtensor<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf16>, !pld.dtensor<8x4xi32>
  return
}
func.func @unfused_memref(%a: memref<45x40xf16>, %g: !pld.dtensor<360x40xf16>, %b: memref<40x300xf16>,
                          %c: memref<360x300xf32>, %sig: !pld.dtensor<8x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %sig algorithm unfused : memref<45x40xf16>, !pld.dtensor<360x40xf16>, memref<40x300xf16>, memref<360x300xf32>, !pld.dtensor<8x2xi32>
  return
}

// -----

// 3 chunks of 128 rows for each of 8 ranks, and a cell per rank: 32 cells.
func.func @small_signal(%a: memref<300x40xf16>, %g: !pld.dtensor<2400x40xf16>, %b: memref<40x300xf16>,
                        %c: memref<2400x300xf32>, %sig: !pld.dtensor<8x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{the fused form needs a signal of at least 32 cells (a cell per chunk of 128 rows of each of the 8 ranks, 3 chunks each, and one per rank), found [8, 2]: use [8, 4]}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %sig algorithm unfused : memref<300x40xf16>, !pld.dtensor<2400x40xf16>, memref<40x300xf16>, memref<2400x300xf32>, !pld.dtensor<8x2xi32>
  return
}

// -----

func.func @in_a_kernel(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>,
                       %c: memref<64x32xf32>, %sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' launches its GEMM and its communication as tasks of a host orchestrator, but it stands in InCore code: call it from host code}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %sig : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}
