// pld-verify: a region or a signal cell whose offsets are computed (a named
// constant, arithmetic on known values) and leave the tensor. The op
// verifiers reject the literal forms; these they cannot see.
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

func.func @named_half(%d: !pld.dtensor<1x64xf32>, %m: memref<1x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 32 : index
  %t = pl.load %m[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+1 {{the region [0, 1) x [32, 96) lies outside the tensor it accesses of shape [1, 64]}}
  pld.tile.remote_store %t, %d[%c0, %half], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// -----

// Near miss: a half-width tile at the named half fits.
func.func @named_half_fits(%d: !pld.dtensor<1x64xf32>, %m: memref<1x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 32 : index
  %t = pl.load %m[0, 0] : memref<1x64xf32> -> !pl.tile<1x32xf32>
  pld.tile.remote_store %t, %d[%c0, %half], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<1x64xf32>
  return
}

// -----

func.func @cell_past_the_end(%s: !pld.dtensor<8x1xi32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %row = arith.addi %c4, %c4 : index
  %one = arith.constant 1 : i32
  // expected-error @+1 {{cell [8, 0] lies outside its signal of shape [8, 1]}}
  pld.system.notify %s[%row, %c0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  return
}

// -----

// Near miss: the last row.
func.func @last_cell(%s: !pld.dtensor<8x1xi32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %row = arith.addi %c4, %c3 : index
  %one = arith.constant 1 : i32
  pld.system.notify %s[%row, %c0], peer %p, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  return
}

// -----

// A get's region, computed.
func.func @get_rows(%d: !pld.dtensor<8x64xf32>, %m: memref<8x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{the region [7, 9) x [0, 64) lies outside the tensor it accesses of shape [8, 64]}}
  pld.tensor.get %m, peer %p, %d dst_offsets [%c0, %c0] src_offsets [%c7, %c0] shape [%c2, 64] chunk_rows 1 : memref<8x64xf32>, !pld.dtensor<8x64xf32>
  return
}
