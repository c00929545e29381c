// A barrier in a pl.spmd task of 2 blocks: each block would run the whole
// barrier on the one signal (blocks.test). pld-verify rejects the module,
// and pld-run refuses the launch at the barrier before anything is lowered.
func.func @spmd_barrier(%signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c2 = arith.constant 2 : index
  %t = pl.spmd %c2 name "sync" {
    pld.tensor.barrier %signal : !pld.dtensor<8x1xi32>
  }
  return
}
