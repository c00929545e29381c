// semantics §4 credit barrier with its epilogue, called 3 times back to back on
// one signal. Before each barrier every rank adds 1 into arrivals[call] of
// every peer; after it, a rank must see all n - 1 arrivals of that call.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void barrier3(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2, __gm__ int32_t* v3, __gm__ int32_t* v4, __gm__ int32_t* v5) {
  int32_t v6 = pld::rt::rank(v1);
  int32_t v7 = pld::rt::nranks(v1);
  // One element, in a tile whose row is padded to 32 bytes.
  pld::rt::Tile<int32_t, 1, 8> v8 = pld::rt::tile<int32_t, 1, 8>(0, 1, 1);
  pld::rt::tload(v8, pld::rt::view(v5, 1, 1, 1), "pld.tile.load at barrier.mlir:8:8");
  for (int32_t v9 = 0; v9 < 3; v9 += 1) {
    for (int32_t v10 = 0; v10 < v7; v10 += 1) {
      if (v10 == v6) continue;
      __gm__ int32_t* v11 = pld::rt::peer_ptr(v1, pld::rt::offset(v3, v9), (int64_t) v10, "pld.tile.remote_store at barrier.mlir:12:7");
      pld::rt::tstore_atomic_add(pld::rt::view(v11, 1, 1, 1), v8, "pld.tile.remote_store at barrier.mlir:12:7");
    }
    pld::rt::release();
    for (int32_t v12 = 0; v12 < v7; v12 += 1) {
      if (v12 == v6) continue;
      __gm__ int32_t* v13 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, v6), (int64_t) v12, "pld.collective.barrier at barrier.mlir:14:5");
      pld::rt::tnotify(v13, 1, pld::rt::NotifyOp::AtomicAdd, "pld.collective.barrier at barrier.mlir:14:5", v2, (int64_t) 4, (int64_t) 1);
    }
    for (int32_t v14 = 0; v14 < v7; v14 += 1) {
      if (v14 == v6) continue;
      pld::rt::twait(pld::rt::offset(v2, v14), 1, pld::rt::WaitCmp::GE, "pld.collective.barrier at barrier.mlir:14:5", v2, (int64_t) 4, (int64_t) 1);
    }
    pld::rt::acquire();
    int32_t v15 = pld::rt::read(pld::rt::offset(v3, v9), "pld.tile.load at barrier.mlir:16:10");
    pld::rt::write(pld::rt::offset(v4, v9), v15, "pld.tile.store at barrier.mlir:17:5");
    for (int32_t v16 = 0; v16 < v7; v16 += 1) {
      if (v16 == v6) continue;
      pld::rt::tnotify(pld::rt::offset(v2, v16), -1, pld::rt::NotifyOp::AtomicAdd, "pld.collective.barrier at barrier.mlir:14:5", v2, (int64_t) 4, (int64_t) 1);
    }
  }
}

extern "C" void barrier_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  barrier3(ctx, static_cast<__gm__ int32_t*>(args[0].ptr), static_cast<__gm__ int32_t*>(args[1].ptr), static_cast<__gm__ int32_t*>(args[2].ptr), static_cast<__gm__ int32_t*>(args[3].ptr));
}
