// ascend-insert-sync counts the ordering ops it inserts (see
// test/Transforms/pass-statistics.mlir for where the report comes from).
// Below, six notifies each follow a payload access (a release before each)
// and the tload follows the tget's store pipe (one pipe_sync): seven. The
// check mode inserts nothing.
// RUN: pld-opt %s --ascend-insert-sync --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=INSERT
// RUN: not pld-opt %s --ascend-insert-sync=mode=check --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-MODE

// INSERT: {{^}}  ascend-insert-sync
// INSERT-NEXT: (S) 7 syncs - Releases, acquires and pipe syncs inserted
// CHECK-MODE: {{^}}  ascend-insert-sync
// CHECK-MODE-NEXT: (S) 0 syncs - Releases, acquires and pipe syncs inserted

func.func @release_after_access(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32, %peer: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  %remote = ascend.peer_ptr %ctx, %cell, peer %peer : !ascend.gm<i32>
  ascend.tnotify %remote, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tnotify %remote, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  ascend.tput %v, %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tnotify %remote, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  ascend.tget %v, %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tnotify %remote, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tnotify %remote, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  %y = ascend.read %cell : !ascend.gm<i32> -> i32
  ascend.tnotify %remote, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  return
}
