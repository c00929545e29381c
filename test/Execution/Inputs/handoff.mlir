// pl.matmul products that vector work uses: the lowering hands each from
// the cube to the vector core through global memory (docs/lowering.md,
// "Hand-offs"). Run by test/Execution/handoff.test.

// Tile math on the product: c = a . b + d.
func.func @product_plus(%a: memref<32x48xf16>, %b: memref<48x32xf16>, %d: memref<32x32xf32>,
                        %c: memref<32x32xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<32x48xf16> -> !pl.tile<32x48xf16>
  %tb = pl.load %b[0, 0] : memref<48x32xf16> -> !pl.tile<48x32xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<32x48xf16>, !pl.tile<48x32xf16> -> !pl.tile<32x32xf32>
  %td = pl.load %d[0, 0] : memref<32x32xf32> -> !pl.tile<32x32xf32>
  %sum = pl.add %p, %td : !pl.tile<32x32xf32>
  pl.store %sum, %c[0, 0] : !pl.tile<32x32xf32>, memref<32x32xf32>
  return
}

// The seed's notify in a mixed kernel: the product is pushed to the next
// rank from a pl.split_aiv region guarded to one sub-lane, which then
// publishes it; each rank waits for its own and copies it out.
func.func @push_product(%a: memref<16x48xf16>, %b: memref<48x32xf16>, %win: !pld.dtensor<16x32xf32>,
                        %sig: !pld.dtensor<1x1xi32>, %out: memref<16x32xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %ta = pl.load %a[0, 0] : memref<16x48xf16> -> !pl.tile<16x48xf16>
  %tb = pl.load %b[0, 0] : memref<48x32xf16> -> !pl.tile<48x32xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x48xf16>, !pl.tile<48x32xf16> -> !pl.tile<16x32xf32>
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      pld.tile.remote_store %p, %win[0, 0], peer %next : !pl.tile<16x32xf32>, !pld.dtensor<16x32xf32>
      pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
    }
  }
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %got = pl.load %win[0, 0] : !pld.dtensor<16x32xf32> -> !pl.tile<16x32xf32>
  pl.store %got, %out[0, 0] : !pl.tile<16x32xf32>, memref<16x32xf32>
  return
}

// A hand-off in a loop, with a ragged last block (k valid rows of 16):
// each iteration's product is doubled by the vector core.
func.func @loop_double(%a: memref<56x16xf16>, %b: memref<16x16xf16>, %c: memref<56x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c56 = arith.constant 56 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %row = arith.muli %i, %c16 : index
    %left = arith.subi %c56, %row : index
    %rows = arith.minui %left, %c16 : index
    %ta = pl.load %a[%row, 0] valid [%rows, 16] : memref<56x16xf16> -> !pl.tile<16x16xf16>
    %tb = pl.load %b[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
    %p = pl.matmul %ta, %tb : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
    %twice = pl.add %p, %p : !pl.tile<16x16xf32>
    pl.store %twice, %c[%row, 0] valid [%rows, 16] : !pl.tile<16x16xf32>, memref<56x16xf32>
  }
  return
}

// Blocks of a task each hand over their own product (block b takes rows
// [16 b, 16 b + 16)); the product is also stored as it is.
func.func @blocks(%a: memref<48x32xf16>, %b: memref<32x16xf16>, %c: memref<48x16xf32>,
                  %twice: memref<48x16xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c3 = arith.constant 3 : index
  %t = pl.spmd %c3 name "gemm" {
    %c16 = arith.constant 16 : index
    %block = pl.get_block_idx
    %row = arith.muli %block, %c16 : index
    %ta = pl.load %a[%row, 0] : memref<48x32xf16> -> !pl.tile<16x32xf16>
    %tb = pl.load %b[0, 0] : memref<32x16xf16> -> !pl.tile<32x16xf16>
    %p = pl.matmul %ta, %tb : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
    pl.store %p, %c[%row, 0] : !pl.tile<16x16xf32>, memref<48x16xf32>
    %d = pl.add %p, %p : !pl.tile<16x16xf32>
    pl.store %d, %twice[%row, 0] : !pl.tile<16x16xf32>, memref<48x16xf32>
  }
  return
}
