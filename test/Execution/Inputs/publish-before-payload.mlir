// The payload is pushed after the notify that publishes it: pld-verify
// rejects this (test/Transforms/pld-verify-publish-order.mlir); lowered without it, the
// peer can read the payload while it is being written, which
// ThreadSanitizer reports (tsan.test).
func.func @racy(%signal: !pld.dtensor<1x1xi32>, %payload: !pld.dtensor<1x64xf32>,
                %mine: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %one = arith.constant 1 : i32
  %peer32 = arith.subi %one, %me : i32
  %peer = arith.index_cast %peer32 : i32 to index
  pld.system.notify %signal[0, 0], peer %peer, value %one, op set : !pld.dtensor<1x1xi32>
  pld.tensor.remote_store %mine, %payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %t = pl.load %payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
