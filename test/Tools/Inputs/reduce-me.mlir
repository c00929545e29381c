// A module pld-verify rejects (world_size in InCore code), and more that has
// nothing to do with why: other functions, dead and repeated arithmetic.
// pld-reduce shrinks it to what still fails (pld-reduce.test).
func.func @allreduce(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>
  return
}

func.func @world_size_in_kernel(%x: i32) -> (i32, i64) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %x, %c1 : i32
  %dead = arith.muli %a, %c2 : i32
  %n = pld.system.world_size
  %s = arith.addi %a, %b : i32
  return %s, %n : i32, i64
}

func.func @handshake(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32)
    attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.notify %signal[0, 0], peer %peer, value %v, op set : !pld.dtensor<2x1xi32>
  %c1 = arith.constant 1 : i32
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<2x1xi32>
  return
}
