// pld-verify judges values, not spellings: the decisive value of a rule may
// be computed (arithmetic on constants, scf results, loop-carried values,
// arguments a host passes to the kernel it calls), and a computed value is
// judged exactly as the literal it equals. Each case has a near miss.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics
// The rules do not change when the input is first canonicalized.
// RUN: pld-opt %s --split-input-file --canonicalize --pld-verify=remarks=false --verify-diagnostics

// A tag computed as x - x is 0: the seed's hang.
func.func @tag_x_minus_x(%signal: !pld.dtensor<1x1xi32>, %peer: index, %x: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %tag = arith.subi %x, %x : i32
  %c1 = arith.constant 1 : i32
  // expected-note @+1 {{sets 0 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] ge 1 never returns: the cell can only hold 0}}
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// Near miss: 1 + 1 is 2, and ge 1 holds.
func.func @tag_one_plus_one(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  %tag = arith.addi %c1, %c1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// -----

// An expectation computed as 26 / 2 is 13, which no notify sets.
func.func @expected_computed(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c26 = arith.constant 26 : i32
  %c2 = arith.constant 2 : i32
  %c12 = arith.constant 12 : i32
  %thirteen = arith.divsi %c26, %c2 : i32
  // expected-note @+1 {{sets 12 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %c12, op set : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] eq 13 never returns: the cell can only hold 0, 12}}
  pld.system.wait %signal[0, 0], expected %thirteen, cmp eq : !pld.dtensor<1x1xi32>
  return
}

// Near miss: the notify sets 12 + 1.
func.func @expected_matches(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c26 = arith.constant 26 : i32
  %c2 = arith.constant 2 : i32
  %c12 = arith.constant 12 : i32
  %c1 = arith.constant 1 : i32
  %thirteen = arith.divsi %c26, %c2 : i32
  %set = arith.addi %c12, %c1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %set, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %thirteen, cmp eq : !pld.dtensor<1x1xi32>
  return
}

// -----

// A tag that reaches the notify through scf.if and scf.for results is still
// 0 on every path.
func.func @tag_through_scf(%signal: !pld.dtensor<1x1xi32>, %peer: index, %c: i1, %n: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %zero = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %chosen = scf.if %c -> i32 {
    scf.yield %zero : i32
  } else {
    %again = arith.muli %zero, %c1 : i32
    scf.yield %again : i32
  }
  %carried = scf.for %i = %i0 to %n step %i1 iter_args(%t = %chosen) -> i32 {
    scf.yield %t : i32
  }
  // expected-note @+1 {{sets 0 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %carried, op set : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] ge 1 never returns: the cell can only hold 0}}
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// Near miss: one branch yields 1, so the cell may hold 1.
func.func @tag_maybe_one(%signal: !pld.dtensor<1x1xi32>, %peer: index, %c: i1) attributes {pl.kernel = #pl.kernel<incore>} {
  %zero = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %chosen = scf.if %c -> i32 {
    scf.yield %zero : i32
  } else {
    scf.yield %c1 : i32
  }
  pld.system.notify %signal[0, 0], peer %peer, value %chosen, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// -----

// Code split over host and kernel: the host calls the kernel with tag 0
// (the seed's own hang example), so the kernel's tag is 0.
func.func @handshake(%signal: !pld.dtensor<1x1xi32>, %peer: index, %tag: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  // expected-note @+1 {{sets 0 here}}
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] ge 1 never returns: the cell can only hold 0}}
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}
func.func @host(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  %zero = arith.constant 0 : i32
  func.call @handshake(%signal, %peer, %zero) : (!pld.dtensor<1x1xi32>, index, i32) -> ()
  return
}

// -----

// Near miss: the call passes 2 - 1.
func.func @handshake(%signal: !pld.dtensor<1x1xi32>, %peer: index, %tag: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}
func.func @host(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %tag = arith.subi %c2, %c1 : i32
  func.call @handshake(%signal, %peer, %tag) : (!pld.dtensor<1x1xi32>, index, i32) -> ()
  return
}

// -----

// Cells named by computed offsets: Set on column %c0 + 1 and AtomicAdd on
// column 0 are provably different cells; on column 2 - 1 they are one.
func.func @mixed_columns(%signal: !pld.dtensor<1x2xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = arith.constant 1 : i32
  %column = arith.addi %c0, %c1 : index
  %same = arith.subi %c2, %c1 : index
  // expected-note @+1 {{op set on signal[0, 1] here}}
  pld.system.notify %signal[0, %column], peer %peer, value %v, op set : !pld.dtensor<1x2xi32>
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<1x2xi32>
  // expected-error @+1 {{notify with op atomic_add on signal[0, 1] mixes Set and AtomicAdd on the same cells}}
  pld.system.notify %signal[0, %same], peer %peer, value %v, op atomic_add : !pld.dtensor<1x2xi32>
  return
}

// -----

// Rank ids are bounded (semantics §1: at most 64 ranks): a tag of rank - 64 is
// negative on every rank, so an atomic add of it never makes the cell
// positive.
func.func @tag_below_zero(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %c64 = arith.constant 64 : i32
  %c1 = arith.constant 1 : i32
  %tag = arith.subi %me, %c64 : i32
  // expected-note @+1 {{adds a value in [-64, -1] here}}
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op atomic_add : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] ge 1 never returns: the cell never rises above 0}}
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// Near miss: rank + 1 is at least 1 on every rank.
func.func @tag_rank_plus_one(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %c1 = arith.constant 1 : i32
  %tag = arith.addi %me, %c1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// -----

// A Set of nranks (1..64) never makes the cell equal 65.
func.func @eq_out_of_range(%signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %n = pld.system.nranks %ctx
  %c65 = arith.constant 65 : i32
  // expected-note @+1 {{sets a value in [1, 64] here}}
  pld.system.notify %signal[0, 0], peer %peer, value %n, op set : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{wait for signal[0, 0] eq 65 never returns: the cell only holds values in [0, 64]}}
  pld.system.wait %signal[0, 0], expected %c65, cmp eq : !pld.dtensor<1x1xi32>
  // Near miss: eq 64 may hold.
  %c64 = arith.constant 64 : i32
  pld.system.wait %signal[0, 0], expected %c64, cmp eq : !pld.dtensor<1x1xi32>
  return
}

