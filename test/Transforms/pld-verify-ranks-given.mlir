// pld-verify with `ranks=` naming the rank counts a program must run on: a
// trap on one of them is a warning, a wait that never returns an error.
// RUN: pld-opt %s --split-input-file --pld-verify='ranks=2,3,4' --verify-diagnostics

// Each rank puts its row into the next row of rank 0: the last rank's row
// is past the end of a 4-row window on 4 ranks.
func.func @last_row_past_the_end(%src: memref<1x64xf32>, %rows: !pld.dtensor<4x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row = arith.addi %me, %c1 : index
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-warning @+1 {{@last_row_past_the_end traps on 4 ranks: rank 3's pld.tile.remote_store touches [4, 5) x [0, 64) of rank 0's argument 1 of @last_row_past_the_end, whose shape is 4x64}}
  pld.tile.remote_store %t, %rows[%row, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
  return
}

// -----

// A ring that skips the last rank: rank 0 waits for a token nobody hands
// it, on every count.
func.func @ring_without_last(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %last32 = arith.subi %n32, %one : i32
  %me = arith.index_cast %me32 : i32 to index
  %last = arith.index_cast %last32 : i32 to index
  %next32 = arith.addi %me32, %one : i32
  %next = arith.index_cast %next32 : i32 to index
  %is_last = arith.cmpi eq, %me, %last : index
  scf.if %is_last {
  } else {
    pld.system.notify %signal[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  // expected-error @+3 {{@ring_without_last completes on none of the rank counts tried (2, 3, 4): on 2 ranks, pld.system.wait on rank 0 never returns: it waits on cell [0, 0] of rank 0's argument 0 of @ring_without_last, and no notify that may come before it reaches the cell, which stays 0, short of >= 1}}
  // expected-note @+2 {{on 3 ranks}}
  // expected-note @+1 {{on 4 ranks}}
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  return
}

// -----

// Rank 0 waits for two credits, which the others split between them: on 4
// ranks the share rounds down to 0.
func.func @odd_hang(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %is_root = arith.cmpi eq, %me, %c0 : index
  // Every other rank adds 2 / (n - 1): 2 on 2 ranks, 1 each on 3, 0 on 4.
  %others = arith.subi %n32, %one : i32
  %share = arith.divsi %two, %others : i32
  scf.if %is_root {
    // expected-error @+1 {{on 4 ranks, pld.system.wait on rank 0 never returns: it waits on cell [0, 0] of rank 0's argument 0 of @odd_hang, and the notifies that may come before it add at most 0, short of >= 2}}
    pld.system.wait %signal[0, 0], expected %two, cmp ge : !pld.dtensor<4x1xi32>
  } else {
    pld.system.notify %signal[0, 0], peer %c0, value %share, op atomic_add : !pld.dtensor<4x1xi32>
    // expected-note @-1 {{a pld.system.notify on rank 1 may come first}}
    // expected-note @-2 {{a pld.system.notify on rank 2 may come first}}
    // expected-note @-3 {{a pld.system.notify on rank 3 may come first}}
  }
  return
}
