// "Deferred Completion": a publisher pushes the payload
// and then the signal; a dedicated waiter task registers the condition with
// defer_wait; the consumer depends on the waiter's task id.
// RUN: pld-opt %s --pld-verify --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @deferred_exchange
func.func @deferred_exchange(%signal: !pld.dtensor<2x1xi32>,
                             %peer_payload: !pld.dtensor<1x64xf32>,
                             %payload_value: memref<1x64xf32>,
                             %peer: index, %epoch: i32)
    attributes {pl.kernel = #pl.kernel<host>} {
  // Each rank's publisher is independent: publish payload first, then the signal.
  // CHECK: pl.at level core_group name "publish"
  // CHECK: pld.tensor.remote_store
  // CHECK: pld.system.notify
  %publish = pl.at level core_group name "publish" {
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
    %me32 = pld.system.rank %ctx
    %me = arith.index_cast %me32 : i32 to index
    pld.tensor.remote_store %payload_value, %peer_payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
    pld.system.notify %signal[%me, 0], peer %peer, value %epoch, op set : !pld.dtensor<2x1xi32>
  }
  // Receiver: observe the peer publisher. No local publisher -> waiter dependency.
  // CHECK: %[[WAIT:.*]] = pl.at level core_group name "payload_wait"
  // CHECK: pld.system.defer_wait
  %wait_tid = pl.at level core_group name "payload_wait" {
    pld.system.defer_wait %signal[%peer, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
    // expected-remark @-1 {{@deferred_exchange does not complete on 3 or 4 ranks (name them in ranks= if it must): on 3 ranks it traps: ra}}
    // expected-note @-2 {{on 4 ranks it traps: rank 1's pld.system.defer_wait touches [2, 3) x [0, 1) of rank 1's argument 0 of @deferre}}
  }
  // The consumer is not dispatched until wait_tid is logically complete.
  // CHECK: pl.at level core_group name "consume_payload" deps[%[[WAIT]]]
  // CHECK: pl.load
  %consume = pl.at level core_group name "consume_payload" deps [%wait_tid] {
    %payload_tile = pl.load %peer_payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  }
  return
}
