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
    pld::rt::Tile<float, 2, 64> v17 = pld::rt::tile<float, 2, 64>(0, 0, 64);
    pld::rt::Tile<float, 2, 64> v18 = pld::rt::tile<float, 2, 64>(0, 2, 0);
    pld::rt::tload(v17, pld::rt::view(v7, 0, 64, 64), "pld.tile.load at traps.mlir:10:5");
    pld::rt::tstore(pld::rt::view(v7, 2, 0, 64), v18, "pld.tile.store at traps.mlir:11:5");
    pld::rt::tput(pld::rt::view(v7, 0, 0, 64), pld::rt::view(v7, 0, 0, 64), v6, "pld.system.put at traps.mlir:12:5");
    break;
  }
  case 1: {
    __gm__ float* v8 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, 1000), (int64_t) 1, "pld.tile.remote_load at traps.mlir:15:10");
    pld::rt::Tile<float, 2, 64> v9 = pld::rt::tile<float, 2, 64>(0, 1, 64);
    pld::rt::tload(v9, pld::rt::view(v8, 1, 64, 64), "pld.tile.remote_load at traps.mlir:15:10");
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
  case 6: {
    // A store of a 2 x 64 tile into a 2 x 32 view: TSTORE would write the
    // valid shape through the view's strides, past it.
    pld::rt::tload(v6, pld::rt::view(v2, 2, 64, 64), "pld.tile.load at traps.mlir:30:10");
    pld::rt::tstore(pld::rt::view(v2, 2, 32, 64), v6, "pld.tile.store at traps.mlir:31:5");
    break;
  }
  case 7: {
    // A ragged tile added to a whole one: PTO asserts equal valid shapes.
    pld::rt::Tile<float, 2, 64> v10 = pld::rt::tile<float, 2, 64>(512, 2, 50);
    pld::rt::tload(v6, pld::rt::view(v2, 2, 64, 64), "pld.tile.load at traps.mlir:35:10");
    pld::rt::tload(v10, pld::rt::view(v2, 2, 50, 64), "pld.tile.load at traps.mlir:36:10");
    pld::rt::tadd(v6, v6, v10, "pl.add at traps.mlir:37:10");
    break;
  }
  case 8:
    // Rows 4-5 of a tensor of 4 rows at the start of the window: inside the
    // window, outside the tensor.
    pld::rt::tload(v6, pld::rt::view(pld::rt::offset(v2, 256), 2, 64, 64, v2, 256), "pld.tile.load at traps.mlir:42:10");
    break;
  case 9: {
    // Cell 2 of a [2, 1] signal.
    __gm__ int32_t* v11 = reinterpret_cast<__gm__ int32_t*>(v2);
    __gm__ int32_t* v12 = pld::rt::peer_ptr(v1, pld::rt::offset(v11, 2), (int64_t) 1, "pld.system.notify at traps.mlir:46:5");
    pld::rt::tnotify(v12, 1, pld::rt::NotifyOp::AtomicAdd, "pld.system.notify at traps.mlir:46:5", v11, (int64_t) 2, (int64_t) 1);
    break;
  }
  case 10: {
    // What a ragged load leaves of its tile is poisoned: the handle made
    // whole over the same unified buffer stores NaN past column 50.
    pld::rt::Tile<float, 2, 64> v13 = pld::rt::tile<float, 2, 64>(0, 2, 50);
    pld::rt::tload(v13, pld::rt::view(v2, 2, 50, 64), "pld.tile.load at traps.mlir:51:10");
    pld::rt::tstore(pld::rt::view(pld::rt::offset(v2, 128), 2, 64, 64), v6, "pld.tile.store at traps.mlir:52:5");
    break;
  }
  }
}

extern "C" void traps_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  traps(ctx, static_cast<__gm__ float*>(args[0].ptr), static_cast<__gm__ float*>(args[1].ptr), (int32_t) args[2].i);
}
