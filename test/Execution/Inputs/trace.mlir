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
