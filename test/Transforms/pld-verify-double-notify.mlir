// pld-verify: a notify that fires twice (SPEC §6): outside a vector-only
// region in a kernel that also does cube work, or in a region that runs on
// both AIV sub-lanes without sharding or a one-lane guard.
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

func.func @mixed_kernel(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32,
                        %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{cube work here}}
  %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  // expected-error @+1 {{notify fires twice: outside a pl.split_aiv region of a kernel that also does cube work it is emitted on both the cube and the vector lane; put it in a pl.split_aiv region}}
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// Near miss: the notify in a split region, guarded to lane 0.
func.func @mixed_kernel_split(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32,
                              %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
    }
  }
  return
}

// Near miss: no cube work, no split region needed.
func.func @vector_kernel(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @both_lanes(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the region runs on both sub-lanes}}
  pl.split_aiv mode none {
    // expected-error @+1 {{notify fires twice: a pl.split_aiv mode none region runs on both AIV sub-lanes; shard the notify by pl.get_aiv_id or guard it to one lane}}
    pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  }
  return
}

// Near miss: sharded by lane id (each lane bumps its own cell).
func.func @sharded(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    pld.system.notify %signal[%lane, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// The same rule inside a task of a host orchestrator.
func.func @task_with_cube(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32,
                          %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "mixed" {
    // expected-note @+1 {{cube work here}}
    %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
    // expected-error @+1 {{notify fires twice}}
    pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  }
  // Near miss: cube work in another task does not make this one mixed.
  %u = pl.at level core_group name "publish" {
    pld.system.notify %signal[1, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  }
  return
}
