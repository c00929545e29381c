// put, get and tensor.remote_store become staged chunk loops (pipeline §3).
// RUN: pld-opt %s --split-input-file --pld-expand-transfers --verify-each --verify-diagnostics | FileCheck %s

// A 1-D put moves through [1, L] views, in one chunk.
// CHECK-LABEL: func.func @put_1d
// CHECK-SAME: (%[[DST:.*]]: !pld.dtensor<64xf32>, %[[SRC:.*]]: memref<64xf32>, %[[P:.*]]: index)
// CHECK: %[[DROW:.*]] = pld.tensor.reshape %[[DST]] : !pld.dtensor<64xf32> to !pld.dtensor<1x64xf32>
// CHECK: %[[SROW:.*]] = memref.expand_shape %[[SRC]] {{\[\[}}0, 1]] output_shape [1, 64] : memref<64xf32> into memref<1x64xf32>
// CHECK: %[[T:.*]] = pl.load %[[SROW]][0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
// CHECK: pld.tile.remote_store %[[T]], %[[DROW]][0, 0], peer %[[P]] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
// CHECK-NOT: pld.tensor.put
func.func @put_1d(%dst: !pld.dtensor<64xf32>, %src: memref<64xf32>, %p: index) {
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<64xf32>, memref<64xf32>
  return
}

// -----

// A [2, 32] stage sliding over [8, 64]: 4 x 2 chunks, all full.
// CHECK-LABEL: func.func @chunked_put
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[C4]]
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[C2]]
// CHECK: %[[ROW:.*]] = arith.muli %[[R]], %{{.*}}
// CHECK: %[[COL:.*]] = arith.muli %[[C]], %{{.*}}
// CHECK: %[[T:.*]] = pl.load %{{.*}}[%[[ROW]], %[[COL]]] : memref<8x64xf32> -> !pl.tile<2x32xf32>
// CHECK: pld.tile.remote_store %[[T]], %{{.*}}[%[[ROW]], %[[COL]]], peer %{{.*}} : !pl.tile<2x32xf32>, !pld.dtensor<8x64xf32>
func.func @chunked_put(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x64xf32>, %p: index) {
  pld.tensor.put %dst, peer %p, %src chunk_rows 2 chunk_cols 32 : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  return
}

// -----

// pipeline: chunks in pairs through two distinct tiles, both loaded before
// either is stored. [8, 128] through [4, 48]: 2 x 3 = 6 chunks, 3 pairs; the
// last column chunk is ragged (128 = 2 * 48 + 32).
// CHECK-LABEL: func.func @pipelined_put
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[STEP:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C6]] step %[[STEP]]
// CHECK: %[[PING:.*]] = pl.load %{{.*}} valid [4, %{{.*}}] : memref<8x128xf32> -> !pl.tile<4x48xf32>
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %{{.*}}
// CHECK: %[[PONG:.*]] = pl.load %{{.*}} valid [4, %{{.*}}] : memref<8x128xf32> -> !pl.tile<4x48xf32>
// CHECK: pld.tile.remote_store %[[PING]]
// CHECK: pld.tile.remote_store %[[PONG]]
// CHECK-NOT: scf.if
func.func @pipelined_put(%dst: !pld.dtensor<8x128xf32>, %src: memref<8x128xf32>, %p: index) {
  pld.tensor.put %dst, peer %p, %src chunk_rows 4 chunk_cols 48 pipeline : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  return
}

// -----

// An odd number of chunks: the last pair has no pong.
// CHECK-LABEL: func.func @pipelined_odd
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C3]] step
// CHECK: %[[PING:.*]] = pl.load
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]]
// CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[NEXT]], %[[C3]]
// CHECK: scf.if %[[HAS]] {
// CHECK: %[[PONG:.*]] = pl.load
// CHECK: pld.tile.remote_store %[[PING]]
// CHECK: pld.tile.remote_store %[[PONG]]
// CHECK: } else {
// CHECK: pld.tile.remote_store %[[PING]]
func.func @pipelined_odd(%dst: !pld.dtensor<3x64xf32>, %src: !pld.dtensor<3x64xf32>, %p: index) {
  pld.tensor.put %dst, peer %p, %src chunk_rows 1 chunk_cols 64 pipeline : !pld.dtensor<3x64xf32>, !pld.dtensor<3x64xf32>
  return
}

