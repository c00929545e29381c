// Device code the PTO stub must reject as the real headers do, one case per
// CASE value; CASE 0 is the near miss of each, which compiles.
#include "pld/runtime.h"

using namespace pld::rt;

#if CASE == 0
// A mixed kernel as the emitter writes it: the vector half hands an
// operand to the cube half, which multiplies it and hands the product
// back. Every compile sees both halves: the one for the cube core
// (-D__DAV_C220_CUBE__), the one for the vector core (-D__DAV_C220_VEC__)
// and the one for neither.
static __aicore__ inline void m_lanes(__gm__ CommContext *ctx,
                                      __gm__ float *f32) {
  (void)ctx;
  Tile<float, 1, 8> t = tile<float, 1, 8>(0);
  tload(t, view(f32, 1, 8, 8), "");
}
static __aicore__ inline void m_aic(__gm__ CommContext *ctx, __gm__ f16 *h,
                                    __gm__ float *f32) {
  (void)ctx;
  cross_core_wait<Core::AIV, Core::AIC>();
  acquire();
  Mat<f16, 16, 32> ma = mat<f16, 16, 32>(0);
  Mat<f16, 32, 16> mb = mat<f16, 32, 16>(1024);
  tload(ma, view(h, 16, 32, 32), "");
  tload(mb, view(h, 32, 16, 16), "");
  pipe_sync<Pipe::MTE2, Pipe::MTE1>();
  Left<f16, 16, 32> l = left<f16, 16, 32>(0);
  Right<f16, 32, 16> r = right<f16, 32, 16>(0);
  textract(l, ma, 0, 0, "");
  textract(r, mb, 0, 0, "");
  pipe_sync<Pipe::MTE1, Pipe::M>();
  Acc<float, 16, 16> c = acc<float, 16, 16>(0, 16, 16);
  tmatmul(c, l, r, "");
  tmatmul_acc(c, l, r, "");
  pipe_sync<Pipe::M, Pipe::FIX>();
  tstore(view(f32, 16, 16, 16), c, "");
  release();
  cross_core_signal<Core::AIC, Core::AIV>();
}
static __aicore__ inline void m_aiv(__gm__ CommContext *ctx, __gm__ f16 *h,
                                    __gm__ float *f32) {
  Tile<f16, 16, 32> a = tile<f16, 16, 32>(0);
  tload(a, view(h, 16, 32, 32), "");
  tadd(a, a, a, "");
  tmax(a, a, a, "");
  tmin(a, a, a, "");
  tmul(a, a, a, "");
  tsub(a, a, a, "");
  tadds(a, a, f16(1), "");
  tsubs(a, a, f16(1), "");
  tmuls(a, a, f16(1), "");
  tmaxs(a, a, f16(1), "");
  tmins(a, a, f16(1), "");
  texpands(a, f16(0), "");
  Tile<float, 16, 32> wide = tile<float, 16, 32>(0);
  tcvt(wide, a, RoundMode(1), "");
  tcopy(a, a, "");
  tstore(view(h, 16, 32, 32), a, "");
  tstore_atomic_add(view(h, 16, 32, 32), a, "");
  tput(view(h, 16, 32, 32), view(h, 16, 32, 32), a, "");
  tget(view(h, 16, 32, 32), view(h, 16, 32, 32), a, a, "");
  run_on_lanes(ctx, m_lanes, f32);
  release();
  cross_core_signal<Core::AIV, Core::AIC>();
  cross_core_wait<Core::AIC, Core::AIV>();
  acquire();
  Tile<float, 16, 16> p = tile<float, 16, 16>(1024);
  tload(p, view(f32, 16, 16, 16), "");
}
extern "C" __global__ __aicore__ void m(__gm__ CommContext *ctx, FftsAddr ffts,
                                        __gm__ f16 *h, __gm__ float *f32) {
  set_ffts_base_addr(ffts);
  run_mixed(ctx, m_aic, m_aiv, h, f32);
}
#endif

