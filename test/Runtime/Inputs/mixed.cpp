// A mixed kernel as the emitter writes it: per block, the vector half (AIV)
// makes the GEMM's left operand a = (2 + i) * x with tile math, stores it
// and hands over; the cube half (AIC) multiplies a by b (16 x 32 x 16,
// f16 into f32), stores the product c and hands back; the vector half
// loads c, doubles it and accumulates it. Two GEMMs (i = 0, 1), so
// out = 2 * (2 x + 3 x) b = 10 x b. Block k works on rows 16k..16k+15.
// `mode` breaks it: 1 the vector half does not wait for the product,
// 2 the cube half never hands back, 3 the cube half signals the wrong
// direction, 4 the cube half makes a unified-buffer tile, 5 a sub-lane
// signals inside a split region, 6 the vector half never hands over (and
// does not wait), 7 the vector half signals 16 times to a cube half that
// never waits; each with one GEMM.
#include "pld/runtime.h"

static __aicore__ inline void mixed_aiv_lanes(__gm__ pld::rt::CommContext* v1) {
  (void) v1;
  pld::rt::cross_core_signal<pld::rt::Core::AIV, pld::rt::Core::AIC>();
}

static __aicore__ inline void mixed_aic(__gm__ pld::rt::CommContext* v1, __gm__ pld::rt::f16* v2, __gm__ pld::rt::f16* v3, __gm__ pld::rt::f16* v4, __gm__ float* v5, __gm__ float* v6, int32_t v7) {
  (void) v1;
  (void) v2;
  (void) v6;
  int64_t v8 = pld::rt::block_idx();
  int64_t v9 = v7 == 0 ? 2 : 1;
  if (v7 == 3)
    pld::rt::cross_core_signal<pld::rt::Core::AIV, pld::rt::Core::AIC>();
  if (v7 == 4)
    (void) pld::rt::tile<float, 16, 16>(0);
  if (v7 == 7)
    return;
  for (int64_t v10 = 0; v10 < v9; v10 += 1) {
    pld::rt::cross_core_wait<pld::rt::Core::AIV, pld::rt::Core::AIC>();
    pld::rt::acquire();
    pld::rt::Mat<pld::rt::f16, 16, 32> v11 = pld::rt::mat<pld::rt::f16, 16, 32>(0);
    pld::rt::Mat<pld::rt::f16, 32, 16> v12 = pld::rt::mat<pld::rt::f16, 32, 16>(1024);
    pld::rt::tload(v11, pld::rt::view(pld::rt::offset(v4, v8 * 512), 16, 32, 32, v4, 1024), "pld.tile.load at mixed.mlir:20:13");
    pld::rt::tload(v12, pld::rt::view(v3, 32, 16, 16, v3, 512), "pld.tile.load at mixed.mlir:21:13");
    pld::rt::pipe_sync<pld::rt::Pipe::MTE2, pld::rt::Pipe::MTE1>();
    pld::rt::Left<pld::rt::f16, 16, 32> v13 = pld::rt::left<pld::rt::f16, 16, 32>(0);
    pld::rt::Right<pld::rt::f16, 32, 16> v14 = pld::rt::right<pld::rt::f16, 32, 16>(0);
    pld::rt::textract(v13, v11, 0, 0, "pld.tile.extract at mixed.mlir:22:13");
    pld::rt::textract(v14, v12, 0, 0, "pld.tile.extract at mixed.mlir:23:13");
    pld::rt::pipe_sync<pld::rt::Pipe::MTE1, pld::rt::Pipe::M>();
    pld::rt::Acc<float, 16, 16> v15 = pld::rt::acc<float, 16, 16>(0);
    pld::rt::tmatmul(v15, v13, v14, "pl.matmul at mixed.mlir:24:13");
    pld::rt::pipe_sync<pld::rt::Pipe::M, pld::rt::Pipe::FIX>();
    pld::rt::tstore(pld::rt::view(pld::rt::offset(v5, v8 * 256), 16, 16, 16, v5, 512), v15, "pld.tile.store at mixed.mlir:25:13");
    pld::rt::pipe_sync<pld::rt::Pipe::FIX, pld::rt::Pipe::MTE2>();
    pld::rt::release();
    if (v7 != 2)
      pld::rt::cross_core_signal<pld::rt::Core::AIC, pld::rt::Core::AIV>();
  }
}

