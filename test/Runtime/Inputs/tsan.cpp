// The memory-ordering model under ThreadSanitizer. Rank 0 pushes a payload
// into rank 1's window and notifies; rank 1 waits and reads the payload.
// mode 0: write, release, notify / wait, acquire, read: no race.
// mode 1: notify before the payload is written.
// mode 2: release before the payload write (the write cancels it).
// mode 3: no release before the notify.
// mode 4: no acquire after the wait.
// Modes 1-4 leave the read unordered after the write: a data race.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void exchange(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ int32_t* v3, __gm__ float* v4, __gm__ float* v5, int32_t v6) {
  int32_t v7 = pld::rt::rank(v1);
  pld::rt::Tile<float, 4, 32> v8 = pld::rt::tile<float, 4, 32>(0);
  if (v7 == 0) {
    pld::rt::tload(v8, pld::rt::view(v5, 4, 32, 32), "pld.tile.load at tsan.mlir:10:10");
    __gm__ float* v9 = pld::rt::peer_ptr(v1, v2, (int64_t) 1, "pld.tile.remote_store at tsan.mlir:11:5");
    __gm__ int32_t* v10 = pld::rt::peer_ptr(v1, v3, (int64_t) 1, "pld.system.notify at tsan.mlir:12:5");
    if (v6 == 1)
      pld::rt::tnotify(v10, 1, pld::rt::NotifyOp::Set, "pld.system.notify at tsan.mlir:12:5", v3, (int64_t) 1);
    if (v6 == 2)
      pld::rt::release();
    pld::rt::tstore(pld::rt::view(v9, 4, 32, 32), v8, "pld.tile.remote_store at tsan.mlir:11:5");
    if (v6 == 0 || v6 == 4)
      pld::rt::release();
    if (v6 != 1)
      pld::rt::tnotify(v10, 1, pld::rt::NotifyOp::Set, "pld.system.notify at tsan.mlir:12:5", v3, (int64_t) 1);
  } else {
    pld::rt::twait(v3, 1, pld::rt::WaitCmp::EQ, "pld.system.wait at tsan.mlir:15:5", v3, (int64_t) 1);
    if (v6 != 4)
      pld::rt::acquire();
    pld::rt::tload(v8, pld::rt::view(v2, 4, 32, 32), "pld.tile.load at tsan.mlir:17:10");
    pld::rt::tstore(pld::rt::view(v4, 4, 32, 32), v8, "pld.tile.store at tsan.mlir:18:5");
  }
}

extern "C" void tsan_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  exchange(ctx, static_cast<__gm__ float*>(args[0].ptr), static_cast<__gm__ int32_t*>(args[1].ptr), static_cast<__gm__ float*>(args[2].ptr), static_cast<__gm__ float*>(args[3].ptr), (int32_t) args[4].i);
}
