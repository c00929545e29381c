// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

// The race rule keeps a shadow per stretch of memory between the bounds of
// the byte intervals the accesses to written memory make: many strided
// accesses would take memory quadratic in them, so a run over 2^19
// intervals is not compared (conflicts.rs, MAX_INTERVALS).

// 600 column reads of a 1024-row window a peer writes a row of: 614400
// intervals on each rank.
// expected-note @+2 {{here}}
// expected-remark @+1 {{the race rule cannot decide @columns on 2 ranks: its accesses cut the memory they share into 1228802 separate intervals, more than the 524288 the rule compares}}
func.func @columns(%win: !pld.dtensor<1024x1024xf32>, %row: !pl.tile<1x1024xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c600 = arith.constant 600 : index
  %ctx = pld.system.get_comm_ctx %win : !pld.dtensor<1024x1024xf32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next = arith.addi %me, %c1 : index
  %peer = arith.remui %next, %n : index
  pld.tile.remote_store %row, %win[1023, 0], peer %peer : !pl.tile<1x1024xf32>, !pld.dtensor<1024x1024xf32>
  scf.for %j = %c0 to %c600 step %c1 {
    %col = pl.load %win[0, %j] : !pld.dtensor<1024x1024xf32> -> !pl.tile<1024x1xf32>
  }
  return
}

// -----

// The near miss: 600 row reads are 600 intervals (decided: no remark; rows
// 0-599 do not meet row 1023).
func.func @rows(%win: !pld.dtensor<1024x1024xf32>, %row: !pl.tile<1x1024xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c600 = arith.constant 600 : index
  %ctx = pld.system.get_comm_ctx %win : !pld.dtensor<1024x1024xf32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next = arith.addi %me, %c1 : index
  %peer = arith.remui %next, %n : index
  pld.tile.remote_store %row, %win[1023, 0], peer %peer : !pl.tile<1x1024xf32>, !pld.dtensor<1024x1024xf32>
  scf.for %j = %c0 to %c600 step %c1 {
    %r = pl.load %win[%j, 0] : !pld.dtensor<1024x1024xf32> -> !pl.tile<1x1024xf32>
  }
  return
}
