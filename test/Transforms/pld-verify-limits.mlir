// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

// Bounds on what one run of the race rule may take.

// The race rule keeps a shadow per stretch of memory between the bounds of
// the byte intervals the accesses to written memory make: many strided
// accesses would take memory quadratic in them, so a run over 2^19
// intervals is not compared (conflicts.rs, MAX_INTERVALS).

// 600 column reads of a 1024-row window a peer writes a row of: 614400
// intervals on each rank.
// expected-note @+2 {{here}}
// expected-remark @+1 {{the race rule cannot decide @columns on 2 ranks: its accesses cut the memory they share into 1228802 separate intervals, more than the 524288 the rule compares}}
func.func @columns(%win: !pld.dtensor<1024x1024xf32>, %src: memref<1x1024xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c600 = arith.constant 600 : index
  %row = pl.load %src[0, 0] : memref<1x1024xf32> -> !pl.tile<1x1024xf32>
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
func.func @rows(%win: !pld.dtensor<1024x1024xf32>, %src: memref<1x1024xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c600 = arith.constant 600 : index
  %row = pl.load %src[0, 0] : memref<1x1024xf32> -> !pl.tile<1x1024xf32>
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

// -----

// A clock has an entry per thread for every event, so a run of many tasks
// (each a thread) takes memory quadratic in them; over 2^26 entries the run
// is not ordered (order.rs, MAX_CLOCK_ENTRIES). 3000 tasks a rank:
// expected-note @+2 {{here}}
// expected-remark @+1 {{the race rule cannot decide @many_tasks on 2 ranks: its 6002 threads and 30006 events need 180096012 vector clock entries, more than the 67108864 the rule keeps}}
func.func @many_tasks(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3000 = arith.constant 3000 : index
  scf.for %i = %c0 to %c3000 step %c1 {
    %t = pl.at level core_group name "push" {
      %ctx = pld.system.get_comm_ctx %data : !pld.dtensor<1x64xf32>
      %me = pld.system.rank %ctx : index
      %n = pld.system.nranks %ctx : index
      %next = arith.addi %me, %c1 : index
      %peer = arith.remui %next, %n : index
      %tile = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
      pld.tile.remote_store %tile, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
    }
  }
  return
}

// -----

// The near miss: 300 tasks a rank are ordered (and their pushes race).
func.func @some_tasks(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  scf.for %i = %c0 to %c300 step %c1 {
    %t = pl.at level core_group name "push" {
      %ctx = pld.system.get_comm_ctx %data : !pld.dtensor<1x64xf32>
      %me = pld.system.rank %ctx : index
      %n = pld.system.nranks %ctx : index
      %next = arith.addi %me, %c1 : index
      %peer = arith.remui %next, %n : index
      %tile = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
      // expected-error @+2 {{data race on 2 ranks}}
      // expected-note @+1 {{the conflicting pld.tile.remote_store}}
      pld.tile.remote_store %tile, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
    }
  }
  return
}
