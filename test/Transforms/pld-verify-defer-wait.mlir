// pld-verify: every clause of the defer_wait contract (semantics §3), each with a
// near miss that stays quiet.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

// The contract kept: a dedicated top-level pl.at at level core_group, a
// direct signal argument, bookkeeping between registrations, a consumer that
// depends on the waiter.
func.func @good_waiter(%signal: !pld.dtensor<4x1xi32>, %payload: !pld.dtensor<1x64xf32>, %epoch: i32)
    attributes {pl.kernel = #pl.kernel<host>} {
  %wait = pl.at level core_group name "payload_wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %peer = %c0 to %c4 step %c1 {
      %next = arith.addi %epoch, %epoch : i32
      pld.system.defer_wait %signal[%peer, 0], expected %next, cmp ge : !pld.dtensor<4x1xi32>
    }
  }
  %consume = pl.at level core_group name "consume" deps [%wait] {
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  }
  return
}

// -----

// expected-note @+1 {{the enclosing function}}
func.func @outside_task(%signal: !pld.dtensor<2x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{defer_wait must sit in a dedicated top-level pl.at task at level core_group, found it outside any task}}
  pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @in_spmd(%signal: !pld.dtensor<2x1xi32>, %e: i32, %n: index) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the multi-block task}}
  %t = pl.spmd %n name "waiters" {
    // expected-error @+1 {{defer_wait needs a single-block task, but it stands in a pl.spmd task that launches several blocks}}
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

func.func @wrong_level(%signal: !pld.dtensor<2x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the waiter task}}
  %t = pl.at level core name "wait" {
    // expected-error @+1 {{defer_wait needs its task at level core_group, found level core}}
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

func.func @nested_task(%signal: !pld.dtensor<2x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the enclosing task}}
  %outer = pl.at level core_group name "outer" {
    // expected-note @+1 {{the waiter task}}
    %inner = pl.at level core_group name "wait" {
      // expected-error @+1 {{defer_wait needs a top-level task, but its task is nested in another task}}
      pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
    }
  }
  return
}

// -----

func.func @predicated(%signal: !pld.dtensor<2x1xi32>, %e: i32, %go: i1) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the waiter task}}
  %t = pl.at level core_group name "wait" if %go {
    // expected-error @+1 {{defer_wait needs a task without a dispatch predicate, but its task has one}}
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

func.func @early_resolve(%signal: !pld.dtensor<2x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the waiter task}}
  %t = pl.at level core_group name "wait" allow_early_resolve {
    // expected-error @+1 {{defer_wait needs a task with allow_early_resolve false, so that its consumers are never pre-staged before the counter is ready}}
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  }
  // Near miss: a consumer may allow early resolve itself.
  %c = pl.at level core_group name "consume" deps [%t] allow_early_resolve {
  }
  return
}

// -----

func.func @cube_work(%signal: !pld.dtensor<2x1xi32>, %e: i32, %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the waiter task}}
  %t = pl.at level core_group name "wait" {
    // expected-note @+1 {{cube work here}}
    %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
    // expected-error @+1 {{defer_wait needs a pure AIV task, but its task does cube work}}
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

func.func @signal_view(%e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %buf = pld.tensor.alloc_window_buffer "signal" bytes 4096
  // expected-note @+1 {{the signal is defined here}}
  %signal = pld.tensor.window %buf : !pld.dtensor<2x1xi32>
  %t = pl.at level core_group name "wait" {
    // expected-error @+1 {{defer_wait needs its signal to be a window-bound i32 !pld.dtensor argument of the function (no slice, view or alias), found a value defined by 'pld.tensor.window'}}
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

func.func @too_many(%signal: !pld.dtensor<64x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{a waiter task may register at most 64 defer_wait conditions, found 65}}
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-note @+1 {{this loop runs 64 times}}
    scf.for %i = %c0 to %c64 step %c1 {
      // expected-note @+1 {{registers 64 conditions}}
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
    }
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
  }
  return
}

// Near miss: exactly 64.
func.func @sixty_four(%signal: !pld.dtensor<64x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c1 {
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
    }
  }
  return
}

// -----

func.func @unbounded(%signal: !pld.dtensor<64x1xi32>, %e: i32, %n: index) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @+1 {{a loop without a bounded trip count}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-warning @+1 {{the number of defer_wait registrations cannot be bounded at compile time; the runtime rejects a waiter with more than 64}}
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
    }
  }
  return
}

