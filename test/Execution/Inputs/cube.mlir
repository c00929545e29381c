// GEMMs on the cube (test/Execution/cube.test): the operands' elements are
// small integers (a[i, k] = k % 3 + p(i), b[k, j] = k % 3 + q(j)), so every
// product and sum is exact in f32 and i32: c[i, j] = 5K/3 + K (p + q) + K p q.

// Unaligned M, K and N: one block, padded to the fractals.
func.func @unaligned(%a: memref<40x30xf16>, %b: memref<30x50xf16>, %c: memref<40x50xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<40x30xf16> -> !pl.tile<40x30xf16>
  %tb = pl.load %b[0, 0] : memref<30x50xf16> -> !pl.tile<30x50xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<40x30xf16>, !pl.tile<30x50xf16> -> !pl.tile<40x50xf32>
  pl.store %p, %c[0, 0] : !pl.tile<40x50xf32>, memref<40x50xf32>
  return
}

// Larger than L0: 2 x 2 blocks of 128 (the last 32 wide), K in steps of
// 128, 128 and 44.
func.func @tiled(%a: memref<160x300xf16>, %b: memref<300x160xf16>, %c: memref<160x160xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<160x300xf16> -> !pl.tile<160x300xf16>
  %tb = pl.load %b[0, 0] : memref<300x160xf16> -> !pl.tile<300x160xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<160x300xf16>, !pl.tile<300x160xf16> -> !pl.tile<160x160xf32>
  pl.store %p, %c[0, 0] : !pl.tile<160x160xf32>, memref<160x160xf32>
  return
}

// int8 into int32, bf16 and f32 into f32.
func.func @int8(%a: memref<33x72xi8>, %b: memref<72x20xi8>, %c: memref<33x20xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<33x72xi8> -> !pl.tile<33x72xi8>
  %tb = pl.load %b[0, 0] : memref<72x20xi8> -> !pl.tile<72x20xi8>
  %p = pl.matmul %ta, %tb : !pl.tile<33x72xi8>, !pl.tile<72x20xi8> -> !pl.tile<33x20xi32>
  pl.store %p, %c[0, 0] : !pl.tile<33x20xi32>, memref<33x20xi32>
  return
}

func.func @bf16(%a: memref<16x48xbf16>, %b: memref<48x24xbf16>, %c: memref<16x24xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x48xbf16> -> !pl.tile<16x48xbf16>
  %tb = pl.load %b[0, 0] : memref<48x24xbf16> -> !pl.tile<48x24xbf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x48xbf16>, !pl.tile<48x24xbf16> -> !pl.tile<16x24xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x24xf32>, memref<16x24xf32>
  return
}

func.func @f32(%a: memref<24x24xf32>, %b: memref<24x24xf32>, %c: memref<24x24xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<24x24xf32> -> !pl.tile<24x24xf32>
  %tb = pl.load %b[0, 0] : memref<24x24xf32> -> !pl.tile<24x24xf32>
  %p = pl.matmul %ta, %tb : !pl.tile<24x24xf32>, !pl.tile<24x24xf32> -> !pl.tile<24x24xf32>
  pl.store %p, %c[0, 0] : !pl.tile<24x24xf32>, memref<24x24xf32>
  return
}

// Valid shapes known at run time, the right operand read from the next
// rank's window, the product stored into a region of a larger output.
func.func @ragged_remote(%a: memref<64x64xf16>, %b: !pld.dtensor<64x64xf16>, %c: memref<80x64xf32>, %m: index, %k: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %b : !pld.dtensor<64x64xf16>
  %rank = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %next_i32 = arith.addi %rank, %one : i32
  %wrapped = arith.remsi %next_i32, %n : i32
  %next = arith.index_cast %wrapped : i32 to index
  %ta = pl.load %a[0, 0] valid [%m, %k] : memref<64x64xf16> -> !pl.tile<64x64xf16>
  %tb = pld.tile.remote_load %b[0, 0], peer %next valid [%k, 64] : !pld.dtensor<64x64xf16> -> !pl.tile<64x64xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<64x64xf16>, !pl.tile<64x64xf16> -> !pl.tile<64x64xf32>
  pl.store %p, %c[16, 0] valid [%m, 64] : !pl.tile<64x64xf32>, memref<80x64xf32>
  return
}

// A GEMM whose product is stored into a window and then allreduced: as two
// tasks of a host orchestrator (the cube's, then the vector core's) ...
func.func @gemm_then_allreduce(%a: memref<32x48xf16>, %b: memref<48x32xf16>, %c: !pld.dtensor<32x32xf32>,
                               %sig: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %gemm = pl.at level core_group name "gemm" {
    %ta = pl.load %a[0, 0] : memref<32x48xf16> -> !pl.tile<32x48xf16>
    %tb = pl.load %b[0, 0] : memref<48x32xf16> -> !pl.tile<48x32xf16>
    %p = pl.matmul %ta, %tb : !pl.tile<32x48xf16>, !pl.tile<48x32xf16> -> !pl.tile<32x32xf32>
    pl.store %p, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
  }
  %reduce = pl.at level core_group name "allreduce" deps [%gemm] {
    %r = pld.tensor.allreduce %c, %sig, op sum : !pld.dtensor<32x32xf32>, !pld.dtensor<8x1xi32>
  }
  return
}

