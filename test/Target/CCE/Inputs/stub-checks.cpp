// Device code the PTO stub must reject as the real headers do, one case per
// CASE value; CASE 0 is the near miss of each, which compiles.
#include "pld/runtime.h"

using namespace pld::rt;

extern "C" __global__ __aicore__ void k(__gm__ CommContext *ctx,
                                        __gm__ int32_t *i32, __gm__ float *f32,
                                        __gm__ double *f64) {
  (void)ctx;
  (void)f64;
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
#endif
}
