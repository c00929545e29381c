// pld-verify: a wait whose expected value no reaching notify can produce
// (semantics §6, the seed's "tag = 0 hangs forever").
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

// The seed's handshake with tag = 0: Set 0, wait Ge 1.
func.func @tag_zero(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %tag = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-note @+1 {{sets 0 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] ge 1 never returns: the cell can only hold 0}}
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// Near miss: tag 2, wait Ge 1.
func.func @tag_two(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %tag = arith.constant 2 : i32
  %c1 = arith.constant 1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// Near miss: a dynamic tag (the seed's own signature) cannot be judged.
func.func @tag_dynamic(%signal: !pld.dtensor<1x1xi32>, %peer: index, %tag: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// -----

func.func @eq_never_set(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  // expected-note @+1 {{sets 1 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %c1, op set : !pld.dtensor<2x1xi32>
  // expected-note @+1 {{sets 2 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %c2, op set : !pld.dtensor<2x1xi32>
  // A notify of another cell does not write this one.
  pld.system.notify %signal[1, 0], peer %peer, value %c3, op set : !pld.dtensor<2x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] eq 3 never returns: the cell can only hold 0, 1, 2}}
  pld.system.wait %signal[0, 0], expected %c3, cmp eq : !pld.dtensor<2x1xi32>
  // Near miss: eq 2 is reachable.
  pld.system.wait %signal[0, 0], expected %c2, cmp eq : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @atomic_never_positive(%signal: !pld.dtensor<2x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %zero = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-note @+1 {{adds 0 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %zero, op atomic_add : !pld.dtensor<2x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] ge 1 never returns: the cell never rises above 0}}
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// Near miss: the barrier's AtomicAdd of 1 can reach any count.
func.func @atomic_barrier(%signal: !pld.dtensor<2x1xi32>, %peer: index, %me: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  pld.system.notify %signal[%me, 0], peer %peer, value %c1, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[%peer, 0], expected %c2, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// -----

// No notify in the whole module writes an i32 [3, 1] signal: the cell stays 0.
func.func @nobody_notifies(%signal: !pld.dtensor<3x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{wait for signal[0, 0] ge 1 never returns: no notify in the module writes a !pld.dtensor<3x1xi32> signal, so the cell stays 0}}
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<3x1xi32>
  return
}

// Near miss: ge 0 holds at once.
func.func @ge_zero(%signal: !pld.dtensor<3x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : i32
  pld.system.wait %signal[0, 0], expected %c0, cmp ge : !pld.dtensor<3x1xi32>
  return
}

// -----

// Near miss: the writer lives in another kernel of the module.
func.func @producer(%signal: !pld.dtensor<3x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<3x1xi32>
  return
}

func.func @consumer(%signal: !pld.dtensor<3x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<3x1xi32>
  return
}

// -----

// The single-rank case: every writer skips this rank, the wait does not.
func.func @single_rank(%signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %peer = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      // expected-note @+1 {{runs only for a peer other than this rank}}
      pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  // expected-warning @+1 {{with a single rank this wait never returns: every notify that writes signal[0, 0] runs only for a peer other than this rank}}
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  return
}

// Near miss: the seed's barrier guards the wait the same way, so a single
// rank neither notifies nor waits.
func.func @single_rank_barrier(%signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %peer = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  scf.for %src = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    }
  }
  return
}
