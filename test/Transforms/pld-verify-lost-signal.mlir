// pld-verify's race rule on waits an order can starve (races/lost.rs): on a
// cell only Sets write, a Set of a value the wait does not accept that may
// land after the one it accepts and before it reads leaves it waiting for
// good. pld-run --explore finds that order (Execution/schedules.test).
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

// A lost pulse: each rank's "clear" resets the cell it set at the next rank
// once its own condition held, which can be before the next rank's waiter
// looked.
func.func @lost_pulse(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %wait = pl.at level core_group name "payload_wait" {
    %c1 = arith.constant 1 : index
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
    %me = pld.system.rank %ctx : index
    %n = pld.system.nranks %ctx : index
    %prev0 = arith.addi %me, %n : index
    %prev1 = arith.subi %prev0, %c1 : index
    %prev = arith.remui %prev1, %n : index
    %one = arith.constant 1 : i32
    // expected-error @+1 {{this wait (>= 1) on rank 0 task "payload_wait" can miss what it waits for on 2 ranks: the notify of rank 1 task "clear" (set 0) may land after the one it waits for (rank 1 task "publish", set 1) and before it reads cell [1, 0] of rank 0's argument 0 of @lost_pulse, and no notify sets it again; order that set after this wait (an acknowledgement), or have it write a value the wait still accepts}}
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
    // expected-note @+1 {{the notify it waits for, on rank 1 task "publish"}}
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
    // expected-note @+1 {{the set that can come between, on rank 1 task "clear"}}
    pld.system.notify %signal[%me, 0], peer %next, value %zero, op set : !pld.dtensor<4x1xi32>
  }
  return
}

// -----

// Near miss: each rank clears its own cell once its own wait held (a reset
// after use), which cannot come before that wait.
func.func @reset_after_use(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
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
    %prev0 = arith.addi %me, %n : index
    %prev1 = arith.subi %prev0, %c1 : index
    %prev = arith.remui %prev1, %n : index
    %zero = arith.constant 0 : i32
    pld.system.notify %signal[%prev, 0], peer %me, value %zero, op set : !pld.dtensor<4x1xi32>
  }
  return
}
