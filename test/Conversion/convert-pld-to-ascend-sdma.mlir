// convert-pld-to-ascend: a put or get with `engine sdma` (which
// pld-expand-transfers leaves whole) becomes SDMA transfers: the kernel
// takes the SDMA workspace and a sync id after its context and builds its
// session once, at its entry; each 2-D block of the region is a post
// (ascend.tget_async, ascend.tput_async) and its wait. Whoever calls the
// kernel passes the workspace and sync id 0.
// RUN: pld-opt %s --split-input-file --convert-pld-to-ascend --verify-each | FileCheck %s

// A get of a whole tensor: one view per side, the peer's through peer_ptr.
// CHECK-LABEL: func.func @pull
// CHECK-SAME: (%[[CTX:.*]]: !ascend.ctx, %[[WS:.*]]: !ascend.sdma_workspace, %[[ID:.*]]: i32, %[[OUT:.*]]: !ascend.gm<f32>, %[[IN:.*]]: !ascend.gm<f32>, %[[P:.*]]: index)
// CHECK-NEXT: %[[S:.*]] = ascend.sdma_session %[[WS]], sync_id %[[ID]] {site = "pld.tensor.get at {{.*}}convert-pld-to-ascend-sdma.mlir:[[@LINE+13]]:3"}
// CHECK: %[[DST:.*]] = ascend.view %[[OUT]], rows %[[C4:.*]], cols %[[C64:.*]], stride %{{.*}} in %[[OUT]]
// CHECK: %[[REMOTE:.*]] = ascend.peer_ptr %[[CTX]], %[[IN]], peer %[[P]]
// CHECK: %[[SRC:.*]] = ascend.view %[[REMOTE]], rows %{{.*}}, cols %{{.*}}, stride %{{.*}} in %[[IN]]
// CHECK: %[[E:.*]] = ascend.tget_async %[[DST]], %[[SRC]], session %[[S]] {site = "pld.tensor.get at {{.*}}"} : !ascend.view<f32>
// CHECK-NEXT: ascend.wait_async %[[E]], session %[[S]] {site = "pld.tensor.get at {{.*}}"}
// CHECK-NOT: pld.
// The entry wrapper passes the runtime's workspace and sync id 0.
// CHECK-LABEL: func.func @pull__entry
// CHECK: %[[W:.*]] = ascend.sdma_workspace %[[ECTX:[^ ]*]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: call @pull(%[[ECTX]], %[[W]], %[[ZERO]],
func.func @pull(%out: memref<4x64xf32>, %in: !pld.dtensor<4x64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.get %out, peer %peer, %in engine sdma : memref<4x64xf32>, !pld.dtensor<4x64xf32>
  return
}

// -----

// A put of a region of a 3-D tensor: the outer dimension, whose rows the
// region does not cover whole, is a loop; each iteration posts 3 rows of 64
// (of 64: one line) into the peer's tensor. One session serves both puts.
// CHECK-LABEL: func.func @push
// CHECK: %[[S:.*]] = ascend.sdma_session
// CHECK-NOT: ascend.sdma_session
// CHECK: scf.for
// CHECK: %[[REMOTE:.*]] = ascend.peer_ptr
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[DST:.*]] = ascend.view %[[REMOTE]], rows %[[C3]], cols %{{.*}}, stride %{{.*}}
// CHECK: %[[SRC:.*]] = ascend.view %{{.*}}, rows %{{.*}}, cols %{{.*}}, stride %{{.*}}
// CHECK: %[[E:.*]] = ascend.tput_async %[[DST]], %[[SRC]], session %[[S]]
// CHECK-NEXT: ascend.wait_async %[[E]], session %[[S]]
// CHECK: }
// A region that covers all but the outer dimension whole is one block of
// 2 x 8 rows: no loop.
// CHECK-NOT: scf.for
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: ascend.view %{{.*}}, rows %[[C16]], cols
// CHECK: ascend.tput_async %{{.*}}, %{{.*}}, session %[[S]]
// CHECK: ascend.wait_async
// CHECK: return
func.func @push(%dst: !pld.dtensor<2x8x64xf32>, %src: memref<2x8x64xf32>, %peer: index, %r: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.put %dst, peer %peer, %src dst_offsets [0, %r, 0] src_offsets [0, 0, 0] shape [2, 3, 64] engine sdma : !pld.dtensor<2x8x64xf32>, memref<2x8x64xf32>
  pld.tensor.put %dst, peer %peer, %src engine sdma : !pld.dtensor<2x8x64xf32>, memref<2x8x64xf32>
  return
}

// -----

// A task that moves data with SDMA: its kernel takes the workspace and
// sync id after the dispatch payload; the orchestrator's submission and its
// launch of a kernel pass them (the runtime passes the payload). The task's
// session reads its AIV lane (its channel) from the payload; the launched
// kernel's, from the register.
// CHECK-LABEL: func.func @fetch
// CHECK: ascend.sdma_session %{{[^ ]*}}, sync_id %{{[^ ]*}} {site
// CHECK-LABEL: func.func @move_relay
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[PAYLOAD:[^:]*]]: !ascend.dispatch_payload, %[[RWS:[^:]*]]: !ascend.sdma_workspace, %[[RID:[^:]*]]: i32,
// CHECK: ascend.sdma_session %[[RWS]], sync_id %[[RID]] from %[[PAYLOAD]] {site
// CHECK: ascend.defer_completion
// CHECK: ascend.tput_async
// CHECK-LABEL: func.func @move
// CHECK: %[[W:.*]] = ascend.sdma_workspace
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: ascend.submit @move_relay(%[[W]], %[[ZERO]], {{.*}}) ctx
// CHECK: %[[W2:.*]] = ascend.sdma_workspace
// CHECK: %[[ZERO2:.*]] = arith.constant 0 : i32
// CHECK: ascend.launch @fetch(%[[W2]], %[[ZERO2]], {{.*}}) ctx
func.func @fetch(%out: memref<64xf32>, %in: !pld.dtensor<64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.get %out, peer %peer, %in engine sdma : memref<64xf32>, !pld.dtensor<64xf32>
  return
}
func.func @move(%data: !pld.dtensor<64xf32>, %out: memref<64xf32>, %sig: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  %one = arith.constant 1 : i32
  %t = pl.at level core_group name "relay" {
    pld.system.defer_wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
    pld.tensor.put %data, peer %peer, %data engine sdma : !pld.dtensor<64xf32>, !pld.dtensor<64xf32>
  }
  func.call @fetch(%out, %data, %peer) : (memref<64xf32>, !pld.dtensor<64xf32>, index) -> ()
  return
}
