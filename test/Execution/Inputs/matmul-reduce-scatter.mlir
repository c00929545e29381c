// pld.tensor.matmul_reduce_scatter (test/Execution/matmul-reduce-scatter.test):
// every rank multiplies its own `a` by `b`; rank r's `out` ends with rows
// [45 r, 45 r + 45) of the sum over ranks of the products. M = 360 (45 rows
// for each of 8 ranks), K = 40 and N = 300 are no multiples of 16; a
// block is 1 x 2 tiles with ragged edges.

func.func @fused(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %partial: !pld.dtensor<360x300xf32>,
                 %out: !pld.dtensor<45x300xf32>, %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %partial, %out, %signal, op sum algorithm fused core_num 2 : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// `out` in plain memory: the unfused form copies into it.
func.func @unfused(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %partial: !pld.dtensor<360x300xf32>,
                   %out: memref<45x300xf32>, %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %partial, %out, %signal, op sum algorithm unfused core_num 2 : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, memref<45x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// One cube core and two vector cores, an f16 sum (the fixpipe casts the f32
// product; the atomic adds are f16).
func.func @one_core_f16(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %partial: !pld.dtensor<360x300xf16>,
                        %out: !pld.dtensor<45x300xf16>, %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %partial, %out, %signal, op sum algorithm fused : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf16>, !pld.dtensor<45x300xf16>, !pld.dtensor<8x4xi32>
  return
}

// Back to back on one signal and one `partial`: the second call starts once
// the first is done on this rank and sums twice the products into `d`; a
// task after both reads `d`.
func.func @back_to_back(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %partial: !pld.dtensor<360x300xf32>,
                        %out: !pld.dtensor<45x300xf32>, %d: !pld.dtensor<45x300xf32>, %twice: memref<40x300xf16>,
                        %signal: !pld.dtensor<8x4xi32>, %corner: memref<1x8xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pld.tensor.matmul_reduce_scatter %a, %b, %partial, %out, %signal, op sum algorithm fused core_num 2 : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x4xi32>
  %second = pld.tensor.matmul_reduce_scatter %a, %twice, %partial, %d, %signal, op sum algorithm fused core_num 2 deps [%first] : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x4xi32>
  %read = pl.at level core_group name "read" deps [%second] {
    %row = pl.load %d[44, 292] : !pld.dtensor<45x300xf32> -> !pl.tile<1x8xf32>
    pl.store %row, %corner[0, 0] : !pl.tile<1x8xf32>, memref<1x8xf32>
  }
  return
}
