// The cube path on one rank, as the emitter writes it: GEMMs through L1
// (Mat), L0A (Left), L0B (Right) and L0C (Acc). f16 x f16 -> f32 with
// m, k, n no multiples of 16 and k in two steps (tmatmul, then tmatmul_acc),
// stored as f32 and through the fixpipe as f16; i8 x i8 -> i32; f32 x f32.
// cube_bf16: bf16 x bf16 -> f32, stored as f32 and as bf16. cube_traps:
// what the simulator stops, selected by `mode`, on block 0 (mode 8: a race
// between blocks 0 and 1).
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void cube(__gm__ pld::rt::CommContext* v1, __gm__ pld::rt::f16* v2, __gm__ pld::rt::f16* v3, __gm__ int8_t* v4, __gm__ int8_t* v5, __gm__ float* v6, __gm__ float* v7, __gm__ float* v8, __gm__ pld::rt::f16* v9, __gm__ int32_t* v10, __gm__ float* v11) {
  (void) v1;
  // f16: [20, 40] x [40, 24], k in steps of 32 and 8.
  pld::rt::Mat<pld::rt::f16, 32, 64> v12 = pld::rt::mat<pld::rt::f16, 32, 64>(0, 20, 40);
  pld::rt::Mat<pld::rt::f16, 64, 32> v13 = pld::rt::mat<pld::rt::f16, 64, 32>(4096, 40, 24);
  pld::rt::tload(v12, pld::rt::view(v2, 20, 40, 40, v2, 800), "pld.tile.load at cube.mlir:10:11");
  pld::rt::tload(v13, pld::rt::view(v3, 40, 24, 24, v3, 960), "pld.tile.load at cube.mlir:11:11");
  pld::rt::pipe_sync<pld::rt::Pipe::MTE2, pld::rt::Pipe::MTE1>();
  pld::rt::Acc<float, 32, 32> v14 = pld::rt::acc<float, 32, 32>(0, 20, 24);
  for (int64_t v15 = 0; v15 < 40; v15 += 32) {
    int64_t v16 = 40 - v15 < 32 ? 40 - v15 : 32;
    int64_t v17 = (v15 / 32) % 2 * 2048;
    pld::rt::Left<pld::rt::f16, 32, 32> v18 = pld::rt::left<pld::rt::f16, 32, 32>(v17, 20, v16);
    pld::rt::Right<pld::rt::f16, 32, 32> v19 = pld::rt::right<pld::rt::f16, 32, 32>(v17, v16, 24);
    pld::rt::textract(v18, v12, 0, v15, "pld.tile.extract at cube.mlir:16:13");
    pld::rt::textract(v19, v13, v15, 0, "pld.tile.extract at cube.mlir:17:13");
    pld::rt::pipe_sync<pld::rt::Pipe::MTE1, pld::rt::Pipe::M>();
    if (v15 == 0)
      pld::rt::tmatmul(v14, v18, v19, "pl.matmul at cube.mlir:18:13");
    else
      pld::rt::tmatmul_acc(v14, v18, v19, "pl.matmul at cube.mlir:18:13");
    pld::rt::pipe_sync<pld::rt::Pipe::M, pld::rt::Pipe::MTE1>();
  }
  pld::rt::pipe_sync<pld::rt::Pipe::M, pld::rt::Pipe::MTE3>();
  pld::rt::tstore(pld::rt::view(v8, 20, 24, 24, v8, 480), v14, "pld.tile.store at cube.mlir:22:5");
  pld::rt::tstore(pld::rt::view(v9, 20, 24, 24, v9, 480), v14, "pld.tile.store at cube.mlir:23:5");
  // i8: [17, 50] x [50, 33] into i32.
  pld::rt::Mat<int8_t, 32, 64> v20 = pld::rt::mat<int8_t, 32, 64>(8192, 17, 50);
  pld::rt::Mat<int8_t, 64, 64> v21 = pld::rt::mat<int8_t, 64, 64>(12288, 50, 33);
  pld::rt::tload(v20, pld::rt::view(v4, 17, 50, 50, v4, 850), "pld.tile.load at cube.mlir:26:11");
  pld::rt::tload(v21, pld::rt::view(v5, 50, 33, 33, v5, 1650), "pld.tile.load at cube.mlir:27:11");
  pld::rt::pipe_sync<pld::rt::Pipe::MTE2, pld::rt::Pipe::MTE1>();
  pld::rt::Left<int8_t, 32, 64> v22 = pld::rt::left<int8_t, 32, 64>(8192, 17, 50);
  pld::rt::Right<int8_t, 64, 64> v23 = pld::rt::right<int8_t, 64, 64>(8192, 50, 33);
  pld::rt::textract(v22, v20, 0, 0, "pld.tile.extract at cube.mlir:30:11");
  pld::rt::textract(v23, v21, 0, 0, "pld.tile.extract at cube.mlir:31:11");
  pld::rt::Acc<int32_t, 32, 64> v24 = pld::rt::acc<int32_t, 32, 64>(8192, 17, 33);
  pld::rt::pipe_sync<pld::rt::Pipe::MTE1, pld::rt::Pipe::M>();
  pld::rt::tmatmul(v24, v22, v23, "pl.matmul at cube.mlir:33:11");
  pld::rt::pipe_sync<pld::rt::Pipe::M, pld::rt::Pipe::MTE3>();
  pld::rt::tstore(pld::rt::view(v10, 17, 33, 33, v10, 561), v24, "pld.tile.store at cube.mlir:34:5");
  // f32: [16, 16] x [16, 16].
  pld::rt::Mat<float, 16, 16> v25 = pld::rt::mat<float, 16, 16>(20480);
  pld::rt::Mat<float, 16, 16> v26 = pld::rt::mat<float, 16, 16>(21504);
  pld::rt::tload(v25, pld::rt::view(v6, 16, 16, 16, v6, 256), "pld.tile.load at cube.mlir:37:11");
  pld::rt::tload(v26, pld::rt::view(v7, 16, 16, 16, v7, 256), "pld.tile.load at cube.mlir:38:11");
  pld::rt::pipe_sync<pld::rt::Pipe::MTE2, pld::rt::Pipe::MTE1>();
  pld::rt::Left<float, 16, 16> v27 = pld::rt::left<float, 16, 16>(16384);
  pld::rt::Right<float, 16, 16> v28 = pld::rt::right<float, 16, 16>(16384);
  pld::rt::textract(v27, v25, 0, 0, "pld.tile.extract at cube.mlir:41:11");
  pld::rt::textract(v28, v26, 0, 0, "pld.tile.extract at cube.mlir:42:11");
  pld::rt::Acc<float, 16, 16> v29 = pld::rt::acc<float, 16, 16>(16384);
  pld::rt::pipe_sync<pld::rt::Pipe::MTE1, pld::rt::Pipe::M>();
  pld::rt::tmatmul(v29, v27, v28, "pl.matmul at cube.mlir:44:11");
  pld::rt::pipe_sync<pld::rt::Pipe::M, pld::rt::Pipe::MTE3>();
  pld::rt::tstore(pld::rt::view(v11, 16, 16, 16, v11, 256), v29, "pld.tile.store at cube.mlir:45:5");
}

