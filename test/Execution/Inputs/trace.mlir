// Kernels for pld-run --trace and --timeline (trace.test).

// A ring allreduce: every rank's waits, the notifies that release them.
func.func @ring(%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x?xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum mode ring : !pld.dtensor<1x?xf32>, !pld.dtensor<?x?xi32>
  return
}

// Counts in a cell until it reaches -1, which takes longer than the
// timeout: the thread never blocks, so only the timeout stops it, and the
// report says where it was.
func.func @spin(%count: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  %stop = arith.constant -1 : i32
  scf.while : () -> () {
    %v = pl.read %count[0, 0] : !pld.dtensor<2x1xi32>
    %more = arith.cmpi ne, %v, %stop : i32
    scf.condition(%more)
  } do {
    %v = pl.read %count[0, 0] : !pld.dtensor<2x1xi32>
    %next = arith.addi %v, %one : i32
    pl.write %next, %count[0, 0] : !pld.dtensor<2x1xi32>
    scf.yield
  }
  return
}

// A counter column: the other ranks add 1 to the root's cell [0, 1] once a
// round without waiting; the root waits for n - 1 a round and takes them
// back with an add of its own. The root's take-back is issued before later
// rounds' adds arrive, so the arrow to each wait must come from a peer's
// add, not from the take-back that reached the value in issue order.
func.func @take_back(%sig: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x2xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %n32 = arith.index_cast %n : index to i32
  %others = arith.subi %n32, %one : i32
  %back = arith.subi %zero, %others : i32
  %root = arith.cmpi eq, %me, %c0 : index
  scf.for %round = %c0 to %c3 step %c1 {
    scf.if %root {
      pld.system.wait %sig[0, 1], expected %others, cmp ge : !pld.dtensor<4x2xi32>
      pld.system.notify %sig[0, 1], peer %me, value %back, op atomic_add : !pld.dtensor<4x2xi32>
    } else {
      pld.system.notify %sig[0, 1], peer %c0, value %one, op atomic_add : !pld.dtensor<4x2xi32>
    }
  }
  return
}
