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
