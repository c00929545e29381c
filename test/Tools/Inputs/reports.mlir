// Kernels whose reports pld-run must word by what the user wrote.

// Each rank tells the others, then waits to be told: fine on 2 ranks, a
// hang on 1 (pld-verify's single-rank warning).
func.func @tell_the_others(%signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %peer = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  return
}

// A get from the peer the caller names (outside the world when asked).
func.func @get_from(%out: memref<64xf32>, %in: !pld.dtensor<64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.get %out, peer %peer, %in : memref<64xf32>, !pld.dtensor<64xf32>
  return
}
