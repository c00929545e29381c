// pld-verify's race rule runs an integer read from the entry's memory
// (`pl.read` of an argument at known offsets) as the host put it there, as
// an argument: PyPTO's tests read their epoch so
// (docs/pld-verify.md, "Integers read from the entry's memory").
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

// PyPTO's test_l3_deferred_completion: each waiter reads the epoch from
// `inp` and defers on it; the publisher writes the payload, then sets the
// epoch into the peer's signal. Decided (no remark), race-free.
func.func @deferred_completion(%inp: memref<1x8xi32>, %out: memref<4x8xi32>, %payload: !pld.dtensor<1x8xi32>,
                               %signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %slot = %c0 to %c4 step %c1 {
    %wait = pl.at level core_group name "deferred_wait" {
      %epoch = pl.read %inp[0, 0] : memref<1x8xi32>
      pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
    }
    %consume = pl.at level core_group name "completion_consumer" deps [%wait] {
      %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
      pl.store %t, %out[%slot, 0] : !pl.tile<1x8xi32>, memref<4x8xi32>
    }
  }
  %publish = pl.at level core_group name "delayed_publisher" {
    %t = pl.load %inp[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
    pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
    %epoch = pl.read %inp[0, 0] : memref<1x8xi32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
  }
  return
}

// -----

// The near miss: the publisher notifies before it writes the payload. The
// payload-order rule says so, and the race rule shows the race under the
// values run, the epoch read from memory among them.
func.func @notify_first(%inp: memref<1x8xi32>, %out: memref<1x8xi32>, %payload: !pld.dtensor<1x8xi32>,
                        %signal: !pld.dtensor<1x1xi32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  %wait = pl.at level core_group name "deferred_wait" {
    %epoch = pl.read %inp[0, 0] : memref<1x8xi32>
    pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  }
  %consume = pl.at level core_group name "completion_consumer" deps [%wait] {
    // expected-error @+1 {{data race on 2 ranks with argument 4 of @notify_first = 1, 0 on ranks 0, 1 and [0, 0] of argument 0 of @notify_first = 1 on every rank: this pl.load on rank 0 task "completion_consumer" reads [0, 1) x [0, 8) of rank 0's argument 2 of @notify_first, which pld.tile.remote_store on rank 1 task "delayed_publisher" writes}}
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
    pl.store %t, %out[0, 0] : !pl.tile<1x8xi32>, memref<1x8xi32>
  }
  %publish = pl.at level core_group name "delayed_publisher" {
    %epoch = pl.read %inp[0, 0] : memref<1x8xi32>
    // expected-note @+1 {{the notify that publishes it}}
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
    %t = pl.load %inp[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
    // expected-error @+2 {{'pld.tile.remote_store' writes a payload after the notify that publishes it}}
    // expected-note @+1 {{the conflicting pld.tile.remote_store}}
    pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
  }
  return
}

// -----

// What the program writes is not what a host passes: reading the epoch
// from an element the program also writes leaves the rule undecided.
// expected-remark @+1 {{the race rule cannot decide @rewritten_epoch on 2 ranks: it reads [0, 0] of argument 0 of @rewritten_epoch as a value the host passes, and writes it (pl.write)}}
func.func @rewritten_epoch(%inp: memref<1x8xi32>, %signal: !pld.dtensor<1x1xi32>, %peer: index)
    attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{here}}
  %epoch = pl.read %inp[0, 0] : memref<1x8xi32>
  %next = arith.addi %epoch, %epoch : i32
  pl.write %next, %inp[0, 0] : memref<1x8xi32>
  pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// -----

// Near miss: a value read and written back that decides nothing (a count
// raised for the next call, as Execution/Inputs/all-to-all-v.mlir does) is
// data, not an argument: decided.
func.func @raised_count(%inp: memref<1x8xi32>, %signal: !pld.dtensor<1x1xi32>, %peer: index)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  %count = pl.read %inp[0, 0] : memref<1x8xi32>
  %more = arith.addi %count, %one : i32
  pl.write %more, %inp[0, 0] : memref<1x8xi32>
  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// -----

// A count a kernel keeps in its scratch argument and reads back (as MoE's
// cursors, PyPTO's pl.array) is what it wrote there, not a host's value:
// three increments from 0 make 3, and each rank pushes its rows at
// rank * 3 of rank 0's inbox.
func.func @counter_in_scratch(%rows: memref<1x8xf32>, %inbox: !pld.dtensor<16x8xf32>,
                              %scratch: memref<1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %inbox : !pld.dtensor<16x8xf32>
  %me = pld.system.rank %ctx : index
  pl.write %zero, %scratch[%c0] : memref<1xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = pl.read %scratch[%c0] : memref<1xi32>
    %next = arith.addi %v, %one : i32
    pl.write %next, %scratch[%c0] : memref<1xi32>
  }
  %count32 = pl.read %scratch[%c0] : memref<1xi32>
  %count = arith.index_cast %count32 : i32 to index
  %row = arith.muli %me, %count : index
  %t = pl.load %rows[0, 0] : memref<1x8xf32> -> !pl.tile<1x8xf32>
  pld.tile.remote_store %t, %inbox[%row, 0], peer %c0 : !pl.tile<1x8xf32>, !pld.dtensor<16x8xf32>
  return
}

// -----

// The near miss: the row is the count itself, 3 on every rank.
func.func @counter_as_the_row(%rows: memref<1x8xf32>, %inbox: !pld.dtensor<16x8xf32>,
                              %scratch: memref<1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  pl.write %zero, %scratch[%c0] : memref<1xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = pl.read %scratch[%c0] : memref<1xi32>
    %next = arith.addi %v, %one : i32
    pl.write %next, %scratch[%c0] : memref<1xi32>
  }
  %count32 = pl.read %scratch[%c0] : memref<1xi32>
  %row = arith.index_cast %count32 : i32 to index
  %t = pl.load %rows[0, 0] : memref<1x8xf32> -> !pl.tile<1x8xf32>
  // expected-error @+2 {{data race on 2 ranks: this pld.tile.remote_store on rank 1 writes [3, 4) x [0, 8) of rank 0's argument 1 of @counter_as_the_row, which pld.tile.remote_store on rank 0 writes ([3, 4) x [0, 8)), and no happens-before order puts one before the other}}
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0}}
  pld.tile.remote_store %t, %inbox[%row, 0], peer %c0 : !pl.tile<1x8xf32>, !pld.dtensor<16x8xf32>
  return
}
