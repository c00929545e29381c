// Every ascend op and type round-trips through the custom syntax and the
// generic form.
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s

// CHECK-LABEL: module attributes {pld.target = #pld.target<Ascend910B>}
module attributes {pld.target = #pld.target<Ascend910B>} {
  // CHECK-LABEL: func.func @kernel
  // CHECK-SAME: (%{{.*}}: !ascend.ctx, %{{.*}}: !ascend.gm<f32>, %{{.*}}: !ascend.gm<i32>, %{{.*}}: index)
  func.func @kernel(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %sig: !ascend.gm<i32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // CHECK: ascend.check %{{.*}}, "n is 1" {site = "pld.tensor.get at k.mlir:3:5"}
    %is_one = arith.cmpi eq, %n, %c1 : index
    ascend.check %is_one, "n is 1" {site = "pld.tensor.get at k.mlir:3:5"}
    %c64 = arith.constant 64 : index
    %one = arith.constant 1 : i32
    // CHECK: ascend.rank %{{.*}}
    %r = ascend.rank %ctx
    // CHECK: ascend.nranks %{{.*}}
    %nr = ascend.nranks %ctx
    // CHECK: ascend.block_idx
    %b = ascend.block_idx
    // CHECK: ascend.subblock_idx
    %l = ascend.subblock_idx
    // CHECK: ascend.offset %{{.*}}, %{{.*}} : !ascend.gm<i32>
    %cell = ascend.offset %sig, %c1 : !ascend.gm<i32>
    // CHECK: ascend.peer_ptr %{{.*}}, %{{.*}}, peer %{{.*}} {site = "pld.system.notify at k.mlir:3:5"} : !ascend.gm<i32>
    %p = ascend.peer_ptr %ctx, %cell, peer %c1 {site = "pld.system.notify at k.mlir:3:5"} : !ascend.gm<i32>
    // CHECK: ascend.release
    ascend.release
    // CHECK: ascend.tnotify %{{.*}}, %{{.*}}, op atomic_add, signal %{{.*}}[%{{.*}}, %{{.*}}] : !ascend.gm<i32>
    ascend.tnotify %p, %one, op atomic_add, signal %sig[%n, %c1] : !ascend.gm<i32>
    // CHECK: ascend.tnotify %{{.*}}, %{{.*}}, op set, signal %{{.*}}[] : !ascend.gm<i32>
    ascend.tnotify %p, %one, op set, signal %sig[] : !ascend.gm<i32>
    // CHECK: ascend.twait %{{.*}}, %{{.*}}, cmp ge, signal %{{.*}}[%{{.*}}, %{{.*}}] : !ascend.gm<i32>
    ascend.twait %cell, %one, cmp ge, signal %sig[%n, %c1] : !ascend.gm<i32>
    // CHECK: ascend.twait %{{.*}}, %{{.*}}, cmp eq
    ascend.twait %cell, %one, cmp eq, signal %sig[%n, %c1] : !ascend.gm<i32>
    // CHECK: ascend.ttest %{{.*}}, %{{.*}}, cmp ge : !ascend.gm<i32>
    %ready = ascend.ttest %cell, %one, cmp ge : !ascend.gm<i32>
    // CHECK: ascend.acquire
    ascend.acquire
    // CHECK: ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
    %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
    // CHECK: ascend.tile valid(%{{.*}}, %{{.*}}) {offset = 256 : i64} : !ascend.tile<1x64xf32>
    %u = ascend.tile valid(%c1, %n) {offset = 256 : i64} : !ascend.tile<1x64xf32>
    // CHECK: ascend.view %{{.*}}, rows %{{.*}}, cols %{{.*}}, stride %{{.*}} : !ascend.gm<f32> -> !ascend.view<f32>
    %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
    // CHECK: ascend.view %{{.*}}, rows %{{.*}}, cols %{{.*}}, stride %{{.*}} in %{{.*}}[%{{.*}}] : !ascend.gm<f32> -> !ascend.view<f32>
    %vt = ascend.view %data, rows %c1, cols %c64, stride %c64 in %data[%n] : !ascend.gm<f32> -> !ascend.view<f32>
    // CHECK: ascend.valid_shape %{{.*}} : !ascend.tile<1x64xf32>
    %rows, %cols = ascend.valid_shape %u : !ascend.tile<1x64xf32>
    // CHECK: ascend.tload %{{.*}}, %{{.*}} : !ascend.tile<1x64xf32>, !ascend.view<f32>
    ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    // CHECK: ascend.pipe_sync mte2 -> v
    ascend.pipe_sync mte2 -> v
    // CHECK: ascend.tadd %{{.*}}, %{{.*}}, %{{.*}} {site = "pl.add at k.mlir:9:10"} : !ascend.tile<1x64xf32>
    ascend.tadd %u, %t, %t {site = "pl.add at k.mlir:9:10"} : !ascend.tile<1x64xf32>
    // CHECK: ascend.tmax
    ascend.tmax %u, %t, %u : !ascend.tile<1x64xf32>
    // CHECK: ascend.tmin
    ascend.tmin %u, %t, %u : !ascend.tile<1x64xf32>
    // CHECK: ascend.tmul
    ascend.tmul %u, %t, %u : !ascend.tile<1x64xf32>
    // CHECK: ascend.tcopy %{{.*}}, %{{.*}} : !ascend.tile<1x64xf32>
    ascend.tcopy %u, %t : !ascend.tile<1x64xf32>
    // CHECK: ascend.pipe_sync v -> mte3
    ascend.pipe_sync v -> mte3
    // CHECK: ascend.tstore %{{.*}}, %{{.*}} : !ascend.view<f32>, !ascend.tile<1x64xf32>
    ascend.tstore %v, %u : !ascend.view<f32>, !ascend.tile<1x64xf32>
    // CHECK: ascend.tstore %{{.*}}, %{{.*}} atomic add : !ascend.view<f32>, !ascend.tile<1x64xf32>
    ascend.tstore %v, %u atomic add : !ascend.view<f32>, !ascend.tile<1x64xf32>
    // CHECK: ascend.tput %{{.*}}, %{{.*}}, %{{.*}} : !ascend.view<f32>, !ascend.tile<1x64xf32>
    ascend.tput %v, %v, %t : !ascend.view<f32>, !ascend.tile<1x64xf32>
    // CHECK: ascend.tput %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} atomic add : !ascend.view<f32>, !ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>
    ascend.tput %v, %v, %t, %u atomic add : !ascend.view<f32>, !ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>
    // CHECK: ascend.tget %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !ascend.view<f32>, !ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>
    ascend.tget %v, %v, %t, %u : !ascend.view<f32>, !ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>
    // CHECK: ascend.read %{{.*}} : !ascend.gm<i32> -> i32
    %x = ascend.read %cell : !ascend.gm<i32> -> i32
    // CHECK: ascend.read %{{.*}} in %{{.*}}[%{{.*}}] : !ascend.gm<i32> -> i32
    %y = ascend.read %cell in %sig[%n] : !ascend.gm<i32> -> i32
    // CHECK: ascend.write %{{.*}}, %{{.*}} : i32, !ascend.gm<i32>
    ascend.write %x, %cell : i32, !ascend.gm<i32>
    // CHECK: ascend.write %{{.*}}, %{{.*}} in %{{.*}}[%{{.*}}] : i32, !ascend.gm<i32>
    ascend.write %y, %cell in %sig[%n] : i32, !ascend.gm<i32>
    return
  }

