// pld-verify follows integers a program reads from windows: what the
// writes ordered before a read left there (docs/pld-verify.md, "Integers
// read from windows"). Here every rank publishes a count into a row per
// source of every rank's window, waits for every peer's, and takes the
// prefix sum of the counts before it as its first row in rank 0's inbox,
// as MoE's dispatch takes its slots.
// RUN: pld-opt %s --split-input-file --pld-verify=ranks=2,3,4 --verify-diagnostics

func.func @prefix_rows(%counts: !pld.dtensor<4x1xi32>, %done: !pld.dtensor<4x1xi32>,
                       %inbox: !pld.dtensor<16x8xf32>, %rows: memref<4x8xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %counts : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  // Rank r sends r + 1 rows.
  %me32 = arith.index_cast %me : index to i32
  %mine = arith.addi %me32, %one : i32
  scf.for %peer = %c0 to %n step %c1 {
    pld.system.notify %counts[%me, 0], peer %peer, value %mine, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.for %peer = %c0 to %n step %c1 {
    pld.system.notify %done[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.for %src = %c0 to %n step %c1 {
    pld.system.wait %done[%src, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  }
  %first = scf.for %s = %c0 to %me step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = pl.read %counts[%s, 0] : !pld.dtensor<4x1xi32>
    %sum = arith.addi %acc, %v : i32
    scf.yield %sum : i32
  }
  %row0 = arith.index_cast %first : i32 to index
  %count = arith.index_cast %mine : i32 to index
  scf.for %i = %c0 to %count step %c1 {
    %row = arith.addi %row0, %i : index
    %t = pl.load %rows[%i, 0] : memref<4x8xf32> -> !pl.tile<1x8xf32>
    pld.tile.remote_store %t, %inbox[%row, 0], peer %c0 : !pl.tile<1x8xf32>, !pld.dtensor<16x8xf32>
  }
  return
}

// -----

// The near miss: without the wait, a rank may read a count before the peer
// adds it, and the read races with the notify; reading 0 there, rank 1
// takes row 0, which rank 0 writes too.
func.func @prefix_rows_unwaited(%counts: !pld.dtensor<4x1xi32>, %inbox: !pld.dtensor<16x8xf32>,
                                %rows: memref<4x8xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %counts : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %me32 = arith.index_cast %me : index to i32
  %mine = arith.addi %me32, %one : i32
  scf.for %peer = %c0 to %n step %c1 {
    // expected-note @+1 {{the conflicting pld.system.notify on rank 0}}
    pld.system.notify %counts[%me, 0], peer %peer, value %mine, op atomic_add : !pld.dtensor<4x1xi32>
  }
  %first = scf.for %s = %c0 to %me step %c1 iter_args(%acc = %zero) -> (i32) {
    // expected-error @+1 {{data race on 2 ranks: this pl.read on rank 1 reads [0, 1) x [0, 1) of rank 1's argument 0 of @prefix_rows_unwaited, which pld.system.notify on rank 0 notifies (cell [0, 0]), and no happens-before order puts one before the other}}
    %v = pl.read %counts[%s, 0] : !pld.dtensor<4x1xi32>
    %sum = arith.addi %acc, %v : i32
    scf.yield %sum : i32
  }
  %row0 = arith.index_cast %first : i32 to index
  %count = arith.index_cast %mine : i32 to index
  scf.for %i = %c0 to %count step %c1 {
    %row = arith.addi %row0, %i : index
    %t = pl.load %rows[%i, 0] : memref<4x8xf32> -> !pl.tile<1x8xf32>
    // expected-error @+2 {{data race on 2 ranks: this pld.tile.remote_store on rank 1 writes [0, 1) x [0, 8) of rank 0's argument 1 of @prefix_rows_unwaited, which pld.tile.remote_store on rank 0 writes ([0, 1) x [0, 8)), and no happens-before order puts one before the other}}
    // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0}}
    pld.tile.remote_store %t, %inbox[%row, 0], peer %c0 : !pl.tile<1x8xf32>, !pld.dtensor<16x8xf32>
  }
  return
}

// -----

// The near miss of the sum: every rank takes row 0 (from its own count,
// not the counts before it), so the ranks' rows overlap in rank 0's inbox.
// The first run, before the counts are known, reads 0 and traps on row -1;
// that trap is not the program's: the run goes on with the other ranks, and
// the next run reads the counts.
func.func @rows_from_own_count(%counts: !pld.dtensor<4x1xi32>, %done: !pld.dtensor<4x1xi32>,
                               %inbox: !pld.dtensor<16x8xf32>, %rows: memref<4x8xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %counts : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %me32 = arith.index_cast %me : index to i32
  %mine = arith.addi %me32, %one : i32
  scf.for %peer = %c0 to %n step %c1 {
    pld.system.notify %counts[%me, 0], peer %peer, value %mine, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.for %peer = %c0 to %n step %c1 {
    pld.system.notify %done[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.for %src = %c0 to %n step %c1 {
    pld.system.wait %done[%src, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  }
  // Row (count - 1 - rank) = 0 on every rank.
  %v = pl.read %counts[%me, 0] : !pld.dtensor<4x1xi32>
  %v1 = arith.subi %v, %one : i32
  %first = arith.subi %v1, %me32 : i32
  %row = arith.index_cast %first : i32 to index
  %t = pl.load %rows[0, 0] : memref<4x8xf32> -> !pl.tile<1x8xf32>
  // expected-error @+2 {{data race on 2 ranks: this pld.tile.remote_store on rank 1 writes [0, 1) x [0, 8) of rank 0's argument 2 of @rows_from_own_count, which pld.tile.remote_store on rank 0 writes ([0, 1) x [0, 8)), and no happens-before order puts one before the other}}
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0}}
  pld.tile.remote_store %t, %inbox[%row, 0], peer %c0 : !pl.tile<1x8xf32>, !pld.dtensor<16x8xf32>
  return
}

// -----

// A trap on a value that settled is the program's: the row is minus the
// count, negative on every rank once the counts are read.
func.func @negative_row(%counts: !pld.dtensor<4x1xi32>, %done: !pld.dtensor<4x1xi32>,
                        %inbox: !pld.dtensor<16x8xf32>, %rows: memref<4x8xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %counts : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  scf.for %peer = %c0 to %n step %c1 {
    pld.system.notify %counts[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.for %peer = %c0 to %n step %c1 {
    pld.system.notify %done[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.for %src = %c0 to %n step %c1 {
    pld.system.wait %done[%src, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  }
  %v = pl.read %counts[%me, 0] : !pld.dtensor<4x1xi32>
  %minus = arith.subi %zero, %v : i32
  %row = arith.index_cast %minus : i32 to index
  %t = pl.load %rows[0, 0] : memref<4x8xf32> -> !pl.tile<1x8xf32>
  // expected-error @+3 {{@negative_row completes on none of the rank counts tried (2, 3, 4): on 2 ranks, rank 0's pld.tile.remote_store touches [-1, 0) x [0, 8) of rank 0's argument 2 of @negative_row, whose shape is 16x8}}
  // expected-note @+2 {{on 3 ranks}}
  // expected-note @+1 {{on 4 ranks}}
  pld.tile.remote_store %t, %inbox[%row, 0], peer %c0 : !pl.tile<1x8xf32>, !pld.dtensor<16x8xf32>
  return
}
