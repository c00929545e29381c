// ascend-insert-sync (mode=insert, the default): ascend.release before a
// notify that a payload access (read or write) may reach, ascend.acquire
// between a wait and a payload access (read or write) it may reach, and
// ascend.pipe_sync between the load (MTE2), vector (V) and store (MTE3)
// pipes; through both branches of scf.if and around loop back edges. Running
// it again adds nothing: the second run prints the same as the first (diff),
// and the CHECK-NEXT lines below fail on a doubled op. mode=check is
// ascend-insert-sync-check.mlir.
// RUN: pld-opt %s --split-input-file --ascend-insert-sync --verify-each > %t.once
// RUN: FileCheck %s --input-file=%t.once
// RUN: pld-opt %t.once --split-input-file --ascend-insert-sync --verify-each > %t.twice
// RUN: FileCheck %s --input-file=%t.twice
// RUN: diff %t.once %t.twice

// Each payload write (write, tstore, tput, tget) that reaches a notify gets
// a release right before the notify, not right after the write (the ops in
// between still overlap with the write). Reads (tload, read) count too: a
// notify that says "I have read this" must not overtake a load in flight.
// CHECK-LABEL: func.func @release_after_access
// CHECK: ascend.write
// CHECK-NEXT: %[[P0:.*]] = ascend.peer_ptr
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify %[[P0]]
// CHECK-NEXT: ascend.tstore
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.tput
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.tget
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.pipe_sync mte3 -> mte2
// CHECK-NEXT: ascend.tload
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.read
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: return
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

// -----

// No release where none is needed: a notify no payload access reaches (the
// first), a release already there (the second), a notify after one that was
// already released (the third). A release before the write does not count
// (the fourth).
// CHECK-LABEL: func.func @release_not_needed
// CHECK-NOT: ascend.release
// CHECK: ascend.tnotify
// CHECK-NEXT: ascend.write
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.write
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: return
func.func @release_not_needed(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  ascend.release
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.release
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  return
}

// -----

// Each payload access after a wait gets an acquire right before it: reads
// (tload, read, and tput and tget, which read their source) and writes
// (tstore, write: a wait that says "the peer is done with this" must order
// the write that overwrites it). Ops that touch no payload (rank, vector
// math, pipe syncs) do not need one, so the acquire moves past them.
// CHECK-LABEL: func.func @acquire_before_access
// CHECK: ascend.twait
// CHECK-NEXT: ascend.rank
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tload
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.read
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tput
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tget
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: ascend.pipe_sync mte2 -> v
// CHECK-NEXT: ascend.tadd
// CHECK-NEXT: ascend.pipe_sync mte2 -> mte3
// CHECK-NEXT: ascend.pipe_sync v -> mte3
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tstore
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.write
// CHECK-NEXT: return
func.func @acquire_before_access(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  %r = ascend.rank %ctx
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  %y = ascend.read %cell : !ascend.gm<i32> -> i32
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  ascend.tput %v, %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  ascend.tget %v, %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.twait %cell, %x, cmp eq, signal %cell[] : !ascend.gm<i32>
  ascend.tadd %t, %t, %t : !ascend.tile<1x64xf32>
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  return
}

// -----

// No acquire where none is needed: an access no wait reaches, an acquire
// already there, a second access after one that was acquired, a wait that
// reaches no access.
// CHECK-LABEL: func.func @acquire_not_needed
// CHECK-NOT: ascend.acquire
// CHECK: ascend.read
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.read
// CHECK-NEXT: ascend.read
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: return
func.func @acquire_not_needed(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %a = ascend.read %cell : !ascend.gm<i32> -> i32
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  ascend.acquire
  %b = ascend.read %cell : !ascend.gm<i32> -> i32
  %c = ascend.read %cell : !ascend.gm<i32> -> i32
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  return
}

// -----

// Either branch of an scf.if may run: a write in one branch reaches the
// notify after the if, a wait in one branch reaches the read after it. An
// scf.if without else may be skipped, so a release inside it does not cover
// the write before it. A notify inside a branch gets its release there.
// CHECK-LABEL: func.func @branches
// CHECK: scf.if
// CHECK-NEXT: ascend.write
// CHECK-NEXT: } else {
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: }
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.read
// CHECK-NEXT: ascend.write
// CHECK-NEXT: scf.if
// CHECK-NEXT: ascend.release
// CHECK-NEXT: }
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.write
// CHECK-NEXT: scf.if
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @branches(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32, %cond: i1) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  scf.if %cond {
    ascend.write %x, %cell : i32, !ascend.gm<i32>
  } else {
    ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  }
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  %y = ascend.read %cell : !ascend.gm<i32> -> i32
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  scf.if %cond {
    ascend.release
  }
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  scf.if %cond {
    ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  }
  return
}

