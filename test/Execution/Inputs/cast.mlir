// pl.cast on the simulator: each RoundMode from f32 to f16 (one row each),
// f32 to i32 and to f32 (integral values), and the exact or wrapping
// conversions between integers and floats.
func.func @casts(%a: memref<1x16xf32>, %h: memref<6x16xf16>, %i: memref<6x16xi32>,
                 %f: memref<6x16xf32>, %n: memref<1x16xi32>, %w: memref<1x16xi16>,
                 %back: memref<1x16xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %x = pl.load %a[0, 0] : memref<1x16xf32> -> !pl.tile<1x16xf32>
  %h0 = pl.cast %x round rint : !pl.tile<1x16xf32> to !pl.tile<1x16xf16>
  pl.store %h0, %h[0, 0] : !pl.tile<1x16xf16>, memref<6x16xf16>
  %h1 = pl.cast %x round round : !pl.tile<1x16xf32> to !pl.tile<1x16xf16>
  pl.store %h1, %h[1, 0] : !pl.tile<1x16xf16>, memref<6x16xf16>
  %h2 = pl.cast %x round floor : !pl.tile<1x16xf32> to !pl.tile<1x16xf16>
  pl.store %h2, %h[2, 0] : !pl.tile<1x16xf16>, memref<6x16xf16>
  %h3 = pl.cast %x round ceil : !pl.tile<1x16xf32> to !pl.tile<1x16xf16>
  pl.store %h3, %h[3, 0] : !pl.tile<1x16xf16>, memref<6x16xf16>
  %h4 = pl.cast %x round trunc : !pl.tile<1x16xf32> to !pl.tile<1x16xf16>
  pl.store %h4, %h[4, 0] : !pl.tile<1x16xf16>, memref<6x16xf16>
  %h5 = pl.cast %x round odd : !pl.tile<1x16xf32> to !pl.tile<1x16xf16>
  pl.store %h5, %h[5, 0] : !pl.tile<1x16xf16>, memref<6x16xf16>
  %i0 = pl.cast %x round none : !pl.tile<1x16xf32> to !pl.tile<1x16xi32>
  pl.store %i0, %i[0, 0] : !pl.tile<1x16xi32>, memref<6x16xi32>
  %i1 = pl.cast %x round rint : !pl.tile<1x16xf32> to !pl.tile<1x16xi32>
  pl.store %i1, %i[1, 0] : !pl.tile<1x16xi32>, memref<6x16xi32>
  %i2 = pl.cast %x round round : !pl.tile<1x16xf32> to !pl.tile<1x16xi32>
  pl.store %i2, %i[2, 0] : !pl.tile<1x16xi32>, memref<6x16xi32>
  %i3 = pl.cast %x round floor : !pl.tile<1x16xf32> to !pl.tile<1x16xi32>
  pl.store %i3, %i[3, 0] : !pl.tile<1x16xi32>, memref<6x16xi32>
  %i4 = pl.cast %x round ceil : !pl.tile<1x16xf32> to !pl.tile<1x16xi32>
  pl.store %i4, %i[4, 0] : !pl.tile<1x16xi32>, memref<6x16xi32>
  %i5 = pl.cast %x round trunc : !pl.tile<1x16xf32> to !pl.tile<1x16xi32>
  pl.store %i5, %i[5, 0] : !pl.tile<1x16xi32>, memref<6x16xi32>
  %f0 = pl.cast %x round none : !pl.tile<1x16xf32> to !pl.tile<1x16xf32>
  pl.store %f0, %f[0, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %f3 = pl.cast %x round floor : !pl.tile<1x16xf32> to !pl.tile<1x16xf32>
  pl.store %f3, %f[3, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %f4 = pl.cast %x round ceil : !pl.tile<1x16xf32> to !pl.tile<1x16xf32>
  pl.store %f4, %f[4, 0] : !pl.tile<1x16xf32>, memref<6x16xf32>
  %m = pl.load %n[0, 0] : memref<1x16xi32> -> !pl.tile<1x16xi32>
  %narrow = pl.cast %m round none : !pl.tile<1x16xi32> to !pl.tile<1x16xi16>
  pl.store %narrow, %w[0, 0] : !pl.tile<1x16xi16>, memref<1x16xi16>
  %wide = pl.cast %m round none : !pl.tile<1x16xi32> to !pl.tile<1x16xf32>
  pl.store %wide, %back[0, 0] : !pl.tile<1x16xf32>, memref<1x16xf32>
  return
}
