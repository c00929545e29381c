// ascend-insert-sync mode=check: inserts nothing and reports, at the op, a
// notify that a payload access (read or write) may reach without a release,
// and a payload access that a wait may reach without an acquire, with a note
// at the access or the wait; through scf.if branches and loop back edges.
// A correctly synchronized module passes, unchanged: missing pipe syncs are
// neither reported nor inserted in this mode.
// RUN: pld-opt %s --split-input-file --ascend-insert-sync=mode=check --verify-diagnostics | FileCheck %s
// RUN: not pld-opt %s --ascend-insert-sync=mode=fix 2>&1 | FileCheck %s --check-prefix=MODE

// MODE: ascend-insert-sync: expected mode to be 'insert' or 'check', found 'fix'

// The payload write reaches the notify: the peer may see the signal before
// the data.
func.func @notify_without_release(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32, %peer: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  // expected-note @+1 {{the payload access}}
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  %remote = ascend.peer_ptr %ctx, %cell, peer %peer : !ascend.gm<i32>
  // expected-error @+1 {{'ascend.tnotify' follows a payload access without an ascend.release between them: the peer may see the signal before a write has landed or while a read is still in flight}}
  ascend.tnotify %remote, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  return
}

// -----

// The tput in one branch of an scf.if reaches the notify after it; the
// release in the other branch does not cover it.
func.func @notify_after_branch(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32, %cond: i1) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  scf.if %cond {
    // expected-note @+1 {{the payload access}}
    ascend.tput %v, %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  } else {
    ascend.release
  }
  // expected-error @+1 {{'ascend.tnotify' follows a payload access without an ascend.release between them}}
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  return
}

// -----

// A read counts too: a notify that says "I have read this" must not overtake
// a load still in flight.
func.func @notify_after_load(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  // expected-note @+1 {{the payload access}}
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-error @+1 {{'ascend.tnotify' follows a payload access without an ascend.release between them}}
  ascend.tnotify %cell, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  return
}

// -----

// A call may access payloads: the note names the call.
func.func @helper(%ctx: !ascend.ctx) attributes {specifiers = ["static __aicore__ inline"]} {
  return
}
func.func @notify_after_call(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  // expected-note @+1 {{the payload access}}
  func.call @helper(%ctx) : (!ascend.ctx) -> ()
  // expected-error @+1 {{'ascend.tnotify' follows a payload access without an ascend.release between them}}
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  return
}

// -----

// A callee may notify: a payload access before the call needs a release.
func.func @notifier(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["static __aicore__ inline"]} {
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  return
}
func.func @call_after_write(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  // expected-note @+1 {{the payload access}}
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  // expected-error @+1 {{'func.call' (whose callee may notify) follows a payload access without an ascend.release between them}}
  func.call @notifier(%ctx, %cell, %x) : (!ascend.ctx, !ascend.gm<i32>, i32) -> ()
  return
}

// -----

// A load after a wait may see what was there before the peer published.
func.func @load_without_acquire(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  // expected-note @+1 {{the wait}}
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  // expected-error @+1 {{'ascend.tload' accesses a payload after a wait without an ascend.acquire between them: a read may see what was there before the peer published, a write may land before the peer has finished with what it overwrites}}
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  return
}

// -----

// A write after a wait needs the acquire too: the wait may say the peer has
// finished reading what the write overwrites. One report per wait: the
// second write is not reported again.
func.func @write_without_acquire(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  // expected-note @+1 {{the wait}}
  ascend.twait %cell, %x, cmp eq, signal %cell[] : !ascend.gm<i32>
  // expected-error @+1 {{'ascend.write' accesses a payload after a wait without an ascend.acquire between them}}
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  return
}

// -----

// A wait at the end of a loop body reaches the read at the start of the next
// iteration.
func.func @wait_around_loop(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'ascend.read' accesses a payload after a wait without an ascend.acquire between them}}
    %y = ascend.read %cell : !ascend.gm<i32> -> i32
    // expected-note @+1 {{the wait}}
    ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  }
  return
}

// -----

// Correctly synchronized: no diagnostic, and nothing is inserted, not even
// the pipe syncs insert mode would add (none of the three are here). Host
// code is not checked.
// CHECK-LABEL: func.func @synchronized
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: ascend.view
// CHECK-NEXT: ascend.tile
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tload
// CHECK-NEXT: ascend.tadd
// CHECK-NEXT: ascend.tstore
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: return
// CHECK-LABEL: func.func @host
// CHECK-NEXT: ascend.write
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: return
func.func @synchronized(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  ascend.acquire
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tadd %t, %t, %t : !ascend.tile<1x64xf32>
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.release
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  return
}
func.func @host(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["extern \"C\""]} {
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  return
}

// -----

// An SDMA post after a payload access without a release: the engine may
// read what the core has not written back.
func.func @sdma_post_without_release(%ws: !ascend.sdma_workspace, %id: i32, %v: !ascend.view<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %s = ascend.sdma_session %ws, sync_id %id {offset = 0 : i64}
  %t = ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xf32>
  // expected-note @+1 {{the payload access}}
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  // expected-error @+1 {{'ascend.tput_async' follows a payload access without an ascend.release between them: the SDMA engine may read what the core has not written back, or overwrite what a load is still reading}}
  %e = ascend.tput_async %v, %v, session %s : !ascend.view<f32>
  ascend.wait_async %e, session %s
  return
}

// -----

// A notify before the transfer's wait, in both modes: the peer may see the
// signal before the data; and a function that returns with a transfer in
// flight.
func.func @sdma_notify_before_wait(%ctx: !ascend.ctx, %ws: !ascend.sdma_workspace, %id: i32, %v: !ascend.view<f32>, %cell: !ascend.gm<i32>, %x: i32, %peer: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %s = ascend.sdma_session %ws, sync_id %id {offset = 0 : i64}
  // expected-note @+1 {{the SDMA transfer}}
  %e = ascend.tput_async %v, %v, session %s : !ascend.view<f32>
  %remote = ascend.peer_ptr %ctx, %cell, peer %peer : !ascend.gm<i32>
  // expected-error @+1 {{'ascend.tnotify' follows an SDMA transfer that no ascend.wait_async has completed: the transfer may still be moving data (wait for its event first)}}
  ascend.tnotify %remote, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  ascend.wait_async %e, session %s
  // expected-note @+1 {{the SDMA transfer}}
  %f = ascend.tget_async %v, %v, session %s : !ascend.view<f32>
  // expected-error @+1 {{the function returns while an SDMA transfer that no ascend.wait_async has completed: the transfer may still be moving data (wait for its event first)}}
  return
}
