// Atomic remote stores from 8 ranks x 4 blocks into rank 0, in f32, f16,
// bf16 and i16 (the 16-bit types by compare-and-swap on the containing
// 32-bit word). Every partial sum is exact in its type, so the result is
// exact whatever the order; a lost update would show.
#include "pld/runtime.h"

template <typename T>
static void push(__gm__ pld::rt::CommContext* v1, __gm__ T* v2, __gm__ T* v3, int64_t v4, const char* v5) {
  pld::rt::Tile<T, 16, 16> v6 = pld::rt::tile<T, 16, 16>(v4);
  pld::rt::tload(v6, pld::rt::view(v3, 16, 16, 16), v5);
  __gm__ T* v7 = pld::rt::peer_ptr(v1, v2, (int64_t) 0, v5);
  pld::rt::tstore_atomic_add(pld::rt::view(v7, 16, 16, 16), v6, v5);
}

extern "C" __global__ __aicore__ void accumulate(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ _Float16* v3, __gm__ __bf16* v4, __gm__ int16_t* v5, __gm__ float* v6, __gm__ _Float16* v7, __gm__ __bf16* v8, __gm__ int16_t* v9) {
  push(v1, v2, v6, 0, "pld.tile.remote_store at atomic.mlir:9:5");
  push(v1, v3, v7, 1024, "pld.tile.remote_store at atomic.mlir:10:5");
  push(v1, v4, v8, 1536, "pld.tile.remote_store at atomic.mlir:11:5");
  push(v1, v5, v9, 2048, "pld.tile.remote_store at atomic.mlir:12:5");
}

extern "C" void atomic_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  accumulate(ctx, static_cast<__gm__ float*>(args[0].ptr), static_cast<__gm__ _Float16*>(args[1].ptr), static_cast<__gm__ __bf16*>(args[2].ptr), static_cast<__gm__ int16_t*>(args[3].ptr), static_cast<__gm__ float*>(args[4].ptr), static_cast<__gm__ _Float16*>(args[5].ptr), static_cast<__gm__ __bf16*>(args[6].ptr), static_cast<__gm__ int16_t*>(args[7].ptr));
}
