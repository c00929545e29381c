// Allreduces that synchronise once per call (the epoch algorithms): three
// calls in a loop on one signal and workspace, the data changing between
// them, epochs first, first + 1, first + 2. Each call's result is
// n * (the previous result) + sum_r(bump), so a call that combined a
// stale or a future row of a peer's workspace shows in the numbers.
func.func @calls(%d: !pld.dtensor<1x300xf32>, %bump: memref<1x300xf32>,
                 %signal: !pld.dtensor<?x2xi32>, %ws: !pld.dtensor<2x300xf32>,
                 %first: index, %calls: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = pl.load %bump[0, 0] : memref<1x300xf32> -> !pl.tile<1x300xf32>
  scf.for %k = %c0 to %calls step %c1 {
    %epoch = arith.addi %first, %k : index
    %r = pld.tensor.allreduce %d, %signal, op sum epoch %epoch workspace %ws : !pld.dtensor<1x300xf32>, !pld.dtensor<?x2xi32>, !pld.dtensor<2x300xf32>
    %t = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
    %u = pl.add %t, %b : !pl.tile<1x300xf32>
    pl.store %u, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  }
  return
}

// On 4 vector cores of every rank (pld-run --blocks 4): block b reduces
// part b on columns 2b and 2b + 1 of the signal, two calls back to back.
func.func @cores(%d: !pld.dtensor<1x1000xf32>, %signal: !pld.dtensor<?x8xi32>,
                 %ws: !pld.dtensor<2x1000xf32>, %first: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %second = arith.addi %first, %c1 : index
  %r = pld.tensor.allreduce %d, %signal, op sum core_num 4 epoch %first workspace %ws : !pld.dtensor<1x1000xf32>, !pld.dtensor<?x8xi32>, !pld.dtensor<2x1000xf32>
  %s = pld.tensor.allreduce %d, %signal, op max core_num 4 epoch %second workspace %ws : !pld.dtensor<1x1000xf32>, !pld.dtensor<?x8xi32>, !pld.dtensor<2x1000xf32>
  return
}