// -----

// A loop body may follow itself: the wait at the end of one iteration
// reaches the load at the start of the next, and the write at the end
// reaches the notify at the start, so both get their sync inside the body,
// where the first iteration has them too (as the load has its wait for the
// previous iteration's store). A loop may also run no iteration: the wait
// before it reaches the read after it.
// CHECK-LABEL: func.func @loop_carried
// CHECK: ascend.twait
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.pipe_sync mte3 -> mte2
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tload
// CHECK-NEXT: ascend.pipe_sync mte2 -> mte3
// CHECK-NEXT: ascend.tstore
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: }
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.read
// CHECK-NEXT: return
func.func @loop_carried(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  scf.for %i = %c0 to %n step %c1 {
    ascend.tnotify %cell, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
    ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
    ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  }
  %y = ascend.read %cell : !ascend.gm<i32> -> i32
  return
}

// -----

// The pipes run concurrently: a vector op waits for the load it may read, a
// store for the load and the vector op before it, a load for the store and
// the vector op that may still use its bytes. An explicit pipe_sync counts.
// CHECK-LABEL: func.func @pipes
// CHECK: %[[A:.*]] = ascend.tile {offset = 0 : i64}
// CHECK-NEXT: %[[B:.*]] = ascend.tile {offset = 256 : i64}
// CHECK-NEXT: ascend.tload %[[A]]
// CHECK-NEXT: ascend.pipe_sync mte2 -> v
// CHECK-NEXT: ascend.tadd %[[B]], %[[A]], %[[A]]
// CHECK-NEXT: ascend.pipe_sync mte2 -> mte3
// CHECK-NEXT: ascend.pipe_sync v -> mte3
// CHECK-NEXT: ascend.tstore %{{.*}}, %[[B]]
// CHECK-NEXT: ascend.pipe_sync v -> mte2
// CHECK-NEXT: ascend.pipe_sync mte3 -> mte2
// CHECK-NEXT: ascend.tload %[[A]]
// CHECK-NEXT: ascend.pipe_sync mte2 -> v
// CHECK-NEXT: ascend.pipe_sync mte3 -> v
// CHECK-NEXT: ascend.tcopy %[[B]], %[[A]]
// CHECK-NEXT: ascend.pipe_sync mte2 -> mte3
// CHECK-NEXT: ascend.pipe_sync v -> mte3
// CHECK-NEXT: ascend.tstore %{{.*}}, %[[B]]
// CHECK-NEXT: ascend.tstore %{{.*}}, %[[A]]
// CHECK-NEXT: return
func.func @pipes(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %a = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  %b = ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xf32>
  ascend.tload %a, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tadd %b, %a, %a : !ascend.tile<1x64xf32>
  ascend.tstore %v, %b : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tload %a, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.pipe_sync mte2 -> v
  ascend.tcopy %b, %a : !ascend.tile<1x64xf32>
  ascend.tstore %v, %b : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %a : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// The pipes around a loop: the load at the top of the body waits for the
// store and the vector op of the previous iteration, the vector op for the
// store of the previous iteration too, and the vector op after the loop for
// the store the body left running (its load and vector op were already
// waited for in the body).
// CHECK-LABEL: func.func @pipes_in_loop
// CHECK: scf.for
// CHECK-NEXT: ascend.pipe_sync v -> mte2
// CHECK-NEXT: ascend.pipe_sync mte3 -> mte2
// CHECK-NEXT: ascend.tload
// CHECK-NEXT: ascend.pipe_sync mte2 -> v
// CHECK-NEXT: ascend.pipe_sync mte3 -> v
// CHECK-NEXT: ascend.tmax
// CHECK-NEXT: ascend.pipe_sync mte2 -> mte3
// CHECK-NEXT: ascend.pipe_sync v -> mte3
// CHECK-NEXT: ascend.tstore
// CHECK-NEXT: }
// CHECK-NEXT: ascend.pipe_sync mte3 -> v
// CHECK-NEXT: ascend.tmul
// CHECK-NEXT: return
func.func @pipes_in_loop(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %a = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  %b = ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascend.tload %a, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    ascend.tmax %b, %a, %b : !ascend.tile<1x64xf32>
    ascend.tstore %v, %b : !ascend.view<f32>, !ascend.tile<1x64xf32>
  }
  ascend.tmul %b, %b, %b : !ascend.tile<1x64xf32>
  return
}

