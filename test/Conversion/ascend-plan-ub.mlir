// ascend-plan-ub: the unified-buffer offset of every ascend.tile. Offsets
// are 32-byte aligned and first-fit; two tiles share bytes only when their
// buffers are never live at once (a buffer lives from its ascend.tile to the
// last use of any handle that may point to it, through scf.if results and
// loop iteration arguments). A loop-carried tile that is still read after its
// own ascend.tile ran again in the next iteration gets a copy (ascend.tcopy)
// yielded instead. The overflow error is in ascend-plan-ub-invalid.mlir.
// RUN: pld-opt %s --split-input-file --ascend-plan-ub --verify-each | FileCheck %s

// Every tile is placed after the ones still live: 1x8xf32 is 32 bytes,
// 2x32xf16 is 128, 1x32xi8 is 32 (a tile row is a whole number of 32-byte
// blocks, so every tile is). All four are live until the stores at the end,
// so none overlaps: [0, 32), [32, 160), [160, 192), [192, 224). An offset
// already on a tile is planned again.
// CHECK-LABEL: func.func @aligned_and_disjoint
// CHECK: %[[T0:.*]] = ascend.tile valid(%{{.*}}, %{{.*}}) {offset = 0 : i64} : !ascend.tile<1x8xf32>
// CHECK: %[[T1:.*]] = ascend.tile valid(%{{.*}}, %{{.*}}) {offset = 32 : i64} : !ascend.tile<2x32xf16>
// CHECK: %[[T2:.*]] = ascend.tile valid(%{{.*}}, %{{.*}}) {offset = 160 : i64} : !ascend.tile<1x32xi8>
// CHECK: %[[T3:.*]] = ascend.tile valid(%{{.*}}, %{{.*}}) {offset = 192 : i64} : !ascend.tile<1x8xf32>
// CHECK-NOT: offset
// CHECK: ascend.tstore %{{.*}}, %[[T0]]
// CHECK: ascend.tstore %{{.*}}, %[[T1]]
// CHECK: ascend.tstore %{{.*}}, %[[T2]]
// CHECK: ascend.tstore %{{.*}}, %[[T3]]
func.func @aligned_and_disjoint(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %half: !ascend.gm<f16>, %bytes: !ascend.gm<i8>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c20 = arith.constant 20 : index
  %v = ascend.view %data, rows %c1, cols %c3, stride %c3 : !ascend.gm<f32> -> !ascend.view<f32>
  %h = ascend.view %half, rows %c2, cols %c20, stride %c20 : !ascend.gm<f16> -> !ascend.view<f16>
  %b = ascend.view %bytes, rows %c1, cols %c1, stride %c1 : !ascend.gm<i8> -> !ascend.view<i8>
  %t0 = ascend.tile valid(%c1, %c3) : !ascend.tile<1x8xf32>
  ascend.tload %t0, %v : !ascend.tile<1x8xf32>, !ascend.view<f32>
  %t1 = ascend.tile valid(%c2, %c20) : !ascend.tile<2x32xf16>
  ascend.tload %t1, %h : !ascend.tile<2x32xf16>, !ascend.view<f16>
  %t2 = ascend.tile valid(%c1, %c1) : !ascend.tile<1x32xi8>
  ascend.tload %t2, %b : !ascend.tile<1x32xi8>, !ascend.view<i8>
  %t3 = ascend.tile valid(%c1, %c3) {offset = 4096 : i64} : !ascend.tile<1x8xf32>
  ascend.tload %t3, %v : !ascend.tile<1x8xf32>, !ascend.view<f32>
  ascend.tstore %v, %t0 : !ascend.view<f32>, !ascend.tile<1x8xf32>
  ascend.tstore %h, %t1 : !ascend.view<f16>, !ascend.tile<2x32xf16>
  ascend.tstore %b, %t2 : !ascend.view<i8>, !ascend.tile<1x32xi8>
  ascend.tstore %v, %t3 : !ascend.view<f32>, !ascend.tile<1x8xf32>
  return
}

// -----