// -----

// Regions at computed offsets: halves pushed at column 0 and 16 + 15 leave
// a gap the whole-row read does not see written.
func.func @computed_gap(%data: !pld.dtensor<2x64xf32>, %half: memref<1x32xf32>, %out: memref<1x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %at = arith.addi %c16, %c15 : index
  %h = pl.load %half[0, 0] : memref<1x32xf32> -> !pl.tile<1x32xf32>
  // expected-note @+1 {{writes [0, 1) x [0, 32) here}}
  pld.tile.remote_store %h, %data[0, 0], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // expected-note @-1 {{the conflicting pld.tile.remote_store on rank 0}}
  // expected-note @+1 {{writes [0, 1) x [31, 63) here}}
  pld.tile.remote_store %h, %data[0, %at], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // expected-note @-1 {{the conflicting pld.tile.remote_store on rank 0}}
  // expected-error @+1 {{'pl.load' reads [0, 1) x [0, 64) of the window}}
  %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @-1 {{data race on 2 ranks with argument 3 of @computed_gap = 1, 0 on ranks 0, 1: this pl.load on rank 1 reads [0, 1}}
  pl.store %row, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// Near miss: 16 + 16 assembles the whole row.
func.func @computed_halves(%data: !pld.dtensor<2x64xf32>, %half: memref<1x32xf32>, %out: memref<1x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c16 = arith.constant 16 : index
  %at = arith.addi %c16, %c16 : index
  %h = pl.load %half[0, 0] : memref<1x32xf32> -> !pl.tile<1x32xf32>
  pld.tile.remote_store %h, %data[0, 0], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // expected-note @-1 {{the conflicting pld.tile.remote_store on rank 0}}
  pld.tile.remote_store %h, %data[0, %at], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // expected-note @-1 {{the conflicting pld.tile.remote_store on rank 0}}
  %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @-1 {{data race on 2 ranks with argument 3 of @computed_halves = 1, 0 on ranks 0, 1: this pl.load on rank 1 reads [0}}
  pl.store %row, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
