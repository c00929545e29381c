// The seed's reduce_scatter, allgather, all_to_all, broadcast and barrier
// (algorithm seed, semantics §4).
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=algorithm=seed --verify-each | FileCheck %s

// reduce_scatter: barrier g = 1; row `me` of every rank combined into row
// `me`; barrier g = 2 + c before the store; epilogue -(1 + chunks).
// CHECK-LABEL: func.func @reduce_scatter
// CHECK-SAME: (%[[T:.*]]: !pld.dtensor<4x64xi32>, %[[SIG:.*]]: !pld.dtensor<4x1xi32>)
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: pld.system.wait %[[SIG]][%{{.*}}, 0], expected %{{.*}}, cmp ge
// CHECK: %[[ACC:.*]] = pl.load %[[T]][%[[ME]], 0] : !pld.dtensor<4x64xi32> -> !pl.tile<1x64xi32>
// CHECK: scf.for %[[P:.*]] = {{.*}} iter_args(%[[A:.*]] = %[[ACC]])
// CHECK: %[[R:.*]] = pld.tile.remote_load %[[T]][%[[ME]], 0], peer %[[P]]
// CHECK: pl.max %[[A]], %[[R]]
// CHECK: %[[G2:.*]] = arith.constant 2 : i32
// CHECK: pld.system.wait %[[SIG]][%{{.*}}, 0], expected %[[G2]], cmp ge
// CHECK: pl.store %{{.*}}, %[[T]][%[[ME]], 0]
// CHECK: arith.constant -2 : i32
func.func @reduce_scatter(%t: !pld.dtensor<4x64xi32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %t, %s, op max : !pld.dtensor<4x64xi32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// allgather: a barrier first (nobody overwrites a row a peer still reads from
// the previous call), then a put of the local row into row `me` of every rank,
// itself included, then a barrier; epilogue -2. An [N] signal uses cells [src].
// CHECK-LABEL: func.func @allgather
// CHECK-SAME: (%[[LOCAL:.*]]: memref<1x64xf32>, %[[T:.*]]: !pld.dtensor<4x64xf32>, %[[SIG:.*]]: !pld.dtensor<4xi32>)
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: pld.system.notify %[[SIG]][%[[ME]]], peer %{{.*}}, value %{{.*}}, op atomic_add
// CHECK: pld.system.wait %[[SIG]][%{{.*}}], expected %{{.*}}, cmp ge
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %[[N]]
// CHECK-NOT: arith.cmpi
// CHECK: pld.tensor.put %[[T]], peer %[[P]], %[[LOCAL]] dst_offsets [%[[ME]], 0] src_offsets [0, 0] shape [1, 64] chunk_cols 4096
// CHECK: %[[G2:.*]] = arith.constant 2 : i32
// CHECK: pld.system.wait %[[SIG]][%{{.*}}], expected %[[G2]], cmp ge
// CHECK: %[[MINUS:.*]] = arith.constant -2 : i32
// CHECK: pld.system.notify %[[SIG]][%{{.*}}], peer %[[ME]], value %[[MINUS]], op atomic_add
func.func @allgather(%local: memref<1x64xf32>, %t: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %local, %t, %s : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  return
}

// -----

// all_to_all: block `d` of the input goes to row `me` of rank d.
// CHECK-LABEL: func.func @all_to_all
// CHECK-SAME: (%[[IN:.*]]: !pld.dtensor<4x?xf16>, %[[T:.*]]: !pld.dtensor<4x?xf16>, %[[SIG:.*]]: !pld.dtensor<4x1xi32>)
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[SIZE:.*]] = pld.tensor.dim %[[T]], 1
// CHECK: expected %{{.*}}, cmp ge
// CHECK: scf.for %[[D:.*]] =
// CHECK: pld.tensor.put %[[T]], peer %[[D]], %[[IN]] dst_offsets [%[[ME]], 0] src_offsets [%[[D]], 0] shape [1, %[[SIZE]]] chunk_cols 8192
// CHECK: arith.constant -2 : i32
func.func @all_to_all(%in: !pld.dtensor<4x?xf16>, %t: !pld.dtensor<4x?xf16>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.all_to_all %in, %t, %s : !pld.dtensor<4x?xf16>, !pld.dtensor<4x?xf16>, !pld.dtensor<4x1xi32>
  return
}

