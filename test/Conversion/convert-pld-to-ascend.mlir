// convert-pld-to-ascend: what every pld and pl op becomes.
// RUN: pld-opt %s --split-input-file --convert-pld-to-ascend --verify-each | FileCheck %s

// The CommContext comes first; a window tensor or memref is a pointer and
// one index per dynamic dimension. Offsets are linear element indices.
// CHECK: emitc.include "pld/runtime.h"
// CHECK-LABEL: func.func @tiles
// CHECK-SAME: (%[[CTX:.*]]: !ascend.ctx, %[[DATA:.*]]: !ascend.gm<f32>, %[[COLS:.*]]: index, %[[OUT:.*]]: !ascend.gm<f32>, %[[SIG:.*]]: !ascend.gm<i32>, %[[P:.*]]: index, %[[N:.*]]: index)
// CHECK-SAME: specifiers = ["extern \22C\22", "__global__ __aicore__"]
// rank reads the context.
// CHECK: ascend.rank %[[CTX]]
// pl.load [1, 8] valid [1, n]: element 1 * cols + 8, a view of 1 x n, a tile with that valid shape.
// CHECK: %[[AT:.*]] = arith.addi %[[COLS]], %{{.*}}
// CHECK: %[[PA:.*]] = ascend.offset %[[DATA]], %[[AT]] : !ascend.gm<f32>
// CHECK: %[[VA:.*]] = ascend.view %[[PA]], rows %{{.*}}, cols %[[N]], stride %[[COLS]]
// CHECK: %[[A:.*]] = ascend.tile valid(%{{.*}}, %[[N]]) : !ascend.tile<1x64xf32>
// CHECK: ascend.tload %[[A]], %[[VA]] {site = "pl.load at {{.*}}convert-pld-to-ascend.mlir:[[@LINE+46]]:8"}
// remote_load: the same offset on the peer.
// CHECK: %[[PB:.*]] = ascend.offset %[[DATA]]
// CHECK: %[[RB:.*]] = ascend.peer_ptr %[[CTX]], %[[PB]], peer %[[P]]
// CHECK: %[[VB:.*]] = ascend.view %[[RB]]
// CHECK: %[[B:.*]] = ascend.tile : !ascend.tile<1x64xf32>
// CHECK: ascend.tload %[[B]], %[[VB]]
// Tile math into new tiles.
// CHECK: %[[C:.*]] = ascend.tile valid
// CHECK: ascend.tadd %[[C]], %[[A]], %[[B]]
// CHECK: %[[D:.*]] = ascend.tile valid
// CHECK: ascend.tmul %[[D]], %[[C]], %[[B]]
// CHECK: ascend.tsub %[[S:[^,]*]], %[[D]], %[[A]]
// pl.store [1, 0] into a 2x64 memref: element 64.
// CHECK: %[[PO:.*]] = ascend.offset %[[OUT]], %{{.*}}
// CHECK: %[[VO:.*]] = ascend.view %[[PO]], rows %{{.*}}, cols %[[N]]
// CHECK: ascend.tstore %[[VO]], %[[S]] {site
// An atomic remote_store.
// CHECK: ascend.peer_ptr %[[CTX]], %{{.*}}, peer %[[P]]
// CHECK: ascend.tstore %{{.*}}, %[[D]] atomic add
// notify: the cell on the peer, the signal's shape for reports.
// CHECK: %[[CELL:.*]] = ascend.offset %[[SIG]], %[[P]] : !ascend.gm<i32>
// CHECK: %[[REMOTE:.*]] = ascend.peer_ptr %[[CTX]], %[[CELL]], peer %[[P]]
// CHECK: ascend.tnotify %[[REMOTE]], %{{.*}}, op atomic_add, signal %[[SIG]][%{{.*}}, %{{.*}}]
// wait: this rank's own cell; pld's ge is PTO's ge, by name.
// CHECK: %[[OWN:.*]] = ascend.offset %[[SIG]], %[[P]]
// CHECK: ascend.twait %[[OWN]], %{{.*}}, cmp ge, signal %[[SIG]]
// pl.read and pl.write are scalar accesses.
// CHECK: %[[X:.*]] = ascend.read %[[SIG]] {{.*}} : !ascend.gm<i32> -> i32
// CHECK: ascend.write %[[X]], %{{.*}} {{.*}} : i32, !ascend.gm<i32>
// The entry wrapper reads the arguments from the argument array.
// CHECK: emitc.verbatim "#if PLD_HOST_CODE"
// CHECK-LABEL: func.func @tiles__entry
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[ARGS:.*]]: !ascend.args)
// CHECK-SAME: specifiers = ["extern \22C\22"]
// CHECK: ascend.arg_ptr %[[ARGS]][0] : !ascend.gm<f32>
// CHECK: ascend.arg_dim %[[ARGS]][0, 1]
// CHECK: ascend.arg_ptr %[[ARGS]][1] : !ascend.gm<f32>
// CHECK: ascend.arg_ptr %[[ARGS]][2] : !ascend.gm<i32>
// CHECK: ascend.arg_scalar %[[ARGS]][3] : index
// CHECK: call @tiles(
// CHECK: emitc.verbatim "#endif  // PLD_HOST_CODE"
func.func @tiles(%data: !pld.dtensor<4x?xf32>, %out: memref<2x64xf32>, %sig: !pld.dtensor<4x1xi32>, %p: index, %n: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %one = arith.constant 1 : i32
  %a = pl.load %data[1, 8] valid [1, %n] : !pld.dtensor<4x?xf32> -> !pl.tile<1x64xf32>
  %b = pld.tile.remote_load %data[2, 0], peer %p : !pld.dtensor<4x?xf32> -> !pl.tile<1x64xf32>
  %c = pl.add %a, %b : !pl.tile<1x64xf32>
  %d = pl.mul %c, %b : !pl.tile<1x64xf32>
  %s = pl.sub %d, %a : !pl.tile<1x64xf32>
  pl.store %s, %out[1, 0] valid [1, %n] : !pl.tile<1x64xf32>, memref<2x64xf32>
  pld.tile.remote_store %d, %data[3, 0], peer %p atomic add : !pl.tile<1x64xf32>, !pld.dtensor<4x?xf32>
  pld.system.notify %sig[%p, 0], peer %p, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  pld.system.wait %sig[%p, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  %x = pl.read %sig[0, 0] : !pld.dtensor<4x1xi32>
  pl.write %x, %sig[1, 0] : !pld.dtensor<4x1xi32>
  return
}

// -----

// A kernel called from InCore code is a device function; a split_aiv body
// runs on both sub-lanes; a host's call of a kernel is a launch; task bodies
// are kernels the host submits with their deps, block count and predicate.
// CHECK-LABEL: func.func @step
// CHECK-SAME: specifiers = ["static __aicore__ inline"]
// CHECK: ascend.tnotify %{{.*}}, %{{.*}}, op set
// CHECK-LABEL: func.func @lanes_lanes
// CHECK-SAME: specifiers = ["static __aicore__ inline"]
// A kernel the runtime launches itself reads the register.
// CHECK: ascend.subblock_idx{{$}}
// CHECK-LABEL: func.func @lanes
// CHECK: call @step(%{{.*}}, %{{.*}}, %{{.*}}) : (!ascend.ctx, !ascend.gm<i32>, i32) -> ()
// CHECK: ascend.run_on_lanes @lanes_lanes(%{{.*}}) ctx %{{.*}} : (!ascend.gm<f32>) -> ()
// CHECK-LABEL: func.func @orchestrate_wait
// CHECK-SAME: specifiers = ["extern \22C\22", "__global__ __aicore__"]
// CHECK: ascend.defer_completion
// A task's kernel takes the dispatch payload and reads its block from it.
// CHECK-LABEL: func.func @orchestrate_consume
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[CONSUMER:[^:]*]]: !ascend.dispatch_payload,
// CHECK: ascend.block_idx from %[[CONSUMER]]
// CHECK-LABEL: func.func @orchestrate_gated
// CHECK: emitc.verbatim "#if PLD_HOST_CODE"
// CHECK-LABEL: func.func @orchestrate(
// CHECK-SAME: %[[CTX:.*]]: !ascend.ctx, %[[SIG:.*]]: !ascend.gm<i32>, %[[N:.*]]: index, %[[GO:.*]]: i1) {
// 2 x 64 f32 = 512 bytes in every rank's window.
// CHECK: %[[BUF:.*]] = ascend.alloc_window %[[CTX]], %{{.*}} {name = "data"} : !ascend.gm<i8>
// CHECK: %[[DATA:.*]] = ascend.window_as %[[BUF]] : !ascend.gm<i8> -> !ascend.gm<f32>
// CHECK: %[[W:.*]] = ascend.submit @orchestrate_wait(%[[SIG]], %{{.*}}) ctx %[[CTX]] blocks %{{.*}} name "wait"
// CHECK: %[[S:.*]] = ascend.submit @orchestrate_consume(%[[DATA]]) ctx %[[CTX]] deps [%[[W]]] blocks %[[N]] name "consume"
// CHECK: ascend.submit @orchestrate_gated(%[[SIG]], %{{.*}}) ctx %[[CTX]] deps [%[[W]], %[[S]]] blocks %{{.*}} if %[[GO]] name "gated"
// CHECK: ascend.launch @lanes(%[[SIG]], %[[DATA]]) ctx %[[CTX]] blocks %{{.*}}
// CHECK-LABEL: func.func @step__entry
// CHECK-LABEL: func.func @lanes__entry
// CHECK-LABEL: func.func @orchestrate__entry
// CHECK: emitc.verbatim "#endif  // PLD_HOST_CODE"
func.func @step(%sig: !pld.dtensor<2x1xi32>, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  pld.system.notify %sig[0, 0], peer %c0, value %v, op set : !pld.dtensor<2x1xi32>
  return
}
func.func @lanes(%sig: !pld.dtensor<2x1xi32>, %data: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  func.call @step(%sig, %one) : (!pld.dtensor<2x1xi32>, i32) -> ()
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %t = pl.load %data[%lane, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %data[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}
func.func @orchestrate(%sig: !pld.dtensor<2x1xi32>, %n: index, %go: i1) attributes {pl.kernel = #pl.kernel<host>} {
  %buf = pld.tensor.alloc_window_buffer "data" shape [2, 64] dtype f32
  %data = pld.tensor.window %buf : !pld.dtensor<2x64xf32>
  %epoch = arith.constant 3 : i32
  %w = pl.at level core_group name "wait" {
    pld.system.defer_wait %sig[1, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
  }
  %s = pl.spmd %n name "consume" deps [%w] {
    %b = pl.get_block_idx
    %t = pl.load %data[0, %b] : !pld.dtensor<2x64xf32> -> !pl.tile<1x1xf32>
    pl.store %t, %data[1, %b] : !pl.tile<1x1xf32>, !pld.dtensor<2x64xf32>
  }
  %g = pl.at level core name "gated" deps [%w, %s] if %go {
    func.call @step(%sig, %epoch) : (!pld.dtensor<2x1xi32>, i32) -> ()
  }
  func.call @lanes(%sig, %data) : (!pld.dtensor<2x1xi32>, !pld.dtensor<2x64xf32>) -> ()
  return
}

// -----

// The task runtime writes a task's block and AIV lane into its dispatch
// payload and does not program the registers (docs/lowering.md, the kernel
// ABI): a device function that reads either and that a task's kernel
// reaches takes the payload after its context, through calls and split
// regions; a kernel launched without the runtime passes it a null one. A
// device function that reads neither takes none.
// CHECK-LABEL: func.func @lane_row
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[P:[^:]*]]: !ascend.dispatch_payload, %{{.*}}: !ascend.gm<f32>)
// CHECK: ascend.subblock_idx from %[[P]]
// CHECK-LABEL: func.func @clear
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %{{.*}}: !ascend.gm<i32>)
// CHECK-LABEL: func.func @orchestrate_work_lanes
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[LP:[^:]*]]: !ascend.dispatch_payload, %{{.*}}: !ascend.gm<f32>)
// CHECK: ascend.subblock_idx from %[[LP]]
// CHECK-LABEL: func.func @native
// CHECK: %[[NONE:.*]] = ascend.no_payload
// CHECK: call @lane_row(%{{.*}}, %[[NONE]], %{{.*}})
// CHECK-LABEL: func.func @orchestrate_work
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[TP:[^:]*]]: !ascend.dispatch_payload,
// CHECK: call @lane_row(%{{.*}}, %[[TP]], %{{.*}})
// CHECK: call @clear(%{{.*}}, %{{.*}}) : (!ascend.ctx, !ascend.gm<i32>) -> ()
// CHECK: ascend.run_on_lanes @orchestrate_work_lanes(%[[TP]], %{{.*}}) ctx %{{.*}} : (!ascend.dispatch_payload, !ascend.gm<f32>) -> ()
// The task runtime passes the payload: the submission does not.
// CHECK-LABEL: func.func @orchestrate(
// CHECK: ascend.submit @orchestrate_work(%{{.*}}, %{{.*}}) ctx
// CHECK-LABEL: func.func @lane_row__entry
// CHECK: %[[ENONE:.*]] = ascend.no_payload
// CHECK: call @lane_row(%{{.*}}, %[[ENONE]], %{{.*}})
func.func @lane_row(%data: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %lane = pl.get_aiv_id
  %t = pl.load %data[%lane, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %data[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}
func.func @clear(%sig: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  pld.system.notify %sig[0, 0], peer %c0, value %zero, op set : !pld.dtensor<2x1xi32>
  return
}
func.func @native(%data: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @lane_row(%data) : (!pld.dtensor<2x64xf32>) -> ()
  return
}
func.func @orchestrate(%sig: !pld.dtensor<2x1xi32>, %data: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c2 = arith.constant 2 : index
  %w = pl.spmd %c2 name "work" {
    func.call @lane_row(%data) : (!pld.dtensor<2x64xf32>) -> ()
    func.call @clear(%sig) : (!pld.dtensor<2x1xi32>) -> ()
    pl.split_aiv mode none {
      %lane = pl.get_aiv_id
      %t = pl.load %data[%lane, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
      pl.store %t, %data[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    }
  }
  func.call @native(%data) : (!pld.dtensor<2x64xf32>) -> ()
  return
}

// -----

// A value the conversion replaces (world_size here, computed in the host)
// and a task captures: the task is submitted with the replacement. The old
// op used to be erased before the task was converted, leaving the capture
// dangling (a crash, found by fuzzing).
// The task defers, so its kernel takes the dispatch payload after the
// context; the host's submission does not pass it (the runtime does).
// CHECK-LABEL: func.func @peer_loop_wait
// CHECK-SAME: (%{{.*}}: !ascend.ctx, %[[PAYLOAD:[^:]*]]: !ascend.dispatch_payload, %[[N:[^:]*]]: i64,
// CHECK: arith.index_cast %[[N]] : i64 to index
// CHECK: ascend.defer_completion %[[PAYLOAD]], %{{.*}}, %{{.*}} {site = "pld.system.defer_wait at
// CHECK-LABEL: func.func @peer_loop
// CHECK: %[[SIZE:.*]] = ascend.world_size
// CHECK: ascend.submit @peer_loop_wait(%[[SIZE]],
func.func @peer_loop(%signal: !pld.dtensor<64x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %n = pld.system.world_size
  %t = pl.at level core_group name "wait" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %count = arith.index_cast %n : i64 to index
    scf.for %i = %c0 to %count step %c1 {
      pld.system.defer_wait %signal[%i, 0], expected %e, cmp ge : !pld.dtensor<64x1xi32>
    }
  }
  return
}

// -----

// A cf.assert (the run-time shape checks pld-expand-transfers inserts)
// becomes ascend.check, named by the op it guards.
// CHECK-LABEL: func.func @checked
// CHECK: %[[SAME:.*]] = arith.cmpi eq
// CHECK: ascend.check %[[SAME]], "the shapes differ" {site = "pld.tensor.get at k.mlir:3:5"}
// CHECK-NOT: cf.assert
func.func @checked(%a: index, %b: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %same = arith.cmpi eq, %a, %b : index
  cf.assert %same, "the shapes differ" loc("pld.tensor.get"("k.mlir":3:5))
  return
}
