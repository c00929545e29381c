// What convert-pld-to-ascend cannot lower: a located error naming the op,
// never a crash and never a dropped op.
// RUN: pld-opt %s --split-input-file --convert-pld-to-ascend --verify-diagnostics

func.func @unexpanded(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.allreduce' must be expanded before convert-pld-to-ascend: run pld-to-ascend-pipeline first (pld-to-cce-pipeline does)}}
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  return
}

// -----

// expected-note @+1 {{the enclosing function}}
func.func @task_in_kernel() attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pl.at' inside InCore code cannot be lowered: tasks are submitted by host orchestrators}}
  %t = pl.at level core_group name "inner" {
  }
  return
}

// -----

func.func @split_on_host() attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{'pl.split_aiv' in host code cannot be lowered: it splits an AI core's work between its AIV sub-lanes}}
  pl.split_aiv mode none {
  }
  return
}

// -----

func.func @tile_into_lanes(%m: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the tile}}
  %t = pl.load %m[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+1 {{a tile cannot cross into a split_aiv region: each AIV sub-lane has its own unified buffer (load it inside the region)}}
  pl.split_aiv mode none {
    pl.store %t, %m[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

// expected-error @+1 {{argument #0: a tile ('!pl.tile<1x64xf32>') cannot cross a function boundary: tiles live in one core's unified buffer}}
func.func @tile_argument(%t: !pl.tile<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  return
}

// -----

// expected-error @+1 {{argument #0: 'memref<4x4xf32, strided<[8, 1]>>' is not a contiguous row-major memref}}
func.func @strided(%m: memref<4x4xf32, strided<[8, 1]>>) attributes {pl.kernel = #pl.kernel<incore>} {
  return
}

// -----

func.func @window_chosen_at_run_time(%a: !pld.dtensor<1x64xf32>, %b: !pld.dtensor<1x64xf32>, %c: i1) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{a window tensor or memref ('!pld.dtensor<1x64xf32>') carried by 'scf.if' cannot be lowered: its address must be known where it is used}}
  %d = scf.if %c -> !pld.dtensor<1x64xf32> {
    scf.yield %a : !pld.dtensor<1x64xf32>
  } else {
    scf.yield %b : !pld.dtensor<1x64xf32>
  }
  return
}

// -----

// expected-note @+1 {{the host function}}
func.func @host() attributes {pl.kernel = #pl.kernel<host>} {
  return
}

func.func @kernel() attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{InCore code cannot call the host orchestrator @host}}
  func.call @host() : () -> ()
  return
}

// -----

// expected-error @+1 {{a function returning '!pld.dtensor<?xf32>' cannot be lowered: the caller could not learn its dynamic dimensions}}
func.func @dynamic_result(%d: !pld.dtensor<?xf32>) -> !pld.dtensor<?xf32> attributes {pl.kernel = #pl.kernel<host>} {
  return %d : !pld.dtensor<?xf32>
}

// -----

// An element type the emitted C++ cannot spell is reported where it enters:
// the argument, or the op whose result has it.
// expected-error @+1 {{argument #0 has element type 'i4', which the emitted C++ cannot spell (it has i1, i8, i16, i32, i64, index, f16, bf16, f32, f64)}}
func.func @nibbles(%m: memref<1x64xi4>, %d: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pl.load' result #0 has element type 'i4'}}
  %t = pl.load %m[0, 0] : memref<1x64xi4> -> !pl.tile<1x64xi4>
  return
}
