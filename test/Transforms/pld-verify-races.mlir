// pld-verify's race rule (docs/pld-verify.md, docs/design/races.md): every
// rank's run on 2, 3 and 4 ranks, ordered by pld's happens-before; each
// racy protocol with its race-free twin.
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics
// RUN: pld-opt %s --split-input-file --canonicalize --pld-verify --verify-diagnostics
// The decomposed collectives are race-free under the same rule: the seed's,
// and the one-shot allreduce, whose final stores are ordered only with the
// rank's own later accesses, as the model of a call has it.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=algorithm=seed --pld-verify --verify-diagnostics
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives='algorithm=oneshot remarks=false' --pld-verify --verify-diagnostics

// A read of a peer's data before the wait that orders its write.
func.func @read_early(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %is_writer = arith.cmpi eq, %me, %zero : i32
  scf.if %is_writer {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0}}
    pld.tile.remote_store %row, %data[1, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    // expected-note @+1 {{rank 0 notifies cell [0, 0] of rank 1 after the write; a wait on that cell before the pl.load on rank 1 would order them}}
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  } else {
    // expected-error @+1 {{data race on 2 ranks: this pl.load on rank 1 reads [1, 2) x [0, 64) of rank 1's argument 0 of @read_early, which pld.tile.remote_store on rank 0 writes ([1, 2) x [0, 64)), and no happens-before order puts one before the other}}
    %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    // expected-remark @-1 {{@read_early does not complete on 3 or 4 ranks}}
    // expected-note @-2 {{on 4 ranks it hangs}}
    pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}

// -----

