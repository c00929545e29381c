// pld-verify: a notify that fires twice (semantics §6): outside a vector-only
// region in a kernel that does cube and vector work, or in a region that runs
// on both AIV sub-lanes without sharding or a one-lane guard.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

func.func @mixed_kernel(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32,
                        %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{cube work here}}
  %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  // expected-note @+1 {{vector work here}}
  %d = pl.add %c, %c : !pl.tile<16x16xf32>
  // expected-error @+1 {{notify fires twice: outside a pl.split_aiv region of a kernel that does cube and vector work it runs on both vector cores of the block (the vector half of a mixed kernel runs on each); put it in a pl.split_aiv region and guard it to one lane}}
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// Near miss: a kernel whose tile work is all cube work runs on the cube
// alone, so its notify (published after the product is stored) fires once.
func.func @cube_kernel(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32,
                       %a: memref<16x16xf16>, %c: memref<16x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  %p = pl.matmul %t, %t : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
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

// A kernel with a split region is launched on both AIV sub-lanes of each
// block, and each runs the whole kernel: a notify outside the region fires
// twice (the near misses: @vector_kernel above has no region, and a notify
// in the region guarded to one lane fires once).
func.func @outside_lanes(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32, %d: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{a pl.split_aiv region of the kernel}}
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %t = pl.load %d[%lane, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    %twice = pl.add %t, %t : !pl.tile<1x64xf32>
    pl.store %twice, %d[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  // expected-error @+1 {{notify fires twice: outside its pl.split_aiv regions a kernel that has them runs on both AIV sub-lanes of the block (each sub-lane runs the whole kernel); put it in a pl.split_aiv region and guard it to one lane}}
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

func.func @inside_lanes(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32, %d: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %t = pl.load %d[%lane, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    %twice = pl.add %t, %t : !pl.tile<1x64xf32>
    pl.store %twice, %d[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
    }
  }
  return
}

// -----

// An atomic add outside the regions of a kernel both sub-lanes run is made
// twice: in a mixed kernel, and in one with a split region.
func.func @adds_in_mixed(%data: !pld.dtensor<16x16xf32>, %peer: index,
                         %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{cube work here}}
  %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  // expected-note @+2 {{vector work here}}
  // expected-error @+1 {{'pld.tile.remote_store' adds twice: outside a pl.split_aiv region of a kernel that does cube and vector work it runs on both vector cores of the block (the vector half of a mixed kernel runs on each); put it in a pl.split_aiv region and guard it to one lane}}
  pld.tile.remote_store %c, %data[0, 0], peer %peer atomic add : !pl.tile<16x16xf32>, !pld.dtensor<16x16xf32>
  return
}

func.func @adds_beside_lanes(%data: !pld.dtensor<2x64xf32>, %peer: index, %scratch: memref<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{a pl.split_aiv region of the kernel}}
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %t = pl.load %scratch[%lane, 0] : memref<2x64xf32> -> !pl.tile<1x64xf32>
    %twice = pl.add %t, %t : !pl.tile<1x64xf32>
    pl.store %twice, %scratch[%lane, 0] : !pl.tile<1x64xf32>, memref<2x64xf32>
  }
  %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+1 {{'pld.tile.remote_store' adds twice: outside its pl.split_aiv regions a kernel that has them runs on both AIV sub-lanes of the block}}
  pld.tile.remote_store %row, %data[1, 0], peer %peer atomic add : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// Near misses: the add guarded to one lane in the region, and a kernel of
// one lane (no cube work, no region).
func.func @adds_on_one_lane(%data: !pld.dtensor<16x16xf32>, %peer: index,
                            %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      pld.tile.remote_store %c, %data[0, 0], peer %peer atomic add : !pl.tile<16x16xf32>, !pld.dtensor<16x16xf32>
    }
  }
  return
}

func.func @adds_in_vector_kernel(%data: !pld.dtensor<2x64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[1, 0], peer %peer atomic add : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// In a mode none region both sub-lanes make the add, unless each adds into
// a place of its own (the row from the lane id, the near miss).
func.func @adds_on_both_lanes(%data: !pld.dtensor<4x64xf32>, %peer: index, %x: memref<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the region runs on both sub-lanes}}
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %row = pl.load %x[%lane, 0] : memref<2x64xf32> -> !pl.tile<1x64xf32>
    // expected-error @+1 {{'pld.tile.remote_store' adds twice: a pl.split_aiv mode none region runs on both AIV sub-lanes; shard it by pl.get_aiv_id or guard it to one lane}}
    pld.tile.remote_store %row, %data[0, 0], peer %peer atomic add : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
  }
  return
}

