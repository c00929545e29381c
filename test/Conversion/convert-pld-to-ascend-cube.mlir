// convert-pld-to-ascend: a GEMM (a pl.matmul of two loaded tiles whose
// product one pl.store writes) becomes the cube's code at the store: per
// block of the product, TLOADs into L1 (mat tiles), TEXTRACTs into L0A and
// L0B (left, right), TMATMUL then TMATMUL_ACC per K step into L0C (acc), and
// a TSTORE of the accumulator through the fixpipe. Blocks are whole fractals
// that fit half of each buffer; ragged edges are valid shapes.
// RUN: pld-opt %s --split-input-file --convert-pld-to-ascend --canonicalize --verify-each | FileCheck %s

// Unaligned M, K and N: one block, padded to the fractals, the logical
// shape as valid shape.
// CHECK-LABEL: func.func @unaligned
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[A:.*]]: !ascend.gm<f16>, %[[B:.*]]: !ascend.gm<f16>, %[[C:.*]]: !ascend.gm<f32>)
// CHECK-NOT: scf.for
// CHECK: %[[ACC:.*]] = ascend.tile valid(%[[C40:.*]], %[[C50:.*]]) : !ascend.tile<48x64xf32, acc>
// CHECK: %[[MA:.*]] = ascend.tile valid(%[[C40]], %[[C30:.*]]) : !ascend.tile<48x32xf16, mat>
// CHECK: %[[VA:.*]] = ascend.view %[[A]], rows %[[C40]], cols %[[C30]], stride %[[C30]]
// CHECK: ascend.tload %[[MA]], %[[VA]] {site = "pl.load at {{.*}}"} : !ascend.tile<48x32xf16, mat>, !ascend.view<f16>
// CHECK: %[[MB:.*]] = ascend.tile valid(%[[C30]], %[[C50]]) : !ascend.tile<32x64xf16, mat>
// CHECK: ascend.tload %[[MB]]
// CHECK: %[[L:.*]] = ascend.tile valid(%[[C40]], %[[C30]]) : !ascend.tile<48x32xf16, left>
// CHECK: ascend.textract %[[L]], %[[MA]], row %{{.*}}, col %{{.*}} {site = "pl.matmul at {{.*}}"}
// CHECK: %[[R:.*]] = ascend.tile valid(%[[C30]], %[[C50]]) : !ascend.tile<32x64xf16, right>
// CHECK: ascend.textract %[[R]], %[[MB]]
// CHECK: ascend.tmatmul %[[ACC]], %[[L]], %[[R]]
// CHECK-NOT: ascend.tmatmul_acc
// CHECK: %[[VC:.*]] = ascend.view %[[C]], rows %[[C40]], cols %[[C50]], stride %[[C50]]
// CHECK: ascend.tstore_acc %[[VC]], %[[ACC]] {site = "pl.store at {{.*}}"} : !ascend.view<f32>, !ascend.tile<48x64xf32, acc>
// CHECK-NOT: pl.
// CHECK: return
func.func @unaligned(%a: memref<40x30xf16>, %b: memref<30x50xf16>, %c: memref<40x50xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<40x30xf16> -> !pl.tile<40x30xf16>
  %tb = pl.load %b[0, 0] : memref<30x50xf16> -> !pl.tile<30x50xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<40x30xf16>, !pl.tile<30x50xf16> -> !pl.tile<40x50xf32>
  pl.store %p, %c[0, 0] : !pl.tile<40x50xf32>, memref<40x50xf32>
  return
}

// -----

