// convert-pld-to-ascend: a GEMM (a pl.matmul of two loaded tiles whose
// product one pl.store writes) becomes the cube's code at the store: per
// block of the product, TLOADs of K panels into L1 (mat tiles, two panels
// at a time: ping and pong), TEXTRACTs of their K steps into L0A and L0B
// (left, right, two steps at a time), TMATMUL then TMATMUL_ACC per step into
// L0C (acc), and a TSTORE of the accumulator through the fixpipe. Blocks are
// whole fractals: the accumulator fills at most L0C, a K step half of L0A
// and L0B, a panel of A and B half of L1; ragged edges are valid shapes.
// RUN: pld-opt %s --split-input-file --convert-pld-to-ascend --canonicalize --verify-each | FileCheck %s
// RUN: pld-opt %s --split-input-file --convert-pld-to-ascend --canonicalize --ascend-plan-ub | FileCheck %s --check-prefix=PLAN

// Unaligned M, K and N: one block, padded to the fractals, the logical
// shape as valid shape.
// CHECK-LABEL: func.func @unaligned
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[A:.*]]: !ascend.gm<f16>, %[[B:.*]]: !ascend.gm<f16>, %[[C:.*]]: !ascend.gm<f32>)
// CHECK-NOT: scf.for
// CHECK: %[[ACC:.*]] = ascend.tile valid(%[[C40:.*]], %[[C50:.*]]) : !ascend.tile<48x64xf32, acc>
// CHECK: %[[MA:.*]] = ascend.tile valid(%[[C40]], %[[C30:.*]]) : !ascend.tile<48x32xf16, mat>
// CHECK: %[[MB:.*]] = ascend.tile valid(%[[C30]], %[[C50]]) : !ascend.tile<32x64xf16, mat>
// CHECK: %[[VA:.*]] = ascend.view %[[A]], rows %[[C40]], cols %[[C30]], stride %[[C30]]
// CHECK: ascend.tload %[[MA]], %[[VA]] {site = "pl.load at {{.*}}"} : !ascend.tile<48x32xf16, mat>, !ascend.view<f16>
// CHECK: ascend.tload %[[MB]]
// CHECK: %[[L:.*]] = ascend.tile valid(%[[C40]], %[[C30]]) : !ascend.tile<48x32xf16, left>
// CHECK: %[[R:.*]] = ascend.tile valid(%[[C30]], %[[C50]]) : !ascend.tile<32x64xf16, right>
// CHECK: ascend.textract %[[L]], %[[MA]], row %{{.*}}, col %{{.*}} {site = "pl.matmul at {{.*}}"}
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

