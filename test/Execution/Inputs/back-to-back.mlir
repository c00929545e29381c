// Three collectives back to back on one signal, the input changing between
// them: an allreduce sum, then (after adding a per-rank bump) an allreduce
// max, then (after another bump) a broadcast from %root.
func.func @three(%d: !pld.dtensor<1x300xf32>, %bump: memref<1x300xf32>,
                 %signal: !pld.dtensor<?x1xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %d, %signal, op sum : !pld.dtensor<1x300xf32>, !pld.dtensor<?x1xi32>
  %b = pl.load %bump[0, 0] : memref<1x300xf32> -> !pl.tile<1x300xf32>
  %t0 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u0 = pl.add %t0, %b : !pl.tile<1x300xf32>
  pl.store %u0, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %max = pld.tensor.allreduce %d, %signal, op max : !pld.dtensor<1x300xf32>, !pld.dtensor<?x1xi32>
  %t1 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u1 = pl.add %t1, %b : !pl.tile<1x300xf32>
  pl.store %u1, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %all = pld.tensor.broadcast %d, %signal, root %root : !pld.dtensor<1x300xf32>, !pld.dtensor<?x1xi32>
  return
}
