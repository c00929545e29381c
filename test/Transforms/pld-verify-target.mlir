// pld-verify: the target profile (bf16 atomic add only on Ascend910B, the
// default), the element types the target's tiles move and its vector unit
// computes on per profile, the element types the cube multiplies, and the
// HOST rail's collective limits.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

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

// -----

// The target's TLOAD and TSTORE move no f64: a load of one is an error at
// the op, whatever the profile; an i64 load is the near miss (they move it).
func.func @f64_load(%x: !pld.dtensor<1x8xf64>, %y: !pld.dtensor<1x8xi64>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pl.load' moves f64 elements through the unified buffer, but the target's TLOAD and TSTORE move only i8, i16, i32, i64, f16, bf16, f32 (f64 never reaches the device)}}
  %t = pl.load %x[0, 0] : !pld.dtensor<1x8xf64> -> !pl.tile<1x8xf64>
  %u = pl.load %y[0, 0] : !pld.dtensor<1x8xi64> -> !pl.tile<1x8xi64>
  return
}

// -----

// A put stages through tiles too.
func.func @f64_put(%dst: !pld.dtensor<4x8xf64>, %src: !pld.dtensor<4x8xf64>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.put' moves f64 elements through the unified buffer}}
  pld.tensor.put %dst, peer %peer, %src : !pld.dtensor<4x8xf64>, !pld.dtensor<4x8xf64>
  return
}

// -----

// Ascend910B's vector unit computes on i16, i32, f16 and f32: i64 math is
// an error; i32 is the near miss.
func.func @i64_add_on_910b(%y: !pld.dtensor<1x8xi64>, %z: !pld.dtensor<1x8xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %u = pl.load %y[0, 0] : !pld.dtensor<1x8xi64> -> !pl.tile<1x8xi64>
  // expected-error @+1 {{'pl.add' on i64 tiles cannot run on Ascend910B: its vector unit's TADD takes i16, i32, f16, f32}}
  %v = pl.add %u, %u : !pl.tile<1x8xi64>
  %w = pl.load %z[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
  %x = pl.mul %w, %w : !pl.tile<1x8xi32>
  return
}

// -----

// TSUB takes what TADD takes (npu/a2a3/TSub.hpp:61-65): no i8 on
// Ascend910B; i16 is the near miss.
func.func @i8_sub_on_910b(%y: !pld.dtensor<1x32xi8>, %z: !pld.dtensor<1x16xi16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %u = pl.load %y[0, 0] : !pld.dtensor<1x32xi8> -> !pl.tile<1x32xi8>
  // expected-error @+1 {{'pl.sub' on i8 tiles cannot run on Ascend910B: its vector unit's TSUB takes i16, i32, f16, f32}}
  %v = pl.sub %u, %u : !pl.tile<1x32xi8>
  %w = pl.load %z[0, 0] : !pld.dtensor<1x16xi16> -> !pl.tile<1x16xi16>
  %x = pl.sub %w, %w : !pl.tile<1x16xi16>
  return
}

// -----

// A tile-scalar form names its own instruction and takes its tile-tile
// instruction's types (npu/a2a3/TAddS.hpp:52-56); TEXPANDS fills every tile
// type but i64 on Ascend910B (TExpandS.hpp:144-150). i16 and i8 are the
// near misses.
func.func @scalar_forms_on_910b(%y: !pl.tile<1x32xi8>, %z: !pl.tile<1x16xi16>, %b: i8, %h: i16, %l: i64) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pl.adds' on i8 tiles cannot run on Ascend910B: its vector unit's TADDS takes i16, i32, f16, f32}}
  %v = pl.adds %y, %b : !pl.tile<1x32xi8>
  %w = pl.muls %z, %h : !pl.tile<1x16xi16>
  // expected-error @+1 {{'pl.full' on i64 tiles cannot run on Ascend910B: its vector unit's TEXPANDS takes i8, i16, i32, f16, bf16, f32}}
  %f = pl.full %l : !pl.tile<1x8xi64>
  %g = pl.full %b : !pl.tile<1x32xi8>
  return
}

