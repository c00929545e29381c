// The ascend ops' side effects keep cse and canonicalize correct on target
// IR: every ascend.tile is a buffer of its own (never merged with another),
// an unused one is dead; values (offsets, views, peer pointers) are shared.
// RUN: pld-opt %s --cse --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @tiles
// CHECK-NEXT: %[[A:.*]] = ascend.tile : !ascend.tile<1x64xf32>
// CHECK-NEXT: %[[B:.*]] = ascend.tile : !ascend.tile<1x64xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @tiles() -> (!ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>) {
  %a = ascend.tile : !ascend.tile<1x64xf32>
  %b = ascend.tile : !ascend.tile<1x64xf32>
  %unused = ascend.tile : !ascend.tile<1x64xf32>
  return %a, %b : !ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>
}

// CHECK-LABEL: func.func @values
// CHECK: %[[P:.*]] = ascend.peer_ptr
// CHECK-NOT: = ascend.peer_ptr
// CHECK: %[[V:.*]] = ascend.view %[[P]]
// CHECK-NOT: = ascend.view
// CHECK: ascend.tload %{{.*}}, %[[V]]
// CHECK-NEXT: ascend.tload %{{.*}}, %[[V]]
func.func @values(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %peer: index) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %t = ascend.tile : !ascend.tile<1x64xf32>
  %p1 = ascend.peer_ptr %ctx, %data, peer %peer : !ascend.gm<f32>
  %v1 = ascend.view %p1, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  ascend.tload %t, %v1 : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %p2 = ascend.peer_ptr %ctx, %data, peer %peer : !ascend.gm<f32>
  %v2 = ascend.view %p2, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  ascend.tload %t, %v2 : !ascend.tile<1x64xf32>, !ascend.view<f32>
  return
}

// A valid shape folds to what its tile was made with; one that comes
// through a loop stays a run-time read.
// CHECK-LABEL: func.func @valid_shapes
// CHECK-SAME: (%[[R:.*]]: index, %[[C:.*]]: index, %{{.*}}: index)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[LOOP:.*]] = scf.for
// CHECK: %[[LR:.*]], %[[LC:.*]] = ascend.valid_shape %[[LOOP]]
// CHECK: return %[[R]], %[[C]], %[[C1]], %[[C64]], %[[LR]], %[[LC]]
func.func @valid_shapes(%r: index, %c: index, %n: index) -> (index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ragged = ascend.tile valid(%r, %c) : !ascend.tile<1x64xf32>
  %whole = ascend.tile : !ascend.tile<1x64xf32>
  %r0, %c0_ = ascend.valid_shape %ragged : !ascend.tile<1x64xf32>
  %r1, %c1_ = ascend.valid_shape %whole : !ascend.tile<1x64xf32>
  %carried = scf.for %i = %c0 to %n step %c1 iter_args(%t = %whole) -> !ascend.tile<1x64xf32> {
    scf.yield %ragged : !ascend.tile<1x64xf32>
  }
  %r2, %c2 = ascend.valid_shape %carried : !ascend.tile<1x64xf32>
  return %r0, %c0_, %r1, %c1_, %r2, %c2 : index, index, index, index, index, index
}

// A run-time check is never erased, even where nothing uses what it guards.
// CHECK-LABEL: func.func @checks
// CHECK: ascend.check %{{.*}}, "n is 4"
func.func @checks(%n: index) {
  %c4 = arith.constant 4 : index
  %same = arith.cmpi eq, %n, %c4 : index
  ascend.check %same, "n is 4"
  return
}