func.func @adds_by_lane(%data: !pld.dtensor<4x64xf32>, %peer: index, %x: memref<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %c2 = arith.constant 2 : index
    %own = arith.addi %lane, %c2 : index
    %row = pl.load %x[%lane, 0] : memref<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[%own, 0], peer %peer atomic add : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
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
    // expected-note @+1 {{vector work here}}
    %d = pl.add %c, %c : !pl.tile<16x16xf32>
    // expected-error @+1 {{notify fires twice}}
    pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  }
  // Near miss: cube work in another task does not make this one mixed.
  %u = pl.at level core_group name "publish" {
    pld.system.notify %signal[1, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// A lane id that only changes the value written does not shard the notify:
// both sub-lanes add into the same cell of the same peer, so the peer sees
// two credits per call (here 1 + 2 instead of one of them).
func.func @credit_by_lane(%signal: !pld.dtensor<8x1xi32>, %data: !pld.dtensor<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  // expected-note @+1 {{the region runs on both sub-lanes}}
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    // Rows 0-1 are read here, rows 2-3 written by the previous rank.
    %two = arith.constant 2 : index
    %dst = arith.addi %lane, %two : index
    %row = pl.load %data[%lane, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[%dst, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
    %lane1 = arith.addi %lane, %c1 : index
    %credit = arith.index_cast %lane1 : index to i32
    // expected-error @+1 {{notify fires twice: a pl.split_aiv mode none region runs on both AIV sub-lanes; shard the notify by pl.get_aiv_id or guard it to one lane}}
    pld.system.notify %signal[%me, 0], peer %next, value %credit, op atomic_add : !pld.dtensor<8x1xi32>
  }
  return
}

func.func @host_credit(%signal: !pld.dtensor<8x1xi32>, %data: !pld.dtensor<4x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @credit_by_lane(%signal, %data) : (!pld.dtensor<8x1xi32>, !pld.dtensor<4x64xf32>) -> ()
  return
}

// -----

// Near miss: each lane bumps its own cell, computed from the lane id (row
// 2 * rank + lane), with a value that also depends on it.
func.func @cell_by_lane(%signal: !pld.dtensor<16x1xi32>, %data: !pld.dtensor<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<16x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %base = arith.muli %me, %c2 : index
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    // Rows 0-1 are read here, rows 2-3 written by the previous rank.
    %two = arith.constant 2 : index
    %dst = arith.addi %lane, %two : index
    %row = pl.load %data[%lane, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[%dst, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
    %cell = arith.addi %base, %lane : index
    %lane1 = arith.addi %lane, %c1 : index
    %credit = arith.index_cast %lane1 : index to i32
    pld.system.notify %signal[%cell, 0], peer %next, value %credit, op atomic_add : !pld.dtensor<16x1xi32>
  }
  return
}

// Near miss: each lane notifies a different peer (lane 0 the right
// neighbour, lane 1 the left one) on the same cell.
func.func @peer_by_lane(%signal: !pld.dtensor<8x1xi32>, %data: !pld.dtensor<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    // peer = (me + 1 + lane * (n - 2)) % n: me + 1 for lane 0, me - 1 for lane 1.
    %span = arith.subi %n, %c2 : index
    %step = arith.muli %lane, %span : index
    %shift = arith.addi %step, %c1 : index
    %far = arith.addi %me, %shift : index
    %peer = arith.remui %far, %n : index
    %dst = arith.addi %lane, %c2 : index
    %row = pl.load %data[%lane, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[%dst, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
    pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }
  return
}

// Each kernel has a data window of its own: nothing orders one rank's
// second kernel after another rank's first.
func.func @host_sharded(%signal: !pld.dtensor<16x1xi32>, %ring: !pld.dtensor<8x1xi32>, %data: !pld.dtensor<4x64xf32>, %other: !pld.dtensor<4x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @cell_by_lane(%signal, %data) : (!pld.dtensor<16x1xi32>, !pld.dtensor<4x64xf32>) -> ()
  func.call @peer_by_lane(%ring, %other) : (!pld.dtensor<8x1xi32>, !pld.dtensor<4x64xf32>) -> ()
  return
}