// -----

// TCVT converts the pairs of npu/a2a3/TCvt.hpp:753-895: f16 to bf16 is not
// one of them; f32 to f16 and f16 to i8 are the near misses.
func.func @casts_on_910b(%x: !pl.tile<1x64xf32>, %h: !pl.tile<1x64xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pl.cast %x round rint : !pl.tile<1x64xf32> to !pl.tile<1x64xf16>
  %b = pl.cast %h round trunc : !pl.tile<1x64xf16> to !pl.tile<1x64xi8>
  // expected-error-re @+1 {{'pl.cast' from f16 to bf16 cannot run on Ascend910B: its vector unit's TCVT converts f32 -> f16, {{.*}}, i64 -> i32}}
  %c = pl.cast %h round rint : !pl.tile<1x64xf16> to !pl.tile<1x64xbf16>
  return
}

// -----

// Ascend950's TCVT (npu/a5/TCvt.hpp:2284-2720) widens i8 and i16 to i32 and
// narrows bf16 to f16, which a2a3's cannot; like a2a3's it has no f16 to
// bf16 and no i16 to i8.
// expected-note @+1 {{the module targets Ascend950 here}}
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @casts_on_950(%x: !pl.tile<1x64xf32>, %b: !pl.tile<1x64xbf16>, %c: !pl.tile<1x64xi8>, %s: !pl.tile<1x64xi16>, %h: !pl.tile<1x64xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
    %a = pl.cast %x round rint : !pl.tile<1x64xf32> to !pl.tile<1x64xf16>
    %d = pl.cast %b round rint : !pl.tile<1x64xbf16> to !pl.tile<1x64xf16>
    %e = pl.cast %c round none : !pl.tile<1x64xi8> to !pl.tile<1x64xi32>
    %f = pl.cast %s round none : !pl.tile<1x64xi16> to !pl.tile<1x64xi32>
    // expected-error-re @+1 {{'pl.cast' from f16 to bf16 cannot run on Ascend950: its vector unit's TCVT converts i8 -> f16, i8 -> i16, {{.*}}, i64 -> i32}}
    %g = pl.cast %h round rint : !pl.tile<1x64xf16> to !pl.tile<1x64xbf16>
    // expected-error @+1 {{'pl.cast' from i16 to i8 cannot run on Ascend950}}
    %i = pl.cast %s round none : !pl.tile<1x64xi16> to !pl.tile<1x64xi8>
    return
  }
}

// -----

// What only Ascend950 converts is refused on a2a3.
func.func @widen_on_910b(%c: !pl.tile<1x64xi8>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pl.cast' from i8 to i32 cannot run on Ascend910B}}
  %e = pl.cast %c round none : !pl.tile<1x64xi8> to !pl.tile<1x64xi32>
  return
}

// -----

// Ascend950 adds i8, i64 and bf16, but its TMUL has no i8; the module that
// names the profile is pointed at.
// expected-note @+1 {{the module targets Ascend950 here}}
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @i8_on_950(%y: !pld.dtensor<1x32xi8>, %b: !pld.dtensor<1x16xbf16>) attributes {pl.kernel = #pl.kernel<incore>} {
    %u = pl.load %y[0, 0] : !pld.dtensor<1x32xi8> -> !pl.tile<1x32xi8>
    %v = pl.max %u, %u : !pl.tile<1x32xi8>
    %c = pl.load %b[0, 0] : !pld.dtensor<1x16xbf16> -> !pl.tile<1x16xbf16>
    %d = pl.mul %c, %c : !pl.tile<1x16xbf16>
    // expected-error @+1 {{'pl.mul' on i8 tiles cannot run on Ascend950: its vector unit's TMUL takes i16, i32, i64, f16, bf16, f32}}
    %w = pl.mul %u, %u : !pl.tile<1x32xi8>
    return
  }
}

// -----

