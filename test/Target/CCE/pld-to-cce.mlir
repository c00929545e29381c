// pld-translate --pld-to-cce: pld-level input to the CCE C++ that an Ascend
// toolchain compiles (and pld-run compiles against the simulator). Kernels
// come first (CHECK), then the host code (HOST).
// RUN: pld-translate --pld-to-cce %s -o %t.cpp
// RUN: FileCheck %s < %t.cpp
// RUN: FileCheck %s --check-prefix=HOST < %t.cpp
// The same through the pass pipeline, which prints the EmitC it emits from.
// RUN: pld-opt --pld-to-cce-pipeline %s | FileCheck %s --check-prefix=EMITC

// CHECK: #include "pld/runtime.h"
// A module whose kernels read their dispatch payload (a deferred
// completion, the block a task was dispatched for) includes the task
// runtime's API; one without does not (all-inputs.test compiles both).
// CHECK-NEXT: #include "pld/runtime/task_runtime.h"
// A kernel is an extern "C" __global__ __aicore__ function over the
// CommContext and __gm__ pointers; a window tensor is a pointer into the
// window.
// CHECK-LABEL: extern "C" __global__ __aicore__ void publish(
// CHECK-SAME: __gm__ pld::rt::CommContext* [[CTX:v[0-9]+]], __gm__ int32_t* [[SIG:v[0-9]+]], __gm__ float* [[DATA:v[0-9]+]], __gm__ float* {{v[0-9]+}}, __gm__ float* {{v[0-9]+}}, size_t [[PEER:v[0-9]+]], int32_t [[EPOCH:v[0-9]+]])
// The atomic remote store: the peer's address, a view of it, TSTORE<AtomicAdd>.
// CHECK: __gm__ float* [[REMOTE:v[0-9]+]] = pld::rt::peer_ptr([[CTX]], [[DATA]], [[PEER]], "pld.tile.remote_store at {{.*}}pld-to-cce.mlir:[[@LINE+24]]:3");
// CHECK: pld::rt::View<float> [[VIEW:v[0-9]+]] = pld::rt::view([[REMOTE]],
// CHECK: pld::rt::tstore_atomic_add([[VIEW]],
// The release sits between the payload write and the notify that publishes it.
// CHECK-NOT: pld::rt::tnotify
// CHECK: pld::rt::release();
// CHECK-NEXT: pld::rt::tnotify({{v[0-9]+}}, [[EPOCH]], pld::rt::NotifyOp::AtomicAdd, "pld.system.notify at {{.*}}"
// Enums by name: pld's eq is PTO's EQ.
// CHECK: pld::rt::twait([[SIG]], [[EPOCH]], pld::rt::WaitCmp::EQ,
// The acquire sits between the wait and the payload read.
// CHECK-NOT: pld::rt::tload
// CHECK: pld::rt::acquire();
// CHECK-NEXT: pld::rt::tload(
// Prod and mul are TMUL.
// CHECK: pld::rt::tmul(
// CHECK: pld::rt::tstore(

