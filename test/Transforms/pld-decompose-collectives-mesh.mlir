// The seed's mesh allreduce (algorithm seed_mesh, semantics §4): ready barrier
// g = 1; per chunk: load, combine every peer's chunk, barrier g = 2 + c,
// store; epilogue -(1 + chunks).
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=algorithm=seed-mesh --verify-each | FileCheck %s
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-decompose-collectives{chunk-bytes=64 algorithm=seed-mesh})' --verify-each | FileCheck %s --check-prefix=SMALL

// A short static stream: one chunk, shrunk to the smallest 32-byte width that
// covers 17 f32 (24 elements = 96 bytes); the loops over chunks disappear.
// CHECK-LABEL: func.func @short_sum
// CHECK-SAME: (%[[DATA:.*]]: !pld.dtensor<1x17xf32>, %[[SIG:.*]]: !pld.dtensor<4x1xi32>)
// CHECK: %[[CTX:.*]] = pld.system.get_comm_ctx %[[SIG]]
// CHECK: %[[ME32:.*]] = pld.system.rank %[[CTX]]
// CHECK: %[[ME:.*]] = arith.index_cast %[[ME32]] : i32 to index
// CHECK: %[[N32:.*]] = pld.system.nranks %[[CTX]]
// CHECK: %[[N:.*]] = arith.index_cast %[[N32]] : i32 to index
// The ready barrier: +1 into [me, 0] of every peer, then wait >= 1 on [src, 0].
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %[[N]]
// CHECK: arith.cmpi ne, %[[P]], %[[ME]]
// CHECK: pld.system.notify %[[SIG]][%[[ME]], 0], peer %[[P]], value %[[ONE]], op atomic_add
// CHECK: %[[G1:.*]] = arith.constant 1 : i32
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %[[N]]
// CHECK: pld.system.wait %[[SIG]][%[[S]], 0], expected %[[G1]], cmp ge
// The single chunk: all 17 elements valid, combined with every other rank's.
// CHECK: %[[ACC:.*]] = pl.load %[[DATA]][0, 0] valid [1, 17] : !pld.dtensor<1x17xf32> -> !pl.tile<1x24xf32>
// CHECK: %[[SUM:.*]] = scf.for %[[Q:.*]] = %{{.*}} to %[[N]] {{.*}} iter_args(%[[A:.*]] = %[[ACC]])
// CHECK: %[[OTHER:.*]] = arith.cmpi ne, %[[Q]], %[[ME]]
// CHECK: scf.if %[[OTHER]]
// CHECK: %[[R:.*]] = pld.tile.remote_load %[[DATA]][0, 0], peer %[[Q]] valid [1, 17]
// CHECK: pl.add %[[A]], %[[R]] : !pl.tile<1x24xf32>
// CHECK: } else {
// CHECK: scf.yield %[[A]]
// Barrier g = 2 before anyone overwrites its chunk, then the store.
// CHECK: %[[G2:.*]] = arith.constant 2 : i32
// CHECK: pld.system.wait %[[SIG]][%{{.*}}, 0], expected %[[G2]], cmp ge
// CHECK: pl.store %[[SUM]], %[[DATA]][0, 0] valid [1, 17]
// Epilogue: -2 (two barriers) into each [src, 0] of our own signal.
// CHECK: %[[MINUS:.*]] = arith.constant -2 : i32
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %[[N]]
// CHECK: pld.system.notify %[[SIG]][%[[E]], 0], peer %[[ME]], value %[[MINUS]], op atomic_add
// CHECK-NOT: pld.tensor.allreduce
// CHECK: return
func.func @short_sum(%data: !pld.dtensor<1x17xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x17xf32>, !pld.dtensor<4x1xi32>
  return
}

// SMALL-LABEL: func.func @short_sum
// With 64-byte chunks, 17 f32 take two chunks of 16: g = 2 + c, epilogue -3.
// SMALL: %[[C2:.*]] = arith.constant 2 : index
// SMALL: scf.for %[[C:.*]] = %{{.*}} to %[[C2]]
// SMALL: %[[OFF:.*]] = arith.muli %[[C]], %{{.*}} : index
// SMALL: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[OFF]]
// SMALL: %[[MIN:.*]] = arith.minsi %[[LEFT]], %{{.*}}
// SMALL: %[[VALID:.*]] = arith.maxsi %[[MIN]], %{{.*}}
// SMALL: pl.load %{{.*}}[0, %[[OFF]]] valid [1, %[[VALID]]] : !pld.dtensor<1x17xf32> -> !pl.tile<1x16xf32>
// SMALL: %[[G:.*]] = arith.addi %[[C]], %{{.*}} : index
// SMALL: %[[G32:.*]] = arith.index_cast %[[G]] : index to i32
// SMALL: pld.system.wait %{{.*}}[%{{.*}}, 0], expected %[[G32]], cmp ge
// SMALL: pl.store %{{.*}}, %{{.*}}[0, %[[OFF]]] valid [1, %[[VALID]]]
// SMALL: arith.constant -3 : i32

// -----

// A large stream moves in 16 KiB chunks: 4097 f32 are two chunks of 4096,
// the second one ragged (1 valid element). Prod combines with pl.mul.
// CHECK-LABEL: func.func @two_chunks_prod
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[C2]]
// CHECK: pl.load {{.*}} -> !pl.tile<1x4096xf32>
// CHECK: pld.tile.remote_load
// CHECK: pl.mul
// CHECK: arith.addi %[[C]], %{{.*}} : index
// CHECK: pl.store
// CHECK: arith.constant -3 : i32
func.func @two_chunks_prod(%data: !pld.dtensor<1x4097xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op prod : !pld.dtensor<1x4097xf32>, !pld.dtensor<8x1xi32>
  return
}

// -----

// Any target shape is one [1, L] stream; a dynamic one is read at run time,
// and so is its chunk count and the epilogue. f16 chunks are 8192 wide.
// CHECK-LABEL: func.func @dynamic_min
// CHECK: %[[COLS:.*]] = pld.tensor.dim %{{.*}}, 1 : !pld.dtensor<2x?xf16>
// CHECK: %[[LEN:.*]] = arith.muli %{{.*}}, %[[COLS]]
// CHECK: %[[ROW:.*]] = pld.tensor.reshape %{{.*}}(%[[LEN]]) : !pld.dtensor<2x?xf16> to !pld.dtensor<1x?xf16>
// CHECK: %[[CHUNKS:.*]] = arith.ceildivsi %[[LEN]], %{{.*}}
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[CHUNKS]]
// CHECK: pl.load %[[ROW]]{{.*}} -> !pl.tile<1x8192xf16>
// CHECK: pl.min
// CHECK: %[[G:.*]] = arith.addi %[[CHUNKS]], %{{.*}} : index
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[G]] : index
// CHECK: %[[NEG32:.*]] = arith.index_cast %[[NEG]] : index to i32
// CHECK: pld.system.notify {{.*}} value %[[NEG32]], op atomic_add
func.func @dynamic_min(%data: !pld.dtensor<2x?xf16>, %signal: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op min : !pld.dtensor<2x?xf16>, !pld.dtensor<?x1xi32>
  return
}

// -----

// The result is the updated target: its uses now read the target itself.
// CHECK-LABEL: func.func @result_is_target
// CHECK-SAME: (%[[DATA:.*]]: !pld.dtensor<1x64xf32>
// CHECK: pl.max
// CHECK: pl.load %[[DATA]][0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
func.func @result_is_target(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op max : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  %t = pl.load %r[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  return
}