// A reduction combines with the op's instruction: bf16 reduce_scatter on
// Ascend910B has none.
func.func @bf16_reduce_scatter(%d: !pld.dtensor<2x64xbf16>, %s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.reduce_scatter' on bf16 cannot run on Ascend910B: it combines tiles with TMAX, which its vector unit has for i16, i32, f16, f32}}
  %r = pld.tensor.reduce_scatter %d, %s, op max : !pld.dtensor<2x64xbf16>, !pld.dtensor<2x1xi32>
  return
}

// -----

// The cube's TMATMUL multiplies i8 into i32 and f16, bf16 or f32 into f32.
func.func @matmul_element_types(%a: memref<16x32xi8>, %b: memref<32x16xi8>, %c: memref<16x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x32xi8> -> !pl.tile<16x32xi8>
  %tb = pl.load %b[0, 0] : memref<32x16xi8> -> !pl.tile<32x16xi8>
  // expected-error @+1 {{'pl.matmul' of i8 x i8 into f32 cannot run on the cube: TMATMUL's (accumulator, lhs, rhs) element types are (i32, i8, i8), (f32, f16, f16), (f32, f32, f32), (f32, bf16, bf16)}}
  %p = pl.matmul %ta, %tb : !pl.tile<16x32xi8>, !pl.tile<32x16xi8> -> !pl.tile<16x16xf32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  return
}

// Near miss: i8 x i8 into i32, and bf16 into f32.
func.func @matmul_element_types_ok(%a: memref<16x32xi8>, %b: memref<32x16xi8>, %c: memref<16x16xi32>, %x: memref<16x16xbf16>, %y: memref<16x16xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<16x32xi8> -> !pl.tile<16x32xi8>
  %tb = pl.load %b[0, 0] : memref<32x16xi8> -> !pl.tile<32x16xi8>
  %p = pl.matmul %ta, %tb : !pl.tile<16x32xi8>, !pl.tile<32x16xi8> -> !pl.tile<16x16xi32>
  pl.store %p, %c[0, 0] : !pl.tile<16x16xi32>, memref<16x16xi32>
  %tx = pl.load %x[0, 0] : memref<16x16xbf16> -> !pl.tile<16x16xbf16>
  %q = pl.matmul %tx, %tx : !pl.tile<16x16xbf16>, !pl.tile<16x16xbf16> -> !pl.tile<16x16xf32>
  pl.store %q, %y[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf32>
  return
}

// -----

// On Ascend910B (the default) TLOAD and TSTORE move at most 4095 rows; the
// leading dimensions of a tile count as rows. Every tile comes from a load,
// which is where it is reported.
func.func @rows(%m: memref<8192x8xf32>, %w: !pld.dtensor<2x4096x8xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pl.load' moves a tile of 4096 rows ('!pl.tile<4096x8xf32>'), but Ascend910B's TLOAD and TSTORE move at most 4095 rows: split it into tiles of fewer rows}}
  %t = pl.load %m[0, 0] : memref<8192x8xf32> -> !pl.tile<4096x8xf32>
  %t3 = pld.tile.remote_load %w[0, 0, 0], peer %p : !pld.dtensor<2x4096x8xf32> -> !pl.tile<1x4096x8xf32>
  // expected-error @-1 {{'pld.tile.remote_load' moves a tile of 4096 rows ('!pl.tile<1x4096x8xf32>')}}
  // The store of that tile is not reported again: every tile comes from a load.
  pld.tile.remote_store %t3, %w[1, 0, 0], peer %p : !pl.tile<1x4096x8xf32>, !pld.dtensor<2x4096x8xf32>
  // Near miss: 4095 rows.
  %u = pl.load %m[0, 0] : memref<8192x8xf32> -> !pl.tile<4095x8xf32>
  pl.store %u, %m[4096, 0] : !pl.tile<4095x8xf32>, memref<8192x8xf32>
  return
}

// -----

// Ascend950 has no such limit.
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @rows_a5(%m: memref<8192x8xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
    %t = pl.load %m[0, 0] : memref<8192x8xf32> -> !pl.tile<4096x8xf32>
    pl.store %t, %m[4096, 0] : !pl.tile<4096x8xf32>, memref<8192x8xf32>
    return
  }
}
