// Protocols for pld-run's serialized runs (schedules.test): one whose result
// is the schedule's choice, and the mesh allreduce the decomposition emits,
// written out by hand so that the test can break it one line at a time
// (each line a mutation touches ends in a MUTATION marker).

// Every rank but 0 sets rank 0's cell [0, 0] to its rank, then counts itself
// in cell [1, 0]; rank 0 waits for the count and keeps the last rank that
// wrote. The value is the schedule's to decide.
func.func @last_writer(%out: memref<1x1xi32>, %sig: !pld.dtensor<2x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<2x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %is_root = arith.cmpi eq, %me, %zero : i32
  scf.if %is_root {
    %others = arith.subi %n, %one : i32
    pld.system.wait %sig[1, 0], expected %others, cmp ge : !pld.dtensor<2x1xi32>
    %last = pl.read %sig[0, 0] : !pld.dtensor<2x1xi32>
    pl.write %last, %out[0, 0] : memref<1x1xi32>
  } else {
    pld.system.notify %sig[0, 0], peer %c0, value %me, op set : !pld.dtensor<2x1xi32>
    pld.system.notify %sig[1, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  }
  return
}

// The mesh allreduce of pld-decompose-collectives (semantics §4), once per call:
// announce the data is ready, wait for every peer's announcement, sum the
// peers' rows, announce the reads are done, wait for every peer's reads,
// store the sum, and take the two announcements back out of the cells (the
// epilogue) so that the next call starts from zero.
func.func private @allreduce_once(%data: !pld.dtensor<1x8xf32>, %sig: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n32 = pld.system.nranks %ctx
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %minus_two = arith.constant -2 : i32
  %ready_peers = arith.addi %c0, %n : index // MUTATION short-ready
  %done_peers = arith.addi %c0, %n : index // MUTATION short-done
  scf.for %p = %c0 to %n step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.notify %sig[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  scf.for %p = %c0 to %ready_peers step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.wait %sig[%p, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32> // MUTATION ready
    }
  }
  %own = pl.load %data[0, 0] : !pld.dtensor<1x8xf32> -> !pl.tile<1x8xf32>
  %sum = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %own) -> (!pl.tile<1x8xf32>) {
    %peer = arith.cmpi ne, %p, %me : index
    %next = scf.if %peer -> (!pl.tile<1x8xf32>) {
      %row = pld.tile.remote_load %data[0, 0], peer %p : !pld.dtensor<1x8xf32> -> !pl.tile<1x8xf32>
      %added = pl.add %acc, %row : !pl.tile<1x8xf32>
      scf.yield %added : !pl.tile<1x8xf32>
    } else {
      scf.yield %acc : !pl.tile<1x8xf32>
    }
    scf.yield %next : !pl.tile<1x8xf32>
  }
  scf.for %p = %c0 to %n step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.notify %sig[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  scf.for %p = %c0 to %done_peers step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.wait %sig[%p, 0], expected %two, cmp ge : !pld.dtensor<8x1xi32> // MUTATION reads-done
    }
  }
  pl.store %sum, %data[0, 0] : !pl.tile<1x8xf32>, !pld.dtensor<1x8xf32>
  scf.for %p = %c0 to %n step %c1 {
    %peer = arith.cmpi ne, %p, %me : index
    scf.if %peer {
      pld.system.notify %sig[%p, 0], peer %me, value %minus_two, op atomic_add : !pld.dtensor<8x1xi32> // MUTATION epilogue
    }
  }
  return
}

// Two allreduces in a row on one signal: the second relies on the first's
// epilogue.
func.func @allreduce_twice(%data: !pld.dtensor<1x8xf32>, %sig: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @allreduce_once(%data, %sig) : (!pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>) -> ()
  func.call @allreduce_once(%data, %sig) : (!pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>) -> ()
  return
}

// One allreduce.
func.func @allreduce(%data: !pld.dtensor<1x8xf32>, %sig: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @allreduce_once(%data, %sig) : (!pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>) -> ()
  return
}

// A twoshot_push allreduce, then a oneshot one, on a signal [3, 2]: their
// barriers counted on the second column, oneshot's entry among them.
func.func @counted(%d: !pld.dtensor<1x8xf32>, %s: !pld.dtensor<3x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.allreduce %d, %s, op sum algorithm twoshot_push : !pld.dtensor<1x8xf32>, !pld.dtensor<3x2xi32>
  %b = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x8xf32>, !pld.dtensor<3x2xi32>
  return
}
