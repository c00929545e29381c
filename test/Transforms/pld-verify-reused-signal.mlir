// pld-verify: a tile-level signal reused across loop iterations without a
// rising expected value (semantics §6): its counter never resets.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics
// The rules judge values, not spellings: the same after --canonicalize.
// RUN: pld-opt %s --split-input-file --canonicalize --pld-verify=remarks=false --verify-diagnostics

func.func @repeated_barrier(%signal: !pld.dtensor<8x1xi32>, %me: index, %n: index, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  // expected-note @+1 {{the loop}}
  scf.for %step = %c0 to %steps step %c1 {
    scf.for %peer = %c0 to %n step %c1 {
      pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
    scf.for %src = %c0 to %n step %c1 {
      // The inner loop varies the cell, but every outer step waits on the
      // same cells for the same count.
      // expected-error @+1 {{wait reuses signal[?, 0] with the same expected value on every iteration of the enclosing loop; tile-level signals are monotonic counters that never reset, so every iteration after the first passes at once: use a rising expected value (an epoch derived from the loop) or a fresh cell per iteration}}
      pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    }
  }
  return
}

// Near miss: the expected count rises with the step (an epoch).
func.func @rising_epoch(%signal: !pld.dtensor<8x1xi32>, %me: index, %n: index, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %step = %c0 to %steps step %c1 {
    %step1 = arith.addi %step, %c1 : index
    %epoch = arith.index_cast %step1 : index to i32
    scf.for %peer = %c0 to %n step %c1 {
      pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
    scf.for %src = %c0 to %n step %c1 {
      pld.system.wait %signal[%src, 0], expected %epoch, cmp ge : !pld.dtensor<8x1xi32>
    }
  }
  return
}

// -----

// Near miss: a fresh cell per iteration.
func.func @fresh_cells(%signal: !pld.dtensor<8x1xi32>, %peer: index, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %step = %c0 to %steps step %c1 {
    pld.system.notify %signal[%step, 0], peer %peer, value %one, op set : !pld.dtensor<8x1xi32>
    pld.system.wait %signal[%step, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  }
  return
}

// -----

// A waiter task launched on every iteration of a host loop with one epoch.
func.func @repeated_waiter(%signal: !pld.dtensor<2x1xi32>, %epoch: i32, %steps: index) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{the loop}}
  scf.for %step = %c0 to %steps step %c1 {
    %t = pl.at level core_group name "wait" {
      // expected-error @+1 {{defer_wait reuses signal[0, 0] with the same expected value on every iteration of the enclosing loop}}
      pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
    }
  }
  return
}

// -----

// A kernel that waits for a fixed count, called twice with one signal.
func.func @step(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  // expected-note @+1 {{the wait with a fixed expected value}}
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  return
}

func.func @twice(%signal: !pld.dtensor<2x1xi32>, %fresh: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{an earlier call with the same signal}}
  func.call @step(%signal, %peer) : (!pld.dtensor<2x1xi32>, index) -> ()
  // expected-error @+1 {{this call reuses a signal whose cell @step waits on with a fixed expected value, as an earlier call does; tile-level signals are monotonic counters that never reset, so the wait passes at once: pass a fresh signal or a rising expected value}}
  func.call @step(%signal, %peer) : (!pld.dtensor<2x1xi32>, index) -> ()
  // Near miss: a fresh buffer for the next call.
  func.call @step(%fresh, %peer) : (!pld.dtensor<2x1xi32>, index) -> ()
  return
}

// -----

// Near miss: a kernel with two fixed waits on one signal (for 1, then for 2),
// called once. Neither wait is reused by another call.
func.func @two_steps(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[0, 0], expected %two, cmp ge : !pld.dtensor<2x1xi32>
  return
}

func.func @once(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @two_steps(%signal, %peer) : (!pld.dtensor<2x1xi32>, index) -> ()
  return
}

// -----

// The same kernel called on every iteration of a loop.
func.func @step(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  // expected-note @+1 {{the wait with a fixed expected value}}
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  return
}

