// A handshake where only rank 1 notifies: rank 0 gets its signal and
// finishes, rank 1 waits forever on cell [0, 0]. spin_entry: see below.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void lopsided(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2) {
  int32_t v3 = pld::rt::rank(v1);
  int32_t v4 = 1 - v3;
  if (v3 == 1) {
    __gm__ int32_t* v5 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, v3), (int64_t) v4, "pld.system.notify at deadlock.mlir:8:5");
    pld::rt::release();
    pld::rt::tnotify(v5, 1, pld::rt::NotifyOp::AtomicAdd, "pld.system.notify at deadlock.mlir:8:5", v2, (int64_t) 2, (int64_t) 1);
  }
  pld::rt::twait(pld::rt::offset(v2, v4), 1, pld::rt::WaitCmp::GE, "pld.system.wait at deadlock.mlir:10:3", v2, (int64_t) 2, (int64_t) 1);
  pld::rt::acquire();
}

extern "C" void deadlock_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  lopsided(ctx, static_cast<__gm__ int32_t*>(args[0].ptr));
}

// Polls a cell nobody sets with ttest, forever.
extern "C" __global__ __aicore__ void spin(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2) {
  (void) v1;
  while (!pld::rt::ttest(v2, 1, pld::rt::WaitCmp::GE)) {
  }
}

extern "C" void spin_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  spin(ctx, static_cast<__gm__ int32_t*>(args[0].ptr));
}