// -----

// An atomic put of a dynamic region: chunk counts and ragged edges at run time.
// CHECK-LABEL: func.func @atomic_dynamic
// CHECK-SAME: (%[[DST:.*]]: !pld.dtensor<?x?xf32>, %[[SRC:.*]]: memref<?x?xf32>
// The whole tensor moves: each dynamic extent is checked equal at run time.
// CHECK: %[[D0:.*]] = pld.tensor.dim %[[DST]], 0
// CHECK: %[[S0:.*]] = memref.dim %[[SRC]], %{{.*}}
// CHECK: %[[SAME0:.*]] = arith.cmpi eq, %[[D0]], %[[S0]] : index
// CHECK: cf.assert %[[SAME0]], "dimension 0 of the destination differs from the source's: a pld.tensor.put without a region moves the whole tensor, so the two shapes must be equal"
// CHECK: cf.assert %{{.*}}, "dimension 1 of the destination
// CHECK: %[[ROWS:.*]] = memref.dim %[[SRC]], %{{.*}}
// CHECK: %[[COLS:.*]] = memref.dim %[[SRC]], %{{.*}}
// CHECK: %[[NR:.*]] = arith.ceildivsi %[[ROWS]]
// CHECK: %[[NC:.*]] = arith.ceildivsi %[[COLS]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NR]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NC]]
// CHECK: %[[VR:.*]] = arith.maxsi
// CHECK: %[[VC:.*]] = arith.maxsi
// CHECK: %[[T:.*]] = pl.load %[[SRC]][%{{.*}}, %{{.*}}] valid [%[[VR]], %[[VC]]] : memref<?x?xf32> -> !pl.tile<2x32xf32>
// CHECK: pld.tile.remote_store %[[T]], %[[DST]][%{{.*}}, %{{.*}}], peer %{{.*}} valid [%[[VR]], %[[VC]]] atomic add
func.func @atomic_dynamic(%dst: !pld.dtensor<?x?xf32>, %src: memref<?x?xf32>, %p: index) {
  pld.tensor.put %dst, peer %p, %src atomic add chunk_rows 2 chunk_cols 32 : !pld.dtensor<?x?xf32>, memref<?x?xf32>
  return
}

// -----

// A get of a 3-D sub-region: remote_load from the peer, store locally; the
// outer dimension (extent 1) needs no loop, the columns move in 16s.
// CHECK-LABEL: func.func @get_region
// CHECK-SAME: (%[[DST:.*]]: memref<2x3x40xf16>, %[[SRC:.*]]: !pld.dtensor<2x3x40xf16>, %[[P:.*]]: index)
// CHECK: scf.for %[[C:.*]] =
// CHECK: %[[COL:.*]] = arith.muli %[[C]]
// CHECK: %[[VC:.*]] = arith.maxsi
// CHECK: %[[DCOL:.*]] = arith.addi %{{.*}}, %[[COL]]
// CHECK: %[[T:.*]] = pld.tile.remote_load %[[SRC]][0, 0, %[[COL]]], peer %[[P]] valid [1, 2, %[[VC]]] : !pld.dtensor<2x3x40xf16> -> !pl.tile<1x2x16xf16>
// CHECK: pl.store %[[T]], %[[DST]][1, 1, %[[DCOL]]] valid [1, 2, %[[VC]]] : !pl.tile<1x2x16xf16>, memref<2x3x40xf16>
func.func @get_region(%dst: memref<2x3x40xf16>, %src: !pld.dtensor<2x3x40xf16>, %p: index) {
  pld.tensor.get %dst, peer %p, %src dst_offsets [1, 1, 8] src_offsets [0, 0, 0] shape [1, 2, 30] chunk_cols 16 : memref<2x3x40xf16>, !pld.dtensor<2x3x40xf16>
  return
}

