// pld-verify: host-only and InCore-only ops (semantics §1, §3). Each error has a
// near miss below it that stays quiet.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify{remarks=false})' --verify-diagnostics

// expected-note @+1 {{the enclosing function is marked #pl.kernel<incore>}}
func.func @world_size_in_kernel() attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.system.world_size' is only legal in host code, but it stands in InCore code}}
  %n = pld.system.world_size
  return
}

// -----

// expected-note @+1 {{the enclosing function is marked #pl.kernel<incore>}}
func.func @world_rank_in_kernel() attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.system.world_rank' is only legal in host code, but it stands in InCore code}}
  %me = pld.system.world_rank
  return
}

// Near miss: in host code.
func.func @world_rank_in_host() -> index attributes {pl.kernel = #pl.kernel<host>} {
  %me = pld.system.world_rank
  return %me : index
}

// Near miss: world_size in a host orchestrator.
func.func @world_size_on_host() attributes {pl.kernel = #pl.kernel<host>} {
  %n = pld.system.world_size
  return
}

// -----

func.func @world_size_in_task() attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the body of a task scope runs on an AI core}}
  %t = pl.at level core_group name "work" {
    // expected-error @+1 {{'pld.system.world_size' is only legal in host code, but it stands in InCore code}}
    %n = pld.system.world_size
  }
  return
}

// -----

// A GEMM fused with communication launches tasks: host code only.
func.func @matmul_allreduce_in_task(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>,
                                    %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the body of a task scope runs on an AI core}}
  %t = pl.at level core_group name "work" {
    // expected-error @+1 {{'pld.tensor.matmul_allreduce' is only legal in host code, but it stands in InCore code}}
    %u = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  }
  // Near miss: in the orchestrator itself.
  %v = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// expected-note @+1 {{the enclosing function is marked #pl.kernel<host>}}
func.func @rank_on_host(%s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // get_comm_ctx works in both kinds of code.
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
  // expected-error @+1 {{'pld.system.rank' is only legal in InCore code, but it stands in host code}}
  %me = pld.system.rank %ctx
  return
}

// Near miss: the same in an InCore kernel.
func.func @rank_in_kernel(%s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  return
}

// Near miss: the same inside a task of a host orchestrator.
func.func @rank_in_task(%s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
  %c4 = arith.constant 4 : index
  %t = pl.spmd %c4 name "work" {
    %me = pld.system.rank %ctx
  }
  return
}

// -----

// expected-note @+1 {{the enclosing function is marked #pl.kernel<host>}}
func.func @nranks_on_host(%s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
  // expected-error @+1 {{'pld.system.nranks' is only legal in InCore code, but it stands in host code}}
  %n = pld.system.nranks %ctx
  return
}

// -----

// expected-note @+1 {{the enclosing function has no pl.kernel attribute, so it is a host orchestrator (pld-verify default-kind=host)}}
func.func @notify_unmarked(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {
  // expected-error @+1 {{'pld.system.notify' is only legal in InCore code, but it stands in host code}}
  pld.system.notify %s[0, 0], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
  return
}

// -----

// expected-note @+1 {{the enclosing function is marked #pl.kernel<host>}}
func.func @wait_on_host(%s: !pld.dtensor<2x1xi32>, %v: i32) attributes {pl.kernel = #pl.kernel<host>} {
  scf.execute_region {
    // Nesting inside other regions does not change the kind.
    // expected-error @+1 {{'pld.system.wait' is only legal in InCore code, but it stands in host code}}
    pld.system.wait %s[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
    scf.yield
  }
  return
}

// -----

// expected-note @+2 {{the enclosing function is marked #pl.kernel<host>}}
// expected-note @+1 {{the enclosing function}}
func.func @defer_wait_on_host(%s: !pld.dtensor<2x1xi32>, %v: i32) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+2 {{'pld.system.defer_wait' is only legal in InCore code, but it stands in host code}}
  // expected-error @+1 {{defer_wait must sit in a dedicated top-level pl.at task at level core_group, found it outside any task}}
  pld.system.defer_wait %s[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// Near miss: defer_wait in its task.
func.func @defer_wait_in_task(%s: !pld.dtensor<2x1xi32>, %v: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pl.at level core_group name "payload_wait" {
    pld.system.defer_wait %s[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// Collectives are legal on both rails: in host code and in InCore code.
func.func @collectives_on_host(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  pld.tensor.barrier %s : !pld.dtensor<2x1xi32>
  return
}

func.func @collectives_in_kernel(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  pld.tensor.barrier %s : !pld.dtensor<2x1xi32>
  return
}

// -----

// An op outside any function runs nowhere.
%ctx = builtin.unrealized_conversion_cast to !pld.comm_ctx
// expected-error @+1 {{'pld.system.rank' stands outside any function: it is only legal in InCore code, and nothing would run it}}
%r = pld.system.rank %ctx

// -----

// A split-AIV region splits an AI core's work: not in host code.
// expected-note @+1 {{the enclosing function is marked #pl.kernel<host>}}
func.func @host_split() attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{'pl.split_aiv' is only legal in InCore code, but it stands in host code}}
  pl.split_aiv mode none {
  }
  return
}

// -----

// Each sub-lane has its own unified buffer: a tile loaded outside cannot
// be used inside.
func.func @tile_into_lanes(%d: !pld.dtensor<2x64xf32>, %m: memref<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the tile}}
  %t = pl.load %m[0, 0] : memref<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+1 {{a tile cannot cross into a pl.split_aiv region: each AIV sub-lane has its own unified buffer (load it inside the region)}}
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    pl.store %t, %d[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}

// -----

// Near miss: loaded inside, per lane.
func.func @tile_in_lanes(%d: !pld.dtensor<2x64xf32>, %m: memref<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %t = pl.load %m[%lane, 0] : memref<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %d[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}

// -----

// Near miss: a pl.matmul product leaves the cube through global memory,
// and the lowering loads it inside the region.
func.func @product_into_lanes(%d: !pld.dtensor<32x16xf32>, %a: memref<16x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %x = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  %y = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  %p = pl.matmul %x, %y : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %c16 = arith.constant 16 : index
    %row = arith.muli %lane, %c16 : index
    pl.store %p, %d[%row, 0] : !pl.tile<16x16xf32>, !pld.dtensor<32x16xf32>
  }
  return
}

// -----

// So do the reduce-scatter and allgather GEMMs.
func.func @fused_gemms_in_kernel(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>,
                                 %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x2xi32>, %shard: memref<16x16xf16>,
                                 %g: !pld.dtensor<64x16xf16>, %c: memref<64x32xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the body of a task scope runs on an AI core}}
  %t = pl.at level core_group name "work" {
    // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' is only legal in host code, but it stands in InCore code}}
    %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  }
  // expected-note @+1 {{the body of a task scope runs on an AI core}}
  %t2 = pl.at level core_group name "more work" {
    // expected-error @+1 {{'pld.tensor.allgather_matmul' is only legal in host code, but it stands in InCore code}}
    %v = pld.tensor.allgather_matmul %shard, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  }
  // Near misses: in the orchestrator itself.
  %w = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  %x = pld.tensor.allgather_matmul %shard, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}