static __aicore__ inline void mixed_aiv(__gm__ pld::rt::CommContext* v1, __gm__ pld::rt::f16* v2, __gm__ pld::rt::f16* v3, __gm__ pld::rt::f16* v4, __gm__ float* v5, __gm__ float* v6, int32_t v7) {
  (void) v3;
  int64_t v8 = pld::rt::block_idx();
  int64_t v9 = v7 == 0 ? 2 : 1;
  if (v7 == 5)
    pld::rt::run_on_lanes(v1, mixed_aiv_lanes);
  if (v7 == 7)
    for (int64_t v10 = 0; v10 < 16; v10 += 1)
      pld::rt::cross_core_signal<pld::rt::Core::AIV, pld::rt::Core::AIC>();
  pld::rt::Tile<float, 16, 16> v10 = pld::rt::tile<float, 16, 16>(0);
  for (int64_t v11 = 0; v11 < v9; v11 += 1) {
    pld::rt::Tile<pld::rt::f16, 16, 32> v12 = pld::rt::tile<pld::rt::f16, 16, 32>(1024);
    pld::rt::Tile<pld::rt::f16, 16, 32> v13 = pld::rt::tile<pld::rt::f16, 16, 32>(2048);
    pld::rt::tload(v12, pld::rt::view(pld::rt::offset(v2, v8 * 512), 16, 32, 32, v2, 1024), "pld.tile.load at mixed.mlir:8:13");
    pld::rt::pipe_sync<pld::rt::Pipe::MTE2, pld::rt::Pipe::V>();
    pld::rt::tadd(v13, v12, v12, "pl.add at mixed.mlir:9:13");
    for (int64_t v14 = 0; v14 < v11; v14 += 1)
      pld::rt::tadd(v13, v13, v12, "pl.add at mixed.mlir:10:15");
    pld::rt::pipe_sync<pld::rt::Pipe::V, pld::rt::Pipe::MTE3>();
    pld::rt::tstore(pld::rt::view(pld::rt::offset(v4, v8 * 512), 16, 32, 32, v4, 1024), v13, "pld.tile.store at mixed.mlir:11:13");
    pld::rt::release();
    if (v7 != 6)
      pld::rt::cross_core_signal<pld::rt::Core::AIV, pld::rt::Core::AIC>();
    if (v7 != 1 && v7 != 6)
      pld::rt::cross_core_wait<pld::rt::Core::AIC, pld::rt::Core::AIV>();
    pld::rt::acquire();
    pld::rt::Tile<float, 16, 16> v15 = pld::rt::tile<float, 16, 16>(3072);
    pld::rt::tload(v15, pld::rt::view(pld::rt::offset(v5, v8 * 256), 16, 16, 16, v5, 512), "pld.tile.load at mixed.mlir:14:13");
    pld::rt::pipe_sync<pld::rt::Pipe::MTE2, pld::rt::Pipe::V>();
    pld::rt::tadd(v15, v15, v15, "pl.add at mixed.mlir:15:13");
    if (v11 == 0)
      pld::rt::tcopy(v10, v15, "pl.add at mixed.mlir:16:13");
    else
      pld::rt::tadd(v10, v10, v15, "pl.add at mixed.mlir:16:13");
  }
  pld::rt::pipe_sync<pld::rt::Pipe::V, pld::rt::Pipe::MTE3>();
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v6, v8 * 256), 16, 16, 16, v6, 512), v10, "pld.tile.store at mixed.mlir:18:3");
}

extern "C" __global__ __aicore__ void mixed(__gm__ pld::rt::CommContext* v1, __gm__ pld::rt::f16* v2, __gm__ pld::rt::f16* v3, __gm__ pld::rt::f16* v4, __gm__ float* v5, __gm__ float* v6, int32_t v7) {
  pld::rt::run_mixed(v1, mixed_aic, mixed_aiv, v2, v3, v4, v5, v6, v7);
}

#if PLD_HOST_CODE
extern "C" void mixed_entry(__gm__ pld::rt::CommContext* v1, const pld::rt::Arg* v2) {
  mixed(v1, pld::rt::arg_ptr<pld::rt::f16>(v2, 0), pld::rt::arg_ptr<pld::rt::f16>(v2, 1), pld::rt::arg_ptr<pld::rt::f16>(v2, 2), pld::rt::arg_ptr<float>(v2, 3), pld::rt::arg_ptr<float>(v2, 4), pld::rt::arg_scalar<int32_t>(v2, 5));
}
#endif  // PLD_HOST_CODE
