// Every rank publishes its row into row `rank` of every peer's window, then
// waits for each peer in a scf.while over the peers: loops as users write
// them, counters carried as index through scf.for and scf.while.
func.func @gather(%sig: !pld.dtensor<8x1xi32>, %data: !pld.dtensor<8x64xf32>,
                  %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %mine = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %mine, %data[%me, 0] : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
  %sent = scf.for %p = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
    %other = arith.cmpi ne, %p, %me : index
    %next = scf.if %other -> (index) {
      pld.tile.remote_store %mine, %data[%me, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
      pld.system.notify %sig[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
      %more = arith.addi %count, %c1 : index
      scf.yield %more : index
    } else {
      scf.yield %count : index
    }
    scf.yield %next : index
  }
  %waited = scf.while (%k = %c0) : (index) -> index {
    %more = arith.cmpi ult, %k, %n : index
    scf.condition(%more) %k : index
  } do {
  ^bb0(%k: index):
    %other = arith.cmpi ne, %k, %me : index
    scf.if %other {
      pld.system.wait %sig[%k, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    }
    %k1 = arith.addi %k, %c1 : index
    scf.yield %k1 : index
  }
  return
}

// An allreduce in a loop on a signal [N, 2] (counted barriers, whose
// counters every call rearms before it waits): three sums in a row.
func.func @allreduce_loop(%data: !pld.dtensor<1x300xf32>, %signal: !pld.dtensor<8x2xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %r = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x300xf32>, !pld.dtensor<8x2xi32>
  }
  return
}