// -----

// A call may write payloads, wait, and leave every pipe busy: it needs an
// acquire after a wait, and what follows it is synchronised as after a
// write, a wait and work on every pipe.
// CHECK-LABEL: func.func @calls
// CHECK: ascend.twait
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: call @helper
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.pipe_sync mte2 -> v
// CHECK-NEXT: ascend.pipe_sync mte3 -> v
// CHECK-NEXT: ascend.tadd
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.read
// CHECK-NEXT: return
func.func @helper(%ctx: !ascend.ctx) attributes {specifiers = ["static __aicore__ inline"]} {
  return
}
func.func @calls(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  func.call @helper(%ctx) : (!ascend.ctx) -> ()
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.tadd %t, %t, %t : !ascend.tile<1x64xf32>
  %y = ascend.read %cell : !ascend.gm<i32> -> i32
  return
}

// -----

// A callee is analysed from a clean slate, so the caller hands it nothing
// pending: a release after a payload access (the callee may notify) and a
// pipe_sync for every pipe still at work.
// CHECK-LABEL: func.func @before_call
// CHECK: ascend.tload
// CHECK-NEXT: ascend.write
// CHECK-NEXT: ascend.pipe_sync mte2 -> v
// CHECK-NEXT: ascend.pipe_sync mte2 -> mte3
// CHECK-NEXT: ascend.release
// CHECK-NEXT: call @notifier
// CHECK-NEXT: return
func.func @notifier(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["static __aicore__ inline"]} {
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  return
}
func.func @before_call(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  func.call @notifier(%ctx, %cell, %x) : (!ascend.ctx, !ascend.gm<i32>, i32) -> ()
  return
}

// -----

// scf.while leaves from the end of its `before` region: a release or an
// acquire in `do` does not cover what follows the loop.
// CHECK-LABEL: func.func @while_exit
// CHECK: scf.while
// CHECK-NEXT: ascend.write
// CHECK-NEXT: ascend.twait
// CHECK-NEXT: scf.condition
// CHECK-NEXT: } do {
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.acquire
// CHECK: }
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.read
func.func @while_exit(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %x: i32, %c: i1) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  scf.while : () -> () {
    ascend.write %x, %cell : i32, !ascend.gm<i32>
    ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
    scf.condition(%c)
  } do {
    ascend.release
    ascend.acquire
    scf.yield
  }
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  %y = ascend.read %cell : !ascend.gm<i32> -> i32
  return
}

// -----

// Only code that runs on an AI core (specifiers with __aicore__) is
// synchronised: host functions and entry wrappers are left alone (task and
// kernel boundaries order them).
// CHECK-LABEL: func.func @host
// CHECK-NOT: ascend.release
// CHECK-NOT: ascend.acquire
// CHECK-NOT: ascend.pipe_sync
// CHECK: return
func.func @host(%ctx: !ascend.ctx, %cell: !ascend.gm<i32>, %data: !ascend.gm<f32>, %x: i32) attributes {specifiers = ["extern \"C\""]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.write %x, %cell : i32, !ascend.gm<i32>
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.twait %cell, %x, cmp ge, signal %cell[] : !ascend.gm<i32>
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tadd %t, %t, %t : !ascend.tile<1x64xf32>
  return
}

// -----

