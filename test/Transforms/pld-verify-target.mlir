// pld-verify: the target profile (bf16 atomic add only on Ascend910B, the
// default) and the HOST rail's collective limits.
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

// expected-note @+1 {{the module targets Ascend950 here}}
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @bf16_atomic_put(%dst: !pld.dtensor<64xbf16>, %src: memref<64xbf16>, %p: index) {
    // expected-error @+1 {{bf16 atomic add needs the Ascend910B target profile, but the module targets Ascend950}}
    pld.tensor.put %dst, peer %p, %src atomic add : !pld.dtensor<64xbf16>, memref<64xbf16>
    return
  }
}

// -----

// expected-note @+1 {{the module targets Ascend950 here}}
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @bf16_atomic_store(%t: !pl.tile<1x64xbf16>, %m: memref<1x64xbf16>, %d: !pld.dtensor<2x64xbf16>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
    // expected-error @+1 {{bf16 atomic add needs the Ascend910B target profile, but the module targets Ascend950}}
    pld.tile.remote_store %t, %d[0, 0], peer %p atomic add : !pl.tile<1x64xbf16>, !pld.dtensor<2x64xbf16>
    // expected-error @+1 {{bf16 atomic add needs the Ascend910B target profile, but the module targets Ascend950}}
    pld.tensor.remote_store %m, %d[1, 0], peer %p atomic add : memref<1x64xbf16>, !pld.dtensor<2x64xbf16>
    // Near misses: a plain bf16 store, and an f16 atomic add.
    pld.tile.remote_store %t, %d[0, 0], peer %p : !pl.tile<1x64xbf16>, !pld.dtensor<2x64xbf16>
    return
  }
  func.func @f16_atomic(%dst: !pld.dtensor<64xf16>, %src: memref<64xf16>, %p: index) {
    pld.tensor.put %dst, peer %p, %src atomic add : !pld.dtensor<64xf16>, memref<64xf16>
    return
  }
}

// -----

// Near miss: the same put on Ascend910B, named explicitly ...
module attributes {pld.target = #pld.target<Ascend910B>} {
  func.func @bf16_atomic_910b(%dst: !pld.dtensor<64xbf16>, %src: memref<64xbf16>, %p: index) {
    pld.tensor.put %dst, peer %p, %src atomic add : !pld.dtensor<64xbf16>, memref<64xbf16>
    return
  }
}

// -----

// ... or by default: a module without pld.target targets Ascend910B.
func.func @bf16_atomic_default(%dst: !pld.dtensor<64xbf16>, %src: memref<64xbf16>, %p: index) {
  pld.tensor.put %dst, peer %p, %src atomic add : !pld.dtensor<64xbf16>, memref<64xbf16>
  return
}

// -----

// expected-note @+1 {{the enclosing function is marked #pl.kernel<host>}}
func.func @host_reduce_scatter_max(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{reduce_scatter with op max is not supported on the host rail, which lowers only sum; the InCore rail supports sum, max, min and prod (call it from an InCore kernel or a task)}}
  %r = pld.tensor.reduce_scatter %d, %s, op max : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// Near misses: sum on the host rail, max on the InCore rail.
func.func @host_reduce_scatter_sum(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

func.func @task_reduce_scatter_prod(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "rs" {
    %r = pld.tensor.reduce_scatter %d, %s, op prod : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  }
  return
}

func.func @incore_reduce_scatter_min(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op min : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// The nearest module that names a profile decides.
module attributes {pld.target = #pld.target<Ascend910B>} {
  // expected-note @+1 {{the module targets Ascend950 here}}
  module @device attributes {pld.target = #pld.target<Ascend950>} {
    func.func @nested(%dst: !pld.dtensor<64xbf16>, %src: memref<64xbf16>, %p: index) {
      // expected-error @+1 {{bf16 atomic add needs the Ascend910B target profile, but the module targets Ascend950}}
      pld.tensor.put %dst, peer %p, %src atomic add : !pld.dtensor<64xbf16>, memref<64xbf16>
      return
    }
  }
  func.func @outer(%dst: !pld.dtensor<64xbf16>, %src: memref<64xbf16>, %p: index) {
    pld.tensor.put %dst, peer %p, %src atomic add : !pld.dtensor<64xbf16>, memref<64xbf16>
    return
  }
}