// -----

// tensor.remote_store lowers 1:1 to the tile form when it fits.
// CHECK-LABEL: func.func @remote_store
// CHECK: %[[T:.*]] = pl.load %{{.*}}[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
// CHECK: pld.tile.remote_store %[[T]], %{{.*}}[1, 0], peer %{{.*}} atomic add : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
// CHECK-NOT: pld.tensor.remote_store
func.func @remote_store(%dst: !pld.dtensor<2x64xf32>, %src: memref<1x64xf32>, %p: index) {
  pld.tensor.remote_store %src, %dst[1, 0], peer %p atomic add : memref<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// A staging tile that does not fit the unified buffer shrinks, rows first,
// with a remark.
// CHECK-LABEL: func.func @too_large
// CHECK: pl.load {{.*}} -> !pl.tile<24x1024xf32>
func.func @too_large(%dst: !pld.dtensor<64x1024xf32>, %src: memref<64x1024xf32>, %p: index) {
  // expected-remark @+1 {{pld-expand-transfers: a [64, 1024] x f32 staging tile (two for the pipeline) needs 524288 bytes, more than the 196608-byte unified buffer (ub-bytes); staging through [24, 1024] instead}}
  pld.tensor.put %dst, peer %p, %src chunk_rows 64 chunk_cols 1024 pipeline : !pld.dtensor<64x1024xf32>, memref<64x1024xf32>
  return
}

// -----

// A remote_store of a dynamic tensor is staged one row at a time, as wide as
// the unified buffer allows (no remark: nothing was written to shrink).
// CHECK-LABEL: func.func @remote_store_dynamic
// CHECK: pl.load {{.*}} -> !pl.tile<1x49152xf32>
func.func @remote_store_dynamic(%dst: !pld.dtensor<4x?xf32>, %src: memref<1x?xf32>, %p: index) {
  pld.tensor.remote_store %src, %dst[0, 0], peer %p : memref<1x?xf32>, !pld.dtensor<4x?xf32>
  return
}

// -----

// One side static, the other dynamic: that dimension is checked, a static
// pair is not. A get with a region or one the SDMA engine moves is checked
// the same way; a region is not.
// CHECK-LABEL: func.func @shape_checks
// CHECK-SAME: (%[[OUT:.*]]: memref<4x?xf32>, %[[IN:.*]]: !pld.dtensor<?x?xf32>
// CHECK: %[[ROWS:.*]] = pld.tensor.dim %[[IN]], 0
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[C4]], %[[ROWS]] : index
// CHECK: cf.assert %[[SAME]], "dimension 0 of the destination differs from the source's: a pld.tensor.get without a region
// CHECK: cf.assert %{{.*}}, "dimension 1 of the destination
// CHECK: pld.tile.remote_load
// CHECK: cf.assert %{{.*}}, "dimension 0 of the destination
// CHECK: cf.assert %{{.*}}, "dimension 1 of the destination
// CHECK: pld.tensor.get %[[OUT]], peer %{{.*}}, %[[IN]] engine sdma
// CHECK-NOT: cf.assert
// CHECK: return
func.func @shape_checks(%out: memref<4x?xf32>, %in: !pld.dtensor<?x?xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.get %out, peer %p, %in chunk_rows 4 chunk_cols 8 : memref<4x?xf32>, !pld.dtensor<?x?xf32>
  pld.tensor.get %out, peer %p, %in engine sdma : memref<4x?xf32>, !pld.dtensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  pld.tensor.get %out, peer %p, %in dst_offsets [0, 0] src_offsets [0, 0] shape [%c2, %c2] chunk_rows 2 chunk_cols 2 : memref<4x?xf32>, !pld.dtensor<?x?xf32>
  return
}