// On the cube the pipes are MTE2 (into L1), MTE1 (L1 to L0), M (the matrix
// unit) and FIX (the fixpipe's store): each op waits for the others' work,
// and no vector pipe appears. In a loop, the next load waits for the
// extract, the product and the store of the previous iteration.
// CHECK-LABEL: func.func @cube_pipes
// CHECK: scf.for
// CHECK-NEXT: ascend.pipe_sync mte1 -> mte2
// CHECK-NEXT: ascend.pipe_sync m -> mte2
// CHECK-NEXT: ascend.pipe_sync fix -> mte2
// CHECK-NEXT: ascend.tload
// CHECK-NEXT: ascend.pipe_sync mte2 -> mte1
// CHECK-NEXT: ascend.pipe_sync m -> mte1
// CHECK-NEXT: ascend.pipe_sync fix -> mte1
// CHECK-NEXT: ascend.textract
// CHECK-NEXT: ascend.pipe_sync mte2 -> m
// CHECK-NEXT: ascend.pipe_sync mte1 -> m
// CHECK-NEXT: ascend.pipe_sync fix -> m
// CHECK-NEXT: ascend.tmatmul
// CHECK-NEXT: ascend.pipe_sync mte2 -> fix
// CHECK-NEXT: ascend.pipe_sync mte1 -> fix
// CHECK-NEXT: ascend.pipe_sync m -> fix
// CHECK-NEXT: ascend.tstore_acc
// CHECK-NOT: -> v
// CHECK: return
func.func @cube_pipes(%va: !ascend.view<f16>, %vc: !ascend.view<f32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, mat>
  %l = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, left>
  %r = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, right>
  %acc = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf32, acc>
  scf.for %i = %c0 to %n step %c1 {
    ascend.tload %m, %va : !ascend.tile<16x16xf16, mat>, !ascend.view<f16>
    ascend.textract %l, %m, row %c0, col %c0 : !ascend.tile<16x16xf16, left>, !ascend.tile<16x16xf16, mat>
    ascend.tmatmul %acc, %l, %r : !ascend.tile<16x16xf32, acc>, !ascend.tile<16x16xf16, left>, !ascend.tile<16x16xf16, right>
    ascend.tstore_acc %vc, %acc : !ascend.view<f32>, !ascend.tile<16x16xf32, acc>
  }
  return
}

// -----

// The block's cross-core flags order as a notify and a wait do: a payload
// access before a cross_core_signal is released; a payload access after a
// cross_core_wait is acquired; and what the wait hands over (the other
// core's writes) is released again before a notify passes it on to a peer.
// CHECK-LABEL: func.func @cross_core
// CHECK: ascend.tstore
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.cross_core_signal aiv -> aic
// CHECK-NEXT: ascend.cross_core_wait aic -> aiv
// CHECK-NEXT: ascend.release
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: ascend.pipe_sync mte3 -> mte2
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tload
func.func @cross_core(%v: !ascend.view<f32>, %cell: !ascend.gm<i32>, %x: i32) attributes {specifiers = ["static __aicore__ inline"]} {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.cross_core_signal aiv -> aic
  ascend.cross_core_wait aic -> aiv
  ascend.tnotify %cell, %x, op set, signal %cell[] : !ascend.gm<i32>
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  return
}

// -----

// SDMA: the engine reads and writes global memory behind the core's cache
// and pipes, so a post that a payload access reaches gets a release right
// before it; its wait counts as a wait (an acquire before the payload
// accesses after it); a notify after the wait needs no release for the
// transfer (the engine's writes are done), and the posts and waits are on
// no pipe (no pipe_sync around them).
// CHECK-LABEL: func.func @sdma_ordering
// CHECK: ascend.tstore
// CHECK-NEXT: ascend.release
// CHECK-NEXT: %[[E:.*]] = ascend.tput_async
// CHECK-NEXT: ascend.wait_async %[[E]]
// CHECK-NEXT: ascend.tnotify
// CHECK-NEXT: %[[F:.*]] = ascend.tget_async
// CHECK-NEXT: ascend.wait_async %[[F]]
// CHECK-NEXT: ascend.pipe_sync mte3 -> mte2
// CHECK-NEXT: ascend.acquire
// CHECK-NEXT: ascend.tload
// CHECK-NEXT: return
func.func @sdma_ordering(%ctx: !ascend.ctx, %ws: !ascend.sdma_workspace, %id: i32, %data: !ascend.gm<f32>, %cell: !ascend.gm<i32>, %x: i32, %peer: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %s = ascend.sdma_session %ws, sync_id %id {offset = 0 : i64}
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %remote = ascend.peer_ptr %ctx, %data, peer %peer : !ascend.gm<f32>
  %rv = ascend.view %remote, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %rcell = ascend.peer_ptr %ctx, %cell, peer %peer : !ascend.gm<i32>
  %t = ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xf32>
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %e = ascend.tput_async %rv, %v, session %s : !ascend.view<f32>
  ascend.wait_async %e, session %s
  ascend.tnotify %rcell, %x, op atomic_add, signal %cell[] : !ascend.gm<i32>
  %f = ascend.tget_async %v, %rv, session %s : !ascend.view<f32>
  ascend.wait_async %f, session %s
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  return
}
