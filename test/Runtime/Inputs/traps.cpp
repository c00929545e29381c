// Accesses the simulator must stop with a trap report (exit status 4), each
// done by rank 0 only, selected by `mode`; mode 0 does zero-sized accesses at
// bad addresses, which touch nothing and must pass.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void traps(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ float* v3, int32_t v4) {
  int32_t v5 = pld::rt::rank(v1);
  if (v5 != 0)
    return;
  pld::rt::Tile<float, 2, 64> v6 = pld::rt::tile<float, 2, 64>(0);
  switch (v4) {
  case 0: {
    __gm__ float* v7 = pld::rt::offset(v2, 1 << 20);
    pld::rt::tload(v6, pld::rt::view(v7, 0, 64, 64), "pld.tile.load at traps.mlir:10:5");
    pld::rt::tstore(pld::rt::view(v7, 2, 0, 64), v6, "pld.tile.store at traps.mlir:11:5");
    pld::rt::tput(pld::rt::view(v7, 0, 0, 64), pld::rt::view(v7, 0, 0, 64), v6, "pld.system.put at traps.mlir:12:5");
    break;
  }
  case 1: {
    __gm__ float* v8 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, 1000), (int64_t) 1, "pld.tile.remote_load at traps.mlir:15:10");
    pld::rt::tload(v6, pld::rt::view(v8, 1, 64, 64), "pld.tile.remote_load at traps.mlir:15:10");
    break;
  }
  case 2:
    (void) pld::rt::peer_ptr(v1, v2, (int64_t) pld::rt::nranks(v1), "pld.tile.remote_load at traps.mlir:18:10");
    break;
  case 3:
    pld::rt::tload(v6, pld::rt::view(v2, 3, 64, 64), "pld.tile.load at traps.mlir:21:10");
    break;
  case 4:
    pld::rt::write(pld::rt::offset(v3, 16), 1.0f, "pld.tile.store at traps.mlir:24:5");
    break;
  case 5:
    (void) pld::rt::tile<float, 256, 256>(0);
    break;
  }
}

extern "C" void traps_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  traps(ctx, static_cast<__gm__ float*>(args[0].ptr), static_cast<__gm__ float*>(args[1].ptr), (int32_t) args[2].i);
}
