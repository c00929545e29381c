//===- task_runtime.h - pld's runtime: the task runtime's API ---*- C++ -*-===//
//
// What a task's kernel reads through the task runtime: deferred completion
// (`pld.system.defer_wait`) and the block and AIV lane the runtime
// dispatched it for. Only modules that use them include it (after
// pld/runtime.h), so that every other kernel compiles against PTO ISA
// alone.
//
// On the device it is the task runtime's API (hw-native-sys/simpler,
// src/a2a3/runtime/tensormap_and_ringbuffer/runtime/pto_async_kernel_api.h,
// found on the runtime's include path, which includes common/intrinsic.h):
// the kernel receives the task's dispatch payload after its CommContext,
// builds the AsyncCtx from it and registers `*cell >= expected` as a
// completion condition, and reads its logical block and lane from it. On a
// host compiler the simulator's task runtime does the same (host.h).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_RUNTIME_TASK_RUNTIME_H
#define PLD_RUNTIME_TASK_RUNTIME_H

#include "pld/runtime.h"

#if defined(PLD_DEVICE)
#include "pto_async_kernel_api.h"

namespace pld::rt {

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

/// The logical block the runtime dispatched this core for. The runtime
/// writes it into the payload and does not program the register
/// `get_block_idx()` reads (simpler common/intrinsic.h:52-76, 208-212); a
/// kernel launched without the runtime (a null payload) has only the
/// register.
AICORE inline int64_t block_idx(DispatchPayload payload) {
  return payload != nullptr ? get_block_idx(payload) : get_block_idx();
}

/// The AIV lane, 0 or 1: under the runtime's mixed dispatch
/// `get_subblockid()` reads 0 on both lanes (intrinsic.h:56-67), so the
/// lane comes from the runtime's per-core context (`get_sub_block_id`,
/// :180-184).
AICORE inline int64_t subblock_idx(DispatchPayload payload) {
  return payload != nullptr ? get_sub_block_id(payload) : get_subblockid();
}

/// The kernel's SDMA session on this AIV core's own channel, the lane taken
/// from the payload as subblock_idx does: with the register's lane both AIV
/// cores of a cluster posted on one channel.
AICORE inline AsyncSession sdma_session(SdmaWorkspace workspace,
                                        int32_t sync_id, int64_t ub_offset,
                                        const char *, DispatchPayload payload) {
  return detail::sdma_session_on_lane(workspace, sync_id, ub_offset,
                                      subblock_idx(payload));
}

} // namespace pld::rt
#endif // PLD_DEVICE

#endif // PLD_RUNTIME_TASK_RUNTIME_H
