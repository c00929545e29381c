// pld-verify's race rule on rank counts where a program does not complete:
// it traps (an access outside its memory, a peer outside 0..n) or one of its
// waits never returns. Without `ranks=`, such counts are ones the program is
// not written for (a remark), unless it completes on none of them (an error).
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics
// With `ranks=` naming counts the program must run on, a trap there is a
// warning and a hang an error (pld-verify-ranks-given.mlir).

// Broadcast from rank `nranks`: a peer outside 0..n on every rank count.
func.func @root_past_the_end(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %n32 = pld.system.nranks %ctx
  %n = arith.index_cast %n32 : i32 to index
  // expected-error @+3 {{@root_past_the_end completes on none of the rank counts tried (2, 3, 4): on 2 ranks, rank 0's pld.tensor.broadcast names root 2, outside 0..2}}
  // expected-note @+2 {{on 3 ranks, rank 0's pld.tensor.broadcast names root 3, outside 0..3}}
  // expected-note @+1 {{on 4 ranks, rank 0's pld.tensor.broadcast names root 4, outside 0..4}}
  %r = pld.tensor.broadcast %data, %signal, root %n : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// Near miss: from the last rank.
func.func @root_last(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %n32 = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %last32 = arith.subi %n32, %one : i32
  %last = arith.index_cast %last32 : i32 to index
  %r = pld.tensor.broadcast %data, %signal, root %last : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// Rank 0 waits for one more notify than the others send: it hangs on every
// rank count.
func.func @one_notify_short(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    // expected-error @+3 {{@one_notify_short completes on none of the rank counts tried (2, 3, 4): on 2 ranks, pld.system.wait on rank 0 never returns: it waits on cell [0, 0] of rank 0's argument 0 of @one_notify_short, and the notifies that may come before it add at most 1, short of >= 2}}
    // expected-note @+2 {{on 3 ranks, pld.system.wait on rank 0 never returns: it waits on cell [0, 0] of rank 0's argument 0 of @one_notify_short, and the notifies that may come before it add at most 2, short of >= 3}}
    // expected-note @+1 {{on 4 ranks, pld.system.wait on rank 0 never returns}}
    pld.system.wait %signal[0, 0], expected %n32, cmp ge : !pld.dtensor<4x1xi32>
  } else {
    pld.system.notify %signal[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    // expected-note @-1 {{a pld.system.notify on rank 1 may come first}}
  }
  return
}

// -----

// Near miss: it waits for the n - 1 notifies the others send.
func.func @every_notify(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    pld.system.wait %signal[0, 0], expected %others, cmp ge : !pld.dtensor<4x1xi32>
  } else {
    pld.system.notify %signal[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// -----

// A wait for a value no Set writes hangs too: each rank sets its rank
// into rank 0's cell, and rank 0 waits for 5.
func.func @set_to_other_value(%signal: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %five = arith.constant 5 : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    // expected-error @+3 {{@set_to_other_value completes on none of the rank counts tried (2, 3, 4): on 2 ranks, pld.system.wait on rank 0 never returns: it waits on cell [1, 0] of rank 0's argument 0 of @set_to_other_value, and the notifies that may come before it set 1, none == 5}}
    // expected-note @+2 {{on 3 ranks, pld.system.wait on rank 0 never returns: it waits on cell [1, 0] of rank 0's argument 0 of @set_to_other_value, and the notifies that may come before it set 1, 2, none == 5}}
    // expected-note @+1 {{on 4 ranks}}
    pld.system.wait %signal[1, 0], expected %five, cmp eq : !pld.dtensor<2x1xi32>
  } else {
    pld.system.notify %signal[1, 0], peer %c0, value %me32, op set : !pld.dtensor<2x1xi32>
    // expected-note @-1 {{a pld.system.notify on rank 1 may come first}}
  }
  return
}

// -----

// An odd ring: each rank hands a token to the next and waits for its own.
// Written for any count: it completes on all of them.
func.func @ring(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %next32 = arith.addi %me32, %one : i32
  %wrapped32 = arith.remsi %next32, %n32 : i32
  %next = arith.index_cast %wrapped32 : i32 to index
  pld.system.notify %signal[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  return
}

// -----

// Pairs: rank r hands its token to r xor 1. On an odd count the last rank
// has no partner: it hands the token past the end (a trap), a count the
// program is not written for.
func.func @pairs(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %one = arith.constant 1 : i32
  %partner32 = arith.xori %me32, %one : i32
  %partner = arith.index_cast %partner32 : i32 to index
  // expected-remark @+1 {{@pairs does not complete on 3 ranks (name them in ranks= if it must): on 3 ranks it traps: rank 2's pld.system.notify reaches peer 3, outside 0..3}}
  pld.system.notify %signal[0, 0], peer %partner, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  return
}

// -----

// A program for 8 ranks (its signal has a row per rank): run on 8 ranks
// too, it completes there, whatever 2, 3 and 4 do.
func.func @eight(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c7 = arith.constant 7 : index
  // expected-remark @+3 {{@eight does not complete on 2 or 3 or 4 ranks (name them in ranks= if it must): on 2 ranks it traps: rank 0's pld.tensor.broadcast names root 7, outside 0..2}}
  // expected-note @+2 {{on 3 ranks it traps}}
  // expected-note @+1 {{on 4 ranks it traps}}
  %r = pld.tensor.broadcast %data, %signal, root %c7 : !pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>
  return
}

// -----

// A credit to itself: `my_rank` is an argument whose first use is the
// notify's peer. Among the peers the rule tries is the rank itself, with
// which the program completes (before, only other ranks were tried, and it
// completed on none); its bad twin below hangs with every peer.
func.func @credit_to_myself(%sig: !pld.dtensor<4x1xi32>, %my_rank: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  pld.system.notify %sig[%my_rank, 0], peer %my_rank, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[%my_rank, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  return
}

// -----

// The bad twin: a credit of 1 waited for as 2 completes under no peer.
func.func @credit_short(%sig: !pld.dtensor<4x1xi32>, %my_rank: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  pld.system.notify %sig[%my_rank, 0], peer %my_rank, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  // expected-error-re @+3 {{@credit_short completes on none of the rank counts tried (2, 3, 4): on 2 ranks, pld.system.wait on rank 0 never returns: {{.*}} short of >= 2 with argument 1 of @credit_short = 1, 0 on ranks 0, 1}}
  // expected-note-re @+2 {{on 3 ranks, pld.system.wait on rank 0 never returns{{.*}}}}
  // expected-note-re @+1 {{on 4 ranks, pld.system.wait on rank 0 never returns{{.*}}}}
  pld.system.wait %sig[%my_rank, 0], expected %two, cmp ge : !pld.dtensor<4x1xi32>
  return
}