extern "C" __global__ __aicore__ void k(__gm__ CommContext *ctx,
                                        __gm__ int32_t *i32, __gm__ float *f32,
                                        __gm__ double *f64, __gm__ f16 *h,
                                        __gm__ bf16 *b, __gm__ int8_t *i8) {
  (void)ctx;
  (void)f64;
  (void)h;
  (void)b;
  (void)i8;
#if CASE == 0
  // A padded row (8 x i32 = 32 bytes) with a valid width of 5; f32 math.
  Tile<int32_t, 1, 8> t = tile<int32_t, 1, 8>(0, 1, 5);
  tload(t, view(i32, 1, 5, 5), "");
  tstore(view(i32, 1, 5, 5), t, "");
  Tile<float, 1, 8> f = tile<float, 1, 8>(64);
  tadd(f, f, f, "");
  tload(f, view(f32, 1, 8, 8), "");
  pipe_sync<Pipe::MTE2, Pipe::V>();
  release();
  // A 20 x 40 x 24 f16 GEMM in two k steps, stored as f32 and as f16.
  Mat<f16, 32, 64> ma = mat<f16, 32, 64>(0, 20, 40);
  Mat<f16, 64, 32> mb = mat<f16, 64, 32>(4096, 40, 24);
  tload(ma, view(h, 20, 40, 40), "");
  tload(mb, view(h, 40, 24, 24), "");
  pipe_sync<Pipe::MTE2, Pipe::MTE1>();
  Left<f16, 32, 32> l = left<f16, 32, 32>(0, 20, 32);
  Right<f16, 32, 32> r = right<f16, 32, 32>(0, 32, 24);
  textract(l, ma, 0, 0, "");
  textract(r, mb, 0, 0, "");
  Acc<float, 32, 32> c = acc<float, 32, 32>(0, 20, 24);
  pipe_sync<Pipe::MTE1, Pipe::M>();
  tmatmul(c, l, r, "");
  Left<f16, 32, 32> l2 = left<f16, 32, 32>(2048, 20, 8);
  Right<f16, 32, 32> r2 = right<f16, 32, 32>(2048, 8, 24);
  textract(l2, ma, 0, 32, "");
  textract(r2, mb, 32, 0, "");
  tmatmul_acc(c, l2, r2, "");
  tstore(view(f32, 20, 24, 24), c, "");
  tstore(view(h, 20, 24, 24), c, "");
  tstore(view(b, 20, 24, 24), c, "");
  // i8 x i8 into i32: L0B's one-byte boxes are 32 x 32.
  Mat<int8_t, 32, 64> qa = mat<int8_t, 32, 64>(8192);
  Mat<int8_t, 64, 64> qb = mat<int8_t, 64, 64>(12288);
  tload(qa, view(i8, 32, 64, 64), "");
  tload(qb, view(i8, 64, 64, 64), "");
  Left<int8_t, 32, 64> ql = left<int8_t, 32, 64>(4096);
  Right<int8_t, 64, 16> qr = right<int8_t, 64, 16>(4096);
  textract(ql, qa, 0, 0, "");
  textract(qr, qb, 0, 32, "");
  Acc<int32_t, 32, 16> qc = acc<int32_t, 32, 16>(4096);
  tmatmul(qc, ql, qr, "");
  tstore(view(i32, 32, 16, 16), qc, "");
  // SDMA: the session, a pull of rows that are not one line (a post per
  // row), a push of one line, their waits.
  AsyncSession s = sdma_session(nullptr, 0, 1024, "");
  AsyncEvent e = tget_async(view(f32, 2, 8, 16), view(f32, 2, 8, 8), s, "");
  wait_async(e, s, "");
  wait_async(tput_async(view(h, 1, 32, 32), view(h, 1, 32, 32), s, ""), s, "");
#elif CASE == 1
  // A row of 20 bytes.
  Tile<int32_t, 1, 5> t = tile<int32_t, 1, 5>(0);
  tload(t, view(i32, 1, 5, 5), "");
#elif CASE == 2
  // f64 never reaches the device.
  Tile<double, 1, 4> t = tile<double, 1, 4>(0);
  tload(t, view(f64, 1, 4, 4), "");
#elif CASE == 3
  // a2a3 has no bf16 tile math.
  Tile<bf16, 1, 16> t = tile<bf16, 1, 16>(0);
  tadd(t, t, t, "");
#elif CASE == 4
  // The cache-line enumerator is qualified in every build.
  dcci((__gm__ void *)0, ENTIRE_DATA_CACHE);
#elif CASE == 5
  // set_flag takes its pipes as immediates.
  pipe_t src = ctx->rankId ? PIPE_MTE2 : PIPE_V;
  set_flag(src, PIPE_V, EVENT_ID0);
#elif CASE == 6
  // The cube multiplies i8 into i32 only.
  Acc<float, 16, 16> c = acc<float, 16, 16>(0);
  tmatmul(c, left<int8_t, 16, 32>(0), right<int8_t, 32, 16>(0), "");
#elif CASE == 7
  // A Left tile is whole 16-row boxes.
  Left<f16, 8, 16> l = left<f16, 8, 16>(0);
  (void)l;
#elif CASE == 8
  // The fixpipe converts f32 to f16 or bf16 only (without a quantization
  // scale).
  tstore(view(i8, 16, 16, 16), acc<float, 16, 16>(0), "");
#elif CASE == 9
  // L0B's f32 boxes are transposed 16 x 16 ones: 8 rows do not do.
  Mat<float, 16, 16> m = mat<float, 16, 16>(0);
  textract(right<float, 8, 16>(0), m, 0, 0, "");
#elif CASE == 10
  // An unguarded cube instruction (compiled with -D__DAV_C220_VEC__).
  pto::TileAcc<float, 16, 16, pto::DYNAMIC, pto::DYNAMIC> c;
  pto::TASSIGN(c, 0);
#elif CASE == 11
  // An unguarded vector instruction (compiled with -D__DAV_C220_CUBE__).
  Tile<float, 1, 8>::Data v;
  pto::TADD(v, v, v);
#elif CASE == 12
  // A flag goes to the other core.
  cross_core_signal<Core::AIC, Core::AIC>();
#elif CASE == 13
  // A2/A3's TLOAD moves fewer than 4096 rows (Ascend950's has no limit).
  tload(tile<float, 4096, 8>(0), view(f32, 4096, 8, 8), "");
#elif CASE == 14
  // An SDMA copy between two element types.
  AsyncSession s = sdma_session(nullptr, 0, 0, "");
  Global2D<float> d = global(view(f32, 1, 8, 8));
  Global2D<int32_t> g = global(view(i32, 1, 8, 8));
  (void)pto::comm::TGET_ASYNC(d, g, s);
#endif
}
