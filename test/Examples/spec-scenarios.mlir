// The reference scenarios of semantics §7 that the dialect can express today, as
// kernels: they parse, verify and pass pld-verify without a diagnostic.
// RUN: pld-opt %s --pld-verify=remarks=false --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @handshake_atomic
// Rank r notifies peer (r + 1) % 2 with r + 1 (AtomicAdd), waits Ge 1.
func.func @handshake_atomic(%signal: !pld.dtensor<1x1xi32>, %out: memref<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %next32 = arith.addi %me, %one : i32
  %peer32 = arith.remsi %next32, %n : i32
  %peer = arith.index_cast %peer32 : i32 to index
  pld.system.notify %signal[0, 0], peer %peer, value %next32, op atomic_add : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %got = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
  pl.write %got, %out[0, 0] : memref<1x1xi32>
  return
}

// CHECK-LABEL: func.func @handshake_set_tags
// Rank 0 sets tag 2 into rank 1, rank 1 sets tag 1 into rank 0.
func.func @handshake_set_tags(%signal: !pld.dtensor<1x1xi32>, %out: memref<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %tag = arith.subi %two, %me : i32
  %peer32 = arith.subi %one, %me : i32
  %peer = arith.index_cast %peer32 : i32 to index
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %got = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
  pl.write %got, %out[0, 0] : memref<1x1xi32>
  return
}

// CHECK-LABEL: func.func @ring_put
// Ring put of f32 [64], then the pipelined [8, 128] put through [4, 64]
// ping/pong stages and the chunked [8, 64] put through a [2, 32] stage.
func.func @ring_put(%dst: !pld.dtensor<64xf32>, %src: memref<64xf32>,
                    %big: !pld.dtensor<8x128xf32>, %bigsrc: memref<8x128xf32>,
                    %mid: !pld.dtensor<8x64xf32>, %midsrc: memref<8x64xf32>,
                    %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %next32 = arith.addi %me, %one : i32
  %peer32 = arith.remsi %next32, %n : i32
  %peer = arith.index_cast %peer32 : i32 to index
  // CHECK: pld.tensor.put
  pld.tensor.put %dst, peer %peer, %src : !pld.dtensor<64xf32>, memref<64xf32>
  // CHECK: chunk_rows 4 chunk_cols 64 pipeline
  pld.tensor.put %big, peer %peer, %bigsrc chunk_rows 4 chunk_cols 64 pipeline : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  // CHECK: chunk_rows 2 chunk_cols 32
  pld.tensor.put %mid, peer %peer, %midsrc chunk_rows 2 chunk_cols 32 : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  pld.tensor.barrier %signal : !pld.dtensor<8x1xi32>
  return
}

// CHECK-LABEL: func.func @atomic_put_to_root
// Ranks contribute into root 0 with atomic add; root waits Ge nranks.
func.func @atomic_put_to_root(%acc: !pld.dtensor<16x16xi32>, %mine: memref<16x16xi32>,
                              %signal: !pld.dtensor<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %root = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  pld.tensor.put %acc, peer %root, %mine atomic add : !pld.dtensor<16x16xi32>, memref<16x16xi32>
  pld.system.notify %signal[0, 0], peer %root, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  %is_root = arith.cmpi eq, %me, %zero : i32
  scf.if %is_root {
    pld.system.wait %signal[0, 0], expected %n, cmp ge : !pld.dtensor<1x1xi32>
  }
  return
}

// CHECK-LABEL: func.func @ring_get_and_row_offsets
// Ring get out[r] = in[(r + 1) % n]; row-offset put/get with dst_offsets [1, 0].
func.func @ring_get_and_row_offsets(%in: !pld.dtensor<64xf32>, %out: memref<64xf32>,
                                    %rows: !pld.dtensor<2x64xf32>, %local: memref<2x64xf32>,
                                    %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %next32 = arith.addi %me, %one : i32
  %peer32 = arith.remsi %next32, %n : i32
  %peer = arith.index_cast %peer32 : i32 to index
  pld.tensor.get %out, peer %peer, %in : memref<64xf32>, !pld.dtensor<64xf32>
  pld.tensor.put %rows, peer %peer, %local dst_offsets [1, 0] src_offsets [0, 0] shape [1, 64] : !pld.dtensor<2x64xf32>, memref<2x64xf32>
  pld.tensor.barrier %signal : !pld.dtensor<8x1xi32>
  pld.tensor.get %local, peer %peer, %rows dst_offsets [1, 0] src_offsets [1, 0] shape [1, 64] : memref<2x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// CHECK-LABEL: func.func @remote_store_halves
// Two half-width pushes to [0, 0] and [0, 32] assemble the full row.
func.func @remote_store_halves(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>,
                               %signal: !pld.dtensor<8x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %lo = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x32xf32>
  %hi = pl.load %src[0, 32] : memref<1x64xf32> -> !pl.tile<1x32xf32>
  pld.tile.remote_store %lo, %data[0, 0], peer %peer : !pl.tile<1x32xf32>, !pld.dtensor<1x64xf32>
  pld.tile.remote_store %hi, %data[0, 32], peer %peer : !pl.tile<1x32xf32>, !pld.dtensor<1x64xf32>
  pld.tensor.barrier %signal : !pld.dtensor<8x1xi32>
  %row = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  return
}

// CHECK-LABEL: func.func @allreduce_back_to_back
// Back-to-back allreduces on one signal, in a loop and a conditional.
func.func @allreduce_back_to_back(%d: !pld.dtensor<1x4097xf32>, %h: !pld.dtensor<1x8193xf16>,
                                  %mesh: !pld.dtensor<4x1xi32>, %ring: !pld.dtensor<6x4xi32>,
                                  %again: i1, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %steps step %c1 {
    %a = pld.tensor.allreduce %d, %mesh, op sum : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
    %b = pld.tensor.allreduce %d, %mesh, op max : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
    %c = pld.tensor.allreduce %h, %ring, op prod mode ring : !pld.dtensor<1x8193xf16>, !pld.dtensor<6x4xi32>
  }
  scf.if %again {
    %e = pld.tensor.allreduce %d, %mesh, op min : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  }
  return
}
