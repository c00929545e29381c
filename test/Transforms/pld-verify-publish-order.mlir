// pld-verify: a payload write not ordered before the notify that publishes
// it (semantics §6, notify-before-data).
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics
// The compiler's own output must pass too (pipeline §1 runs pld-verify again
// after the decomposition of collectives):
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=algorithm=seed --pld-verify=remarks=false --verify-diagnostics
// The rules judge values, not spellings: the same after --canonicalize.
// RUN: pld-opt %s --split-input-file --canonicalize --pld-verify=remarks=false --verify-diagnostics

func.func @notify_before_data(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<1x64xf32>,
                              %value: memref<1x64xf32>, %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %publish = pl.at level core_group name "publish" {
    // expected-note @+1 {{the notify that publishes it}}
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<2x1xi32>
    // expected-error @+1 {{'pld.tensor.remote_store' writes a payload after the notify that publishes it: a peer may see the signal before the data; write the payload first, then notify}}
    pld.tensor.remote_store %value, %payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  return
}

// Near miss: the seed's order, payload first, then the signal.
func.func @data_then_notify(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<1x64xf32>,
                            %value: memref<1x64xf32>, %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %publish = pl.at level core_group name "publish" {
    pld.tensor.remote_store %value, %payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// Near miss: a write after a handshake belongs to the next phase.
func.func @next_phase(%signal: !pld.dtensor<2x1xi32>, %out: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>,
                      %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// Near miss: a second notify publishes the late write.
func.func @two_rounds(%signal: !pld.dtensor<2x1xi32>, %out: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>,
                      %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  pld.tile.remote_store %t, %out[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[1, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// -----

// A pull protocol: each rank stages its row in its own window, notifies its
// neighbour, and the neighbour reads the row remotely after waiting. The
// row is staged after the notify, so the neighbour may read stale data.
func.func @stage_late(%out: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %prev0 = arith.addi %me, %n : index
  %prev1 = arith.subi %prev0, %c1 : index
  %prev = arith.remui %prev1, %n : index
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the notify that publishes it}}
  pld.system.notify %signal[%me, 0], peer %next, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  // expected-error @+2 {{'pl.store' writes a payload after the notify that publishes it: a peer may see the signal before the data; write the payload first, then notify}}
  // expected-note @+1 {{the conflicting pl.store on rank 0 kernel @stage_late}}
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.wait %signal[%prev, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  // The race rule sees the consequence: the peer's read is not ordered
  // after the late store.
  // expected-note @+2 {{a peer reads the window remotely here}}
  // expected-error @+1 {{data race on 2 ranks: this pld.tile.remote_load on rank 1 kernel @stage_late reads [0, 1) x [0, 64) of rank 0's window buffer "row", which pl.store on rank 0 kernel @stage_late writes ([0, 1) x [0, 64))}}
  %theirs = pld.tile.remote_load %out[0, 0], peer %prev : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %theirs, %src[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

func.func @host_pull(%src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %obuf = pld.tensor.alloc_window_buffer "row" bytes 4096
  %sbuf = pld.tensor.alloc_window_buffer "signal" bytes 4096
  %out = pld.tensor.window %obuf : !pld.dtensor<1x64xf32>
  %signal = pld.tensor.window %sbuf : !pld.dtensor<8x1xi32>
  func.call @stage_late(%out, %signal, %src) : (!pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>, memref<1x64xf32>) -> ()
  return
}

// -----

// Near miss: the row is staged before the notify; what the kernel writes
// after it is a count in a statistics window that no peer reads remotely.
func.func @stage_then_count(%out: !pld.dtensor<1x64xf32>, %stats: !pld.dtensor<1x8xi32>, %signal: !pld.dtensor<8x1xi32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %prev0 = arith.addi %me, %n : index
  %prev1 = arith.subi %prev0, %c1 : index
  %prev = arith.remui %prev1, %n : index
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[%me, 0], peer %next, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  pl.write %n32, %stats[0, 0] : !pld.dtensor<1x8xi32>
  pld.system.wait %signal[%prev, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  %theirs = pld.tile.remote_load %out[0, 0], peer %prev : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %theirs, %src[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

func.func @host_count(%src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %obuf = pld.tensor.alloc_window_buffer "row" bytes 4096
  %tbuf = pld.tensor.alloc_window_buffer "stats" bytes 4096
  %sbuf = pld.tensor.alloc_window_buffer "signal" bytes 4096
  %out = pld.tensor.window %obuf : !pld.dtensor<1x64xf32>
  %stats = pld.tensor.window %tbuf : !pld.dtensor<1x8xi32>
  %signal = pld.tensor.window %sbuf : !pld.dtensor<8x1xi32>
  func.call @stage_then_count(%out, %stats, %signal, %src) : (!pld.dtensor<1x64xf32>, !pld.dtensor<1x8xi32>, !pld.dtensor<8x1xi32>, memref<1x64xf32>) -> ()
  return
}

// -----

// Near miss: a task that allreduces one window and then records the rank
// count in another. After pld-decompose-collectives (the second RUN line)
// the allreduce ends in semantics §4's epilogue, a self-notify that publishes
// nothing, and the recorded count is in a window no peer reads remotely.
func.func @reduce_and_record(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>,
                             %stats: !pld.dtensor<1x8xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %n = pld.system.world_size
  %n32 = arith.trunci %n : i64 to i32
  %task = pl.at level core_group name "reduce" {
    %r = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>
    pl.write %n32, %stats[0, 0] : !pld.dtensor<1x8xi32>
  }
  return
}

// -----

// Near miss: the same by hand, with the reduced value written back into the
// window peers read: the barrier after the reads and the epilogue (0 - 1,
// computed) come before the write, and the epilogue publishes nothing.
func.func @reduce_by_hand(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  scf.for %p = %c0 to %n step %c1 {
    pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  scf.for %s = %c0 to %n step %c1 {
    pld.system.wait %signal[%s, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  }
  %mine = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  %sum = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %mine) -> (!pl.tile<1x64xf32>) {
    %theirs = pld.tile.remote_load %data[0, 0], peer %p : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    %next = pl.add %acc, %theirs : !pl.tile<1x64xf32>
    scf.yield %next : !pl.tile<1x64xf32>
  }
  scf.for %p = %c0 to %n step %c1 {
    pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  scf.for %s = %c0 to %n step %c1 {
    pld.system.wait %signal[%s, 0], expected %two, cmp ge : !pld.dtensor<8x1xi32>
  }
  %amount = arith.subi %zero, %two : i32
  scf.for %s = %c0 to %n step %c1 {
    pld.system.notify %signal[%s, 0], peer %me, value %amount, op atomic_add : !pld.dtensor<8x1xi32>
  }
  pl.store %sum, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

func.func @host_reduce(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @reduce_by_hand(%data, %signal) : (!pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>) -> ()
  return
}

// -----

// Near miss: textual order across rank branches is not program order.
// Rank 0 publishes its row to rank 1 in its branch; rank 1, in its own,
// pushes a result into rank 0's output window, which the host collects
// after the kernel (no notify publishes it, none needs to).
func.func @branches(%row: !pld.dtensor<1x64xf32>, %out: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  scf.if %is0 {
    %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %t, %row[0, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
    pld.system.notify %signal[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  scf.if %is1 {
    %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %t, %out[0, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  return
}

// -----

// The racy variant names its own rank's notify, not another branch's: rank
// 1 publishes before it writes.
func.func @branch_late(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<8x1xi32>, %src: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  scf.if %is0 {
    pld.system.notify %signal[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    pld.system.wait %signal[1, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    // expected-error @+1 {{data race on 2 ranks: this pl.load on rank 0 reads [0, 1) x [0, 64) of rank 0's argument 0 of @branch_late, which pld.tile.remote_store on rank 1 writes ([0, 1) x [0, 64))}}
    %got = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %got, %src[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  scf.if %is1 {
    pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
    // expected-note @+1 {{the notify that publishes it}}
    pld.system.notify %signal[1, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    // expected-error @+2 {{'pld.tile.remote_store' writes a payload after the notify that publishes it}}
    // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 1}}
    pld.tile.remote_store %t, %data[0, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  return
}