// ... and as one mixed kernel: the cube computes the product, the vector
// core allreduces it from a split region guarded to one lane.
func.func @mixed_gemm_allreduce(%a: memref<32x48xf16>, %b: memref<48x32xf16>, %c: !pld.dtensor<32x32xf32>,
                                %sig: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<32x48xf16> -> !pl.tile<32x48xf16>
  %tb = pl.load %b[0, 0] : memref<48x32xf16> -> !pl.tile<48x32xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<32x48xf16>, !pl.tile<48x32xf16> -> !pl.tile<32x32xf32>
  pl.store %p, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      %r = pld.tensor.allreduce %c, %sig, op sum : !pld.dtensor<32x32xf32>, !pld.dtensor<8x1xi32>
    }
  }
  return
}

// A mixed kernel in a loop: each iteration the vector core writes the left
// operand's rows, the cube multiplies them, the vector core doubles the
// product. Every GEMM is handed over and back on its own.
func.func @mixed_loop(%x: memref<64x16xf16>, %b: memref<16x16xf16>, %c: memref<64x16xf32>, %src: memref<64x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %row = arith.muli %i, %c16 : index
    %v = pl.load %src[%row, 0] : memref<64x16xf16> -> !pl.tile<16x16xf16>
    pl.store %v, %x[%row, 0] : !pl.tile<16x16xf16>, memref<64x16xf16>
    %ta = pl.load %x[%row, 0] : memref<64x16xf16> -> !pl.tile<16x16xf16>
    %tb = pl.load %b[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
    %p = pl.matmul %ta, %tb : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
    pl.store %p, %c[%row, 0] : !pl.tile<16x16xf32>, memref<64x16xf32>
    %q = pl.load %c[%row, 0] : memref<64x16xf32> -> !pl.tile<16x16xf32>
    %twice = pl.add %q, %q : !pl.tile<16x16xf32>
    pl.store %twice, %c[%row, 0] : !pl.tile<16x16xf32>, memref<64x16xf32>
  }
  return
}

// More K than two L1 panels hold: 16 x 1300 x 256 f16 in panels of 256
// (four L0 steps of 64), a loop over two pairs of full panels (ping and
// pong), then a pair of 256 and 20.
func.func @panels(%a: memref<16x1300xf16>, %b: memref<1300x256xf16>, %c: memref<16x256xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x1300xf16> -> !pl.tile<16x1300xf16>
  %tb = pl.load %b[0, 0] : memref<1300x256xf16> -> !pl.tile<1300x256xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x1300xf16>, !pl.tile<1300x256xf16> -> !pl.tile<16x256xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x256xf32>, memref<16x256xf32>
  return
}

// K known only at run time, up to 1100: a loop over pairs of panels whose
// second panel and later L0 steps run where K reaches them.
func.func @dynamic_k(%a: memref<16x1100xf16>, %b: memref<1100x256xf16>, %c: memref<16x256xf32>, %k: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] valid [16, %k] : memref<16x1100xf16> -> !pl.tile<16x1100xf16>
  %tb = pl.load %b[0, 0] valid [%k, 256] : memref<1100x256xf16> -> !pl.tile<1100x256xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x1100xf16>, !pl.tile<1100x256xf16> -> !pl.tile<16x256xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x256xf32>, memref<16x256xf32>
  return
}

// The f32 product stored as f16 (into a memref) and as bf16 (into a
// window) by the fixpipe.
func.func @cast_f16(%a: memref<40x30xf16>, %b: memref<30x50xf16>, %c: memref<40x50xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<40x30xf16> -> !pl.tile<40x30xf16>
  %tb = pl.load %b[0, 0] : memref<30x50xf16> -> !pl.tile<30x50xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<40x30xf16>, !pl.tile<30x50xf16> -> !pl.tile<40x50xf32>
  pl.store %p, %c[0, 0] : !pl.tile<40x50xf32>, memref<40x50xf16>
  return
}

func.func @cast_bf16(%a: memref<16x6xbf16>, %b: memref<6x16xbf16>, %c: !pld.dtensor<16x16xbf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x6xbf16> -> !pl.tile<16x6xbf16>
  %tb = pl.load %b[0, 0] : memref<6x16xbf16> -> !pl.tile<6x16xbf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x6xbf16>, !pl.tile<6x16xbf16> -> !pl.tile<16x16xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, !pld.dtensor<16x16xbf16>
  return
}

// One 128 x 256 block of a GEMM with K = 6144 (pto-isa's gemm_ar tile,
// docs/performance.md): its modelled time.
func.func @gemm_tile(%a: memref<128x6144xf16>, %b: memref<6144x256xf16>, %c: memref<128x256xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<128x6144xf16> -> !pl.tile<128x6144xf16>
  %tb = pl.load %b[0, 0] : memref<6144x256xf16> -> !pl.tile<6144x256xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<128x6144xf16>, !pl.tile<6144x256xf16> -> !pl.tile<128x256xf32>
  pl.store %p, %c[0, 0] : !pl.tile<128x256xf32>, memref<128x256xf16>
  return
}
