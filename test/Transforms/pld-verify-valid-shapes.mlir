// pld-verify: valid shapes, where the sizes are known. A tile's valid shape
// is the region its load read; the rest is undefined. Tile math combines
// tiles of one valid shape and a store writes exactly its tile's valid
// shape (the target asserts both; the simulator traps on what only the run
// can tell).
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

func.func @store_past_valid(%data: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the valid shape is what this pl.load read}}
  %t = pl.load %data[0, 0] valid [1, 50] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+1 {{'pl.store' writes a 1 x 64 region of a tile whose valid shape is 1 x 50: outside its valid shape a tile is undefined, and the target's TSTORE writes exactly the valid shape (store with a `valid` list equal to it)}}
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// Near miss: the store names the valid shape; a computed size is the same
// (50 = 25 * 2).
func.func @store_valid(%data: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c25 = arith.constant 25 : index
  %c2 = arith.constant 2 : index
  %w = arith.muli %c25, %c2 : index
  %t = pl.load %data[0, 0] valid [1, 50] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] valid [1, %w] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// Near miss: sizes only the run knows (the simulator traps if they differ).
func.func @store_dynamic(%data: memref<1x64xf32>, %out: memref<1x64xf32>, %n: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %data[0, 0] valid [1, %n] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// A smaller region than the valid shape: PTO asserts the two are equal.
// The valid shape passes through tile math (the left operand's).
func.func @store_part_of_valid(%data: !pld.dtensor<2x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the valid shape is what this pl.load read}}
  %t = pl.load %data[0, 0] valid [1, 50] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  %u = pl.load %data[0, 0] valid [1, 50] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  %sum = pl.max %t, %u : !pl.tile<1x64xf32>
  // expected-error @+1 {{'pld.tile.remote_store' writes a 1 x 32 region of a tile whose valid shape is 1 x 50}}
  pld.tile.remote_store %sum, %data[1, 0], peer %p valid [1, 32] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// Tile math on two valid shapes; its result keeps the left operand's.
func.func @math(%data: memref<1x64xf32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the left operand's pl.load}}
  %whole = pl.load %data[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the right operand's pl.load}}
  %ragged = pl.load %data[0, 0] valid [1, 50] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+1 {{'pl.add' combines a tile whose valid shape is 1 x 64 with one whose valid shape is 1 x 50: the target's tile math computes over one valid shape, which both operands must have}}
  %sum = pl.add %whole, %ragged : !pl.tile<1x64xf32>
  // Near miss: both ragged alike, the sum stored with its valid shape.
  %again = pl.load %out[0, 0] valid [1, 50] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  %both = pl.mul %ragged, %again : !pl.tile<1x64xf32>
  pl.store %both, %out[0, 0] valid [1, 50] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
