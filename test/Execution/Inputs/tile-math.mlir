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

// A tile with a scalar, each tile-scalar op into its own row, and a tile
// filled with the scalar; i32 with a constant.
func.func @scalars(%a: memref<1x16xf32>, %s: f32, %out: memref<6x16xf32>,
                   %ia: memref<1x8xi32>, %iout: memref<1x8xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %x = pl.load %a[0, 0] : memref<1x16xf32> -> !pl.tile<1x16xf32>
  %sum = pl.adds %x, %s : !pl.tile<1x16xf32>
  pl.store %sum, %out[0, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %difference = pl.subs %x, %s : !pl.tile<1x16xf32>
  pl.store %difference, %out[1, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %product = pl.muls %x, %s : !pl.tile<1x16xf32>
  pl.store %product, %out[2, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %maximum = pl.maxs %x, %s : !pl.tile<1x16xf32>
  pl.store %maximum, %out[3, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %minimum = pl.mins %x, %s : !pl.tile<1x16xf32>
  pl.store %minimum, %out[4, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %filled = pl.full %s : !pl.tile<1x16xf32>
  pl.store %filled, %out[5, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %seven = arith.constant 7 : i32
  %i = pl.load %ia[0, 0] : memref<1x8xi32> -> !pl.tile<1x8xi32>
  %k = pl.subs %i, %seven : !pl.tile<1x8xi32>
  pl.store %k, %iout[0, 0] : !pl.tile<1x8xi32>, memref<1x8xi32>
  return
}
