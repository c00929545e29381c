// RMA and collectives take window-bound tensors only (semantics §1): a plain
// memref where a window is required never reaches pld-verify; the op
// verifier rejects it, naming the operand, and pld-opt exits non-zero.
// RUN: not pld-opt %s --split-input-file --pld-verify 2>&1 | FileCheck %s

func.func @plain_signal(%d: !pld.dtensor<1x64xf32>, %m: memref<4x1xi32>) {
  // CHECK: error: 'pld.tensor.allreduce' op operand #1 must be window-bound !pld.dtensor (a plain memref is not a window), but got 'memref<4x1xi32>'
  %r = pld.tensor.allreduce %d, %m, op sum : !pld.dtensor<1x64xf32>, memref<4x1xi32>
  return
}

// -----

func.func @plain_put_destination(%dst: memref<64xf32>, %src: memref<64xf32>, %p: index) {
  // CHECK: error: 'pld.tensor.put' op expected 'dst' (the remote side of a put) to be a window-bound !pld.dtensor, found 'memref<64xf32>'
  pld.tensor.put %dst, peer %p, %src : memref<64xf32>, memref<64xf32>
  return
}

// -----

func.func @plain_remote_store_target(%t: !pl.tile<1x64xf32>, %m: memref<2x64xf32>, %p: index) {
  // CHECK: error: 'pld.tile.remote_store' op operand #1 must be window-bound !pld.dtensor (a plain memref is not a window), but got 'memref<2x64xf32>'
  pld.tile.remote_store %t, %m[0, 0], peer %p : !pl.tile<1x64xf32>, memref<2x64xf32>
  return
}

// -----

// The near miss passes: a plain memref as the local side of a put.
func.func @plain_put_source(%dst: !pld.dtensor<64xf32>, %src: memref<64xf32>, %p: index) {
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<64xf32>, memref<64xf32>
  return
}
// CHECK-NOT: error