// Far larger than L0 and L1: 128 x 128 blocks of the product (an f32
// accumulator of 64 KiB, half of L0C), K in steps of 128 (32 KiB of L0A and
// L0B each); the first step sets the accumulator, the others add.
// CHECK-LABEL: func.func @large
// CHECK: scf.for %[[M0:.*]] = %{{.*}} to %{{.*}} step %[[C128:.*]] {
// CHECK: scf.for %[[N0:.*]] = %{{.*}} to %{{.*}} step %[[C128]] {
// CHECK: %[[ACC:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<128x128xf32, acc>
// CHECK: ascend.tile valid({{.*}}) : !ascend.tile<128x128xf16, mat>
// CHECK: ascend.tmatmul %[[ACC]]
// CHECK: scf.for %[[K0:.*]] = %[[C128]] to %{{.*}} step %[[C128]] {
// CHECK: ascend.tload
// CHECK: ascend.tload
// CHECK: ascend.textract
// CHECK: ascend.textract
// CHECK: ascend.tmatmul_acc %[[ACC]]
// CHECK: }
// CHECK: ascend.tstore_acc %{{.*}}, %[[ACC]]
func.func @large(%a: memref<256x2048xf16>, %b: memref<2048x256xf16>, %c: memref<256x256xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<256x2048xf16> -> !pl.tile<256x2048xf16>
  %tb = pl.load %b[0, 0] : memref<2048x256xf16> -> !pl.tile<2048x256xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<256x2048xf16>, !pl.tile<2048x256xf16> -> !pl.tile<256x256xf32>
  pl.store %p, %c[0, 0] : !pl.tile<256x256xf32>, memref<256x256xf32>
  return
}

// -----

// int8 x int8 into int32: a K block is 32 int8 (one 32-byte fractal row).
// CHECK-LABEL: func.func @int8
// CHECK: !ascend.tile<32x32xi32, acc>
// CHECK: !ascend.tile<32x64xi8, mat>
// CHECK: !ascend.tile<64x32xi8, mat>
// CHECK: !ascend.tile<32x64xi8, left>
// CHECK: !ascend.tile<64x32xi8, right>
// CHECK: ascend.tmatmul {{.*}} : !ascend.tile<32x32xi32, acc>, !ascend.tile<32x64xi8, left>, !ascend.tile<64x32xi8, right>
// CHECK: ascend.tstore_acc {{.*}} : !ascend.view<i32>, !ascend.tile<32x32xi32, acc>
func.func @int8(%a: memref<32x40xi8>, %b: memref<40x32xi8>, %c: memref<32x32xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<32x40xi8> -> !pl.tile<32x40xi8>
  %tb = pl.load %b[0, 0] : memref<40x32xi8> -> !pl.tile<40x32xi8>
  %p = pl.matmul %ta, %tb : !pl.tile<32x40xi8>, !pl.tile<40x32xi8> -> !pl.tile<32x32xi32>
  pl.store %p, %c[0, 0] : !pl.tile<32x32xi32>, memref<32x32xi32>
  return
}

// -----

// Valid shapes known at run time: the tiles bound the extents, so one block
// (no loop) whose valid shape is the loads'; the operand read from a peer's
// window goes through peer_ptr; the product lands at the store's offsets.
// CHECK-LABEL: func.func @ragged
// CHECK-SAME: %[[M:[a-z0-9]+]]: index, %[[K:[a-z0-9]+]]: index, %[[P:[a-z0-9]+]]: index)
// CHECK-NOT: scf.for
// CHECK: ascend.tile valid(%[[M]], %{{.*}}) : !ascend.tile<64x64xf32, acc>
// CHECK: %[[DEPTH:.*]] = arith.minsi %[[K]], %{{.*}} : index
// CHECK: ascend.tile valid(%[[M]], %[[DEPTH]]) : !ascend.tile<64x64xf16, mat>
// CHECK: ascend.tile valid(%[[DEPTH]], %{{.*}}) : !ascend.tile<64x64xf16, mat>
// CHECK: ascend.peer_ptr %{{.*}}, %{{.*}}, peer %[[P]]
// CHECK: ascend.tstore_acc
func.func @ragged(%a: memref<?x?xf16>, %b: !pld.dtensor<64x64xf16>, %c: memref<128x64xf32>, %m: index, %k: index, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] valid [%m, %k] : memref<?x?xf16> -> !pl.tile<64x64xf16>
  %tb = pld.tile.remote_load %b[0, 0], peer %p valid [%k, 64] : !pld.dtensor<64x64xf16> -> !pl.tile<64x64xf16>
  %p2 = pl.matmul %ta, %tb : !pl.tile<64x64xf16>, !pl.tile<64x64xf16> -> !pl.tile<64x64xf32>
  pl.store %p2, %c[64, 0] valid [%m, 64] : !pl.tile<64x64xf32>, memref<128x64xf32>
  return
}

