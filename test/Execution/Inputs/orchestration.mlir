// Host orchestrations for exploration (schedules.test): tasks, their
// dependencies and deferred conditions as scheduling points.

// Four tasks per rank: a publisher pushes its payload to the next rank and
// then the signal; a waiter registers the condition for the payload from
// the previous rank; a consumer copies that payload out once the waiter
// completes; a fourth task copies the rank's own input aside.
func.func @four_tasks(%signal: !pld.dtensor<4x1xi32>,
                      %inbox: !pld.dtensor<1x64xf32>,
                      %mine: memref<1x64xf32>,
                      %out: memref<1x64xf32>,
                      %copy: memref<1x64xf32>, %epoch: i32)
    attributes {pl.kernel = #pl.kernel<host>} {
  %publish = pl.at level core_group name "publish" {
    %c1 = arith.constant 1 : index
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
    %me = pld.system.rank %ctx : index
    %n = pld.system.nranks %ctx : index
    %next0 = arith.addi %me, %c1 : index
    %next = arith.remui %next0, %n : index
    pld.tensor.remote_store %mine, %inbox[0, 0], peer %next : memref<1x64xf32>, !pld.dtensor<1x64xf32>
    pld.system.notify %signal[%me, 0], peer %next, value %epoch, op set : !pld.dtensor<4x1xi32>
  }
  %wait = pl.at level core_group name "payload_wait" {
    %c1 = arith.constant 1 : index
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
    %me = pld.system.rank %ctx : index
    %n = pld.system.nranks %ctx : index
    %prev0 = arith.addi %me, %n : index
    %prev1 = arith.subi %prev0, %c1 : index
    %prev = arith.remui %prev1, %n : index
    pld.system.defer_wait %signal[%prev, 0], expected %epoch, cmp ge : !pld.dtensor<4x1xi32>
  }
  %consume = pl.at level core_group name "consume" deps [%wait] {
    %t = pl.load %inbox[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  %aside = pl.at level core_group name "aside" {
    %t = pl.load %mine[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %copy[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}