func.func @looped(%signal: !pld.dtensor<2x1xi32>, %peer: index, %steps: index) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{the enclosing loop with the same signal}}
  scf.for %i = %c0 to %steps step %c1 {
    // expected-error @+1 {{this call reuses a signal whose cell @step waits on with a fixed expected value, as the enclosing loop does}}
    func.call @step(%signal, %peer) : (!pld.dtensor<2x1xi32>, index) -> ()
  }
  return
}

// -----

// semantics §4's epilogue makes a signal reusable with the same expected values:
// after the wait, a self-notify atomically subtracts what the call added.
// A hand-written barrier with that epilogue is quiet in a loop; the near
// misses (no epilogue, a positive amount, an epilogue into a neighbour, an
// epilogue before the wait) are not.
func.func @barrier_loop(%signal: !pld.dtensor<8x1xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  scf.for %i = %c0 to %steps step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
    scf.for %s = %c0 to %n step %c1 {
      pld.system.wait %signal[%s, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    }
    scf.for %s = %c0 to %n step %c1 {
      pld.system.notify %signal[%s, 0], peer %me, value %minus, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  return
}

// -----

// A computed count subtracted from zero (as the decomposition of a
// dynamic-length collective writes it) is an epilogue too. (Each rank
// credits itself, so that the wait returns: the race rule runs the loop.)
func.func @computed_epilogue(%signal: !pld.dtensor<8x1xi32>, %steps: index, %count: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  scf.for %i = %c0 to %steps step %c1 {
    pld.system.notify %signal[0, 0], peer %me, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    %neg = arith.subi %c0, %count : index
    %neg32 = arith.index_cast %neg : index to i32
    pld.system.notify %signal[0, 0], peer %me, value %neg32, op atomic_add : !pld.dtensor<8x1xi32>
  }
  return
}

// -----

func.func @positive_epilogue(%signal: !pld.dtensor<8x1xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  // expected-note @+1 {{the loop}}
  scf.for %i = %c0 to %steps step %c1 {
    // expected-error @+1 {{wait reuses signal[0, 0] with the same expected value on every iteration of the enclosing loop}}
    pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    pld.system.notify %signal[0, 0], peer %me, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  return
}

// -----

func.func @neighbour_epilogue(%signal: !pld.dtensor<8x1xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %after = arith.addi %me32, %one : i32
  %next32 = arith.remui %after, %n32 : i32
  %next = arith.index_cast %next32 : i32 to index
  // expected-note @+1 {{the loop}}
  scf.for %i = %c0 to %steps step %c1 {
    pld.system.notify %signal[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    // expected-error @+1 {{wait reuses signal[0, 0] with the same expected value on every iteration of the enclosing loop}}
    pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    pld.system.notify %signal[0, 0], peer %next, value %minus, op atomic_add : !pld.dtensor<8x1xi32>
  }
  return
}

// -----

func.func @epilogue_before_wait(%signal: !pld.dtensor<8x1xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  // expected-note @+1 {{the loop}}
  scf.for %i = %c0 to %steps step %c1 {
    pld.system.notify %signal[0, 0], peer %me, value %minus, op atomic_add : !pld.dtensor<8x1xi32>
    pld.system.notify %signal[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    // expected-error @+1 {{wait reuses signal[0, 0] with the same expected value on every iteration of the enclosing loop}}
    pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  }
  return
}

// -----

// A kernel that restores its signal may be called twice with it.
func.func @restoring_step(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  pld.system.notify %signal[0, 0], peer %me, value %minus, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

func.func @twice_restored(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @restoring_step(%signal, %peer) : (!pld.dtensor<2x1xi32>, index) -> ()
  func.call @restoring_step(%signal, %peer) : (!pld.dtensor<2x1xi32>, index) -> ()
  return
}

// -----

// Rounds of a barrier whose cells come from the round: the peer loop's
// bounds start at round * n, so every round waits on fresh cells (and the
// second index is the round itself in the stats column).
func.func @ring_rounds(%signal: !pld.dtensor<64x8xi32>, %rounds: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<64x8xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  scf.for %r = %c0 to %rounds step %c1 {
    %base = arith.muli %r, %n : index
    %end = arith.addi %base, %n : index
    %mine = arith.addi %base, %me : index
    scf.for %p = %c0 to %n step %c1 {
      pld.system.notify %signal[%mine, 0], peer %p, value %one, op atomic_add : !pld.dtensor<64x8xi32>
      pld.system.notify %signal[%me, %r], peer %p, value %one, op atomic_add : !pld.dtensor<64x8xi32>
    }
    scf.for %src = %base to %end step %c1 {
      pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<64x8xi32>
    }
    scf.for %src = %c0 to %n step %c1 {
      pld.system.wait %signal[%src, %r], expected %one, cmp ge : !pld.dtensor<64x8xi32>
    }
  }
  return
}

// -----

// A barrier repeated by an outer loop, restored by an epilogue loop over the
// same peers that subtracts the barrier count as -1 * k, where k is what the
// caller passes.
func.func @restored_rounds(%signal: !pld.dtensor<64x1xi32>, %rounds: index, %k: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus_one = arith.constant -1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<64x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  scf.for %r = %c0 to %rounds step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      %other = arith.cmpi ne, %p, %me : index
      scf.if %other {
        pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<64x1xi32>
      }
    }
    scf.for %src = %c0 to %n step %c1 {
      %other = arith.cmpi ne, %src, %me : index
      scf.if %other {
        pld.system.wait %signal[%src, 0], expected %k, cmp ge : !pld.dtensor<64x1xi32>
      }
    }
    %amount = arith.muli %minus_one, %k : i32
    scf.for %s = %c0 to %n step %c1 {
      %other = arith.cmpi ne, %s, %me : index
      scf.if %other {
        pld.system.notify %signal[%s, 0], peer %me, value %amount, op atomic_add : !pld.dtensor<64x1xi32>
      }
    }
  }
  return
}

func.func @entry(%signal: !pld.dtensor<64x1xi32>, %rounds: index) attributes {pl.kernel = #pl.kernel<host>} {
  %w = pld.system.world_size
  %w32 = arith.trunci %w : i64 to i32
  %c1 = arith.constant 1 : i32
  %k = arith.subi %w32, %c1 : i32
  func.call @restored_rounds(%signal, %rounds, %k) : (!pld.dtensor<64x1xi32>, index, i32) -> ()
  return
}

// -----

// The same barrier, with its epilogue on the neighbouring column: the cells
// the wait reads are never restored.
func.func @restored_elsewhere(%signal: !pld.dtensor<64x2xi32>, %rounds: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<64x2xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %count = arith.subi %n32, %one : i32
  // expected-note @+1 {{the loop}}
  scf.for %r = %c0 to %rounds step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<64x2xi32>
    }
    scf.for %src = %c0 to %n step %c1 {
      // expected-error @+1 {{wait reuses signal[?, 0] with the same expected value on every iteration of the enclosing loop}}
      pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<64x2xi32>
    }
    %amount = arith.subi %zero, %count : i32
    scf.for %s = %c0 to %n step %c1 {
      pld.system.notify %signal[%s, 1], peer %me, value %amount, op atomic_add : !pld.dtensor<64x2xi32>
    }
  }
  return
}

// -----

// A kernel that ends in a hand-written barrier over its peers (waits on
// [%src, 0] in a peer loop), called twice by the host with one signal: the
// second call waits on the same cells for the same count.
func.func @exchange(%data: !pld.dtensor<8x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %row = pl.load %data[%me, 0] : !pld.dtensor<8x64xf32> -> !pl.tile<1x64xf32>
  scf.for %p = %c0 to %n step %c1 {
    pld.tile.remote_store %row, %data[%me, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
    pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  scf.for %src = %c0 to %n step %c1 {
    // expected-note @+1 {{the wait with a fixed expected value}}
    pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  }
  return
}

func.func @exchange_twice(%data: !pld.dtensor<8x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{an earlier call with the same signal}}
  func.call @exchange(%data, %signal) : (!pld.dtensor<8x64xf32>, !pld.dtensor<8x1xi32>) -> ()
  // expected-error @+1 {{this call reuses a signal whose cell @exchange waits on with a fixed expected value, as an earlier call does}}
  func.call @exchange(%data, %signal) : (!pld.dtensor<8x64xf32>, !pld.dtensor<8x1xi32>) -> ()
  return
}

// -----

// The same kernel launched on every step of a host loop.
func.func @exchange(%data: !pld.dtensor<8x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %row = pl.load %data[%me, 0] : !pld.dtensor<8x64xf32> -> !pl.tile<1x64xf32>
  scf.for %p = %c0 to %n step %c1 {
    pld.tile.remote_store %row, %data[%me, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
    pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  scf.for %src = %c0 to %n step %c1 {
    // expected-note @+1 {{the wait with a fixed expected value}}
    pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  }
  return
}

func.func @exchange_steps(%data: !pld.dtensor<8x64xf32>, %signal: !pld.dtensor<8x1xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{the enclosing loop with the same signal}}
  scf.for %i = %c0 to %steps step %c1 {
    // expected-error @+1 {{this call reuses a signal whose cell @exchange waits on with a fixed expected value, as the enclosing loop does}}
    func.call @exchange(%data, %signal) : (!pld.dtensor<8x64xf32>, !pld.dtensor<8x1xi32>) -> ()
  }
  return
}

// -----

// Near miss: the kernel ends with semantics §4's epilogue over the same peers
// (0 - count, computed), so the host may call it twice and in a loop.
func.func @exchange_restored(%data: !pld.dtensor<8x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %row = pl.load %data[%me, 0] : !pld.dtensor<8x64xf32> -> !pl.tile<1x64xf32>
  scf.for %p = %c0 to %n step %c1 {
    pld.tile.remote_store %row, %data[%me, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
    pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  scf.for %src = %c0 to %n step %c1 {
    pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  }
  %amount = arith.subi %zero, %one : i32
  scf.for %s = %c0 to %n step %c1 {
    pld.system.notify %signal[%s, 0], peer %me, value %amount, op atomic_add : !pld.dtensor<8x1xi32>
  }
  return
}

func.func @exchange_restored_steps(%data: !pld.dtensor<8x64xf32>, %signal: !pld.dtensor<8x1xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  func.call @exchange_restored(%data, %signal) : (!pld.dtensor<8x64xf32>, !pld.dtensor<8x1xi32>) -> ()
  func.call @exchange_restored(%data, %signal) : (!pld.dtensor<8x64xf32>, !pld.dtensor<8x1xi32>) -> ()
  scf.for %i = %c0 to %steps step %c1 {
    func.call @exchange_restored(%data, %signal) : (!pld.dtensor<8x64xf32>, !pld.dtensor<8x1xi32>) -> ()
  }
  return
}

// -----

// Near miss: a kernel whose barrier count is passed in (an epoch the
// host raises between calls) reuses nothing; passing the same epoch twice
// does.
func.func @epoch_barrier(%signal: !pld.dtensor<8x1xi32>, %epoch: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  scf.for %p = %c0 to %n step %c1 {
    pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  scf.for %src = %c0 to %n step %c1 {
    // expected-note @+1 {{the wait with a fixed expected value}}
    pld.system.wait %signal[%src, 0], expected %epoch, cmp ge : !pld.dtensor<8x1xi32>
  }
  return
}

func.func @epochs(%signal: !pld.dtensor<8x1xi32>, %base: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %c1 = arith.constant 1 : i32
  %first = arith.addi %base, %c1 : i32
  %second = arith.addi %first, %c1 : i32
  func.call @epoch_barrier(%signal, %first) : (!pld.dtensor<8x1xi32>, i32) -> ()
  // expected-note @+1 {{an earlier call with the same signal}}
  func.call @epoch_barrier(%signal, %second) : (!pld.dtensor<8x1xi32>, i32) -> ()
  // expected-error @+1 {{this call reuses a signal whose cell @epoch_barrier waits on with a fixed expected value, as an earlier call does}}
  func.call @epoch_barrier(%signal, %second) : (!pld.dtensor<8x1xi32>, i32) -> ()
  return
}

// -----

// A counted barrier in a loop (docs/pld-decompose-collectives.md, "Counted
// barriers"): every iteration adds 1 - n to the rank's own counter before it
// waits for 0, so only the peers' +1 of that iteration release the wait.
func.func @counted_barrier_loop(%signal: !pld.dtensor<8x2xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x2xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  scf.for %i = %c0 to %steps step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      %other = arith.cmpi ne, %p, %me : index
      scf.if %other {
        pld.system.notify %signal[%p, 1], peer %p, value %one, op atomic_add : !pld.dtensor<8x2xi32>
      }
    }
    %rearm = arith.subi %c1, %n : index
    %rearm32 = arith.index_cast %rearm : index to i32
    pld.system.notify %signal[%me, 1], peer %me, value %rearm32, op atomic_add : !pld.dtensor<8x2xi32>
    pld.system.wait %signal[%me, 1], expected %zero, cmp ge : !pld.dtensor<8x2xi32>
  }
  return
}

// -----

// The near miss: rearmed once, before the loop, the counter stays at 0 after
// the first iteration, and every later wait passes at once.
func.func @counted_barrier_rearmed_once(%signal: !pld.dtensor<8x2xi32>, %steps: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x2xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %rearm = arith.subi %c1, %n : index
  %rearm32 = arith.index_cast %rearm : index to i32
  pld.system.notify %signal[%me, 1], peer %me, value %rearm32, op atomic_add : !pld.dtensor<8x2xi32>
  // expected-note @+1 {{the loop}}
  scf.for %i = %c0 to %steps step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      %other = arith.cmpi ne, %p, %me : index
      scf.if %other {
        pld.system.notify %signal[%p, 1], peer %p, value %one, op atomic_add : !pld.dtensor<8x2xi32>
      }
    }
    // expected-error @+1 {{wait reuses signal[?, 1] with the same expected value on every iteration of the enclosing loop}}
    pld.system.wait %signal[%me, 1], expected %zero, cmp ge : !pld.dtensor<8x2xi32>
  }
  return
}

// -----

// PyPTO's credit reset: the host passes each rank its own index, and the
// epilogue notifies it there (issue 32). Quiet, as with pld.system.rank;
// the near miss, the epilogue into a neighbour computed from it, is not.
func.func @credit_reset_my_rank(%signal: !pld.dtensor<8x1xi32>, %steps: index, %my_rank: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %n = pld.system.nranks %ctx : index
  scf.for %i = %c0 to %steps step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      pld.system.notify %signal[%my_rank, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
    scf.for %s = %c0 to %n step %c1 {
      pld.system.wait %signal[%s, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    }
    scf.for %s = %c0 to %n step %c1 {
      pld.system.notify %signal[%s, 0], peer %my_rank, value %minus, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  return
}

// -----

func.func @credit_reset_neighbour(%signal: !pld.dtensor<8x1xi32>, %steps: index, %my_rank: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %n = pld.system.nranks %ctx : index
  %after = arith.addi %my_rank, %c1 : index
  %next = arith.remui %after, %n : index
  // expected-note @+1 {{the loop}}
  scf.for %i = %c0 to %steps step %c1 {
    scf.for %p = %c0 to %n step %c1 {
      pld.system.notify %signal[%my_rank, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
    scf.for %s = %c0 to %n step %c1 {
      // expected-error @+1 {{wait reuses signal[?, 0] with the same expected value on every iteration of the enclosing loop}}
      pld.system.wait %signal[%s, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    }
    scf.for %s = %c0 to %n step %c1 {
      pld.system.notify %signal[%s, 0], peer %next, value %minus, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  return
}

// -----

// A fan-out, not a reuse (PyPTO's test_l3_deferred_completion): every
// iteration registers a waiter for the one notify after the loop, and a
// consumer after it; the loop repeats no notify of the cell, so every
// iteration waits for the same event.
func.func @fan_out(%inp: memref<1x8xi32>, %out: memref<16x8xi32>, %payload: !pld.dtensor<1x8xi32>, %signal: !pld.dtensor<1x1xi32>,
                   %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %slot = %c0 to %c16 step %c1 {
    %wait = pl.at level core_group name "deferred_wait" {
      pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
    }
    %consume = pl.at level core_group name "completion_consumer" deps [%wait] {
      %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
      pl.store %t, %out[%slot, 0] : !pl.tile<1x8xi32>, memref<16x8xi32>
    }
  }
  %publish = pl.at level core_group name "delayed_publisher" {
    %t = pl.load %inp[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
    pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
  }
  return
}

// -----

// The near miss: the publisher in the loop, a notify per iteration that
// only the first iteration's waiter waits for; the race rule finds what
// that lets happen (a later iteration's consumer reads while the publisher
// writes again).
func.func @fan_out_publishing_each_iteration(%inp: memref<1x8xi32>, %out: memref<16x8xi32>, %payload: !pld.dtensor<1x8xi32>,
                                             %signal: !pld.dtensor<1x1xi32>, %peer: index, %epoch: i32)
    attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // expected-note @+1 {{the loop}}
  scf.for %slot = %c0 to %c16 step %c1 {
    %wait = pl.at level core_group name "deferred_wait" {
      // expected-error @+1 {{defer_wait reuses signal[0, 0] with the same expected value on every iteration of the enclosing loop}}
      pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
    }
    %consume = pl.at level core_group name "completion_consumer" deps [%wait] {
      // expected-error @+1 {{data race on 2 ranks}}
      %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
      pl.store %t, %out[%slot, 0] : !pl.tile<1x8xi32>, memref<16x8xi32>
    }
    %publish = pl.at level core_group name "publisher" {
      %t = pl.load %inp[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
      // expected-error @+3 {{data race on 2 ranks}}
      // expected-note @+2 {{the conflicting pld.tile.remote_store on rank 1 task "publisher"}}
      // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0 task "publisher"}}
      pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
      // expected-note @+1 {{notifies cell [0, 0] of rank 0 after the write}}
      pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
    }
  }
  return
}

// -----

// A root takes its count back each round: in `scf.if rank == 0` the take-back's
// constant peer 0 is this rank, so the wait needs fresh adds every round.
func.func @root_takes_back(%sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x2xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %n32 = arith.index_cast %n : index to i32
  %others = arith.subi %n32, %one : i32
  %back = arith.subi %zero, %others : i32
  %root = arith.cmpi eq, %me, %c0 : index
  scf.for %round = %c0 to %c3 step %c1 {
    scf.if %root {
      pld.system.wait %sig[0, 1], expected %others, cmp ge : !pld.dtensor<4x2xi32>
      pld.system.notify %sig[0, 1], peer %c0, value %back, op atomic_add : !pld.dtensor<4x2xi32>
    } else {
      pld.system.notify %sig[0, 1], peer %c0, value %one, op atomic_add : !pld.dtensor<4x2xi32>
    }
  }
  return
}

// -----

// Near miss: the guard names rank 1, so peer 0 is another rank's counter,
// and rank 1 waits on its own, which nothing takes back.
func.func @guard_names_another_rank(%sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x2xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %n32 = arith.index_cast %n : index to i32
  %others = arith.subi %n32, %one : i32
  %back = arith.subi %zero, %others : i32
  %one_rank = arith.cmpi eq, %me, %c1 : index
  // expected-note @+1 {{the loop}}
  scf.for %round = %c0 to %c3 step %c1 {
    scf.if %one_rank {
      // expected-error @+1 {{wait reuses signal[0, 1] with the same expected value on every iteration of the enclosing loop}}
      pld.system.wait %sig[0, 1], expected %others, cmp ge : !pld.dtensor<4x2xi32>
      pld.system.notify %sig[0, 1], peer %c0, value %back, op atomic_add : !pld.dtensor<4x2xi32>
    } else {
      pld.system.notify %sig[0, 1], peer %c1, value %one, op atomic_add : !pld.dtensor<4x2xi32>
    }
  }
  return
}

// -----

// Near miss: the take-back in the else branch, on the ranks other than 0.
func.func @take_back_off_the_root(%sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x2xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %n32 = arith.index_cast %n : index to i32
  %others = arith.subi %n32, %one : i32
  %back = arith.subi %zero, %others : i32
  %root = arith.cmpi eq, %me, %c0 : index
  // expected-note @+1 {{the loop}}
  scf.for %round = %c0 to %c3 step %c1 {
    scf.if %root {
      // expected-error @+1 {{wait reuses signal[0, 1] with the same expected value on every iteration of the enclosing loop}}
      pld.system.wait %sig[0, 1], expected %others, cmp ge : !pld.dtensor<4x2xi32>
    } else {
      pld.system.notify %sig[0, 1], peer %c0, value %one, op atomic_add : !pld.dtensor<4x2xi32>
      pld.system.notify %sig[0, 1], peer %c0, value %back, op atomic_add : !pld.dtensor<4x2xi32>
    }
  }
  return
}
