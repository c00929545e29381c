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

// -----

// A mixed kernel's cube half runs alone: what a GEMM's address depends on
// must not be read from memory by the vector core.
func.func @address_from_memory(%a: memref<64x16xf16>, %c: memref<16x16xf32>, %at: memref<1xi32>, %x: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %v = pl.load %x[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %v, %x[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  // expected-error @+1 {{the cube's half of this mixed kernel needs 'ascend.read' (a GEMM's address, or the loop or branch around one, depends on it), which runs on the vector core: compute it from the kernel's arguments instead}}
  %row = pl.read %at[0] : memref<1xi32>
  %r = arith.index_cast %row : i32 to index
  %ta = pl.load %a[%r, 0] : memref<64x16xf16> -> !pl.tile<16x16xf16>
  %p = pl.matmul %ta, %ta : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  return
}

// -----

// Cube work goes outside pl.split_aiv regions.
func.func @matmul_in_region(%a: memref<16x16xf16>, %c: memref<16x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the region}}
  pl.split_aiv mode none {
    %ta = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
    // expected-error @+1 {{a pl.matmul inside a pl.split_aiv region cannot be lowered: the region runs on the vector sub-lanes, and cube work goes outside regions}}
    %p = pl.matmul %ta, %ta : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
    pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  }
  return
}

// -----

// The cube loads its operands itself: an operand must be a load only the
// pl.matmul uses.
func.func @operand_shared(%a: memref<16x16xf16>, %c: memref<16x16xf32>, %d: memref<16x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the operand is made here}}
  %ta = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  // expected-error @+1 {{the left operand of pl.matmul comes from 'pl.load': the cube multiplies tiles it loads from global memory itself, so each operand must be a pl.load (or pld.tile.remote_load) in the same block that only this pl.matmul uses}}
  %p = pl.matmul %ta, %ta : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  %q = pl.matmul %ta, %ta : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.store %q, %d[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  return
}

// -----

// A product that vector work uses goes through the hand-off space the
// kernel's caller passes it: not in a function InCore code calls.
// expected-note @+1 {{the function}}
func.func @product_in_device_function(%a: memref<16x16xf16>, %c: memref<16x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  %tb = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  // expected-error @+1 {{the product of a pl.matmul that vector work uses cannot be lowered in a function InCore code calls}}
  %p = pl.matmul %ta, %tb : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  %d = pl.add %p, %p : !pl.tile<16x16xf32>
  pl.store %d, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  return
}

func.func @caller(%a: memref<16x16xf16>, %c: memref<16x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @product_in_device_function(%a, %c) : (memref<16x16xf16>, memref<16x16xf32>) -> ()
  return
}

// -----

// The loads, the product and the store happen together, at the store: a
// wait between them would be reordered.
func.func @wait_between(%a: memref<16x16xf16>, %c: memref<16x16xf32>, %s: !pld.dtensor<1x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  // expected-note @+1 {{the pl.matmul}}
  %p = pl.matmul %ta, %ta : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  // expected-error @+1 {{'pld.system.wait' stands between the loads of a pl.matmul's operands and the store of its product: the cube reads the operands and writes the product together, at the store, so move it before the loads or after the store}}
  pld.system.wait %s[0, 0], expected %e, cmp ge : !pld.dtensor<1x1xi32>
  // expected-note @+1 {{its store}}
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  return
}

// -----

// Near miss of the above: index arithmetic between them is fine, and a wait
// before the loads orders them.
func.func @wait_before(%a: memref<32x16xf16>, %c: memref<16x16xf32>, %s: !pld.dtensor<1x1xi32>, %e: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.wait %s[0, 0], expected %e, cmp ge : !pld.dtensor<1x1xi32>
  %c16 = arith.constant 16 : index
  %ta = pl.load %a[0, 0] : memref<32x16xf16> -> !pl.tile<16x16xf16>
  %row = arith.addi %c16, %c16 : index
  %tb = pl.load %a[%c16, 0] : memref<32x16xf16> -> !pl.tile<16x16xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  return
}

// -----

// The element types TMATMUL has.
func.func @matmul_types(%a: memref<16x16xf16>, %c: memref<16x16xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x16xf16> -> !pl.tile<16x16xf16>
  %p = pl.matmul %ta, %ta : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xi32>
  // expected-error @+1 {{pl.matmul of f16 x f16 into i32 cannot be lowered: TMATMUL's (accumulator, lhs, rhs) element types are (i32, i8, i8), (f32, f16, f16), (f32, f32, f32), (f32, bf16, bf16)}}
  pl.store %p, %c[0, 0] : !pl.tile<16x16xi32>, memref<16x16xi32>
  return
}

// -----

// A put through the core's pipes (engine mte) is staged by
// pld-expand-transfers first; one with engine sdma is lowered here.
func.func @unexpanded_put(%d: !pld.dtensor<1x64xf32>, %m: memref<1x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.put' must be expanded before convert-pld-to-ascend: run pld-to-ascend-pipeline first (pld-to-cce-pipeline does)}}
  pld.tensor.put %d, peer %p, %m : !pld.dtensor<1x64xf32>, memref<1x64xf32>
  pld.tensor.put %d, peer %p, %m engine sdma : !pld.dtensor<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// An SDMA transfer needs the kernel's SDMA session, which is not passed to
// callees yet: not in a device function (a kernel that a kernel calls) ...
func.func @sdma_callee(%out: memref<64xf32>, %in: !pld.dtensor<64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.get' with engine sdma cannot be lowered in a device function or a pl.split_aiv region: the SDMA session is built once per kernel, from the workspace the kernel receives, and is not passed to callees yet (move the transfer to the kernel)}}
  pld.tensor.get %out, peer %peer, %in engine sdma : memref<64xf32>, !pld.dtensor<64xf32>
  return
}
func.func @sdma_caller(%out: memref<64xf32>, %in: !pld.dtensor<64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @sdma_callee(%out, %in, %peer) : (memref<64xf32>, !pld.dtensor<64xf32>, index) -> ()
  return
}

// -----

// ... nor in a split region ...
func.func @sdma_lanes(%out: memref<64xf32>, %in: !pld.dtensor<64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pl.split_aiv mode none {
    // expected-error @+1 {{'pld.tensor.get' with engine sdma cannot be lowered in a device function or a pl.split_aiv region}}
    pld.tensor.get %out, peer %peer, %in engine sdma : memref<64xf32>, !pld.dtensor<64xf32>
  }
  return
}

// -----

// ... nor in a kernel with cube work, whose vector half is a device
// function.
func.func @sdma_mixed(%a: memref<16x32xf16>, %b: memref<32x16xf16>, %c: memref<16x16xf32>, %out: memref<64xf32>, %in: !pld.dtensor<64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x32xf16> -> !pl.tile<16x32xf16>
  %tb = pl.load %b[0, 0] : memref<32x16xf16> -> !pl.tile<32x16xf16>
  %p = pl.matmul %ta, %tb : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  // expected-error @+1 {{'pld.tensor.get' with engine sdma cannot be lowered in a kernel with cube work: the SDMA session is built once per kernel, from the workspace the kernel receives, and is not passed to callees yet (its vector half runs as a device function)}}
  pld.tensor.get %out, peer %peer, %in engine sdma : memref<64xf32>, !pld.dtensor<64xf32>
  return
}