// Far larger than L0 and L1: 128 x 256 blocks of the product (an f32
// accumulator of 128 KiB, all of L0C); K in L1 panels of 256 (A and B: 192
// KiB), two at a time in a loop over pairs, each extracted in four steps of
// 64 (16 KiB of L0A, 32 KiB of L0B). The steps are software-pipelined: a
// step's left and right tiles are made and extracted into before the
// previous step's product. The first step sets the accumulator (the first
// pair's, decided in the loop), the others add.
// CHECK-LABEL: func.func @large
// CHECK: scf.for %[[M0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: scf.for
// CHECK: %[[ACC:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<128x256xf32, acc>
// CHECK: scf.for %[[K0:.*]] = %[[ZERO:.*]] to %{{.*}} step %{{.*}} {
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K0]], %[[ZERO]]
// CHECK: %[[A0:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<128x256xf16, mat>
// CHECK: %[[B0:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<256x256xf16, mat>
// CHECK: %[[A1:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<128x256xf16, mat>
// CHECK: %[[B1:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<256x256xf16, mat>
// CHECK: ascend.tload %[[A0]]
// CHECK: ascend.tload %[[B0]]
// CHECK: ascend.tload %[[A1]]
// CHECK: ascend.tload %[[B1]]
// CHECK: %[[L0:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<128x64xf16, left>
// CHECK: %[[R0:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<64x256xf16, right>
// CHECK: ascend.textract %[[L0]], %[[A0]], row %[[ZERO]], col %[[ZERO]]
// CHECK: ascend.textract %[[R0]], %[[B0]], row %[[ZERO]], col %[[ZERO]]
// CHECK: %[[L1:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<128x64xf16, left>
// CHECK: %[[R1:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<64x256xf16, right>
// CHECK: ascend.textract %[[L1]], %[[A0]], row %[[ZERO]], col %[[C64:.*]] {
// CHECK: ascend.textract %[[R1]], %[[B0]], row %[[C64]], col %[[ZERO]]
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: ascend.tmatmul %[[ACC]], %[[L0]], %[[R0]]
// CHECK-NEXT: } else {
// CHECK-NEXT: ascend.tmatmul_acc %[[ACC]], %[[L0]], %[[R0]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK: ascend.textract %{{.*}}, %[[A0]], row %[[ZERO]], col %{{.*}}
// CHECK: ascend.tmatmul_acc %[[ACC]], %[[L1]], %[[R1]]
// CHECK: ascend.textract %{{.*}}, %[[A1]], row %[[ZERO]], col %[[ZERO]]
// CHECK-COUNT-5: ascend.tmatmul_acc %[[ACC]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK: ascend.tstore_acc %{{.*}}, %[[ACC]]
// ascend-plan-ub gives the ping and the pong their own bytes: the four
// panels' tiles are live together (384 KiB of L1), and two steps' left and
// right tiles take turns in two halves of L0A and L0B.
// PLAN-LABEL: func.func @large
// PLAN: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<128x256xf32, acc>
// PLAN: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<128x256xf16, mat>
// PLAN: ascend.tile valid({{.*}}) {offset = 65536 : i64} : !ascend.tile<256x256xf16, mat>
// PLAN: ascend.tile valid({{.*}}) {offset = 196608 : i64} : !ascend.tile<128x256xf16, mat>
// PLAN: ascend.tile valid({{.*}}) {offset = 262144 : i64} : !ascend.tile<256x256xf16, mat>
// PLAN: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<128x64xf16, left>
// PLAN: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<64x256xf16, right>
// PLAN: ascend.tile valid({{.*}}) {offset = 16384 : i64} : !ascend.tile<128x64xf16, left>
// PLAN: ascend.tile valid({{.*}}) {offset = 32768 : i64} : !ascend.tile<64x256xf16, right>
// PLAN: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<128x64xf16, left>
// PLAN: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<64x256xf16, right>
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

// K known only at run time and up to 1100, more than a pair of panels of
// 256: a loop over pairs; the second panel's loads and every step that K
// may not reach run under a guard (their tiles' valid shapes at least 1).
// The f32 product is stored as bf16: the fixpipe converts it.
// CHECK-LABEL: func.func @dynamic_k
// CHECK-SAME: %[[C:[a-z0-9]+]]: !ascend.gm<bf16>, %[[K:[a-z0-9]+]]: index)
// CHECK: %[[ACC:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<16x256xf32, acc>
// CHECK: scf.for %[[K0:.*]] = %{{.*}} to %[[K]] step %{{.*}} {
// CHECK: %[[SECOND:.*]] = arith.cmpi sgt, %[[K]], %{{.*}} : index
// CHECK: %[[A0:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<16x256xf16, mat>
// CHECK: %[[A1:.*]] = ascend.tile valid({{.*}}) : !ascend.tile<16x256xf16, mat>
// CHECK: ascend.tload %[[A0]]
// CHECK: scf.if %[[SECOND]] {
// CHECK: ascend.tload %[[A1]]
// CHECK: }
// CHECK: ascend.textract %{{.*}}, %[[A0]], row %{{.*}}, col
// CHECK: %[[MORE:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[MORE]] {
// CHECK-NEXT: ascend.textract
// CHECK-NEXT: ascend.textract
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK: ascend.tmatmul %[[ACC]]
// CHECK: ascend.tmatmul_acc %[[ACC]]
// CHECK: ascend.textract %{{.*}}, %[[A1]], row %{{.*}}, col
// CHECK: }
// CHECK: %[[VC:.*]] = ascend.view %[[C]], {{.*}} : !ascend.gm<bf16> -> !ascend.view<bf16>
// CHECK: ascend.tstore_acc %[[VC]], %[[ACC]] {{.*}} : !ascend.view<bf16>, !ascend.tile<16x256xf32, acc>
func.func @dynamic_k(%a: memref<16x1100xf16>, %b: memref<1100x256xf16>, %c: memref<16x256xbf16>, %k: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] valid [16, %k] : memref<16x1100xf16> -> !pl.tile<16x1100xf16>
  %tb = pl.load %b[0, 0] valid [%k, 256] : memref<1100x256xf16> -> !pl.tile<1100x256xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x1100xf16>, !pl.tile<1100x256xf16> -> !pl.tile<16x256xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x256xf32>, memref<16x256xbf16>
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
// CHECK: ascend.tile valid(%[[M]], %[[K]]) : !ascend.tile<64x64xf16, mat>
// CHECK: ascend.tile valid(%[[K]], %{{.*}}) : !ascend.tile<64x64xf16, mat>
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

