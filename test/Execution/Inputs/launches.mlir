// Several launches of one program with its windows kept between them
// (pld-run --launches, PyPTO's persistent windows). Run by
// test/Execution/launches.test.

// PyPTO's self-notify credit reset (tests/st/distributed/
// test_l3_self_notify_credit_reset.py): each rank adds four credits to the
// next rank's cell, waits for its own cell to reach four and takes them
// back with one notify of -4 to itself, so the cell is 0 when the launch
// ends and the next launch starts afresh without a host-side reset.
func.func @credit_reset(%signal: !pld.dtensor<1x1xi32>, %out: memref<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %four = arith.constant 4 : i32
  %back = arith.constant -4 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  scf.for %i = %c0 to %c4 step %c1 {
    pld.system.notify %signal[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  }
  pld.system.wait %signal[0, 0], expected %four, cmp ge : !pld.dtensor<1x1xi32>
  pld.system.notify %signal[0, 0], peer %me, value %back, op atomic_add : !pld.dtensor<1x1xi32>
  %left = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
  pl.write %left, %out[0, 0] : memref<1x1xi32>
  return
}

// The near miss: without the credits taken back, the next launch's wait
// is met by the last launch's credits, and its read of the cell races with
// the next rank's new ones.
func.func @credit_kept(%signal: !pld.dtensor<1x1xi32>, %out: memref<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %four = arith.constant 4 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  scf.for %i = %c0 to %c4 step %c1 {
    pld.system.notify %signal[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  }
  pld.system.wait %signal[0, 0], expected %four, cmp ge : !pld.dtensor<1x1xi32>
  %left = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
  pl.write %left, %out[0, 0] : memref<1x1xi32>
  return
}

// A payload published with an epoch (PyPTO's persistent deferred
// completion carries its epoch in the payload and the signal): each launch
// pushes this rank's row to the next rank and sets its cell to the epoch;
// the next rank waits for the epoch and copies the row out. A launch's
// wait is met by its own epoch only, whatever the windows kept.
func.func @epoch_push(%x: memref<1x64xf32>, %row: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<1x1xi32>,
                      %out: memref<1x64xf32>, %epoch: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %t = pl.load %x[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %t, %row[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[0, 0], peer %next, value %epoch, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  %got = pl.load %row[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
