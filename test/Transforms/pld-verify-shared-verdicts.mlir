// The race rule decides entries with the same structure once (docs/pld-
// verify.md "Cost"): a module generated from a template repeats its kernels
// under other names. Only a verdict that found nothing is shared; a twin of
// a racy entry is run and diagnosed at its own ops, and a near twin (one
// constant, one callee apart) is run on its own.
// RUN: pld-opt %s --pld-verify --verify-diagnostics
// RUN: not pld-opt %s --pld-verify --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s
// A twin launched otherwise is another verdict: @ring_twin on two blocks
// races (both blocks put), @ring on one does not.
// RUN: not pld-opt %s --pld-verify='blocks=2 entry=ring_twin' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS --implicit-check-not='of @ring,'
// BLOCKS: data race on 2 ranks: this pld.tile.remote_store on rank 0 block 1 writes [0, 1) x [0, 64) of rank 1's argument 0 of @ring_twin

// Seven entries run: one of @ring and @ring_twin (the other shares its
// verdict), @ring_early and its twin (each diagnosed), one of @calls_step
// and @calls_step_twin (the other shares), @calls_step_early, @pairs and
// @blocks.
// CHECK: Pass statistics report
// CHECK: {{^}}  pld-verify
// CHECK-NEXT: (S) 3 errors
// CHECK-NEXT: (S) 7 race-entries-run
// CHECK-NEXT: (S) 4 race-entries-shared
// Each of the first six on 2, 3 and 4 ranks, @pairs_twin once on 3,
// @blocks and @blocks_twin once each, on 2.
// CHECK-NEXT: (S) 21 race-runs

// Every rank puts its row 1 into row 0 of the next rank and tells it; the
// next rank reads row 0 after its wait.
func.func @ring(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

func.func @ring_twin(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// The read before the wait, twice: each twin is diagnosed.
func.func @ring_early(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the conflicting pld.tile.remote_store}}
  pld.tile.remote_store %row, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  // expected-note @+1 {{a wait on that cell before the pl.load on rank 1 would order them}}
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  // expected-error @+1 {{data race on 2 ranks}}
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

func.func @ring_early_twin(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the conflicting pld.tile.remote_store}}
  pld.tile.remote_store %row, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  // expected-note @+1 {{a wait on that cell before the pl.load on rank 1 would order them}}
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  // expected-error @+1 {{data race on 2 ranks}}
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// Callers compare through their callees: @step and @step_twin are one
// structure under two names, @step_early reads before its wait.
func.func private @step(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

func.func private @step_twin(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

func.func private @step_early(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the conflicting pld.tile.remote_store}}
  pld.tile.remote_store %row, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  // expected-note @+1 {{a wait on that cell before the pl.load on rank 1 would order them}}
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  // expected-error @+1 {{data race on 2 ranks}}
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

func.func @calls_step(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @step(%data, %sig) : (!pld.dtensor<2x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  return
}

func.func @calls_step_twin(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @step_twin(%data, %sig) : (!pld.dtensor<2x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  return
}

func.func @calls_step_early(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @step_early(%data, %sig) : (!pld.dtensor<2x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  return
}

// A verdict with a rank count the entry fails on is shared too: the twin
// re-runs only the run that showed it, and is told at its own ops. Pairs
// `rank xor 1` leave rank 2 without a partner on 3 ranks.
func.func @pairs(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %peer = arith.xori %me, %c1 : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-remark @+1 {{@pairs does not complete on 3 ranks (name them in ranks= if it must): on 3 ranks it traps: rank 2's pld.tile.remote_store reaches peer 3, outside 0..3}}
  pld.tile.remote_store %row, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  pld.system.notify %sig[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

func.func @pairs_twin(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %peer = arith.xori %me, %c1 : index
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-remark @+1 {{@pairs_twin does not complete on 3 ranks (name them in ranks= if it must): on 3 ranks it traps: rank 2's pld.tile.remote_store reaches peer 3, outside 0..3}}
  pld.tile.remote_store %row, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  pld.system.notify %sig[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// So is an undecided one: the twin re-runs the run that left it undecided,
// and remarks at its own ops.
// expected-remark @+2 {{the race rule cannot decide @blocks on 2 ranks: a region with more than one block}}
// expected-note @+1 {{here}}
func.func @blocks(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[0, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  cf.br ^next
^next:
  pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  return
}

// expected-remark @+2 {{the race rule cannot decide @blocks_twin on 2 ranks: a region with more than one block}}
// expected-note @+1 {{here}}
func.func @blocks_twin(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[0, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  cf.br ^next
^next:
  pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  return
}