// -----

// A product that vector work uses goes through the hand-off space, which
// the kernel takes after the FFTS base address: the cube stores it into
// this block's part of the space (block * 4096 bytes: a 32 x 32 f32
// product), the vector core loads it back after the cube's flag. Host code
// passes each submission space for its blocks. The block is the one the
// task runtime dispatched, from the task's payload, which both halves take.
// CHECK-LABEL: func.func private @orchestrate_handoff_aic
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[PAYLOAD:[a-z0-9]+]]: !ascend.dispatch_payload, %[[SPACE:[a-z0-9]+]]: !ascend.gm<i8>,
// CHECK: %[[BLOCK:[0-9]+]] = ascend.block_idx from %[[PAYLOAD]]
// CHECK: %[[AT:[0-9]+]] = arith.muli %[[BLOCK]], %{{.*}}
// CHECK: %[[PART:[0-9]+]] = ascend.offset %[[SPACE]], %[[AT]]
// CHECK: %[[P:[0-9]+]] = ascend.window_as %[[PART]] : !ascend.gm<i8> -> !ascend.gm<f32>
// CHECK: ascend.cross_core_wait aiv -> aic
// CHECK: ascend.tmatmul
// CHECK: %[[V:[0-9]+]] = ascend.view %[[P]]
// CHECK: ascend.tstore_acc %[[V]]
// CHECK-NEXT: ascend.cross_core_signal aic -> aiv
// CHECK-LABEL: func.func private @orchestrate_handoff_aiv
// CHECK: ascend.cross_core_wait aic -> aiv
// CHECK: %[[T:[0-9]+]] = ascend.tile : !ascend.tile<32x32xf32>
// CHECK: ascend.tload %[[T]]
// CHECK: ascend.tadd %{{.*}}, %[[T]], %[[T]]
// CHECK-LABEL: func.func @orchestrate_handoff
// CHECK-SAME: (%[[CTX:[a-z0-9]+]]: !ascend.ctx, %[[TASK:[a-z0-9]+]]: !ascend.dispatch_payload, %[[FFTS:[a-z0-9]+]]: !ascend.ffts_addr, %[[HS:[a-z0-9]+]]: !ascend.gm<i8>,
// CHECK: ascend.run_mixed @orchestrate_handoff_aic, @orchestrate_handoff_aiv(%[[TASK]], %[[HS]],
// CHECK-LABEL: func.func @orchestrate
// CHECK-SAME: (%[[HCTX:[a-z0-9]+]]: !ascend.ctx, %{{.*}}: !ascend.gm<f16>, %{{.*}}: !ascend.gm<f32>, %[[N:[a-z0-9]+]]: index)
// CHECK: %[[BYTES:[0-9]+]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[HW:[0-9]+]] = ascend.handoff_workspace %[[HCTX]], %[[BYTES]] : !ascend.gm<i8>
// CHECK: ascend.submit @orchestrate_handoff(%{{.*}}, %[[HW]],
func.func @orchestrate(%a: memref<32x32xf16>, %c: memref<32x32xf32>, %n: index) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.spmd %n name "handoff" {
    %ta = pl.load %a[0, 0] : memref<32x32xf16> -> !pl.tile<32x32xf16>
    %p = pl.matmul %ta, %ta : !pl.tile<32x32xf16>, !pl.tile<32x32xf16> -> !pl.tile<32x32xf32>
    %twice = pl.add %p, %p : !pl.tile<32x32xf32>
    pl.store %twice, %c[0, 0] : !pl.tile<32x32xf32>, memref<32x32xf32>
  }
  return
}
