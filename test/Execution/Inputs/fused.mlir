// GEMMs fused with communication (test/Execution/fused.test): every rank
// multiplies its own `a` by `b`; every rank's `c` ends with the sum over
// ranks of the products. M = 200, K = 40 and N = 300 are no multiples of
// 16, and cut into 2 x 2 tiles of 128 x 256 with ragged edges.

func.func @fused(%a: memref<200x40xf16>, %b: memref<40x300xf16>, %c: !pld.dtensor<200x300xf32>,
                 %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum algorithm fused core_num 2 : memref<200x40xf16>, memref<40x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// 3 x 3 tiles on 4 cube cores: rounds of 4, 4 and 1 tiles, the last one
// turned onto block 2 (a block's tile of round r is r C + (b + r) mod C).
func.func @ragged_rounds(%a: memref<300x40xf16>, %b: memref<40x600xf16>, %c: !pld.dtensor<300x600xf32>,
                         %signal: !pld.dtensor<8x8xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum algorithm fused core_num 4 : memref<300x40xf16>, memref<40x600xf16>, !pld.dtensor<300x600xf32>, !pld.dtensor<8x8xi32>
  return
}

func.func @unfused(%a: memref<200x40xf16>, %b: memref<40x300xf16>, %c: !pld.dtensor<200x300xf32>,
                   %signal: !pld.dtensor<8x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum algorithm unfused core_num 2 : memref<200x40xf16>, memref<40x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// One core each side, an f16 `c` (the fixpipe casts the f32 product).
func.func @one_core_f16(%a: memref<200x40xf16>, %b: memref<40x300xf16>, %c: !pld.dtensor<200x300xf16>,
                        %signal: !pld.dtensor<6x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum algorithm fused : memref<200x40xf16>, memref<40x300xf16>, !pld.dtensor<200x300xf16>, !pld.dtensor<6x2xi32>
  return
}

// Back to back on one signal: the second call starts once the first is
// done on this rank, and sums twice the products into `d`; a task after
// both reads `d`.
func.func @back_to_back(%a: memref<200x40xf16>, %b: memref<40x300xf16>, %c: !pld.dtensor<200x300xf32>,
                        %d: !pld.dtensor<200x300xf32>, %twice: memref<40x300xf16>,
                        %signal: !pld.dtensor<8x4xi32>, %corner: memref<1x8xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum algorithm fused core_num 2 : memref<200x40xf16>, memref<40x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  %second = pld.tensor.matmul_allreduce %a, %twice, %d, %signal, op sum algorithm fused core_num 2 deps [%first] : memref<200x40xf16>, memref<40x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  %read = pl.at level core_group name "read" deps [%second] {
    %row = pl.load %d[199, 292] : !pld.dtensor<200x300xf32> -> !pl.tile<1x8xf32>
    pl.store %row, %corner[0, 0] : !pl.tile<1x8xf32>, memref<1x8xf32>
  }
  return
}
