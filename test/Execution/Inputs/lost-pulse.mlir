// A host orchestration that an order starves, for exploration
// (schedules.test); pld-verify rejects it (Transforms/pld-verify-lost-signal.mlir).

// A lost pulse: each rank's "clear" task resets the cell it set at the next
// rank once its own condition held, which can be before the next rank's
// waiter looked at it. That waiter then waits forever.
func.func @lost_pulse(%signal: !pld.dtensor<4x1xi32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  %wait = pl.at level core_group name "payload_wait" {
    %c1 = arith.constant 1 : index
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
    %me = pld.system.rank %ctx : index
    %n = pld.system.nranks %ctx : index
    %prev0 = arith.addi %me, %n : index
    %prev1 = arith.subi %prev0, %c1 : index
    %prev = arith.remui %prev1, %n : index
    %one = arith.constant 1 : i32
    pld.system.defer_wait %signal[%prev, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  }
  %publish = pl.at level core_group name "publish" {
    %c1 = arith.constant 1 : index
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
    %me = pld.system.rank %ctx : index
    %n = pld.system.nranks %ctx : index
    %next0 = arith.addi %me, %c1 : index
    %next = arith.remui %next0, %n : index
    %one = arith.constant 1 : i32
    pld.system.notify %signal[%me, 0], peer %next, value %one, op set : !pld.dtensor<4x1xi32>
  }
  %clear = pl.at level core_group name "clear" deps [%wait] {
    %c1 = arith.constant 1 : index
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
    %me = pld.system.rank %ctx : index
    %n = pld.system.nranks %ctx : index
    %next0 = arith.addi %me, %c1 : index
    %next = arith.remui %next0, %n : index
    %zero = arith.constant 0 : i32
    pld.system.notify %signal[%me, 0], peer %next, value %zero, op set : !pld.dtensor<4x1xi32>
  }
  return
}
