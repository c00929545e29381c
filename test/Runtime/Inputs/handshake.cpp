// semantics §7 handshake, as the compiler emits it: rank r notifies peer
// (r + 1) % 2 with r + 1 (AtomicAdd), waits for >= 1 on its own cell and
// reads it.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void handshake(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2) {
  int32_t v3 = pld::rt::rank(v1);
  int32_t v4 = pld::rt::nranks(v1);
  int32_t v5 = (v3 + 1) % v4;
  __gm__ int32_t* v6 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, 0), (int64_t) v5, "pld.system.notify at handshake.mlir:9:3");
  pld::rt::release();
  pld::rt::tnotify(v6, v3 + 1, pld::rt::NotifyOp::AtomicAdd, "pld.system.notify at handshake.mlir:9:3", v2, (int64_t) 1, (int64_t) 1);
  pld::rt::twait(pld::rt::offset(v2, 0), 1, pld::rt::WaitCmp::GE, "pld.system.wait at handshake.mlir:10:3", v2, (int64_t) 1, (int64_t) 1);
  pld::rt::acquire();
  int32_t v7 = pld::rt::read(pld::rt::offset(v2, 0), "pld.tile.load at handshake.mlir:11:8");
  pld::rt::write(pld::rt::offset(v2, 0), v7, "pld.tile.store at handshake.mlir:12:3");
}

extern "C" void handshake_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  handshake(ctx, static_cast<__gm__ int32_t*>(args[0].ptr));
}
