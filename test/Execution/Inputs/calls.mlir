// A kernel split over functions, as users write them: a helper publishes,
// another works on the window with tiles of its own, and the caller keeps a
// tile live across both calls.
func.func @signal_peer(%sig: !pld.dtensor<1x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.notify %sig[0, 0], peer %peer, value %v, op set : !pld.dtensor<1x1xi32>
  return
}

func.func @double_row(%data: !pld.dtensor<2x64xf32>, %row: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %data[%row, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  %d = pl.add %t, %t : !pl.tile<1x64xf32>
  pl.store %d, %data[%row, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

func.func @exchange(%sig: !pld.dtensor<1x1xi32>, %data: !pld.dtensor<2x64xf32>,
                    %src: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %one = arith.constant 1 : i32
  %peer32 = arith.subi %one, %me : i32
  %peer = arith.index_cast %peer32 : i32 to index
  %c0 = arith.constant 0 : index
  %mine = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // The payload into the peer's row 0, published by the helper.
  pld.tile.remote_store %mine, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  func.call @signal_peer(%sig, %peer, %one) : (!pld.dtensor<1x1xi32>, index, i32) -> ()
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  func.call @double_row(%data, %c0) : (!pld.dtensor<2x64xf32>, index) -> ()
  %received = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  %sum = pl.add %received, %mine : !pl.tile<1x64xf32>
  pl.store %sum, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
