// pl.cast on Ascend950's pairs that a2a3 lacks (npu/a5/TCvt.hpp:2310-2332,
// :2461-2466, :2536-2542): i8 and i16 widened to i32 and i8 to i16 (sign
// extension), bf16 narrowed to f16 (exact for these values).
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @widen(%c: memref<1x32xi8>, %s: memref<1x32xi16>, %b: memref<1x32xbf16>,
                   %ci: memref<1x32xi32>, %cs: memref<1x32xi16>, %si: memref<1x32xi32>,
                   %h: memref<1x32xf16>)
      attributes {pl.kernel = #pl.kernel<incore>} {
    %x = pl.load %c[0, 0] : memref<1x32xi8> -> !pl.tile<1x32xi8>
    %x32 = pl.cast %x round none : !pl.tile<1x32xi8> to !pl.tile<1x32xi32>
    pl.store %x32, %ci[0, 0] : !pl.tile<1x32xi32>, memref<1x32xi32>
    %x16 = pl.cast %x round none : !pl.tile<1x32xi8> to !pl.tile<1x32xi16>
    pl.store %x16, %cs[0, 0] : !pl.tile<1x32xi16>, memref<1x32xi16>
    %y = pl.load %s[0, 0] : memref<1x32xi16> -> !pl.tile<1x32xi16>
    %y32 = pl.cast %y round none : !pl.tile<1x32xi16> to !pl.tile<1x32xi32>
    pl.store %y32, %si[0, 0] : !pl.tile<1x32xi32>, memref<1x32xi32>
    %z = pl.load %b[0, 0] : memref<1x32xbf16> -> !pl.tile<1x32xbf16>
    %z16 = pl.cast %z round rint : !pl.tile<1x32xbf16> to !pl.tile<1x32xf16>
    pl.store %z16, %h[0, 0] : !pl.tile<1x32xf16>, memref<1x32xf16>
    return
  }
}
