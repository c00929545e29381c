// convert-pld-to-ascend and comm groups: a window buffer of a group gets
// the group's context, which its peer accesses, rank and nranks use, and
// which host code passes the kernels and tasks it launches with the
// group's windows.
// RUN: pld-opt %s --split-input-file --convert-pld-to-ascend --verify-each --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @pull(
// CHECK-SAME: %[[CTX:[^:]*]]: !ascend.ctx
// CHECK: ascend.rank %[[CTX]]
// CHECK: ascend.peer_ptr %[[CTX]]
func.func @pull(%row: !pld.dtensor<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %row : !pld.dtensor<1x64xf32>
  %me = pld.system.rank %ctx : index
  %peer = arith.subi %c1, %me : index
  %t = pld.tile.remote_load %row[0, 0], peer %peer : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// The task's kernel reads the context it is given, as @pull does.
// CHECK-LABEL: func.func @host_pull_b(
// CHECK-SAME: %[[TASK_CTX:[^:]*]]: !ascend.ctx
// CHECK: ascend.rank %[[TASK_CTX]]
// CHECK: ascend.peer_ptr %[[TASK_CTX]]
// Host code: world_rank is the world context's rank; the launch and the
// submission pass each group's context.
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[WORLD:[^:]*]]: !ascend.ctx
// CHECK: ascend.alloc_window %[[WORLD]], %{{.*}} {name = "a"}
// CHECK: %[[GA:.*]] = ascend.comm_group %[[WORLD]] ranks [0, 1]
// CHECK: ascend.alloc_window %[[WORLD]], %{{.*}} {name = "b"}
// CHECK: %[[GB:.*]] = ascend.comm_group %[[WORLD]] ranks [1, 2]
// CHECK: ascend.rank %[[WORLD]]
// CHECK: ascend.launch @pull({{.*}}) ctx %[[GA]]
// CHECK: ascend.submit @host_pull_b({{.*}}) ctx %[[GB]]
func.func @host(%out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c1 = arith.constant 1 : index
  %a = pld.tensor.alloc_window_buffer "a" shape [1, 64] dtype f32 ranks [0, 1]
  %b = pld.tensor.alloc_window_buffer "b" shape [1, 64] dtype f32 ranks [1, 2]
  %row_a = pld.tensor.window %a : !pld.dtensor<1x64xf32>
  %row_b = pld.tensor.window %b : !pld.dtensor<1x64xf32>
  %me = pld.system.world_rank
  %first = arith.cmpi ule, %me, %c1 : index
  scf.if %first {
    func.call @pull(%row_a, %out) : (!pld.dtensor<1x64xf32>, memref<1x64xf32>) -> ()
  }
  %task = pl.at level core_group name "pull_b" {
    %ctx = pld.system.get_comm_ctx %row_b : !pld.dtensor<1x64xf32>
    %me_b = pld.system.rank %ctx : index
    %peer = arith.subi %c1, %me_b : index
    %t = pld.tile.remote_load %row_b[0, 0], peer %peer : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

func.func @both(%a: !pld.dtensor<1x64xf32>, %b: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  return
}

// One kernel runs in one communicator: windows of two groups cannot meet
// in one launch.
func.func @two_groups() attributes {pl.kernel = #pl.kernel<host>} {
  %a = pld.tensor.alloc_window_buffer "a" shape [1, 64] dtype f32 ranks [0, 1]
  %b = pld.tensor.alloc_window_buffer "b" shape [1, 64] dtype f32 ranks [1, 2]
  %row_a = pld.tensor.window %a : !pld.dtensor<1x64xf32>
  %row_b = pld.tensor.window %b : !pld.dtensor<1x64xf32>
  // expected-error @+1 {{the call of @both takes windows of the comm group [0, 1] and of the comm group [1, 2]: a kernel runs in one communicator; pass windows of one group}}
  func.call @both(%row_a, %row_b) : (!pld.dtensor<1x64xf32>, !pld.dtensor<1x64xf32>) -> ()
  return
}

// -----

func.func @both(%a: !pld.dtensor<1x64xf32>, %b: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  return
}

// Nor a group's window and the world's.
func.func @group_and_world(%world: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %a = pld.tensor.alloc_window_buffer "a" shape [1, 64] dtype f32 ranks [0, 1]
  %row_a = pld.tensor.window %a : !pld.dtensor<1x64xf32>
  // expected-error @+1 {{the call of @both takes windows of the comm group [0, 1] and of the world: a kernel runs in one communicator; pass windows of one group}}
  func.call @both(%row_a, %world) : (!pld.dtensor<1x64xf32>, !pld.dtensor<1x64xf32>) -> ()
  return
}

// -----

// Two buffers of one group share its context: the near miss.
// CHECK-LABEL: func.func @one_group(
// CHECK: %[[G:.*]] = ascend.comm_group %{{.*}} ranks [0, 1]
// CHECK: ascend.comm_group %{{.*}} ranks [0, 1]
// CHECK: ascend.launch @both({{.*}}) ctx %[[G]]
func.func @both(%a: !pld.dtensor<1x64xf32>, %b: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  return
}
func.func @one_group() attributes {pl.kernel = #pl.kernel<host>} {
  %a = pld.tensor.alloc_window_buffer "a" shape [1, 64] dtype f32 ranks [0, 1]
  %b = pld.tensor.alloc_window_buffer "b" shape [1, 64] dtype f32 ranks [0, 1]
  %row_a = pld.tensor.window %a : !pld.dtensor<1x64xf32>
  %row_b = pld.tensor.window %b : !pld.dtensor<1x64xf32>
  func.call @both(%row_a, %row_b) : (!pld.dtensor<1x64xf32>, !pld.dtensor<1x64xf32>) -> ()
  return
}
