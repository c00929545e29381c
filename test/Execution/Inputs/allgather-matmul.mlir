// pld.tensor.allgather_matmul (test/Execution/allgather-matmul.test): every
// rank's `a` lands at rows [150 r, 150 r + 150) of every rank's `gathered`,
// and `c` is `gathered` times `b`. Ms = 150 (two chunks, of 128 and 22
// rows), K = 40 and N = 300 are no multiples of 16.

func.func @fused(%a: memref<150x40xf16>, %gathered: !pld.dtensor<1200x40xf16>, %b: memref<40x300xf16>,
                 %c: memref<1200x300xf32>, %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.allgather_matmul %a, %gathered, %b, %c, %signal algorithm fused core_num 2 : memref<150x40xf16>, !pld.dtensor<1200x40xf16>, memref<40x300xf16>, memref<1200x300xf32>, !pld.dtensor<8x4xi32>
  return
}

func.func @unfused(%a: memref<150x40xf16>, %gathered: !pld.dtensor<1200x40xf16>, %b: memref<40x300xf16>,
                   %c: memref<1200x300xf32>, %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.allgather_matmul %a, %gathered, %b, %c, %signal algorithm unfused core_num 2 : memref<150x40xf16>, !pld.dtensor<1200x40xf16>, memref<40x300xf16>, memref<1200x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// One cube core, `a` in the window and an f16 `c` in the window (the
// fixpipe casts the f32 product), in either form; the unfused form's
// allgather runs on the signal's 4 columns, as on 2 vector cores.
func.func @one_core_f16(%a: !pld.dtensor<150x40xf16>, %gathered: !pld.dtensor<1200x40xf16>, %b: memref<40x300xf16>,
                        %c: !pld.dtensor<1200x300xf16>, %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.allgather_matmul %a, %gathered, %b, %c, %signal algorithm fused : !pld.dtensor<150x40xf16>, !pld.dtensor<1200x40xf16>, memref<40x300xf16>, !pld.dtensor<1200x300xf16>, !pld.dtensor<8x4xi32>
  return
}
func.func @one_core_f16_unfused(%a: !pld.dtensor<150x40xf16>, %gathered: !pld.dtensor<1200x40xf16>, %b: memref<40x300xf16>,
                                %c: !pld.dtensor<1200x300xf16>, %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.allgather_matmul %a, %gathered, %b, %c, %signal algorithm unfused : !pld.dtensor<150x40xf16>, !pld.dtensor<1200x40xf16>, memref<40x300xf16>, !pld.dtensor<1200x300xf16>, !pld.dtensor<8x4xi32>
  return
}

// Back to back on one signal and one `gathered`: the second call starts
// once the first is done on this rank and multiplies by twice `b` into
// `d`; a task after both reads `d`.
func.func @back_to_back(%a: memref<150x40xf16>, %gathered: !pld.dtensor<1200x40xf16>, %b: memref<40x300xf16>,
                        %c: memref<1200x300xf32>, %d: memref<1200x300xf32>, %twice: memref<40x300xf16>,
                        %signal: !pld.dtensor<8x4xi32>, %corner: memref<1x8xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pld.tensor.allgather_matmul %a, %gathered, %b, %c, %signal algorithm fused core_num 2 : memref<150x40xf16>, !pld.dtensor<1200x40xf16>, memref<40x300xf16>, memref<1200x300xf32>, !pld.dtensor<8x4xi32>
  %second = pld.tensor.allgather_matmul %a, %gathered, %twice, %d, %signal algorithm fused core_num 2 deps [%first] : memref<150x40xf16>, !pld.dtensor<1200x40xf16>, memref<40x300xf16>, memref<1200x300xf32>, !pld.dtensor<8x4xi32>
  %read = pl.at level core_group name "read" deps [%second] {
    %row = pl.load %d[299, 292] : memref<1200x300xf32> -> !pl.tile<1x8xf32>
    pl.store %row, %corner[0, 0] : !pl.tile<1x8xf32>, memref<1x8xf32>
  }
  return
}
