//===- pto_async_kernel_api.h - The task runtime's deferred completion ----===//
//
// A stand-in for the task runtime's header (hw-native-sys/simpler @6ebaf77,
// src/a2a3/runtime/tensormap_and_ringbuffer/runtime/pto_async_kernel_api.h)
// with its signatures: `get_async_ctx` (line 98) builds the context from
// the task's dispatch payload, `save_expected_notification_counter` (lines
// 149-150) registers a counter condition, taking the context by non-const
// reference and the expected value as uint32_t; it includes
// common/intrinsic.h, whose `get_block_idx(args)` (lines 208-212) and
// `get_sub_block_id(args)` (lines 180-184) read the block and AIV lane the
// runtime dispatched the task for. Nothing is defined.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_TEST_PTO_ASYNC_KERNEL_API_H
#define PLD_TEST_PTO_ASYNC_KERNEL_API_H

#include <cstdint>

// The real context (common/intrinsic.h:130-136): slab pointers and the task
// token; its layout is the runtime's business.
struct AsyncCtx {
  volatile __gm__ uint32_t *completion_count;
  volatile __gm__ int32_t *completion_error_code;
  volatile __gm__ void *completion_entries;
  uint32_t completion_capacity;
  uint64_t task_token;
};

__aicore__ AsyncCtx get_async_ctx(__gm__ int64_t *args);
__aicore__ int32_t get_block_idx(__gm__ int64_t *args);
__aicore__ int32_t get_sub_block_id(__gm__ int64_t *args);
__aicore__ void save_expected_notification_counter(
    AsyncCtx &ctx, volatile __gm__ void *counter_addr, uint32_t expected_value);

#endif // PLD_TEST_PTO_ASYNC_KERNEL_API_H
