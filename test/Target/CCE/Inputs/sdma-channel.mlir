// A task that pulls a peer's row with SDMA: its kernel builds the session.
func.func @orchestrate(%out: memref<64xf32>, %in: !pld.dtensor<64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "pull" {
    pld.tensor.get %out, peer %peer, %in engine sdma : memref<64xf32>, !pld.dtensor<64xf32>
  }
  return
}
