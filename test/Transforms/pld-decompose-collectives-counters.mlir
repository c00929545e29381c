// The faster algorithms on a signal [N, 2] count each barrier on a counter
// of the second column (docs/pld-decompose-collectives.md, "Counted
// barriers"): phase 1 on [d, 0], phase 2 on [d, 1], phase 3 on
// [(d + 1) % N, 1] of rank d's signal. A rank adds 1 to the phase's
// counter of every peer, n - 1 below zero to its own, and waits for its own
// to be back at 0: one wait per barrier and no epilogue. The near miss, a
// signal [N, 1], keeps a cell per source, a wait per peer and the
// epilogue; the seed's algorithms keep them on [N, 2] too.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives --canonicalize --cse --verify-each | FileCheck %s

// One unrolled chunk of a row collective: the entry counts per source,
// announced in the order me + 1, me + 2, ... and awaited one peer at a
// time, each pull right after its wait (so it goes out as soon as that
// peer's announcement is in); the exit is counted, announced once the
// pulls are issued; the entry's cells go back to 0 during its hop; the
// combinations run there too; the store of the own row follows the wait.
// CHECK-LABEL: func.func @reduce_scatter
// CHECK-SAME: %[[SIG:arg1]]: !pld.dtensor<4x2xi32>
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: scf.for
// CHECK: pld.system.notify %[[SIG]][%[[ME]], 0], peer %{{.*}}, value %c1_i32, op atomic_add
// CHECK: pl.load
// CHECK-COUNT-3: pld.system.wait %[[SIG]][%{{[0-9]+}}, 0], expected %c1_i32, cmp ge
// CHECK: pld.system.notify %[[SIG]][%{{.*}}, 1], peer
// CHECK: pld.system.notify %[[SIG]][%[[ME]], 1], peer %[[ME]]
// CHECK: pld.system.notify %[[SIG]][%{{.*}}, 0], peer %[[ME]], value %c-1_i32, op atomic_add
// CHECK: pl.add
// CHECK: pld.system.wait %[[SIG]][%[[ME]], 1], expected %c0_i32, cmp ge
// CHECK-NEXT: pl.store
// CHECK-NEXT: return
func.func @reduce_scatter(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// Several chunks: the entry is counted phase 1, with the own row loaded
// while its announcements travel only for one chunk.
// CHECK-LABEL: func.func @reduce_scatter_chunks
// CHECK: pld.system.wait %{{.*}}[%[[ME:.*]], 0], expected %c0_i32, cmp ge
// CHECK: scf.for
// CHECK: pld.system.wait %{{.*}}[%[[ME]], 1], expected %c0_i32, cmp ge
func.func @reduce_scatter_chunks(%d: !pld.dtensor<4x100000xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum algorithm direct : !pld.dtensor<4x100000xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// Three phases: the third counts on [(d + 1) % N, 1].
// CHECK-LABEL: func.func @twoshot
// CHECK-SAME: %[[SIG:arg1]]: !pld.dtensor<4x2xi32>
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: pld.system.wait %[[SIG]][%[[ME]], 0], expected %c0_i32, cmp ge
// CHECK: pld.system.wait %[[SIG]][%[[ME]], 1], expected %c0_i32, cmp ge
// CHECK: arith.remsi
// CHECK: pld.system.notify %[[SIG]][%{{.*}}, 1], peer %arg
// CHECK: %[[OWN:.*]] = arith.remsi
// CHECK-NEXT: pld.system.notify %[[SIG]][%[[OWN]], 1], peer %[[ME]]
// CHECK-NEXT: pld.system.wait %[[SIG]][%[[OWN]], 1], expected %c0_i32, cmp ge
// CHECK-NEXT: return
func.func @twoshot(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// twoshot_push: each reduced segment is stored into the own window and
// pushed into every peer's; two phases, the second after the pushes.
// CHECK-LABEL: func.func @twoshot_push
// CHECK: pld.system.wait %{{.*}}[%{{.*}}, 0], expected %c0_i32, cmp ge
// CHECK: pl.add
// CHECK: pl.store
// CHECK: scf.for
// CHECK: pld.tile.remote_store
// CHECK: pld.system.wait %{{.*}}[%{{.*}}, 1], expected %c0_i32, cmp ge
// CHECK-NEXT: return
func.func @twoshot_push(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot_push : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// The near misses: a signal [N, 1] waits for each peer's cell and ends
// with the epilogue; the seed's mesh on [N, 2] counts per source as well.
// CHECK-LABEL: func.func @cells
// CHECK: pld.system.wait %{{.*}}[%{{.*}}, 0], expected %c1_i32, cmp ge
// CHECK: pld.system.wait %{{.*}}[%{{.*}}, 0], expected %c2_i32, cmp ge
// CHECK: pld.system.notify %{{.*}}[%{{.*}}, 0], peer %{{.*}}, value %c-2_i32, op atomic_add
// CHECK-LABEL: func.func @seed_on_counters
// CHECK-NOT: , 1], peer
// CHECK: pld.system.notify %{{.*}}[%{{.*}}, 0], peer %{{.*}}, value %c-2_i32, op atomic_add
// CHECK-NOT: , 1], peer
// CHECK: return
func.func @cells(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @seed_on_counters(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm seed_mesh : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  return
}
