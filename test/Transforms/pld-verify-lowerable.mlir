// pld-verify: what the lowering cannot express is an error here, at the op
// the user wrote, so that a module pld-verify accepts also lowers.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

func.func @select_window(%a: !pld.dtensor<2x1xi32>, %b: !pld.dtensor<2x1xi32>, %c: i1) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'arith.select' chooses a window tensor or memref ('!pld.dtensor<2x1xi32>') at run time, which cannot be lowered}}
  %w = arith.select %c, %a, %b : !pld.dtensor<2x1xi32>
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  pld.system.notify %w[0, 0], peer %c0, value %one, op set : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @if_window(%a: !pld.dtensor<2x1xi32>, %b: !pld.dtensor<2x1xi32>, %c: i1) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'scf.if' chooses a window tensor or memref ('!pld.dtensor<2x1xi32>') at run time}}
  %w = scf.if %c -> !pld.dtensor<2x1xi32> {
    scf.yield %a : !pld.dtensor<2x1xi32>
  } else {
    scf.yield %b : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// Near miss: the choice between the accesses, each on a known window.
func.func @if_accesses(%a: !pld.dtensor<2x1xi32>, %b: !pld.dtensor<2x1xi32>, %c: i1) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %v = arith.select %c, %one, %one : i32
  scf.if %c {
    pld.system.notify %a[0, 0], peer %c0, value %v, op set : !pld.dtensor<2x1xi32>
  } else {
    pld.system.notify %b[0, 0], peer %c0, value %v, op set : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// expected-error @+1 {{a function returning '!pld.dtensor<?xf32>' cannot be lowered: the caller could not learn its dynamic dimensions}}
func.func @dynamic_result(%d: !pld.dtensor<?xf32>) -> !pld.dtensor<?xf32> attributes {pl.kernel = #pl.kernel<incore>} {
  return %d : !pld.dtensor<?xf32>
}

// -----

// Near miss: a static window may be returned (it becomes a __gm__ pointer).
func.func @static_result(%d: !pld.dtensor<4xf32>) -> !pld.dtensor<4xf32> attributes {pl.kernel = #pl.kernel<incore>} {
  return %d : !pld.dtensor<4xf32>
}

// -----

// Memory allocated in a kernel: the launch passes in all global memory.
func.func @scratch(%a: memref<1x64xf32>, %o: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'memref.alloc' allocates memory inside the program, which cannot be lowered: a kernel's global memory is what its launch passes in; pass the scratch buffer as an argument (a pl.Out tensor, or a window from pld.tensor.alloc_window_buffer in the host program), or keep it on chip as a tile (pl.load, pl.full)}}
  %s = memref.alloc() : memref<1x64xf32>
  %t = pl.load %a[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %s[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  %u = pl.load %s[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %u, %o[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// Near miss: the scratch passed in as an argument.
func.func @scratch_argument(%a: memref<1x64xf32>, %s: memref<1x64xf32>, %o: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %a[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %s[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  %u = pl.load %s[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %u, %o[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
