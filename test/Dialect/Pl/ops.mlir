// Every pl op and type round-trips through the custom syntax and through the
// generic form.
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @tiles
// CHECK-SAME: attributes {pl.kernel = #pl.kernel<incore>}
func.func @tiles(%m: memref<4x64xf32>, %dt: !pld.dtensor<4x64xf32>, %o: index, %n: index,
                 %ma: memref<16x32xf16>, %mb: memref<32x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  // CHECK: pl.load %{{.*}}[0, 0] : memref<4x64xf32> -> !pl.tile<1x64xf32>
  %a = pl.load %m[0, 0] : memref<4x64xf32> -> !pl.tile<1x64xf32>
  // CHECK: pl.load %{{.*}}[%{{.*}}, 0] valid [1, %{{.*}}] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
  %b = pl.load %dt[%o, 0] valid [1, %n] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
  // CHECK: pl.add %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %c = pl.add %a, %b : !pl.tile<1x64xf32>
  // CHECK: pl.max %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %d = pl.max %c, %b : !pl.tile<1x64xf32>
  // CHECK: pl.min %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %e = pl.min %d, %b : !pl.tile<1x64xf32>
  // CHECK: pl.mul %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %f = pl.mul %e, %b : !pl.tile<1x64xf32>
  // CHECK: pl.sub %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %s = pl.sub %f, %b : !pl.tile<1x64xf32>
  // Tile-scalar math and a filled tile take a scalar of the element type.
  %two = arith.constant 2.0 : f32
  // CHECK: pl.adds %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %as = pl.adds %s, %two : !pl.tile<1x64xf32>
  // CHECK: pl.subs %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %ss = pl.subs %as, %two : !pl.tile<1x64xf32>
  // CHECK: pl.muls %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %ms = pl.muls %ss, %two : !pl.tile<1x64xf32>
  // CHECK: pl.maxs %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %xs = pl.maxs %ms, %two : !pl.tile<1x64xf32>
  // CHECK: pl.mins %{{.*}}, %{{.*}} : !pl.tile<1x64xf32>
  %ns = pl.mins %xs, %two : !pl.tile<1x64xf32>
  // CHECK: pl.full %{{.*}} : !pl.tile<1x64xf32>
  %fl = pl.full %two : !pl.tile<1x64xf32>
  // CHECK: pl.cast %{{.*}} round rint : !pl.tile<1x64xf32> to !pl.tile<1x64xf16>
  %hf = pl.cast %fl round rint : !pl.tile<1x64xf32> to !pl.tile<1x64xf16>
  %a16 = pl.load %ma[0, 0] : memref<16x32xf16> -> !pl.tile<16x32xf16>
  %b16 = pl.load %mb[0, 0] : memref<32x16xf16> -> !pl.tile<32x16xf16>
  // CHECK: pl.matmul %{{.*}}, %{{.*}} : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  %g = pl.matmul %a16, %b16 : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  // CHECK: pl.store %{{.*}}, %{{.*}}[3, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>
  pl.store %f, %m[3, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>
  // CHECK: pl.store %{{.*}}, %{{.*}}[2, 0] valid [1, %{{.*}}] : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
  pl.store %f, %dt[2, 0] valid [1, %n] : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
  // CHECK: pl.read %{{.*}}[0, %{{.*}}] : !pld.dtensor<4x64xf32>
  %x = pl.read %dt[0, %o] : !pld.dtensor<4x64xf32>
  // CHECK: pl.write %{{.*}}, %{{.*}}[0, 0] : memref<4x64xf32>
  pl.write %x, %m[0, 0] : memref<4x64xf32>
  return
}

// The f32 product of a pl.matmul may be stored as f16 or bf16 (the cube's
// fixpipe converts it).
// CHECK-LABEL: func.func @cast_stores
func.func @cast_stores(%ma: memref<16x32xf16>, %mb: memref<32x16xf16>, %mc: memref<16x16xf16>,
                       %dc: !pld.dtensor<16x16xbf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pl.load %ma[0, 0] : memref<16x32xf16> -> !pl.tile<16x32xf16>
  %b = pl.load %mb[0, 0] : memref<32x16xf16> -> !pl.tile<32x16xf16>
  %g = pl.matmul %a, %b : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  // CHECK: pl.store %{{.*}}, %{{.*}}[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf16>
  pl.store %g, %mc[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf16>
  %a2 = pl.load %ma[0, 0] : memref<16x32xf16> -> !pl.tile<16x32xf16>
  %b2 = pl.load %mb[0, 0] : memref<32x16xf16> -> !pl.tile<32x16xf16>
  %h = pl.matmul %a2, %b2 : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  // CHECK: pl.store %{{.*}}, %{{.*}}[0, 0] : !pl.tile<16x16xf32>, !pld.dtensor<16x16xbf16>
  pl.store %h, %dc[0, 0] : !pl.tile<16x16xf32>, !pld.dtensor<16x16xbf16>
  return
}

// CHECK-LABEL: func.func @tasks
// CHECK-SAME: attributes {pl.kernel = #pl.kernel<host>}
func.func @tasks(%blocks: index, %go: i1) attributes {pl.kernel = #pl.kernel<host>} {
  // CHECK: %[[T0:.*]] = pl.at level core_group name "publish" {
  %t0 = pl.at level core_group name "publish" {
  }
  // CHECK: pl.at level core name "gated" deps[%[[T0]]] if %{{.*}} allow_early_resolve {
  %t1 = pl.at level core name "gated" deps [%t0] if %go allow_early_resolve {
  }
  // CHECK: pl.spmd %{{.*}} name "consume" deps[%[[T0]], %{{.*}}] {
  // CHECK: pl.get_block_idx
  %t2 = pl.spmd %blocks name "consume" deps [%t0, %t1] {
    %b = pl.get_block_idx
  }
  return
}

// CHECK-LABEL: func.func @split
func.func @split() attributes {pl.kernel = #pl.kernel<incore>} {
  // CHECK: pl.split_aiv mode none {
  // CHECK: pl.get_aiv_id
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
  }
  // CHECK: pl.split_aiv mode up_down {
  pl.split_aiv mode up_down {
  }
  // CHECK: pl.split_aiv mode left_right {
  pl.split_aiv mode left_right {
  }
  return
}

// CHECK-LABEL: func.func @task_id_type
// CHECK-SAME: !pl.task_id
func.func @task_id_type(%t: !pl.task_id) {
  return
}
