// Generic passes never drop, merge or reorder communication: every pld op
// that talks to peers declares memory effects. Pure queries still fold.
// RUN: pld-opt %s --cse --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @kept
func.func @kept(%s: !pld.dtensor<2x1xi32>, %d: !pld.dtensor<1x64xf32>, %p: index, %v: i32)
    attributes {pl.kernel = #pl.kernel<incore>} {
  // Two identical queries of a pure op are merged.
  // CHECK: %[[ME:.*]] = pld.system.rank
  // CHECK-NOT: pld.system.rank
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
  %a = pld.system.rank %ctx
  %b = pld.system.rank %ctx
  // Two identical notifies both fire, in order, around the wait.
  // CHECK: pld.system.notify %{{.*}}, value %[[ME]], op atomic_add
  // CHECK-NEXT: pld.system.notify %{{.*}}, value %[[ME]], op atomic_add
  // CHECK-NEXT: pld.system.wait
  // CHECK-NEXT: pld.system.wait
  pld.system.notify %s[0, 0], peer %p, value %a, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.notify %s[0, 0], peer %p, value %b, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %s[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  pld.system.wait %s[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  // Back-to-back collectives with unused results stay.
  // CHECK-NEXT: pld.tensor.allreduce
  // CHECK-NEXT: pld.tensor.allreduce
  // CHECK-NEXT: pld.tensor.barrier
  // CHECK-NEXT: pld.tensor.barrier
  %r0 = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  %r1 = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  pld.tensor.barrier %s : !pld.dtensor<2x1xi32>
  pld.tensor.barrier %s : !pld.dtensor<2x1xi32>
  // A remote load separated by a wait is not merged with the earlier one.
  // CHECK-NEXT: pld.tile.remote_load
  // CHECK-NEXT: pld.system.wait
  // CHECK-NEXT: pld.tile.remote_load
  %t0 = pld.tile.remote_load %d[0, 0], peer %p : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pld.system.wait %s[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  %t1 = pld.tile.remote_load %d[0, 0], peer %p : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  %sum = pl.add %t0, %t1 : !pl.tile<1x64xf32>
  pl.store %sum, %d[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// Window allocations are distinct even when identical.
// CHECK-LABEL: func.func @allocs
// CHECK-COUNT-2: pld.tensor.alloc_window_buffer "sig" bytes 64
func.func @allocs() -> (!pld.ptr, !pld.ptr) {
  %a = pld.tensor.alloc_window_buffer "sig" bytes 64
  %b = pld.tensor.alloc_window_buffer "sig" bytes 64
  return %a, %b : !pld.ptr, !pld.ptr
}
