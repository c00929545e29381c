// semantics §3/§4 put and get through staging tiles on 2 ranks: a put of [8, 64]
// through one [2, 32] stage, a ragged put of [7, 50] and a ragged, offset get
// of [5, 40] through [2, 32] ping/pong stages. Afterwards the stages are
// stored too: each must hold the last chunk it carried, ragged chunks
// zero-padded, which only happens if the data really moved chunk by chunk.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void putget(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ float* v3, __gm__ float* v4, __gm__ float* v5, __gm__ float* v6, __gm__ int32_t* v7) {
  int32_t v8 = pld::rt::rank(v1);
  int32_t v9 = pld::rt::nranks(v1);
  int32_t v10 = (v8 + 1) % v9;
  pld::rt::Tile<float, 2, 32> v11 = pld::rt::tile<float, 2, 32>(0);
  pld::rt::Tile<float, 2, 32> v12 = pld::rt::tile<float, 2, 32>(256);
  pld::rt::Tile<float, 2, 32> v13 = pld::rt::tile<float, 2, 32>(512);
  __gm__ float* v14 = pld::rt::peer_ptr(v1, v3, (int64_t) v10, "pld.system.put at putget.mlir:12:3");
  pld::rt::tput(pld::rt::view(v14, 8, 64, 64), pld::rt::view(v2, 8, 64, 64), v11, "pld.system.put at putget.mlir:12:3");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v6, 0), 2, 32, 32), v11, "pld.tile.store at putget.mlir:13:3");
  __gm__ float* v15 = pld::rt::peer_ptr(v1, v4, (int64_t) v10, "pld.system.put at putget.mlir:14:3");
  pld::rt::tput(pld::rt::view(v15, 7, 50, 64), pld::rt::view(v2, 7, 50, 64), v12, v13, "pld.system.put at putget.mlir:14:3");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v6, 64), 2, 32, 32), v12, "pld.tile.store at putget.mlir:15:3");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v6, 128), 2, 32, 32), v13, "pld.tile.store at putget.mlir:16:3");
  __gm__ float* v16 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, 67), (int64_t) v10, "pld.system.get at putget.mlir:17:3");
  pld::rt::tget(pld::rt::view(pld::rt::offset(v5, 138), 5, 40, 64), pld::rt::view(v16, 5, 40, 64), v12, v13, "pld.system.get at putget.mlir:17:3");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v6, 192), 2, 32, 32), v12, "pld.tile.store at putget.mlir:18:3");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v6, 256), 2, 32, 32), v13, "pld.tile.store at putget.mlir:19:3");
  pld::rt::release();
  __gm__ int32_t* v17 = pld::rt::peer_ptr(v1, pld::rt::offset(v7, v8), (int64_t) v10, "pld.system.notify at putget.mlir:20:3");
  pld::rt::tnotify(v17, 1, pld::rt::NotifyOp::Set, "pld.system.notify at putget.mlir:20:3", v7, (int64_t) 2, (int64_t) 1);
  int32_t v18 = (v8 + v9 - 1) % v9;
  pld::rt::twait(pld::rt::offset(v7, v18), 1, pld::rt::WaitCmp::EQ, "pld.system.wait at putget.mlir:21:3", v7, (int64_t) 2, (int64_t) 1);
  pld::rt::acquire();
}

extern "C" void putget_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  putget(ctx, static_cast<__gm__ float*>(args[0].ptr), static_cast<__gm__ float*>(args[1].ptr), static_cast<__gm__ float*>(args[2].ptr), static_cast<__gm__ float*>(args[3].ptr), static_cast<__gm__ float*>(args[4].ptr), static_cast<__gm__ int32_t*>(args[5].ptr));
}