// -----

// broadcast: barrier, every rank but the root gets the root's whole target
// (as one [1, L] stream), barrier (the root keeps its data until everybody
// has it); epilogue -2.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[T:.*]]: !pld.dtensor<2x3xf32>, %[[SIG:.*]]: !pld.dtensor<4x1xi32>, %[[ROOT:.*]]: index)
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[ROW:.*]] = pld.tensor.reshape %[[T]] : !pld.dtensor<2x3xf32> to !pld.dtensor<1x6xf32>
// CHECK: pld.system.wait
// CHECK: %[[RECEIVER:.*]] = arith.cmpi ne, %[[ME]], %[[ROOT]]
// CHECK: scf.if %[[RECEIVER]] {
// CHECK: pld.tensor.get %[[ROW]], peer %[[ROOT]], %[[ROW]] dst_offsets [0, 0] src_offsets [0, 0] shape [1, 6] chunk_cols 4096
// CHECK: pld.system.wait
// CHECK: arith.constant -2 : i32
func.func @broadcast(%t: !pld.dtensor<2x3xf32>, %s: !pld.dtensor<4x1xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.broadcast %t, %s, root %root : !pld.dtensor<2x3xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// barrier: one credit barrier, epilogue -1; back-to-back barriers on one
// signal each start again at g = 1.
// CHECK-LABEL: func.func @barriers
// CHECK-COUNT-2: pld.system.wait %{{.*}}[%{{.*}}, 0], expected %c1_i32{{.*}}, cmp ge
// CHECK: arith.constant -1 : i32
// CHECK-NOT: pld.tensor.barrier
func.func @barriers(%s: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.barrier %s : !pld.dtensor<8x1xi32>
  pld.tensor.barrier %s : !pld.dtensor<8x1xi32>
  return
}

// -----

// The HOST rail: a collective in host code becomes a call of a generated
// InCore kernel that runs its algorithm (rank, notify and wait are InCore
// ops); kernels follow the function in program order.
// CHECK-LABEL: func.func @orchestrate
// CHECK-SAME: (%[[D:.*]]: !pld.dtensor<1x64xf32>, %[[S:.*]]: !pld.dtensor<2x1xi32>)
// CHECK: call @orchestrate_allreduce(%[[D]], %[[S]])
// CHECK: call @orchestrate_barrier(%[[S]])
// CHECK: pl.load %[[D]]
// CHECK: func.func private @orchestrate_allreduce(%{{.*}}: !pld.dtensor<1x64xf32>, %{{.*}}: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>}
// CHECK: pld.system.rank
// CHECK: pl.add
// CHECK: func.func private @orchestrate_barrier(%{{.*}}: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>}
func.func @orchestrate(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  pld.tensor.barrier %s : !pld.dtensor<2x1xi32>
  %t = pl.at level core_group name "consume" {
    %x = pl.load %r[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  }
  return
}

// -----

// all_to_all_v: all_to_all's seed, and with each put the count for that
// rank read from `send`, clamped to [0, 64], set into the receiver's
// `recv[me]` between the barriers.
// CHECK-LABEL: func.func @all_to_all_v
// CHECK: pld.system.wait
// CHECK: pld.tensor.put
// CHECK: %[[COUNT:.*]] = pl.read %{{.*}}[%[[DEST:.*]]] : memref<4xi32>
// CHECK: %[[INDEX:.*]] = arith.index_cast %[[COUNT]] : i32 to index
// CHECK: %[[LOW:.*]] = arith.maxsi %[[INDEX]], %{{.*}} : index
// CHECK: %[[CLAMPED:.*]] = arith.minsi %[[LOW]], %c64 : index
// CHECK: %[[VALUE:.*]] = arith.index_cast %[[CLAMPED]] : index to i32
// CHECK: pld.system.notify %{{.*}}[%{{.*}}], peer %[[DEST]], value %[[VALUE]], op set : !pld.dtensor<4xi32>
// CHECK: pld.system.wait
func.func @all_to_all_v(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>, %send: memref<4xi32>, %recv: !pld.dtensor<4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pld.tensor.all_to_all_v %in, %out, %s counts %send to %recv : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xi32>, !pld.dtensor<4xi32>
  return
}
