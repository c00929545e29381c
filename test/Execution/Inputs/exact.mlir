// Kernels for expectations.test: an f16 sum that can overflow, and a copy
// of an i32 row into an f32 one.
func.func @sum_f16(%data: !pld.dtensor<1x16xf16>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x16xf16>, !pld.dtensor<8x1xi32>
  return
}

func.func @halves(%ints: !pld.dtensor<1x8xi32>, %floats: !pld.dtensor<1x8xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %row = pl.load %ints[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
  pl.store %row, %ints[0, 0] : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
  return
}