// -----

// A trip count computed from constants is counted like a literal one, and
// the error names the loops that multiply it.
func.func @computed_trip_count(%signal: !pld.dtensor<64x4xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{a waiter task may register at most 64 defer_wait conditions, found 66}}
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c11 = arith.constant 11 : index
    %rows = arith.addi %c11, %c11 : index
    %cols = arith.addi %c1, %c2 : index
    // expected-note @+1 {{this loop runs 22 times}}
    scf.for %i = %c0 to %rows step %c1 {
      // expected-note @+1 {{this loop runs 3 times}}
      scf.for %j = %c0 to %cols step %c1 {
        // expected-note @+1 {{registers 66 conditions}}
        pld.system.defer_wait %signal[%i, %j], expected %e, cmp ge : !pld.dtensor<64x4xi32>
      }
    }
  }
  return
}

// -----

// A loop over the ranks runs at most 64 times (semantics §1): one such loop is
// within the limit, so it is not "unbounded" ...
func.func @peer_loop(%signal: !pld.dtensor<64x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %n = pld.system.world_size
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %count = arith.index_cast %n : i64 to index
    scf.for %i = %c0 to %count step %c1 {
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
    }
  }
  return
}

// ... and two may exceed it.
func.func @two_peer_loops(%signal: !pld.dtensor<64x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %n = pld.system.world_size
  // expected-warning @+1 {{a waiter task may register at most 64 defer_wait conditions; this one registers up to 128, and the runtime rejects it if it does}}
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %count = arith.index_cast %n : i64 to index
    // expected-note @+1 {{this loop runs up to 64 times}}
    scf.for %i = %c0 to %count step %c1 {
      // expected-note @+1 {{registers 64 conditions}}
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
    }
    // expected-note @+1 {{this loop runs up to 64 times}}
    scf.for %i = %c0 to %count step %c1 {
      // expected-note @+1 {{registers 64 conditions}}
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
    }
  }
  return
}

// -----

func.func @work_after_registration(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<1x64xf32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "wait" {
    // expected-note @+1 {{registration begins here}}
    pld.system.defer_wait %signal[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
    // Scalar bookkeeping is fine ...
    %next = arith.addi %e, %e : i32
    pld.system.defer_wait %signal[1, 0], expected %next, cmp ge : !pld.dtensor<2x1xi32>
    // ... a tensor read is not.
    // expected-error @+1 {{after the first defer_wait registration only scalar bookkeeping and control flow may run, found 'pl.read'}}
    %x = pl.read %payload[0, 0] : !pld.dtensor<1x64xf32>
  }
  return
}

// -----

func.func @work_in_registration_loop(%signal: !pld.dtensor<4x1xi32>, %e: i32, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c2 step %c1 {
      // Before the registration in program order, but after it from the
      // second iteration on.
      // expected-error @+1 {{after the first defer_wait registration only scalar bookkeeping and control flow may run, found 'pld.system.notify'}}
      pld.system.notify %signal[0, 0], peer %peer, value %e, op set : !pld.dtensor<4x1xi32>
      // expected-note @+1 {{registration begins here}}
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<4x1xi32>
      // expected-error @-1 {{@work_in_registration_loop completes on none of the rank counts tried (2, 3, 4): on 2 ranks, pld.system.defer_}}
      // expected-note @-2 {{on 3 ranks, pld.system.defer_wait on rank 0 task "wait" never returns: it waits on cell [1, 0] of rank 0's arg}}
      // expected-note @-3 {{on 4 ranks, pld.system.defer_wait on rank 0 task "wait" never returns: it waits on cell [1, 0] of rank 0's arg}}
    }
  }
  return
}

// -----

