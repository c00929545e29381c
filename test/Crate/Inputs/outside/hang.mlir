// The seed's hang, split over host and kernel: the host passes tag 0 - 0,
// the kernel sets the peer's flag to it and waits for at least 1.
func.func @handshake(%signal: !pld.dtensor<1x1xi32>, %peer: index, %tag: i32)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  return
}

func.func @host(%signal: !pld.dtensor<1x1xi32>, %peer: index)
    attributes {pl.kernel = #pl.kernel<host>} {
  %c3 = arith.constant 3 : i32
  %zero = arith.subi %c3, %c3 : i32
  func.call @handshake(%signal, %peer, %zero) : (!pld.dtensor<1x1xi32>, index, i32) -> ()
  return
}