extern "C" __global__ __aicore__ void cube_bf16(__gm__ pld::rt::CommContext* v1, __gm__ pld::rt::bf16* v2, __gm__ pld::rt::bf16* v3, __gm__ float* v4, __gm__ pld::rt::bf16* v5) {
  (void) v1;
  pld::rt::Mat<pld::rt::bf16, 32, 48> v6 = pld::rt::mat<pld::rt::bf16, 32, 48>(0, 20, 40);
  pld::rt::Mat<pld::rt::bf16, 48, 32> v7 = pld::rt::mat<pld::rt::bf16, 48, 32>(4096, 40, 24);
  pld::rt::tload(v6, pld::rt::view(v2, 20, 40, 40), "pld.tile.load at cube.mlir:52:11");
  pld::rt::tload(v7, pld::rt::view(v3, 40, 24, 24), "pld.tile.load at cube.mlir:53:11");
  pld::rt::Left<pld::rt::bf16, 32, 48> v8 = pld::rt::left<pld::rt::bf16, 32, 48>(0, 20, 40);
  pld::rt::Right<pld::rt::bf16, 48, 32> v9 = pld::rt::right<pld::rt::bf16, 48, 32>(0, 40, 24);
  pld::rt::textract(v8, v6, 0, 0, "pld.tile.extract at cube.mlir:55:11");
  pld::rt::textract(v9, v7, 0, 0, "pld.tile.extract at cube.mlir:56:11");
  pld::rt::Acc<float, 32, 32> v10 = pld::rt::acc<float, 32, 32>(0, 20, 24);
  pld::rt::tmatmul(v10, v8, v9, "pl.matmul at cube.mlir:58:11");
  pld::rt::tstore(pld::rt::view(v4, 20, 24, 24), v10, "pld.tile.store at cube.mlir:59:5");
  pld::rt::tstore(pld::rt::view(v5, 20, 24, 24), v10, "pld.tile.store at cube.mlir:60:5");
}

