// SDMA transfers (`engine sdma`): puts and gets the SDMA engine copies from
// global memory to global memory, run by sdma.test.

// Every rank pulls the next rank's window into its own memref: one post.
func.func @pull(%out: memref<4x64xf32>, %in: !pld.dtensor<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %in : !pld.dtensor<4x64xf32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %up = arith.addi %me, %c1 : index
  %next = arith.remui %up, %n : index
  pld.tensor.get %out, peer %next, %in engine sdma : memref<4x64xf32>, !pld.dtensor<4x64xf32>
  return
}

// The same with a dynamic row count: no chunk to size.
func.func @pull_dynamic(%out: memref<?x64xi32>, %in: !pld.dtensor<?x64xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %in : !pld.dtensor<?x64xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %up = arith.addi %me, %c1 : index
  %next = arith.remui %up, %n : index
  pld.tensor.get %out, peer %next, %in engine sdma : memref<?x64xi32>, !pld.dtensor<?x64xi32>
  return
}

// Every rank pushes its row into row `me` of the next rank's window, then
// tells it so; each waits for its predecessor's row.
func.func @push(%dst: !pld.dtensor<4x64xf32>, %src: memref<1x64xf32>, %sig: !pld.dtensor<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %up = arith.addi %me, %c1 : index
  %next = arith.remui %up, %n : index
  pld.tensor.put %dst, peer %next, %src dst_offsets [%me, 0] src_offsets [0, 0] shape [1, 64] engine sdma : !pld.dtensor<4x64xf32>, memref<1x64xf32>
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// A block of a 3-D window whose rows are not one line (8 of 16 columns):
// a post per row, in a loop over the outer dimension.
func.func @push_block(%dst: !pld.dtensor<2x4x16xi32>, %src: memref<2x4x16xi32>, %sig: !pld.dtensor<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %up = arith.addi %me, %c1 : index
  %next = arith.remui %up, %n : index
  pld.tensor.put %dst, peer %next, %src dst_offsets [0, 1, 4] src_offsets [0, 2, 0] shape [2, 2, 8] engine sdma : !pld.dtensor<2x4x16xi32>, memref<2x4x16xi32>
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  return
}

// Rank 0 pushes a row into rank 1's window; rank 1 copies it out after its
// wait (variant 0) or before it (variant 1: a race).
func.func @racy_push(%data: !pld.dtensor<2x64xf32>, %out: memref<1x64xf32>, %sig: !pld.dtensor<1x1xi32>,
                     %early: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %is_writer = arith.cmpi eq, %me, %zero : i32
  scf.if %is_writer {
    pld.tensor.put %data, peer %c1, %data dst_offsets [1, 0] src_offsets [0, 0] shape [1, 64] engine sdma : !pld.dtensor<2x64xf32>, !pld.dtensor<2x64xf32>
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  } else {
    %read_early = arith.cmpi ne, %early, %c0 : index
    scf.if %read_early {
      %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
      pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
      pl.store %got, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
    } else {
      pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
      %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
      pl.store %got, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
    }
  }
  return
}