  // CHECK-LABEL: func.func @deferring
  // CHECK-SAME: (%{{.*}}: !ascend.ctx, %{{.*}}: !ascend.dispatch_payload, %{{.*}}: !ascend.gm<i32>)
  func.func @deferring(%ctx: !ascend.ctx, %payload: !ascend.dispatch_payload, %cell: !ascend.gm<i32>) {
    %one = arith.constant 1 : i32
    %c4 = arith.constant 4 : index
    // CHECK: ascend.defer_completion %{{.*}}, %{{.*}}, %{{.*}}, signal %{{.*}}[%{{.*}}] : !ascend.gm<i32>
    ascend.defer_completion %payload, %cell, %one, signal %cell[%c4] : !ascend.gm<i32>
    // CHECK: ascend.block_idx from %{{.*}}
    %b = ascend.block_idx from %payload
    // CHECK: ascend.subblock_idx from %{{.*}}
    %l = ascend.subblock_idx from %payload
    // CHECK: ascend.no_payload
    %none = ascend.no_payload
    return
  }

  // CHECK-LABEL: func.func @lanes
  func.func @lanes(%ctx: !ascend.ctx) {
    return
  }

  // A kernel that moves data with SDMA takes the workspace and a sync id
  // after its context: its session, a pull and a push, their waits.
  // CHECK-LABEL: func.func @sdma
  // CHECK-SAME: (%{{.*}}: !ascend.ctx, %{{.*}}: !ascend.sdma_workspace, %{{.*}}: i32, %{{.*}}: !ascend.gm<f32>, %{{.*}}: index)
  func.func @sdma(%ctx: !ascend.ctx, %ws: !ascend.sdma_workspace, %id: i32, %data: !ascend.gm<f32>, %peer: index) {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    // CHECK: %[[S:.*]] = ascend.sdma_session %{{.*}}, sync_id %{{.*}} {offset = 256 : i64}
    %s = ascend.sdma_session %ws, sync_id %id {offset = 256 : i64}
    // A task's kernel: the channel's lane from the dispatch payload.
    // CHECK: ascend.sdma_session %{{.*}}, sync_id %{{.*}} from %{{.*}} {offset = 512 : i64}
    %payload = ascend.no_payload
    %t = ascend.sdma_session %ws, sync_id %id from %payload {offset = 512 : i64}
    %remote = ascend.peer_ptr %ctx, %data, peer %peer : !ascend.gm<f32>
    %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
    %rv = ascend.view %remote, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
    // CHECK: %[[E:.*]] = ascend.tget_async %{{.*}}, %{{.*}}, session %[[S]] {site = "pull"} : !ascend.view<f32>
    %e = ascend.tget_async %v, %rv, session %s {site = "pull"} : !ascend.view<f32>
    // CHECK: ascend.wait_async %[[E]], session %[[S]]
    ascend.wait_async %e, session %s
    // CHECK: %[[F:.*]] = ascend.tput_async %{{.*}}, %{{.*}}, session %[[S]] : !ascend.view<f32>
    %f = ascend.tput_async %rv, %v, session %s : !ascend.view<f32>
    // CHECK: ascend.wait_async %[[F]], session %[[S]] {site = "push"}
    ascend.wait_async %f, session %s {site = "push"}
    return
  }