extern "C" __global__ __aicore__ void cube_traps(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, int32_t v3) {
  (void) v1;
  if (v3 != 8 && pld::rt::block_idx() != 0)
    return;
  switch (v3) {
  case 1: {
    // The region extracted leaves the Mat tile's valid shape.
    pld::rt::Mat<float, 16, 32> v4 = pld::rt::mat<float, 16, 32>(0, 16, 20);
    pld::rt::Left<float, 16, 16> v5 = pld::rt::left<float, 16, 16>(0);
    pld::rt::textract(v5, v4, 0, 8, "pld.tile.extract at traps.mlir:5:5");
    break;
  }
  case 2: {
    // k differs between the operands.
    pld::rt::Left<float, 16, 16> v4 = pld::rt::left<float, 16, 16>(0, 16, 8);
    pld::rt::Right<float, 16, 16> v5 = pld::rt::right<float, 16, 16>(0, 16, 16);
    pld::rt::Acc<float, 16, 16> v6 = pld::rt::acc<float, 16, 16>(0);
    pld::rt::tmatmul(v6, v4, v5, "pl.matmul at traps.mlir:8:5");
    break;
  }
  case 3:
    // 256 KiB of f32 in a 128 KiB L0C.
    (void) pld::rt::acc<float, 256, 256>(0);
    break;
  case 4:
    // L1 tiles are 32-byte aligned.
    (void) pld::rt::mat<float, 16, 16>(16);
    break;
  case 5: {
    // The view is not the Acc tile's valid shape.
    pld::rt::Acc<float, 16, 16> v4 = pld::rt::acc<float, 16, 16>(0, 8, 16);
    pld::rt::tstore(pld::rt::view(v2, 16, 16, 16), v4, "pld.tile.store at traps.mlir:17:5");
    break;
  }
  case 6: {
    // L0A takes whole 16 x 8 f32 boxes.
    pld::rt::Mat<float, 32, 32> v4 = pld::rt::mat<float, 32, 32>(0);
    pld::rt::Left<float, 16, 16> v5 = pld::rt::left<float, 16, 16>(0);
    pld::rt::textract(v5, v4, 0, 4, "pld.tile.extract at traps.mlir:20:5");
    break;
  }
  case 7: {
    // The Acc tile's valid shape is not m x n.
    pld::rt::Left<float, 16, 16> v4 = pld::rt::left<float, 16, 16>(0, 16, 16);
    pld::rt::Right<float, 16, 16> v5 = pld::rt::right<float, 16, 16>(0, 16, 12);
    pld::rt::Acc<float, 16, 16> v6 = pld::rt::acc<float, 16, 16>(0);
    pld::rt::tmatmul_acc(v6, v4, v5, "pl.matmul at traps.mlir:23:5");
    break;
  }
  case 8: {
    // Block 0's Acc store and block 1's Mat load of the same rows, in no
    // order: a race.
    if (pld::rt::block_idx() == 0) {
      pld::rt::Acc<float, 16, 16> v4 = pld::rt::acc<float, 16, 16>(0);
      pld::rt::tstore(pld::rt::view(v2, 16, 16, 16), v4, "pld.tile.store at traps.mlir:27:7");
    } else {
      pld::rt::Mat<float, 16, 16> v4 = pld::rt::mat<float, 16, 16>(0);
      pld::rt::tload(v4, pld::rt::view(v2, 16, 16, 16), "pld.tile.load at traps.mlir:29:7");
    }
    break;
  }
  default:
    break;
  }
}

#if PLD_HOST_CODE
extern "C" void cube_entry(__gm__ pld::rt::CommContext* v1, const pld::rt::Arg* v2) {
  cube(v1, pld::rt::arg_ptr<pld::rt::f16>(v2, 0), pld::rt::arg_ptr<pld::rt::f16>(v2, 1), pld::rt::arg_ptr<int8_t>(v2, 2), pld::rt::arg_ptr<int8_t>(v2, 3), pld::rt::arg_ptr<float>(v2, 4), pld::rt::arg_ptr<float>(v2, 5), pld::rt::arg_ptr<float>(v2, 6), pld::rt::arg_ptr<pld::rt::f16>(v2, 7), pld::rt::arg_ptr<int32_t>(v2, 8), pld::rt::arg_ptr<float>(v2, 9));
}
extern "C" void cube_bf16_entry(__gm__ pld::rt::CommContext* v1, const pld::rt::Arg* v2) {
  cube_bf16(v1, pld::rt::arg_ptr<pld::rt::bf16>(v2, 0), pld::rt::arg_ptr<pld::rt::bf16>(v2, 1), pld::rt::arg_ptr<float>(v2, 2), pld::rt::arg_ptr<pld::rt::bf16>(v2, 3));
}
extern "C" void cube_traps_entry(__gm__ pld::rt::CommContext* v1, const pld::rt::Arg* v2) {
  cube_traps(v1, pld::rt::arg_ptr<float>(v2, 0), pld::rt::arg_scalar<int32_t>(v2, 1));
}
#endif  // PLD_HOST_CODE
