// pld-verify judges collective operands by value (semantics §3): a broadcast's
// root lies in [0, N), N from the signal's shape, however the root is
// computed. (A literal root out of range is the op verifier's: see
// Dialect/Pld/invalid.mlir.) Each case has a near miss.
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics
// (No --canonicalize run: it folds a computed root into a literal, which the
// op verifier then rejects with the same words.)

// A root computed as 2 + 2 on a signal shaped for 4 ranks.
func.func @root_computed(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c2 = arith.constant 2 : index
  // expected-note @+1 {{the root is computed here}}
  %root = arith.addi %c2, %c2 : index
  // expected-error @+1 {{'pld.tensor.broadcast' op expected root in [0, N) = [0, 4), found 4}}
  %r = pld.tensor.broadcast %data, %signal, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// Near miss: 2 + 1 is 3, the last rank (of 4: the race rule, running 2
// and 3 ranks as well, says those are counts the program is not for).
func.func @root_last(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %root = arith.addi %c2, %c1 : index
  // expected-remark @+2 {{@root_last does not complete on 2 or 3 ranks}}
  // expected-note @+1 {{on 3 ranks it traps: rank 0's pld.tensor.broadcast names root 3, outside 0..3}}
  %r = pld.tensor.broadcast %data, %signal, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// Code split over host and kernel: the host broadcasts from rank 8 on a
// signal for 8 ranks (ranks are 0..7).
// expected-note @+1 {{the root is an argument of this function, which the module's calls decide}}
func.func @spread(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.broadcast' op expected root in [0, N) = [0, 8), found 8}}
  %r = pld.tensor.broadcast %data, %signal, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>
  return
}

func.func @host(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c8 = arith.constant 8 : index
  func.call @spread(%data, %signal, %c8) : (!pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>, index) -> ()
  return
}

// -----

// Near miss: the host broadcasts from rank 7, then from rank 0 (on 8
// ranks, its signal's rows; not on the race rule's 2, 3 and 4).
func.func @spread(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+3 {{@host does not complete on 2 or 3 or 4 ranks}}
  // expected-note @+2 {{on 3 ranks it traps}}
  // expected-note @+1 {{on 4 ranks it traps}}
  %r = pld.tensor.broadcast %data, %signal, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>
  return
}

func.func @host(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c7 = arith.constant 7 : index
  %c0 = arith.constant 0 : index
  func.call @spread(%data, %signal, %c7) : (!pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>, index) -> ()
  func.call @spread(%data, %signal, %c0) : (!pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>, index) -> ()
  return
}

// -----

// A root one past this rank's own index can be N - 1 + 1 = N, but may be
// in range on other ranks: ranges that overlap [0, N) are not errors of
// this rule. Run, the last rank names root N on every rank count: the race
// rule's error.
func.func @root_after_me(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %root = arith.addi %me, %c1 : index
  // expected-error @+3 {{@root_after_me completes on none of the rank counts tried (2, 3, 4): on 2 ranks, rank 1's pld.tensor.broadcast names root 2, outside 0..2}}
  // expected-note @+2 {{on 3 ranks, rank 2's pld.tensor.broadcast names root 3, outside 0..3}}
  // expected-note @+1 {{on 4 ranks, rank 3's pld.tensor.broadcast names root 4, outside 0..4}}
  %r = pld.tensor.broadcast %data, %signal, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// A root below every rank: rank - 64 is negative on every rank (semantics §1:
// at most 64 ranks).
func.func @root_negative(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %c64 = arith.constant 64 : i32
  %below32 = arith.subi %me32, %c64 : i32
  // expected-note @+1 {{the root is computed here}}
  %root = arith.index_cast %below32 : i32 to index
  // expected-error @+1 {{'pld.tensor.broadcast' op expected root in [0, N) = [0, 4), found a value in [-64, -1]}}
  %r = pld.tensor.broadcast %data, %signal, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}
