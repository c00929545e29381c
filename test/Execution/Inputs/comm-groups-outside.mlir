// A comm group's kernel run on a rank outside the group (the near miss of
// Inputs/comm-groups.mlir's guard), which pld-verify rejects and the
// simulator traps on.

func.func @swap_step(%input: memref<1x64xf32>, %out: memref<1x64xf32>,
                     %scratch: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<1x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %peer = arith.subi %c1, %me : index
  %t = pl.load %input[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %scratch[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %row = pld.tile.remote_load %scratch[0, 0], peer %peer : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %row, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// Every rank runs group B's swap, rank 0 outside the group.
func.func @unguarded(%input: memref<1x64xf32>, %out: memref<1x64xf32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  %sb = pld.tensor.alloc_window_buffer "scratch_b" shape [1, 64] dtype f32 ranks [1, 2]
  %gb = pld.tensor.alloc_window_buffer "signal_b" shape [1, 1] dtype i32 ranks [1, 2]
  %scratch_b = pld.tensor.window %sb : !pld.dtensor<1x64xf32>
  %signal_b = pld.tensor.window %gb : !pld.dtensor<1x1xi32>
  func.call @swap_step(%input, %out, %scratch_b, %signal_b)
      : (memref<1x64xf32>, memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>) -> ()
  return
}
