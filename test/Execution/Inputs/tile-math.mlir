// Tile math on the simulator: every element-wise op the vector unit has,
// over i32 (wrapping), f16 (rounded once per op) and f32.
func.func @differences(%a: memref<2x16xf32>, %b: memref<2x16xf32>, %out: memref<2x16xf32>,
                       %ia: memref<1x8xi32>, %ib: memref<1x8xi32>, %iout: memref<1x8xi32>,
                       %ha: memref<1x16xf16>, %hb: memref<1x16xf16>, %hout: memref<1x16xf16>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %x = pl.load %a[0, 0] : memref<2x16xf32> -> !pl.tile<2x16xf32>
  %y = pl.load %b[0, 0] : memref<2x16xf32> -> !pl.tile<2x16xf32>
  %d = pl.sub %x, %y : !pl.tile<2x16xf32>
  pl.store %d, %out[0, 0] : !pl.tile<2x16xf32>, memref<2x16xf32>
  %i = pl.load %ia[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
  %j = pl.load %ib[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
  %k = pl.sub %i, %j : !pl.tile<1x8xi32>
  pl.store %k, %iout[0, 0] : !pl.tile<1x8xi32>, memref<1x8xi32>
  %h = pl.load %ha[0, 0] : memref<1x16xf16> -> !pl.tile<1x16xf16>
  %g = pl.load %hb[0, 0] : memref<1x16xf16> -> !pl.tile<1x16xf16>
  %e = pl.sub %h, %g : !pl.tile<1x16xf16>
  pl.store %e, %hout[0, 0] : !pl.tile<1x16xf16>, memref<1x16xf16>
  return
}