// Near miss: the read after the wait.
func.func @read_after_wait(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %is_writer = arith.cmpi eq, %me, %zero : i32
  scf.if %is_writer {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[1, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  } else {
    pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    // expected-remark @-1 {{@read_after_wait does not complete on 3 or 4 ranks}}
    // expected-note @-2 {{on 4 ranks it hangs}}
    %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}

// -----

// Two writers of one row in one phase: there are two from 3 ranks on.
func.func @two_writers(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    pld.system.wait %sig[0, 0], expected %others, cmp ge : !pld.dtensor<4x1xi32>
  } else {
    %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    // expected-error @+2 {{data race on 3 ranks: this pld.tile.remote_store on rank 2 writes [0, 1) x [0, 64) of rank 0's argument 0 of @two_writers, which pld.tile.remote_store on rank 1 writes ([0, 1) x [0, 64))}}
    // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 1}}
    pld.tile.remote_store %row, %data[0, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// -----

// Near miss: each writer its own part of the row (rank r writes columns
// [16 (r - 1), 16 r)), and atomic adds into one region never race with
// each other (the root reads and rewrites the sum after all of them).
func.func @writers_apart(%data: !pld.dtensor<2x64xf32>, %acc: !pld.dtensor<1x16xi32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    pld.system.wait %sig[0, 0], expected %others, cmp ge : !pld.dtensor<4x1xi32>
    %sum = pl.load %acc[0, 0] : !pld.dtensor<1x16xi32> -> !pl.tile<1x16xi32>
    pl.store %sum, %acc[0, 0] : !pl.tile<1x16xi32>, !pld.dtensor<1x16xi32>
  } else {
    %slot = arith.subi %me, %c1 : index
    %col = arith.muli %slot, %c16 : index
    %part = pl.load %data[1, %col] : !pld.dtensor<2x64xf32> -> !pl.tile<1x16xf32>
    pld.tile.remote_store %part, %data[0, %col], peer %c0 : !pl.tile<1x16xf32>, !pld.dtensor<2x64xf32>
    %count = pl.load %acc[0, 0] : !pld.dtensor<1x16xi32> -> !pl.tile<1x16xi32>
    pld.tile.remote_store %count, %acc[0, 0], peer %c0 atomic add : !pl.tile<1x16xi32>, !pld.dtensor<1x16xi32>
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// -----

// Order relayed through rank 1, which waits for rank 0 and then notifies
// rank 2; without its wait, the relay orders nothing.
func.func @relay(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %is2 = arith.cmpi eq, %me, %c2 : index
  scf.if %is0 {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[1, 0], peer %c2 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    // expected-remark @-1 {{@relay does not complete on 2 ranks}}
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.if %is1 {
    pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    pld.system.notify %sig[1, 0], peer %c2, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.if %is2 {
    pld.system.wait %sig[1, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}

// -----

func.func @relay_without_wait(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %is2 = arith.cmpi eq, %me, %c2 : index
  scf.if %is0 {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0}}
    pld.tile.remote_store %row, %data[1, 0], peer %c2 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    // expected-remark @-1 {{@relay_without_wait does not complete on 2 ranks}}
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.if %is1 {
    pld.system.notify %sig[1, 0], peer %c2, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  scf.if %is2 {
    pld.system.wait %sig[1, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    // expected-error @+1 {{data race on 3 ranks: this pl.load on rank 2 reads [1, 2) x [0, 64) of rank 2's argument 0 of @relay_without_wait, which pld.tile.remote_store on rank 0 writes}}
    %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}

// -----

// Counting: rank 0 waits for n - 2 of the n - 1 contributions, so the last
// contributor's payload is not ordered before its read (on 2 ranks the
// wait counts none; with n - 1 it would order all, the near miss below).
func.func @counting_short(%data: !pld.dtensor<4x64xf32>, %sig: !pld.dtensor<4x1xi32>, %out: memref<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %fewer = arith.subi %n32, %two : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    // expected-note @+1 {{this wait (>= 0) is too weak to order them: it can hold before rank 1's notify of the same cell}}
    pld.system.wait %sig[0, 0], expected %fewer, cmp ge : !pld.dtensor<4x1xi32>
    scf.for %p = %c1 to %n step %c1 {
      // expected-error @+1 {{data race on 2 ranks: this pl.load on rank 0 reads [1, 2) x [0, 64) of rank 0's argument 0 of @counting_short, which pld.tile.remote_store on rank 1 writes ([1, 2) x [0, 64))}}
      %row = pl.load %data[%p, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
      pl.store %row, %out[%p, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>
    }
  } else {
    %mine = pl.load %data[0, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
    // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 1}}
    pld.tile.remote_store %mine, %data[%me, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
    // expected-note @+1 {{the notify on rank 1 that it does not count}}
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// -----

func.func @counting_all(%data: !pld.dtensor<4x64xf32>, %sig: !pld.dtensor<4x1xi32>, %out: memref<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    pld.system.wait %sig[0, 0], expected %others, cmp ge : !pld.dtensor<4x1xi32>
    scf.for %p = %c1 to %n step %c1 {
      %row = pl.load %data[%p, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
      pl.store %row, %out[%p, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>
    }
  } else {
    %mine = pl.load %data[0, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %mine, %data[%me, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// -----

// The seed's barrier twice on the same cells with the same expected value:
// the second wait holds on the first phase's notifies and orders nothing,
// so a rank overwrites the row its neighbour still reads.
func.func @barrier_twice(%data: !pld.dtensor<8x64xf32>, %sig: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %nextp = arith.addi %me, %c1 : index
  %next = arith.remui %nextp, %n : index
  scf.for %p = %c0 to %n step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.notify %sig[0, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  pld.system.wait %sig[0, 0], expected %others, cmp ge : !pld.dtensor<8x1xi32>
  // expected-error @+1 {{data race on 2 ranks: this pld.tile.remote_load on rank}}
  %row = pld.tile.remote_load %data[0, 0], peer %next : !pld.dtensor<8x64xf32> -> !pl.tile<1x64xf32>
  scf.for %p = %c0 to %n step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      // expected-note @+1 {{that it does not count}}
      pld.system.notify %sig[0, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  // expected-note @+1 {{this wait (>= 1) is too weak to order them}}
  pld.system.wait %sig[0, 0], expected %others, cmp ge : !pld.dtensor<8x1xi32>
  // expected-note @+1 {{the conflicting pl.store on rank}}
  pl.store %row, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
  return
}

// -----

// Near miss: the second phase waits for twice as many.
func.func @barrier_rising(%data: !pld.dtensor<8x64xf32>, %sig: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %twice = arith.addi %others, %others : i32
  %nextp = arith.addi %me, %c1 : index
  %next = arith.remui %nextp, %n : index
  scf.for %p = %c0 to %n step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.notify %sig[0, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  pld.system.wait %sig[0, 0], expected %others, cmp ge : !pld.dtensor<8x1xi32>
  %row = pld.tile.remote_load %data[0, 0], peer %next : !pld.dtensor<8x64xf32> -> !pl.tile<1x64xf32>
  scf.for %p = %c0 to %n step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.notify %sig[0, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  pld.system.wait %sig[0, 0], expected %twice, cmp ge : !pld.dtensor<8x1xi32>
  pl.store %row, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
  return
}

// -----

// Tasks of one rank: the consumer reads what the producer stores only after
// it through `deps`; without them the two run concurrently.
func.func @tasks_unordered(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %produce = pl.at level core_group name "produce" {
    %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    // expected-note @+1 {{the conflicting pl.store on rank 0 task "produce"}}
    pl.store %t, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  %consume = pl.at level core_group name "consume" {
    // expected-error @+1 {{data race on 2 ranks: this pl.load on rank 0 task "consume" reads [0, 1) x [0, 64) of rank 0's argument 0 of @tasks_unordered, which pl.store on rank 0 task "produce" writes}}
    %t = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

func.func @tasks_ordered(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %produce = pl.at level core_group name "produce" {
    %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  %consume = pl.at level core_group name "consume" deps [%produce] {
    %t = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

// A deferred waiter: its consumer is ordered after the peer's payload
// through the waiter's completion, computed from the rank.
func.func @push(%payload: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<2x1xi32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %peer = arith.subi %c1, %me : index
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  // expected-remark @-1 {{@deferred does not complete on 3 or 4 ranks}}
  // expected-note @-2 {{on 4 ranks it traps}}
  pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

func.func @deferred(%payload: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<2x1xi32>, %src: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @push(%payload, %signal, %src) : (!pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>, memref<1x64xf32>) -> ()
  %wait = pl.at level core_group name "payload_wait" {
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
    %me32 = pld.system.rank %ctx
    %me = arith.index_cast %me32 : i32 to index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %peer = arith.subi %c1, %me : index
    pld.system.defer_wait %signal[%peer, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  }
  %consume = pl.at level core_group name "consume" deps [%wait] {
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

// A collective orders every rank's accesses before it before its reads of
// the peers' data, and those before every rank's accesses after it; a
// rank's own final stores are ordered only with its own later accesses. A
// peer's read of a target right after the call races with them (after
// decomposition, with the pl.store of the sum); a barrier in between is
// the near miss below.
func.func @after_allreduce(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>, %m: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %nextp = arith.addi %me, %c1 : index
  %next = arith.remui %nextp, %n : index
  %t = pl.load %m[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  // expected-note @+1 {{the conflicting}}
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  // expected-error @+1 {{data race on 2 ranks: this pld.tile.remote_load on rank 1 reads [0, 1) x [0, 64) of rank 0's argument 0 of @after_allreduce, which}}
  %sum = pld.tile.remote_load %d[0, 0], peer %next : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %sum, %m[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

func.func @barrier_after_allreduce(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>, %b: !pld.dtensor<4x1xi32>, %m: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %nextp = arith.addi %me, %c1 : index
  %next = arith.remui %nextp, %n : index
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  %own = pl.load %d[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %own, %m[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  pld.tensor.barrier %b : !pld.dtensor<4x1xi32>
  %sum = pld.tile.remote_load %d[0, 0], peer %next : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %sum, %m[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// The consumer without the waiter's id among its deps is not ordered after
// the peer's payload.
func.func @push_early(%payload: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<2x1xi32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %peer = arith.subi %c1, %me : index
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0 kernel @push_early}}
  pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  // expected-remark @-1 {{@undeferred does not complete on 3 or 4 ranks}}
  // expected-note @-2 {{on 4 ranks it traps}}
  // expected-note @+1 {{rank 0 kernel @push_early notifies cell [0, 0] of rank 1 after the write; a wait on that cell before the pl.load on rank 1 task "consume" would order them}}
  pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

func.func @undeferred(%payload: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<2x1xi32>, %src: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @push_early(%payload, %signal, %src) : (!pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>, memref<1x64xf32>) -> ()
  %wait = pl.at level core_group name "payload_wait" {
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
    %me32 = pld.system.rank %ctx
    %me = arith.index_cast %me32 : i32 to index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %peer = arith.subi %c1, %me : index
    pld.system.defer_wait %signal[%peer, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  }
  %consume = pl.at level core_group name "consume" {
    // expected-error @+1 {{data race on 2 ranks: this pl.load on rank 1 task "consume" reads [0, 1) x [0, 64) of rank 1's argument 0 of @undeferred, which pld.tile.remote_store on rank 0 kernel @push_early writes}}
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

// An integer read from a window is what the writes ordered before the
// read left there, on a window that starts zeroed: here nothing writes the
// cell, so every rank reads peer 0 and both push into rank 0's row.
func.func @peer_from_a_fresh_window(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>, %peers: !pld.dtensor<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  %p32 = pl.read %peers[0, 0] : !pld.dtensor<1x1xi32>
  %peer = arith.index_cast %p32 : i32 to index
  // expected-error @+2 {{data race on 2 ranks: this pld.tile.remote_store on rank 1 writes [0, 1) x [0, 64) of rank 0's argument 0 of @peer_from_a_fresh_window, which pld.tile.remote_store on rank 0 writes ([0, 1) x [0, 64)), and no happens-before order puts one before the other}}
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0}}
  pld.tile.remote_store %t, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// -----

// The near miss: each rank writes its next rank into its own cell first,
// and reads that back: every rank pushes to its own next rank.
func.func @peer_written_first(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>, %peers: !pld.dtensor<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %peers : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %next0 = arith.addi %me, %c1 : i32
  %next = arith.remui %next0, %n : i32
  pl.write %next, %peers[0, 0] : !pld.dtensor<1x1xi32>
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  %p32 = pl.read %peers[0, 0] : !pld.dtensor<1x1xi32>
  %peer = arith.index_cast %p32 : i32 to index
  pld.tile.remote_store %t, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// -----

// What the rule cannot decide it says in a remark: here the peer is read
// from a window a tile's store wrote, whose values the rule does not follow.
// expected-remark @+1 {{the race rule cannot decide @unknown_peer on 2 ranks: the peer of pld.tile.remote_store is not known}}
func.func @unknown_peer(%data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>, %peers: !pld.dtensor<1x1xi32>, %given: memref<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  %g = pl.load %given[0, 0] : memref<1x1xi32> -> !pl.tile<1x1xi32>
  pl.store %g, %peers[0, 0] : !pl.tile<1x1xi32>, !pld.dtensor<1x1xi32>
  %p32 = pl.read %peers[0, 0] : !pld.dtensor<1x1xi32>
  %peer = arith.index_cast %p32 : i32 to index
  // expected-note @+1 {{here}}
  pld.tile.remote_store %t, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// -----

// A peer and a tag passed in (the seed's handshake_step): the rule runs the
// peers a host loop computes (r + k mod n, r xor k) and the tag as 1, and
// each rank's row of `out` is written by its one partner: no race.
func.func @handshake_step(%src: memref<1x64xf32>, %out: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<1x1xi32>, %peer: index, %tag: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %t, %out[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %tag, cmp ge : !pld.dtensor<1x1xi32>
  %got = pl.load %out[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %src[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// The same with the payload written after the notify: the partner may read
// it first, under the assignment the diagnostic names.
func.func @handshake_step_late_payload(%src: memref<1x64xf32>, %out: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<1x1xi32>, %peer: index, %tag: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the notify that publishes it}}
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  // expected-note @+2 {{the conflicting pld.tile.remote_store on rank 0}}
  // expected-error @+1 {{'pld.tile.remote_store' writes a payload after the notify that publishes it}}
  pld.tile.remote_store %t, %out[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.wait %signal[0, 0], expected %tag, cmp ge : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{data race on 2 ranks with argument 3 of @handshake_step_late_payload = 1, 0 on ranks 0, 1 and argument 4 of @handshake_step_late_payload = 1 on every rank: this pl.load on rank 1 reads [0, 1) x [0, 64) of rank 1's argument 1 of @handshake_step_late_payload, which pld.tile.remote_store on rank 0 writes}}
  %got = pl.load %out[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %src[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// An argument whose location names it (as the Python package locates a
// parameter) is named in the report; an op name around a location (as the
// decomposition puts around what it builds) is not a name.
func.func @named(%data: !pld.dtensor<2x64xf32> loc("data"("k.py":3:5)), %sig: !pld.dtensor<4x1xi32> loc("pld.tensor.put"("k.py":4:5))) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %is_writer = arith.cmpi eq, %me, %zero : i32
  scf.if %is_writer {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0}}
    pld.tile.remote_store %row, %data[1, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    // expected-note @+1 {{rank 0 notifies cell [0, 0] of rank 1 after the write}}
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  } else {
    // expected-error @+1 {{data race on 2 ranks: this pl.load on rank 1 reads [1, 2) x [0, 64) of rank 1's argument 'data' of @named, which pld.tile.remote_store on rank 0 writes}}
    %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    // expected-remark @-1 {{@named does not complete on 3 or 4 ranks (name them in ranks= if it must): on 3 ranks it hangs: pld.system.wait on rank 2 never returns: it waits on cell [0, 0] of rank 2's argument 1 of @named}}
    // expected-note @-2 {{on 4 ranks it hangs}}
    pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}

// -----

// A collective's result is its target: a peer's target read through it
// right after the call races with the peer's own final writes (it used to
// be "the memory pld.tile.remote_load accesses is not known").
func.func @result_read_early(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<8x1xi32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<8x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %c1 = arith.constant 1 : index
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  // The decomposed allreduce's final pl.store is the write that races.
  // expected-note @+1 {{the conflicting}}
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>
  // expected-error @+1 {{data race on 2 ranks: this pld.tile.remote_load on rank 1 reads [0, 1) x [0, 64) of rank 0's argument 0 of @result_read_early, which}}
  %t = pld.tile.remote_load %r[0, 0], peer %next : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// Near miss: a barrier after the collective orders every rank's final
// writes before the reads.
func.func @result_read_after_barrier(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<8x1xi32>, %b: !pld.dtensor<8x1xi32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<8x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %c1 = arith.constant 1 : index
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>
  pld.tensor.barrier %b : !pld.dtensor<8x1xi32>
  %t = pld.tile.remote_load %r[0, 0], peer %next : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
