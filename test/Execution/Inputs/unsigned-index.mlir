// A shift by half the ring, with the peer computed in unsigned index
// arithmetic as users write it: half = n / 2 (arith.divui) and
// peer = (rank + half) % n (arith.remui). Each rank sends its row to that
// peer and reads the row it receives.
func.func @shift(%sig: !pld.dtensor<1x1xi32>, %data: !pld.dtensor<1x64xf32>,
                 %src: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_castui %me32 : i32 to index
  %n = arith.index_castui %n32 : i32 to index
  %c2 = arith.constant 2 : index
  %half = arith.divui %n, %c2 : index
  %far = arith.addi %me, %half : index
  %peer = arith.remui %far, %n : index
  %one = arith.constant 1 : i32
  %mine = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %mine, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %sig[0, 0], peer %peer, value %one, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %received = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %received, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// Butterfly pairs: rank r exchanges with r ^ 1, computed twice in bitwise
// index arithmetic: the payload goes to me ^ 1 (arith.xori), the notify to
// (me | 1) - (me & 1) (arith.ori, arith.andi), the same rank.
func.func @pairs(%sig: !pld.dtensor<1x1xi32>, %data: !pld.dtensor<1x64xf32>,
                 %src: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_castui %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %partner = arith.xori %me, %c1 : index
  %odd = arith.andi %me, %c1 : index
  %up = arith.ori %me, %c1 : index
  %partner2 = arith.subi %up, %odd : index
  %one = arith.constant 1 : i32
  %mine = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %mine, %data[0, 0], peer %partner : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %sig[0, 0], peer %partner2, value %one, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %received = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %received, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
