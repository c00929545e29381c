// The user's mistake the parity guards against: two calls with the same
// epoch. The second call's waits are satisfied by the first call's flags,
// so it may read a peer's workspace row while that peer rewrites it.
func.func @same_epoch(%d: !pld.dtensor<1x300xf32>, %signal: !pld.dtensor<3x2xi32>,
                      %ws: !pld.dtensor<2x300xf32>, %epoch: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %signal, op sum epoch %epoch workspace %ws : !pld.dtensor<1x300xf32>, !pld.dtensor<3x2xi32>, !pld.dtensor<2x300xf32>
  %s = pld.tensor.allreduce %d, %signal, op sum epoch %epoch workspace %ws : !pld.dtensor<1x300xf32>, !pld.dtensor<3x2xi32>, !pld.dtensor<2x300xf32>
  return
}