// A tile is dead after its last use: the next one takes its bytes. %a lives
// throughout; %b dies at its store, so %c and %d (128 bytes each) fill the
// hole it left at 256, first fit and without overlapping each other; %e
// (256 bytes) fits no hole and goes after everything live.
// CHECK-LABEL: func.func @dead_tiles_share
// CHECK: %[[A:.*]] = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
// CHECK: %[[B:.*]] = ascend.tile {offset = [[HOLE:256]] : i64} : !ascend.tile<1x64xf32>
// CHECK: ascend.tstore %{{.*}}, %[[B]]
// CHECK: %[[C:.*]] = ascend.tile {offset = [[HOLE]] : i64} : !ascend.tile<1x32xf32>
// CHECK: %[[D:.*]] = ascend.tile {offset = 384 : i64} : !ascend.tile<1x32xf32>
// CHECK: %[[E:.*]] = ascend.tile {offset = 512 : i64} : !ascend.tile<1x64xf32>
// CHECK: ascend.tadd %[[E]], %[[A]], %[[A]]
func.func @dead_tiles_share(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %w = ascend.view %data, rows %c1, cols %c32, stride %c32 : !ascend.gm<f32> -> !ascend.view<f32>
  %a = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %a, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %b = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %b, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %b : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %c = ascend.tile : !ascend.tile<1x32xf32>
  ascend.tload %c, %w : !ascend.tile<1x32xf32>, !ascend.view<f32>
  %d = ascend.tile : !ascend.tile<1x32xf32>
  ascend.tadd %d, %c, %c : !ascend.tile<1x32xf32>
  %e = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tadd %e, %a, %a : !ascend.tile<1x64xf32>
  ascend.tstore %w, %d : !ascend.view<f32>, !ascend.tile<1x32xf32>
  ascend.tstore %v, %e : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// A handle yielded by an scf.if may point to either branch's tile: both stay
// live until the result's last use. %s is scratch of the then-branch, dead
// before the else-branch starts, so %b takes its bytes; %d, made while %r is
// live, takes neither %a's nor %b's.
// CHECK-LABEL: func.func @if_result
// CHECK: scf.if
// CHECK: %[[S:.*]] = ascend.tile {offset = [[SCRATCH:0]] : i64}
// CHECK: %[[A:.*]] = ascend.tile {offset = 256 : i64}
// CHECK: ascend.tadd %[[A]], %[[S]], %[[S]]
// CHECK: scf.yield %[[A]]
// CHECK: } else {
// CHECK: %[[B:.*]] = ascend.tile {offset = [[SCRATCH]] : i64}
// CHECK: scf.yield %[[B]]
// CHECK: %[[D:.*]] = ascend.tile {offset = 512 : i64}
// CHECK: %[[E:.*]] = ascend.tile {offset = 768 : i64}
// CHECK: ascend.tadd %[[E]], %{{.*}}, %[[D]]
func.func @if_result(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %cond: i1) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %r = scf.if %cond -> !ascend.tile<1x64xf32> {
    %s = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %s, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    %a = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %a, %s, %s : !ascend.tile<1x64xf32>
    scf.yield %a : !ascend.tile<1x64xf32>
  } else {
    %b = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %b, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    scf.yield %b : !ascend.tile<1x64xf32>
  }
  %d = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %d, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %e = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tadd %e, %r, %d : !ascend.tile<1x64xf32>
  ascend.tstore %v, %e : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// A tile made before a loop and read inside it is live to the loop's end:
// the next iteration reads it again. %a's last use is the tadd, yet %d, made
// after it in the body, may not take its bytes; it takes %b's, which is dead
// by then within the iteration.
// CHECK-LABEL: func.func @used_in_loop
// CHECK: %[[A:.*]] = ascend.tile {offset = 0 : i64}
// CHECK: scf.for
// CHECK: %[[B:.*]] = ascend.tile {offset = [[B_OFF:256]] : i64}
// CHECK: %[[C:.*]] = ascend.tile {offset = 512 : i64}
// CHECK: ascend.tadd %[[C]], %[[A]], %[[B]]
// CHECK: %[[D:.*]] = ascend.tile {offset = [[B_OFF]] : i64}
// CHECK-NOT: ascend.tcopy
// CHECK: return
func.func @used_in_loop(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %a = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %a, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  scf.for %i = %c0 to %n step %c1 {
    %b = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %b, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    %c = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %c, %a, %b : !ascend.tile<1x64xf32>
    ascend.tstore %v, %c : !ascend.view<f32>, !ascend.tile<1x64xf32>
    %d = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %d, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    ascend.tstore %v, %d : !ascend.view<f32>, !ascend.tile<1x64xf32>
  }
  return
}

// -----

// A loop that carries a handle keeps its buffer live over the whole loop,
// also before the ascend.tile in the body that makes the next value: %acc
// points to %n's bytes from the second iteration on, so the scratch %y at the
// top of the body must not take them. %x takes %y's (dead by then). The
// accumulation writes %n while reading %acc element by element (in place,
// the same bytes): no copy.
// CHECK-LABEL: func.func @carried_accumulator
// CHECK: %[[INIT:.*]] = ascend.tile {offset = 0 : i64}
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK: %[[Y:.*]] = ascend.tile {offset = [[SCRATCH:512]] : i64}
// CHECK: %[[X:.*]] = ascend.tile {offset = [[SCRATCH]] : i64}
// CHECK: %[[N:.*]] = ascend.tile {offset = 256 : i64}
// CHECK-NEXT: ascend.tadd %[[N]], %[[ACC]], %[[X]]
// CHECK-NEXT: scf.yield %[[N]]
// CHECK-NOT: ascend.tcopy
// CHECK: return
func.func @carried_accumulator(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %init = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %init, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!ascend.tile<1x64xf32>) {
    %y = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %y, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    ascend.tstore %v, %y : !ascend.view<f32>, !ascend.tile<1x64xf32>
    %x = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %x, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    %next = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %next, %acc, %x : !ascend.tile<1x64xf32>
    scf.yield %next : !ascend.tile<1x64xf32>
  }
  ascend.tstore %v, %sum : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// The previous iteration's tile is read after the body loaded the next one
// into the same ascend.tile: without a copy the load would clobber it (%prev
// and %cur would be one buffer). The loop yields a copy into a tile made at
// the yield, at its own offset, and %prev now points to the copy or %init.
// CHECK-LABEL: func.func @carried_copy
// CHECK: %[[INIT:.*]] = ascend.tile {offset = 0 : i64}
// CHECK: scf.for {{.*}} iter_args(%[[PREV:.*]] = %[[INIT]])
// CHECK: %[[CUR:.*]] = ascend.tile {offset = 512 : i64}
// CHECK-NEXT: ascend.tload %[[CUR]]
// CHECK: ascend.tadd %{{.*}}, %[[PREV]], %[[CUR]]
// CHECK: ascend.tstore
// CHECK-NEXT: %[[COPY:.*]] = ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xf32>
// CHECK-NEXT: ascend.tcopy %[[COPY]], %[[CUR]] : !ascend.tile<1x64xf32>
// CHECK-NEXT: scf.yield %[[COPY]]
// CHECK-NOT: ascend.tcopy
// CHECK: return
func.func @carried_copy(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %init = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %init, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (!ascend.tile<1x64xf32>) {
    %cur = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %cur, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    %diff = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %diff, %prev, %cur : !ascend.tile<1x64xf32>
    ascend.tstore %v, %diff : !ascend.view<f32>, !ascend.tile<1x64xf32>
    scf.yield %cur : !ascend.tile<1x64xf32>
  }
  ascend.tstore %v, %last : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// The previous iteration's tile read through an alias (an scf.if that passes
// it on) is the same read: the loop yields a copy.
// CHECK-LABEL: func.func @carried_copy_through_alias
// CHECK: scf.for
// CHECK: %[[ALIAS:.*]] = scf.if
// CHECK: %[[CUR:.*]] = ascend.tile
// CHECK: ascend.tadd %{{.*}}, %[[ALIAS]], %[[CUR]]
// CHECK: %[[COPY:.*]] = ascend.tile
// CHECK-NEXT: ascend.tcopy %[[COPY]], %[[CUR]]
// CHECK-NEXT: scf.yield %[[COPY]]
func.func @carried_copy_through_alias(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %n: index, %c: i1) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %init = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %init, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (!ascend.tile<1x64xf32>) {
    %alias = scf.if %c -> !ascend.tile<1x64xf32> {
      scf.yield %prev : !ascend.tile<1x64xf32>
    } else {
      scf.yield %prev : !ascend.tile<1x64xf32>
    }
    %cur = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %cur, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    %o = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %o, %alias, %cur : !ascend.tile<1x64xf32>
    ascend.tstore %v, %o : !ascend.view<f32>, !ascend.tile<1x64xf32>
    scf.yield %cur : !ascend.tile<1x64xf32>
  }
  ascend.tstore %v, %r : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// scf.while carries from its `do` region's yield to its `before` region's
// arguments: the same clobber gets the same copy.
// CHECK-LABEL: func.func @while_carried_copy
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[PREV:.*]]: !ascend.tile<1x64xf32>):
// CHECK-NEXT: %[[CUR:.*]] = ascend.tile
// CHECK: ascend.tadd %{{.*}}, %[[PREV]], %[[CUR]]
// CHECK: %[[COPY:.*]] = ascend.tile
// CHECK-NEXT: ascend.tcopy %[[COPY]], %[[CUR]]
// CHECK-NEXT: scf.yield %[[COPY]]
func.func @while_carried_copy(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %c: i1) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %init = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %init, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %r = scf.while (%prev = %init) : (!ascend.tile<1x64xf32>) -> !ascend.tile<1x64xf32> {
    scf.condition(%c) %prev : !ascend.tile<1x64xf32>
  } do {
  ^bb0(%p: !ascend.tile<1x64xf32>):
    %cur = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %cur, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    %o = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %o, %p, %cur : !ascend.tile<1x64xf32>
    ascend.tstore %v, %o : !ascend.view<f32>, !ascend.tile<1x64xf32>
    scf.yield %cur : !ascend.tile<1x64xf32>
  }
  ascend.tstore %v, %r : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// A callee shares the core's unified buffer: it is planned first (its tiles
