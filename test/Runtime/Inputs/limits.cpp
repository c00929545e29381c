// The task runtime's limits (semantics §3 defer_wait): at most 64 completion
// conditions per task and 64 deferred tasks per rank at once. `tasks`
// waiter tasks each register `conditions` conditions cell[k] >= expected.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void waiter(__gm__ pld::rt::CommContext*, pld::rt::DispatchPayload v6, __gm__ int32_t* v2, int32_t v3, int32_t v4) {
  for (int32_t v5 = 0; v5 < v3; v5 += 1)
    pld::rt::defer_completion(v6, pld::rt::offset(v2, v5), v4, "pld.system.defer_wait at limits.mlir:7:5", v2, (int64_t) 128, (int64_t) 1);
}

extern "C" void limits_main(__gm__ pld::rt::CommContext* v1, const pld::rt::Arg* v2) {
  __gm__ int32_t* v3 = static_cast<__gm__ int32_t*>(v2[0].ptr);
  for (int64_t v4 = 0; v4 < v2[2].i; v4 += 1)
    pld::rt::submit(v1, "waiter", 1, true, pld::rt::deps(), waiter, v3, (int32_t) v2[1].i, (int32_t) v2[3].i);
}