// EMITC: emitc.include "pld/runtime.h"
// EMITC-LABEL: emitc.func @publish(%arg0: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>
// EMITC: call_opaque "pld::rt::release"()
// EMITC-NEXT: call_opaque "pld::rt::tnotify"
func.func @publish(%signal: !pld.dtensor<2x1xi32>, %data: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>,
                   %out: memref<1x64xf32>, %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %t, %data[0, 0], peer %peer atomic add : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %epoch, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[0, 0], expected %epoch, cmp eq : !pld.dtensor<2x1xi32>
  %got = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  %p = pl.mul %got, %t : !pl.tile<1x64xf32>
  pl.store %p, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// A row of five i32 is 20 bytes: the tile is padded to 8 columns (32 bytes)
// and made with its logical width as valid shape; the sum keeps it, the
// store writes five.
// CHECK-LABEL: void narrow(
// CHECK: pld::rt::View<int32_t> [[V:v[0-9]+]] = pld::rt::view({{v[0-9]+}}, {{v[0-9]+}}, [[FIVE:v[0-9]+]], [[FIVE]], {{v[0-9]+}}, [[FIVE]]);
// CHECK: pld::rt::Tile<int32_t, 1, 8> [[T:v[0-9]+]] = pld::rt::tile<int32_t, 1, 8>({{[0-9]+}}, {{v[0-9]+}}, [[FIVE]]);
// CHECK: pld::rt::tload([[T]], [[V]],
// CHECK: pld::rt::Tile<int32_t, 1, 8> [[S:v[0-9]+]] = pld::rt::tile<int32_t, 1, 8>({{[0-9]+}}, {{v[0-9]+}}, [[FIVE]]);
// CHECK: pld::rt::tadd([[S]], [[T]], [[T]], "pl.add at
// CHECK: pld::rt::tstore([[V]], [[S]],
func.func @narrow(%data: !pld.dtensor<1x5xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %data[0, 0] : !pld.dtensor<1x5xi32> -> !pl.tile<1x5xi32>
  %s = pl.add %t, %t : !pl.tile<1x5xi32>
  pl.store %s, %data[0, 0] : !pl.tile<1x5xi32>, !pld.dtensor<1x5xi32>
  return
}

// A host orchestrator: each task body becomes a kernel of its own, which the
// orchestrator submits with its dependencies; defer_wait becomes
// defer_completion (registered with the task runtime, never a spin).
// The waiter takes the task's dispatch payload after its context (the
// kernel ABI), and registers with it.
// CHECK-LABEL: extern "C" __global__ __aicore__ void orchestrate_waiter(
// CHECK-SAME: __gm__ pld::rt::CommContext* {{v[0-9]+}}, pld::rt::DispatchPayload [[PAYLOAD:v[0-9]+]],
// CHECK: pld::rt::defer_completion([[PAYLOAD]], 
// Every task's kernel takes the payload, and reads its block from it: the
// task runtime does not program the register (docs/lowering.md).
// CHECK-LABEL: extern "C" __global__ __aicore__ void orchestrate_consume(
// CHECK-SAME: __gm__ pld::rt::CommContext* {{v[0-9]+}}, pld::rt::DispatchPayload [[CONSUMER:v[0-9]+]],
// CHECK: pld::rt::block_idx([[CONSUMER]])
// CHECK: pld::rt::tload(

// Host code is compiled for the host only: the orchestrator and the entry
// wrappers that a runtime launches by name.
// HOST: #if PLD_HOST_CODE
// HOST-NOT: __aicore__
// HOST-LABEL: void orchestrate(
// HOST: pld::rt::Deps [[NONE:v[0-9]+]] = pld::rt::deps();
// HOST: pld::rt::TaskId [[WAITER:v[0-9]+]] = pld::rt::submit({{v[0-9]+}}, "waiter", {{v[0-9]+}}, true, [[NONE]], orchestrate_waiter,
// HOST: pld::rt::Deps [[AFTER:v[0-9]+]] = pld::rt::deps([[WAITER]]);
// HOST: pld::rt::submit({{v[0-9]+}}, "consume", {{v[0-9]+}}, true, [[AFTER]], orchestrate_consume,
// HOST-LABEL: extern "C" void publish__entry(
// HOST-SAME: const pld::rt::Arg* [[ARGS:v[0-9]+]])
// HOST: pld::rt::arg_ptr<int32_t>([[ARGS]], 0);
// HOST: pld::rt::arg_scalar<int64_t>([[ARGS]], 4);
// HOST: pld::rt::arg_scalar<int32_t>([[ARGS]], 5);
// HOST-LABEL: extern "C" void orchestrate__entry(
// HOST: #endif  // PLD_HOST_CODE

// EMITC-LABEL: emitc.func @orchestrate_waiter
// EMITC: call_opaque "pld::rt::defer_completion"
// EMITC-LABEL: emitc.func @orchestrate(
// EMITC: call_opaque "pld::rt::submit"
func.func @orchestrate(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<4x64xf32>,
                       %out: memref<4x64xf32>, %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %waiter = pl.at level core_group name "waiter" {
    pld.system.defer_wait %signal[%peer, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
  }
  %blocks = arith.constant 4 : index
  %consume = pl.spmd %blocks name "consume" deps [%waiter] {
    %block = pl.get_block_idx
    %row = pl.load %payload[%block, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
    pl.store %row, %out[%block, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>
  }
  return
}