  // CHECK-LABEL: func.func @host
  func.func @host(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %sig: !ascend.gm<i32>, %go: i1) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // CHECK: ascend.world_size %{{.*}}
    %w = ascend.world_size %ctx
    // CHECK: ascend.alloc_window %{{.*}}, %{{.*}} {name = "buf"} : !ascend.gm<i8>
    %b = ascend.alloc_window %ctx, %c4 {name = "buf"} : !ascend.gm<i8>
    // CHECK: ascend.comm_group %{{.*}} ranks [1, 2]
    %group = ascend.comm_group %ctx ranks [1, 2]
    // CHECK: ascend.window_as %{{.*}} : !ascend.gm<i8> -> !ascend.gm<f32>
    %f = ascend.window_as %b : !ascend.gm<i8> -> !ascend.gm<f32>
    // CHECK: ascend.handoff_workspace %{{.*}}, %{{.*}} : !ascend.gm<i8>
    %h = ascend.handoff_workspace %ctx, %c4 : !ascend.gm<i8>
    // CHECK: %[[T:.*]] = ascend.submit @kernel(%{{.*}}, %{{.*}}, %{{.*}}) ctx %{{.*}} blocks %{{.*}} name "first" : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> !ascend.task
    %t = ascend.submit @kernel(%data, %sig, %c1) ctx %ctx blocks %c1 name "first" : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> !ascend.task
    // CHECK: ascend.submit @kernel({{.*}}) ctx %{{.*}} deps [%[[T]]] blocks %{{.*}} if %{{.*}} name "second"
    %t2 = ascend.submit @kernel(%f, %sig, %c1) ctx %ctx deps [%t] blocks %c4 if %go name "second" : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> !ascend.task
    // CHECK: ascend.launch @kernel({{.*}}) ctx %{{.*}} blocks %{{.*}} : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> ()
    ascend.launch @kernel(%data, %sig, %c1) ctx %ctx blocks %c1 : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> ()
    // CHECK: ascend.run_on_lanes @lanes() ctx %{{.*}} : () -> ()
    ascend.run_on_lanes @lanes() ctx %ctx : () -> ()
    // Host code passes an SDMA kernel the runtime's workspace and a sync id.
    // CHECK: %[[WS:.*]] = ascend.sdma_workspace %{{.*}}
    %ws = ascend.sdma_workspace %ctx
    %id = arith.constant 0 : i32
    // CHECK: ascend.launch @sdma(%[[WS]], %{{.*}}, %{{.*}}, %{{.*}}) ctx %{{.*}} blocks %{{.*}} : (!ascend.sdma_workspace, i32, !ascend.gm<f32>, index) -> ()
    ascend.launch @sdma(%ws, %id, %data, %c1) ctx %ctx blocks %c1 : (!ascend.sdma_workspace, i32, !ascend.gm<f32>, index) -> ()
    // The runtime passes a deferring kernel its dispatch payload.
    // CHECK: ascend.submit @deferring(%{{.*}}) ctx %{{.*}} blocks %{{.*}} name "waiter" : (!ascend.gm<i32>) -> !ascend.task
    %t3 = ascend.submit @deferring(%sig) ctx %ctx blocks %c1 name "waiter" : (!ascend.gm<i32>) -> !ascend.task
    return
  }

  // CHECK-LABEL: func.func @entry
  func.func @entry(%ctx: !ascend.ctx, %args: !ascend.args) {
    // CHECK: ascend.arg_ptr %{{.*}}[0] : !ascend.gm<f32>
    %p = ascend.arg_ptr %args[0] : !ascend.gm<f32>
    // CHECK: ascend.arg_dim %{{.*}}[0, 1]
    %d = ascend.arg_dim %args[0, 1]
    // CHECK: ascend.arg_scalar %{{.*}}[2] : i32
    %s = ascend.arg_scalar %args[2] : i32
    return
  }

  // The cube: tiles of every kind, a GEMM step and the fixpipe's store
  // (an f32 accumulator stored as f16).
  // CHECK-LABEL: func.func @cube
  func.func @cube(%a: !ascend.gm<f16>, %c: !ascend.gm<f16>, %n: index) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    // CHECK: ascend.tile {offset = 0 : i64} : !ascend.tile<32x64xf16, mat>
    %mat = ascend.tile {offset = 0 : i64} : !ascend.tile<32x64xf16, mat>
    // CHECK: ascend.tile valid(%{{.*}}, %{{.*}}) {offset = 0 : i64} : !ascend.tile<32x32xf16, left>
    %left = ascend.tile valid(%c16, %n) {offset = 0 : i64} : !ascend.tile<32x32xf16, left>
    // CHECK: !ascend.tile<32x16xf16, right>
    %right = ascend.tile {offset = 0 : i64} : !ascend.tile<32x16xf16, right>
    // CHECK: !ascend.tile<32x16xf32, acc>
    %acc = ascend.tile {offset = 0 : i64} : !ascend.tile<32x16xf32, acc>
    %v = ascend.view %a, rows %c16, cols %c16, stride %c16 : !ascend.gm<f16> -> !ascend.view<f16>
    // CHECK: ascend.tload %{{.*}}, %{{.*}} : !ascend.tile<32x64xf16, mat>, !ascend.view<f16>
    ascend.tload %mat, %v : !ascend.tile<32x64xf16, mat>, !ascend.view<f16>
    // CHECK: ascend.textract %{{.*}}, %{{.*}}, row %{{.*}}, col %{{.*}} : !ascend.tile<32x32xf16, left>, !ascend.tile<32x64xf16, mat>
    ascend.textract %left, %mat, row %c0, col %c16 : !ascend.tile<32x32xf16, left>, !ascend.tile<32x64xf16, mat>
    // CHECK: ascend.tmatmul %{{.*}}, %{{.*}}, %{{.*}} : !ascend.tile<32x16xf32, acc>, !ascend.tile<32x32xf16, left>, !ascend.tile<32x16xf16, right>
    ascend.tmatmul %acc, %left, %right : !ascend.tile<32x16xf32, acc>, !ascend.tile<32x32xf16, left>, !ascend.tile<32x16xf16, right>
    // CHECK: ascend.tmatmul_acc
    ascend.tmatmul_acc %acc, %left, %right : !ascend.tile<32x16xf32, acc>, !ascend.tile<32x32xf16, left>, !ascend.tile<32x16xf16, right>
    %w = ascend.view %c, rows %c16, cols %c16, stride %c16 : !ascend.gm<f16> -> !ascend.view<f16>
    // CHECK: ascend.tstore_acc %{{.*}}, %{{.*}} : !ascend.view<f16>, !ascend.tile<32x16xf32, acc>
    ascend.tstore_acc %w, %acc : !ascend.view<f16>, !ascend.tile<32x16xf32, acc>
    // CHECK: ascend.pipe_sync m -> fix
    ascend.pipe_sync m -> fix
    return
  }

  // A mixed kernel: its two halves, and the flags they meet at.
  // CHECK-LABEL: func.func @mixed_aic
  func.func @mixed_aic(%ctx: !ascend.ctx, %x: !ascend.gm<f32>) {
    // CHECK: ascend.cross_core_wait aiv -> aic
    ascend.cross_core_wait aiv -> aic
    // CHECK: ascend.cross_core_signal aic -> aiv
    ascend.cross_core_signal aic -> aiv
    return
  }
  func.func @mixed_aiv(%ctx: !ascend.ctx, %x: !ascend.gm<f32>) {
    ascend.cross_core_signal aiv -> aic
    ascend.cross_core_wait aic -> aiv
    return
  }
  // CHECK-LABEL: func.func @mixed
  func.func @mixed(%ctx: !ascend.ctx, %x: !ascend.gm<f32>) {
    // CHECK: ascend.run_mixed @mixed_aic, @mixed_aiv(%{{.*}}) ctx %{{.*}} : (!ascend.gm<f32>) -> ()
    ascend.run_mixed @mixed_aic, @mixed_aiv(%x) ctx %ctx : (!ascend.gm<f32>) -> ()
    return
  }
}
