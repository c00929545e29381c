// A host orchestrator (the "Deferred Completion" example, test/Examples/deferred_completion.mlir): a publisher task pushes
// a payload to the peer and then sets the peer's signal; a waiter task
// registers `signal >= epoch` with defer_completion and returns at once; the
// consumer depends on the waiter, so it may only run once the peer
// published. Rank 1's publisher is slowed down by a busy "prepare" task, so a
// consumer that ran early would copy zeros. Also: a task that is not
// dispatched, a task on 2 blocks, a body run on both AIV sub-lanes, and a
// synchronous launch; the entry reads its arguments as the emitted wrapper
// does (arg_ptr, arg_scalar, arg_dim), inside `#if PLD_HOST_CODE` as the
// emitter puts host code.
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void prepare(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ float* v3, int64_t v4) {
  (void) v1;
  pld::rt::Tile<float, 64, 64> v5 = pld::rt::tile<float, 64, 64>(0);
  for (int64_t v6 = 0; v6 < v4; v6 += 1)
    pld::rt::tadd(v5, v5, v5, "pl.add at tasks.mlir:9:10");
  pld::rt::Tile<float, 1, 64> v7 = pld::rt::tile<float, 1, 64>(16384);
  pld::rt::tload(v7, pld::rt::view(v2, 1, 64, 64), "pld.tile.load at tasks.mlir:20:10");
  pld::rt::tstore(pld::rt::view(v3, 1, 64, 64), v7, "pld.tile.store at tasks.mlir:21:5");
}

extern "C" __global__ __aicore__ void publish(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ float* v3, __gm__ int32_t* v4, int32_t v5, int32_t v6) {
  if (v6 == 0)
    return;
  int32_t v7 = pld::rt::rank(v1);
  int64_t v8 = (int64_t) (1 - v7);
  pld::rt::Tile<float, 1, 64> v9 = pld::rt::tile<float, 1, 64>(0);
  __gm__ float* v10 = pld::rt::peer_ptr(v1, v3, v8, "pld.tensor.remote_store at tasks.mlir:27:5");
  pld::rt::tput(pld::rt::view(v10, 1, 64, 64), pld::rt::view(v2, 1, 64, 64), v9, "pld.tensor.remote_store at tasks.mlir:27:5");
  pld::rt::release();
  __gm__ int32_t* v11 = pld::rt::peer_ptr(v1, pld::rt::offset(v4, v7), v8, "pld.system.notify at tasks.mlir:28:5");
  pld::rt::tnotify(v11, v5, pld::rt::NotifyOp::Set, "pld.system.notify at tasks.mlir:28:5", v4, (int64_t) 2, (int64_t) 1);
}

extern "C" __global__ __aicore__ void payload_wait(__gm__ pld::rt::CommContext* v1, pld::rt::DispatchPayload v20, __gm__ int32_t* v2, int32_t v3) {
  int32_t v4 = 1 - pld::rt::rank(v1);
  pld::rt::defer_completion(v20, pld::rt::offset(v2, v4), v3, "pld.system.defer_wait at tasks.mlir:32:5", v2, (int64_t) 2, (int64_t) 1);
}

extern "C" __global__ __aicore__ void consume(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ float* v3) {
  (void) v1;
  pld::rt::Tile<float, 1, 64> v4 = pld::rt::tile<float, 1, 64>(0);
  pld::rt::Tile<float, 1, 64> v5 = pld::rt::tile<float, 1, 64>(256);
  pld::rt::tload(v4, pld::rt::view(v2, 1, 64, 64), "pld.tile.load at tasks.mlir:36:10");
  pld::rt::pipe_sync<pld::rt::Pipe::MTE2, pld::rt::Pipe::V>();
  pld::rt::tcopy(v5, v4, "ascend.tcopy at tasks.mlir:40:5");
  pld::rt::pipe_sync<pld::rt::Pipe::V, pld::rt::Pipe::MTE3>();
  pld::rt::tstore(pld::rt::view(v3, 1, 64, 64), v5, "pld.tile.store at tasks.mlir:37:5");
}

extern "C" __global__ __aicore__ void mark(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2, int64_t v3, int32_t v4) {
  (void) v1;
  pld::rt::write(pld::rt::offset(v2, v3 + pld::rt::block_idx()), v4 + (int32_t) pld::rt::block_idx(), "pld.tile.store at tasks.mlir:41:5");
}

static void lane_body(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2) {
  (void) v1;
  pld::rt::write(pld::rt::offset(v2, 3 + pld::rt::subblock_idx()), 20 + (int32_t) pld::rt::subblock_idx(), "pld.tile.store at tasks.mlir:46:7");
}

extern "C" __global__ __aicore__ void lanes(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2) {
  pld::rt::run_on_lanes(v1, lane_body, v2);
}

#if PLD_HOST_CODE
extern "C" void host_main(__gm__ pld::rt::CommContext* v1, const pld::rt::Arg* v2) {
  __gm__ float* v3 = pld::rt::arg_ptr<float>(v2, 0);
  __gm__ int32_t* v4 = pld::rt::arg_ptr<int32_t>(v2, 1);
  __gm__ float* v5 = pld::rt::arg_ptr<float>(v2, 2);
  __gm__ int32_t* v6 = pld::rt::arg_ptr<int32_t>(v2, 3);
  int32_t v7 = pld::rt::arg_scalar<int32_t>(v2, 4);
  __gm__ float* v8 = pld::rt::arg_ptr<float>(v2, 5);
  int64_t v9 = pld::rt::arg_scalar<int64_t>(v2, 6);
  int32_t v10 = pld::rt::arg_scalar<int32_t>(v2, 7);
  int64_t v21 = pld::rt::arg_dim(v2, 0, 1);
  __gm__ int8_t* v11 = pld::rt::alloc_window(v1, v21 * 4, "staging");
  __gm__ float* v12 = pld::rt::window_as<float>(v11);
  pld::rt::TaskId v13 = pld::rt::submit(v1, "prepare", 1, true, pld::rt::deps(), prepare, v8, v12, v9);
  pld::rt::TaskId v14 = pld::rt::submit(v1, "publish", 1, true, pld::rt::deps(v13), publish, v12, v3, v4, v7, v10);
  pld::rt::TaskId v15 = pld::rt::submit(v1, "payload_wait", 1, true, pld::rt::deps(), payload_wait, v4, v7);
  pld::rt::TaskId v16 = pld::rt::submit(v1, "consume", 1, true, pld::rt::deps(v15), consume, v3, v5);
  pld::rt::TaskId v17 = pld::rt::submit(v1, "skipped", 1, false, pld::rt::deps(), mark, v6, (int64_t) 0, (int32_t) 99);
  pld::rt::TaskId v18 = pld::rt::submit(v1, "two_blocks", 2, true, pld::rt::deps(v17), mark, v6, (int64_t) 1, (int32_t) 10);
  pld::rt::TaskId v19 = pld::rt::submit(v1, "lanes", 1, true, pld::rt::deps(v14, v16, v18), lanes, v6);
  (void) v19;
  pld::rt::launch(v1, 2, mark, v6, (int64_t) 5, (int32_t) 30);
  int32_t v20 = pld::rt::read(pld::rt::offset(v6, 5), "pld.tile.load at tasks.mlir:60:9") + pld::rt::read(pld::rt::offset(v6, 6), "pld.tile.load at tasks.mlir:60:9");
  pld::rt::write(pld::rt::offset(v6, 7), v20, "pld.tile.store at tasks.mlir:61:3");
}
#endif  // PLD_HOST_CODE
