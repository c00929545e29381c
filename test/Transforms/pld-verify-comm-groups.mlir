// pld-verify and comm groups (`alloc_window_buffer ... ranks [...]`): a
// group's rank and peers are ranks in the group, only its members may use
// its windows, and its ranks must exist.
// RUN: pld-opt %s --split-input-file --pld-verify=ranks=3,4 --verify-diagnostics

// The swap of one rank with the other member of its group.
func.func @swap_step(%input: memref<1x64xf32>, %out: memref<1x64xf32>,
                     %scratch: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<1x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  // expected-error @+2 {{@outside_the_group completes on none of the rank counts tried (3, 4): on 3 ranks, rank 0 runs pld.system.rank on window buffer "signal_b", whose comm group [1, 2] it is not a member of (guard the group's work with pld.system.world_rank)}}
  // expected-note @+1 {{on 4 ranks, rank 0 runs pld.system.rank}}
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

// PyPTO's two overlapping groups: rank 1 swaps through both. Decided
// race-free: each group's windows are its own, and a peer is a rank in the
// group (with world peers, rank 1's second swap would read its own row).
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

// The near miss of the guard: every rank runs group B's swap.
func.func @outside_the_group(%input: memref<1x64xf32>, %out: memref<1x64xf32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  %sb = pld.tensor.alloc_window_buffer "scratch_b" shape [1, 64] dtype f32 ranks [1, 2]
  %gb = pld.tensor.alloc_window_buffer "signal_b" shape [1, 1] dtype i32 ranks [1, 2]
  %scratch_b = pld.tensor.window %sb : !pld.dtensor<1x64xf32>
  %signal_b = pld.tensor.window %gb : !pld.dtensor<1x1xi32>
  func.call @swap_step(%input, %out, %scratch_b, %signal_b)
      : (memref<1x64xf32>, memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>) -> ()
  return
}

// -----

// Both members of group [1, 2] push their row into row 0 of the group's
// rank 0 (world rank 1): a race, on the rank the group's peer 0 is.
func.func @push(%row: memref<1x64xf32>, %inbox: !pld.dtensor<1x64xf32>, %peer: index)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %row[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+2 {{data race on 3 ranks: this pld.tile.remote_store on rank 2 kernel @push writes [0, 1) x [0, 64) of rank 1's window buffer "inbox", which pld.tile.remote_store on rank 1 kernel @push writes ([0, 1) x [0, 64)), and no happens-before order puts one before the other}}
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 1 kernel @push}}
  pld.tile.remote_store %t, %inbox[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

func.func @same_row(%row: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = pld.tensor.alloc_window_buffer "inbox" shape [1, 64] dtype f32 ranks [1, 2]
  %inbox = pld.tensor.window %b : !pld.dtensor<1x64xf32>
  %me = pld.system.world_rank
  %from_1 = arith.cmpi uge, %me, %c1 : index
  %to_2 = arith.cmpi ule, %me, %c2 : index
  %member = arith.andi %from_1, %to_2 : i1
  scf.if %member {
    func.call @push(%row, %inbox, %c0) : (memref<1x64xf32>, !pld.dtensor<1x64xf32>, index) -> ()
  }
  return
}

// The near miss: only rank 2 pushes.
func.func @one_pusher(%row: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = pld.tensor.alloc_window_buffer "inbox" shape [1, 64] dtype f32 ranks [1, 2]
  %inbox = pld.tensor.window %b : !pld.dtensor<1x64xf32>
  %me = pld.system.world_rank
  %last = arith.cmpi eq, %me, %c2 : index
  scf.if %last {
    func.call @push(%row, %inbox, %c0) : (memref<1x64xf32>, !pld.dtensor<1x64xf32>, index) -> ()
  }
  return
}

// -----

// A peer outside the group: group [0, 2] has ranks 0 and 1 in it.
func.func @far_peer(%row: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = pld.tensor.alloc_window_buffer "inbox" shape [1, 64] dtype f32 ranks [0, 2]
  %inbox = pld.tensor.window %b : !pld.dtensor<1x64xf32>
  %me = pld.system.world_rank
  %first = arith.cmpi eq, %me, %c0 : index
  scf.if %first {
    %t = pl.load %row[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    // expected-error @+2 {{@far_peer completes on none of the rank counts tried (3, 4): on 3 ranks, rank 0's pld.tile.remote_store reaches peer 2, outside 0..2 (its comm group's ranks)}}
    // expected-note @+1 {{on 4 ranks, rank 0's pld.tile.remote_store reaches peer 2, outside 0..2 (its comm group's ranks)}}
    pld.tile.remote_store %t, %inbox[0, 0], peer %c2 : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  return
}

// -----

// A group naming a rank the run does not have: it traps on 3 ranks, not
// on 4 (a warning, as for any rank count named in ranks= that traps).
func.func @beyond_the_world(%row: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c1 = arith.constant 1 : index
  // expected-warning @+1 {{@beyond_the_world traps on 3 ranks: the comm group [1, 3] of window buffer "inbox" names rank 3, outside 0..3}}
  %b = pld.tensor.alloc_window_buffer "inbox" shape [1, 64] dtype f32 ranks [1, 3]
  %inbox = pld.tensor.window %b : !pld.dtensor<1x64xf32>
  %me = pld.system.world_rank
  %first = arith.cmpi eq, %me, %c1 : index
  scf.if %first {
    %t = pl.load %row[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %t, %inbox[0, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  return
}
