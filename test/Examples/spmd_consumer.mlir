// The inline SPMD consumer: a multi-block task that
// depends on the deferred waiter's task id; each block reads its partition.
// RUN: pld-opt %s --pld-verify --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @spmd_consumer
func.func @spmd_consumer(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<8x64xf32>,
                         %out: memref<8x64xf32>, %peer: index, %epoch: i32)
    attributes {pl.kernel = #pl.kernel<host>} {
  %wait_tid = pl.at level core_group name "payload_wait" {
    pld.system.defer_wait %signal[%peer, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
  }
  %num_blocks = arith.constant 8 : index
  // CHECK: pl.spmd %{{.*}} name "consume_payload_spmd" deps[%{{.*}}]
  // CHECK: pl.get_block_idx
  %consume_tid = pl.spmd %num_blocks name "consume_payload_spmd" deps [%wait_tid] {
    %block = pl.get_block_idx
    %part = pl.load %payload[%block, 0] : !pld.dtensor<8x64xf32> -> !pl.tile<1x64xf32>
    pl.store %part, %out[%block, 0] : !pl.tile<1x64xf32>, memref<8x64xf32>
  }
  return
}
