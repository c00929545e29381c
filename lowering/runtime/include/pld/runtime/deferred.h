//===- deferred.h - pld's runtime: deferred task completion -----*- C++ -*-===//
//
// What a kernel that defers its completion (`pld.system.defer_wait`) calls.
// Only modules with such a kernel include it (after pld/runtime.h), so that
// every other kernel compiles against PTO ISA alone.
//
// On the device it is the task runtime's API (hw-native-sys/simpler,
// src/a2a3/runtime/tensormap_and_ringbuffer/runtime/pto_async_kernel_api.h,
// found on the runtime's include path): the kernel receives the task's
// dispatch payload after its CommContext, builds the AsyncCtx from it and
// registers `*cell >= expected` as a completion condition. On a host
// compiler the simulator's task runtime does the same (host.h).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_RUNTIME_DEFERRED_H
#define PLD_RUNTIME_DEFERRED_H

#include "pld/runtime.h"

#if defined(PLD_DEVICE)
#include "pto_async_kernel_api.h"

namespace pld::rt {

/// The task's dispatch payload: the argument array the runtime dispatches
/// the task with (`get_async_ctx`'s parameter).
using DispatchPayload = __gm__ int64_t *;

/// Registers `*cell >= expected` with the task runtime and returns; the
/// task completes once every registered condition holds. pld-verify keeps a
/// constant `expected` in [0, INT32_MAX], where int32 and uint32 agree.
template <typename... Dims>
AICORE inline void defer_completion(DispatchPayload payload,
                                    __gm__ int32_t *cell, int32_t expected,
                                    const char *, __gm__ int32_t *, Dims...) {
  AsyncCtx async = get_async_ctx(payload);
  save_expected_notification_counter(async, cell,
                                     static_cast<uint32_t>(expected));
}

} // namespace pld::rt
#endif // PLD_DEVICE

#endif // PLD_RUNTIME_DEFERRED_H