// -----

// A mixed kernel (a GEMM, then vector work on its product in a split
// region) is split: the cube half keeps the GEMM and the cube's side of the
// handover around it, the vector half everything else and its side, and the
// kernel, which alone takes the FFTS base address (after its context), sets
// it and runs both.
// CHECK-LABEL: func.func private @mixed_aic
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[A:.*]]: !ascend.gm<f16>, %{{.*}}: !ascend.gm<f32>, %{{.*}}: !ascend.gm<i32>)
// CHECK-SAME: specifiers = ["static __aicore__ inline"]
// CHECK: ascend.cross_core_wait aiv -> aic
// CHECK: ascend.tload {{.*}} : !ascend.tile<32x32xf16, mat>
// CHECK: ascend.tmatmul
// CHECK: ascend.tstore_acc
// CHECK-NEXT: ascend.cross_core_signal aic -> aiv
// CHECK-NOT: ascend.run_on_lanes
// CHECK: return
// CHECK-LABEL: func.func private @mixed_aiv
// CHECK: ascend.cross_core_signal aiv -> aic
// CHECK-NEXT: ascend.cross_core_wait aic -> aiv
// CHECK-NOT: ascend.tmatmul
// CHECK: ascend.run_on_lanes @mixed_lanes
// CHECK: return
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[CTX:.*]]: !ascend.ctx, %[[FFTS:.*]]: !ascend.ffts_addr, %[[A:.*]]: !ascend.gm<f16>, %[[C:.*]]: !ascend.gm<f32>, %[[S:.*]]: !ascend.gm<i32>)
// CHECK-NEXT: ascend.set_ffts_base_addr %[[FFTS]]
// CHECK-NEXT: ascend.run_mixed @mixed_aic, @mixed_aiv(%[[A]], %[[C]], %[[S]]) ctx %[[CTX]]
// CHECK-NEXT: return
func.func @mixed(%a: memref<32x32xf16>, %c: !pld.dtensor<32x32xf32>, %sig: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<32x32xf16> -> !pl.tile<32x32xf16>
  %p = pl.matmul %ta, %ta : !pl.tile<32x32xf16>, !pl.tile<32x32xf16> -> !pl.tile<32x32xf32>
  pl.store %p, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      %t = pl.load %c[0, 0] : !pld.dtensor<32x32xf32> -> !pl.tile<32x32xf32>
      %twice = pl.add %t, %t : !pl.tile<32x32xf32>
      pl.store %twice, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
    }
  }
  return
}

// -----

// Each GEMM of a loop is handed over on its own: the cube half keeps the
// loop (its bounds are the kernel's arguments) and nothing of the vector
// work in it.
// CHECK-LABEL: func.func private @looped_aic
// CHECK: scf.for
// CHECK-NEXT: ascend.cross_core_wait aiv -> aic
// CHECK: ascend.tmatmul
// CHECK: ascend.tstore_acc
// CHECK-NEXT: ascend.cross_core_signal aic -> aiv
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @looped_aiv
// CHECK: scf.for
// CHECK: ascend.tload {{.*}} : !ascend.tile<1x64xf32>
// CHECK: ascend.cross_core_signal aiv -> aic
// CHECK-NEXT: ascend.cross_core_wait aic -> aiv
// CHECK-NOT: tile<{{.*}}, acc>
// CHECK: return
func.func @looped(%a: memref<64x16xf16>, %c: memref<64x16xf32>, %x: memref<4x64xf32>, %n: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = pl.load %x[%i, 0] : memref<4x64xf32> -> !pl.tile<1x64xf32>
    %w = pl.add %v, %v : !pl.tile<1x64xf32>
    pl.store %w, %x[%i, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>
    %row = arith.muli %i, %c16 : index
    %ta = pl.load %a[%row, 0] : memref<64x16xf16> -> !pl.tile<16x16xf16>
    %p = pl.matmul %ta, %ta : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
    pl.store %p, %c[%row, 0] : !pl.tile<16x16xf32>, memref<64x16xf32>
  }
  return
}