// from 0: 256 bytes), and a tile live across a call sits above what the
// callee uses (256), while one that dies before the call may start at 0.
// run_on_lanes runs its body on this core too and counts as a call.
// CHECK-LABEL: func.func @callee
// CHECK: ascend.tile {offset = 0 : i64}
// CHECK-LABEL: func.func @caller
// CHECK: %[[DEAD:.*]] = ascend.tile {offset = 0 : i64}
// CHECK: %[[LIVE:.*]] = ascend.tile {offset = 256 : i64}
// CHECK: call @callee
// CHECK: ascend.tstore %{{.*}}, %[[LIVE]]
// CHECK: %[[ACROSS_LANES:.*]] = ascend.tile {offset = 256 : i64}
// CHECK: ascend.run_on_lanes @callee
func.func @callee(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["static __aicore__ inline"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}
func.func @caller(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %dead = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %dead, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %dead : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %live = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %live, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  func.call @callee(%ctx, %data) : (!ascend.ctx, !ascend.gm<f32>) -> ()
  ascend.tstore %v, %live : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %across = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %across, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.run_on_lanes @callee(%data) ctx %ctx : (!ascend.gm<f32>) -> ()
  ascend.tstore %v, %across : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// No copy where nothing reads the old value after the new tile is made: here
// %prev is stored before the body makes %cur. (A read of %prev in the other
// branch of an scf.if than the new tile is fine too: one never runs after the
// other in an iteration.)
// CHECK-LABEL: func.func @carried_no_copy
// CHECK-NOT: ascend.tcopy
// CHECK: scf.yield
// CHECK-NOT: ascend.tcopy
// CHECK: scf.yield
// CHECK-NOT: ascend.tcopy
// CHECK: return
func.func @carried_no_copy(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %n: index, %cond: i1) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %init = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %init, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %first = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (!ascend.tile<1x64xf32>) {
    ascend.tstore %v, %prev : !ascend.view<f32>, !ascend.tile<1x64xf32>
    %cur = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %cur, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    scf.yield %cur : !ascend.tile<1x64xf32>
  }
  %second = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %first) -> (!ascend.tile<1x64xf32>) {
    %next = scf.if %cond -> !ascend.tile<1x64xf32> {
      %cur = ascend.tile : !ascend.tile<1x64xf32>
      ascend.tload %cur, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
      scf.yield %cur : !ascend.tile<1x64xf32>
    } else {
      ascend.tstore %v, %prev : !ascend.view<f32>, !ascend.tile<1x64xf32>
      scf.yield %prev : !ascend.tile<1x64xf32>
    }
    scf.yield %next : !ascend.tile<1x64xf32>
  }
  ascend.tstore %v, %second : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// The cube's tiles are planned per buffer: the two mat tiles (4 KiB and
// 2 KiB, both live until the extracts) share L1; left, right and acc each
// start their own buffer at 0. Every vec tile stays in the unified buffer.
// CHECK-LABEL: func.func @cube_buffers
// CHECK: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<64x32xf16, mat>
// CHECK: ascend.tile valid({{.*}}) {offset = 4096 : i64} : !ascend.tile<32x32xf16, mat>
// CHECK: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<64x32xf16, left>
// CHECK: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<32x32xf16, right>
// CHECK: ascend.tile valid({{.*}}) {offset = 0 : i64} : !ascend.tile<64x32xf32, acc>
func.func @cube_buffers(%va: !ascend.view<f16>, %vb: !ascend.view<f16>, %vc: !ascend.view<f32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %ma = ascend.tile valid(%m, %c32) : !ascend.tile<64x32xf16, mat>
  ascend.tload %ma, %va : !ascend.tile<64x32xf16, mat>, !ascend.view<f16>
  %mb = ascend.tile valid(%c32, %c32) : !ascend.tile<32x32xf16, mat>
  ascend.tload %mb, %vb : !ascend.tile<32x32xf16, mat>, !ascend.view<f16>
  %l = ascend.tile valid(%m, %c32) : !ascend.tile<64x32xf16, left>
  ascend.textract %l, %ma, row %c0, col %c0 : !ascend.tile<64x32xf16, left>, !ascend.tile<64x32xf16, mat>
  %r = ascend.tile valid(%c32, %c32) : !ascend.tile<32x32xf16, right>
  ascend.textract %r, %mb, row %c0, col %c0 : !ascend.tile<32x32xf16, right>, !ascend.tile<32x32xf16, mat>
  %acc = ascend.tile valid(%m, %c32) : !ascend.tile<64x32xf32, acc>
  ascend.tmatmul %acc, %l, %r : !ascend.tile<64x32xf32, acc>, !ascend.tile<64x32xf16, left>, !ascend.tile<32x32xf16, right>
  ascend.tstore_acc %vc, %acc : !ascend.view<f32>, !ascend.tile<64x32xf32, acc>
  return
}

// -----

// An SDMA session works through 256 bytes of unified buffer from its
// ascend.sdma_session to its last use: it is planned as a tile is. The tile
// live with it sits above it; the one made after its last wait reuses its
// bytes.
// CHECK-LABEL: func.func @sdma_session
// CHECK: %[[S:.*]] = ascend.sdma_session %{{.*}}, sync_id %{{.*}} {offset = 0 : i64}
// CHECK: ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xf32>
// CHECK: ascend.wait_async %{{.*}}, session %[[S]]
// CHECK: ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
func.func @sdma_session(%ctx: !ascend.ctx, %ws: !ascend.sdma_workspace, %id: i32, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %s = ascend.sdma_session %ws, sync_id %id
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %e = ascend.tget_async %v, %v, session %s : !ascend.view<f32>
  ascend.wait_async %e, session %s
  %u = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %u, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  return
}
