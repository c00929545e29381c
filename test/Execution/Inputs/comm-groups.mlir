// Comm groups: windows bound to a subset of the ranks (PyPTO's overlapping
// communicator groups, hw-native-sys/pypto
// tests/st/distributed/test_l3_multi_group.py), run on 3 ranks.

// One swap with the other member of a two-rank group: stage the input in
// the window, signal the peer, wait for its signal, read its row. The rank
// and the peer are the group's.
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

// Group A is ranks {0, 1}, group B ranks {1, 2}: rank 1 is in both and
// swaps twice, once through each group's windows, which must not alias.
func.func @two_groups(%input: memref<1x64xf32>, %out_a: memref<1x64xf32>, %out_b: memref<1x64xf32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %sa = pld.tensor.alloc_window_buffer "scratch_a" shape [1, 64] dtype f32 ranks [0, 1]
  %ga = pld.tensor.alloc_window_buffer "signal_a" shape [1, 1] dtype i32 ranks [0, 1]
  %sb = pld.tensor.alloc_window_buffer "scratch_b" shape [1, 64] dtype f32 ranks [1, 2]
  %gb = pld.tensor.alloc_window_buffer "signal_b" shape [1, 1] dtype i32 ranks [1, 2]
  %scratch_a = pld.tensor.window %sa : !pld.dtensor<1x64xf32>
  %signal_a = pld.tensor.window %ga : !pld.dtensor<1x1xi32>
  %scratch_b = pld.tensor.window %sb : !pld.dtensor<1x64xf32>
  %signal_b = pld.tensor.window %gb : !pld.dtensor<1x1xi32>
  %me = pld.system.world_rank
  %in_a = arith.cmpi ule, %me, %c1 : index
  scf.if %in_a {
    func.call @swap_step(%input, %out_a, %scratch_a, %signal_a)
        : (memref<1x64xf32>, memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>) -> ()
  }
  %from_1 = arith.cmpi uge, %me, %c1 : index
  %to_2 = arith.cmpi ule, %me, %c2 : index
  %in_b = arith.andi %from_1, %to_2 : i1
  scf.if %in_b {
    func.call @swap_step(%input, %out_b, %scratch_b, %signal_b)
        : (memref<1x64xf32>, memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>) -> ()
  }
  return
}

// A collective within a group: ranks 0 and 2 of 3 sum their rows (a group
// whose ranks are not contiguous); rank 1 takes no part.
func.func @group_sum(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<2x1xi32>, %out: memref<1x8xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x8xf32>, !pld.dtensor<2x1xi32>
  %t = pl.load %data[0, 0] : !pld.dtensor<1x8xf32> -> !pl.tile<1x8xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x8xf32>, memref<1x8xf32>
  return
}

func.func @sum_in_a_group(%input: memref<1x8xf32>, %out: memref<1x8xf32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  %c1 = arith.constant 1 : index
  %d = pld.tensor.alloc_window_buffer "data" shape [1, 8] dtype f32 ranks [0, 2]
  %s = pld.tensor.alloc_window_buffer "signal" shape [2, 1] dtype i32 ranks [0, 2]
  %data = pld.tensor.window %d : !pld.dtensor<1x8xf32>
  %signal = pld.tensor.window %s : !pld.dtensor<2x1xi32>
  %me = pld.system.world_rank
  %member = arith.cmpi ne, %me, %c1 : index
  scf.if %member {
    %t = pl.load %input[0, 0] : memref<1x8xf32> -> !pl.tile<1x8xf32>
    pl.store %t, %data[0, 0] : !pl.tile<1x8xf32>, !pld.dtensor<1x8xf32>
    func.call @group_sum(%data, %signal, %out) : (!pld.dtensor<1x8xf32>, !pld.dtensor<2x1xi32>, memref<1x8xf32>) -> ()
  }
  return
}
