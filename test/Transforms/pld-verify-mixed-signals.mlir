// pld-verify: signals used in incompatible ways (semantics §3, §6): Set and
// AtomicAdd on the same cells; a collective's signal driven by hand; one
// window shared by a ring and a mesh collective.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics
// The rules judge values, not spellings: the same after --canonicalize.
// RUN: pld-opt %s --split-input-file --canonicalize --pld-verify=remarks=false --verify-diagnostics

func.func @set_and_add(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{op set on signal[0, 0] here}}
  pld.system.notify %signal[0, 0], peer %peer, value %v, op set : !pld.dtensor<2x1xi32>
  // expected-error @+1 {{notify with op atomic_add on signal[0, 0] mixes Set and AtomicAdd on the same cells}}
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// Near miss: different cells of one signal may use different ops.
func.func @separate_cells(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.notify %signal[0, 0], peer %peer, value %v, op set : !pld.dtensor<2x1xi32>
  pld.system.notify %signal[1, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// -----

// Computed cells meet on a rank's run: every rank sets rank 0's cell
// [0, 0], and rank 0's own completion adds into [%me, 0] = [0, 0].
func.func @computed_cells_meet(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  // expected-note @+1 {{op set on rank 0 here}}
  pld.system.notify %signal[0, 0], peer %c0, value %one, op set : !pld.dtensor<4x1xi32>
  // expected-error @+1 {{notify with op atomic_add on rank 0 reaches cell [0, 0] of rank 0's argument 0 of @computed_cells_meet on 2 ranks, which a notify with op set also reaches: Set and AtomicAdd are mixed on the same cell}}
  pld.system.notify %signal[%me, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  return
}

// -----

// The same with the values an epoch passed in (run as 1): the cells meet
// whatever the values are.
func.func @computed_cells_meet_epoch(%signal: !pld.dtensor<4x1xi32>, %epoch: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{op set on rank 0 here}}
  pld.system.notify %signal[0, 0], peer %c0, value %epoch, op set : !pld.dtensor<4x1xi32>
  // expected-error @+1 {{notify with op atomic_add on rank 0 reaches cell [0, 0] of rank 0's argument 0 of @computed_cells_meet_epoch on 2 ranks with argument 1 of @computed_cells_meet_epoch = 1 on every rank, which a notify with op set also reaches: Set and AtomicAdd are mixed on the same cell}}
  pld.system.notify %signal[%me, 0], peer %c0, value %epoch, op atomic_add : !pld.dtensor<4x1xi32>
  return
}

// -----

// Near miss (post-start-complete-wait): the target sets the post cell
// [0, 0] of every origin; each origin adds its completion into its own row
// [%me, 0] of the target, %me >= 1. The offsets look alike; the cells
// never meet.
func.func @post_and_complete(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %is_target = arith.cmpi eq, %me, %c0 : index
  scf.if %is_target {
    scf.for %o = %c1 to %n step %c1 {
      pld.system.notify %signal[0, 0], peer %o, value %one, op set : !pld.dtensor<4x1xi32>
    }
    scf.for %o = %c1 to %n step %c1 {
      pld.system.wait %signal[%o, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    }
  } else {
    pld.system.wait %signal[0, 0], expected %one, cmp eq : !pld.dtensor<4x1xi32>
    pld.system.notify %signal[%me, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// -----

func.func @hand_driven_collective_signal(%d: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the owning collective}}
  %r = pld.tensor.allreduce %d, %signal, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  // expected-error @+1 {{the signal of 'pld.tensor.allreduce' is owned by that collective (it counts AtomicAdd credits and clears itself); 'pld.system.notify' on it corrupts the collective's protocol}}
  pld.system.notify %signal[0, 0], peer %peer, value %v, op set : !pld.dtensor<2x1xi32>
  return
}

// Near miss: back-to-back collectives on one signal are legal (self-clearing).
func.func @back_to_back(%d: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r0 = pld.tensor.allreduce %d, %signal, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  %r1 = pld.tensor.allreduce %d, %signal, op max : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  pld.tensor.barrier %signal : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @ring_and_mesh_share_a_window(%d: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %buf = pld.tensor.alloc_window_buffer "signal" bytes 4096
  %mesh = pld.tensor.window %buf : !pld.dtensor<2x1xi32>
  %ring = pld.tensor.window %buf : !pld.dtensor<2x2xi32>
  // expected-note @+1 {{the other collective on the same window}}
  %r0 = pld.tensor.allreduce %d, %mesh, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  // expected-error @+1 {{a ring allreduce and a mesh collective share one signal window; each collective owns its signal}}
  %r1 = pld.tensor.allreduce %d, %ring, op sum mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<2x2xi32>
  return
}

// Near miss: each algorithm with its own window.
func.func @separate_windows(%d: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %mbuf = pld.tensor.alloc_window_buffer "mesh_signal" bytes 4096
  %rbuf = pld.tensor.alloc_window_buffer "ring_signal" bytes 4096
  %mesh = pld.tensor.window %mbuf : !pld.dtensor<2x1xi32>
  %ring = pld.tensor.window %rbuf : !pld.dtensor<2x2xi32>
  %r0 = pld.tensor.allreduce %d, %mesh, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  %r1 = pld.tensor.allreduce %d, %ring, op sum mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<2x2xi32>
  return
}

// -----

// One signal buffer reaching two kernels as two arguments: the host
// allocates one window and hands it to a ring allreduce in @ring_step and
// a mesh allreduce in @mesh_step.
func.func @ring_step(%data: !pld.dtensor<1x4096xf32>, %signal: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %t = pl.load %data[%c0, 0] : !pld.dtensor<1x4096xf32> -> !pl.tile<1x4096xf32>
  %s = pl.add %t, %t : !pl.tile<1x4096xf32>
  pl.store %s, %data[%c0, 0] : !pl.tile<1x4096xf32>, !pld.dtensor<1x4096xf32>
  // expected-note @+1 {{the other collective on the same window}}
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x4096xf32>, !pld.dtensor<6x4xi32>
  return
}

func.func @mesh_step(%grad: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{a ring allreduce and a mesh collective share one signal window; each collective owns its signal}}
  %r = pld.tensor.allreduce %grad, %signal, op max : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

func.func @train(%data: !pld.dtensor<1x4096xf32>, %grad: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %n = pld.system.world_size
  // expected-note @+1 {{the window buffer both signals view, passed to the kernels through calls}}
  %buf = pld.tensor.alloc_window_buffer "signal" bytes 4096
  %ring = pld.tensor.window %buf : !pld.dtensor<6x4xi32>
  %mesh = pld.tensor.window %buf : !pld.dtensor<4x1xi32>
  func.call @ring_step(%data, %ring) : (!pld.dtensor<1x4096xf32>, !pld.dtensor<6x4xi32>) -> ()
  func.call @mesh_step(%grad, %mesh) : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  return
}

// -----

// The same through a helper that receives the buffer itself and makes the
// mesh window: a barrier (mesh) and the ring allreduce share the buffer.
func.func @ring_step(%data: !pld.dtensor<1x4096xf32>, %signal: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the other collective on the same window}}
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x4096xf32>, !pld.dtensor<6x4xi32>
  return
}

func.func @sync(%signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{a ring allreduce and a mesh collective share one signal window}}
  pld.tensor.barrier %signal : !pld.dtensor<4x1xi32>
  return
}

func.func @sync_on(%buf: !pld.ptr) attributes {pl.kernel = #pl.kernel<host>} {
  %mesh = pld.tensor.window %buf : !pld.dtensor<4x1xi32>
  func.call @sync(%mesh) : (!pld.dtensor<4x1xi32>) -> ()
  return
}

func.func @train(%data: !pld.dtensor<1x4096xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the window buffer both signals view, passed to the kernels through calls}}
  %buf = pld.tensor.alloc_window_buffer "signal" bytes 4096
  %ring = pld.tensor.window %buf : !pld.dtensor<6x4xi32>
  func.call @ring_step(%data, %ring) : (!pld.dtensor<1x4096xf32>, !pld.dtensor<6x4xi32>) -> ()
  func.call @sync_on(%buf) : (!pld.ptr) -> ()
  return
}

// -----

// Near miss: the same kernels, each with its own buffer.
func.func @ring_step(%data: !pld.dtensor<1x4096xf32>, %signal: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x4096xf32>, !pld.dtensor<6x4xi32>
  return
}

func.func @mesh_step(%grad: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %grad, %signal, op max : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  pld.tensor.barrier %signal : !pld.dtensor<4x1xi32>
  return
}

func.func @train(%data: !pld.dtensor<1x4096xf32>, %grad: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %rbuf = pld.tensor.alloc_window_buffer "ring_signal" bytes 4096
  %mbuf = pld.tensor.alloc_window_buffer "mesh_signal" bytes 4096
  %ring = pld.tensor.window %rbuf : !pld.dtensor<6x4xi32>
  %mesh = pld.tensor.window %mbuf : !pld.dtensor<4x1xi32>
  func.call @ring_step(%data, %ring) : (!pld.dtensor<1x4096xf32>, !pld.dtensor<6x4xi32>) -> ()
  func.call @mesh_step(%grad, %mesh) : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  func.call @ring_step(%data, %ring) : (!pld.dtensor<1x4096xf32>, !pld.dtensor<6x4xi32>) -> ()
  return
}