// The seed's deferred exchange with the consumer's deps forgotten.
func.func @consumer_without_deps(%signal: !pld.dtensor<2x1xi32>, %peer_payload: !pld.dtensor<1x64xf32>,
                                 %value: memref<1x64xf32>, %peer: index, %me: index, %epoch: i32)
    attributes {pl.kernel = #pl.kernel<host>} {
  %publish = pl.at level core_group name "publish" {
    pld.tensor.remote_store %value, %peer_payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
    // expected-note @-1 {{the conflicting pld.tensor.remote_store on rank 0 task "publish"}}
    pld.system.notify %signal[%me, 0], peer %peer, value %epoch, op set : !pld.dtensor<2x1xi32>
    // expected-note @-1 {{rank 0 task "publish" notifies cell [0, 0] of rank 1 after the write; a wait on that cell before the pl.load o}}
  }
  // expected-note @+1 {{the waiter task}}
  %wait_tid = pl.at level core_group name "payload_wait" {
    pld.system.defer_wait %signal[%peer, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
  }
  // expected-error @+1 {{task 'consume_payload' reads a payload published through the signal that waiter 'payload_wait' defers on, but does not depend on the waiter's task id; list it in deps}}
  %consume = pl.at level core_group name "consume_payload" {
    // expected-note @+1 {{the payload is read here}}
    %t = pl.load %peer_payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    // expected-error @-1 {{data race on 2 ranks with argument 3 of @consumer_without_deps = 1, 0 on ranks 0, 1 and argument 4 of @consume}}
  }
  // Near miss: a consumer that depends on the waiter through another task.
  %relay = pl.at level core_group name "relay" deps [%wait_tid] {
  }
  %late = pl.at level core_group name "late_consumer" deps [%relay] {
    %t = pl.load %peer_payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  }
  return
}

// -----

// A computed negative threshold, which a literal -1 would have been
// rejected as (and --canonicalize would fold it into one).
func.func @computed_negative(%signal: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %wait = pl.at level core_group name "payload_wait" {
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    // expected-note @+1 {{the value is computed here}}
    %expected = arith.subi %one, %two : i32
    // expected-error @+1 {{expected 'expected' in [0, 2147483647], found -1 (counters are polled as uint32, so a negative threshold is never a valid one)}}
    pld.system.defer_wait %signal[0, 0], expected %expected, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// Near miss: 2 - 2 is a valid threshold (the lowest).
func.func @computed_zero(%signal: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %wait = pl.at level core_group name "payload_wait" {
    %two = arith.constant 2 : i32
    %expected = arith.subi %two, %two : i32
    pld.system.defer_wait %signal[0, 0], expected %expected, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// Waiters of one condition are interchangeable: each consumer depends on
// its own waiter of the event, not on every waiter (PyPTO's
// test_l3_deferred_completion, unrolled).
func.func @paired_waiters(%inp: memref<1x8xi32>, %out: memref<2x8xi32>, %payload: !pld.dtensor<1x8xi32>, %signal: !pld.dtensor<1x1xi32>,
                          %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %w0 = pl.at level core_group name "deferred_wait" {
    pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  }
  %c0 = pl.at level core_group name "completion_consumer" deps [%w0] {
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
    pl.store %t, %out[0, 0] : !pl.tile<1x8xi32>, memref<2x8xi32>
  }
  %w1 = pl.at level core_group name "deferred_wait" {
    pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  }
  %c1 = pl.at level core_group name "completion_consumer" deps [%w1] {
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
    pl.store %t, %out[1, 0] : !pl.tile<1x8xi32>, memref<2x8xi32>
  }
  %publish = pl.at level core_group name "delayed_publisher" {
    %t = pl.load %inp[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
    pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
  }
  return
}

// -----

// The near miss: the second waiter waits for another value, and its
// consumer depends only on it, not on a waiter of the first.
func.func @waiters_of_two_values(%inp: memref<1x8xi32>, %out: memref<2x8xi32>, %payload: !pld.dtensor<1x8xi32>, %signal: !pld.dtensor<1x1xi32>,
                                 %peer: index, %epoch: i32, %later: i32) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the waiter task}}
  %w0 = pl.at level core_group name "deferred_wait" {
    pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  }
  %w1 = pl.at level core_group name "later_wait" {
    pld.system.defer_wait %signal[0, 0], expected %later, cmp ge : !pld.dtensor<1x1xi32>
  }
  %c0 = pl.at level core_group name "completion_consumer" deps [%w0, %w1] {
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
    pl.store %t, %out[0, 0] : !pl.tile<1x8xi32>, memref<2x8xi32>
  }
  // expected-error @+1 {{task 'second_consumer' reads a payload published through the signal that waiter 'deferred_wait' defers on, but does not depend on the waiter's task id; list it in deps}}
  %c1 = pl.at level core_group name "second_consumer" deps [%w1] {
    // expected-note @+1 {{the payload is read here}}
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
    pl.store %t, %out[1, 0] : !pl.tile<1x8xi32>, memref<2x8xi32>
  }
  %publish = pl.at level core_group name "delayed_publisher" {
    %t = pl.load %inp[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
    pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
  }
  return
}
