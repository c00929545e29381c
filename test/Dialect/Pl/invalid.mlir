// One case per rule of the pl core dialect, each with its exact message.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{a tile has at least one dimension}}
func.func @tile_rank0(%t: !pl.tile<f32>)

// -----

// expected-error @+1 {{tile dimensions are static and positive, found 0}}
func.func @tile_zero(%t: !pl.tile<0x4xf32>)

// -----

// expected-error @+1 {{expected an integer or float tile element type, found 'index'}}
func.func @tile_index(%t: !pl.tile<4xindex>)

// -----

// A tile's shape is static: `?` does not even parse.
// expected-error @+1 {{expected static shape}}
func.func @tile_dynamic(%t: !pl.tile<?x4xf32>)

// -----

func.func @load_offsets(%m: memref<4x64xf32>) {
  // expected-error @+1 {{expected one offset entry per dimension of the source (2), found 1}}
  %a = pl.load %m[0] : memref<4x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @load_tile_rank(%m: memref<4x64xf32>) {
  // expected-error @+1 {{expected the tile to have the rank of the source (2), found a tile of shape [64]}}
  %a = pl.load %m[0, 0] : memref<4x64xf32> -> !pl.tile<64xf32>
  return
}

// -----

func.func @load_element_type(%m: memref<4x64xf32>) {
  // expected-error @+1 {{expected the tile element type to equal the element type of the source ('f32'), found 'i32'}}
  %a = pl.load %m[0, 0] : memref<4x64xf32> -> !pl.tile<1x64xi32>
  return
}

// -----

func.func @load_out_of_bounds(%m: memref<4x64xf32>) {
  // expected-error @+1 {{the accessed region does not fit inside the source: dimension 0 covers [4, 5) but the source has size 4 (shape [4, 64])}}
  %a = pl.load %m[4, 0] : memref<4x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @load_valid_too_large(%m: memref<4x64xf32>) {
  // expected-error @+1 {{expected valid_shape entry 1 in [0, 64] (the tile's extent), found 65}}
  %a = pl.load %m[0, 0] valid [1, 65] : memref<4x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @load_from_tile(%t: !pl.tile<1x64xf32>) {
  // expected-error @+1 {{'pl.load' op operand #0 must be memref of any type values or global-memory view, but got '!pl.tile<1x64xf32>'}}
  %a = "pl.load"(%t) <{static_offsets = array<i64: 0, 0>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (!pl.tile<1x64xf32>) -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @store_does_not_fit(%t: !pl.tile<1x64xf32>, %m: memref<4x32xf32>) {
  // expected-error @+1 {{the accessed region does not fit inside the destination: dimension 1 covers [0, 64) but the destination has size 32 (shape [4, 32])}}
  pl.store %t, %m[0, 0] : !pl.tile<1x64xf32>, memref<4x32xf32>
  return
}

// -----

func.func @read_offsets(%m: memref<4x64xf32>) {
  // expected-error @+1 {{expected one offset entry per dimension of the source (2), found 3}}
  %x = pl.read %m[0, 0, 0] : memref<4x64xf32>
  return
}

// -----

func.func @write_out_of_bounds(%v: f32, %m: memref<4x64xf32>) {
  // expected-error @+1 {{the accessed element does not fit inside the destination: dimension 1 covers [64, 65) but the destination has size 64 (shape [4, 64])}}
  pl.write %v, %m[0, 64] : memref<4x64xf32>
  return
}

// -----

func.func @write_value_type(%v: i32, %m: memref<4x64xf32>) {
  // expected-error @+1 {{'pl.write' op failed to verify that value type is the destination's element type}}
  "pl.write"(%v, %m) <{static_offsets = array<i64: 0, 0>}> : (i32, memref<4x64xf32>) -> ()
  return
}

// -----

// Only a pl.matmul's f32 product may be stored into f16 or bf16: a loaded
// f32 tile may not, ...
func.func @store_cast_not_a_product(%t: !pl.tile<1x64xf32>, %m: memref<4x64xf16>) {
  // expected-error @+1 {{'pl.store' op expected the tile element type to equal the element type of the destination ('f16'), found 'f32'}}
  pl.store %t, %m[0, 0] : !pl.tile<1x64xf32>, memref<4x64xf16>
  return
}

// -----

// ... nor an i32 product ...
func.func @store_cast_i32_product(%a: !pl.tile<32x32xi8>, %m: memref<32x32xf16>) {
  %c = pl.matmul %a, %a : !pl.tile<32x32xi8>, !pl.tile<32x32xi8> -> !pl.tile<32x32xi32>
  // expected-error @+1 {{'pl.store' op expected the tile element type to equal the element type of the destination ('f16'), found 'i32'}}
  pl.store %c, %m[0, 0] : !pl.tile<32x32xi32>, memref<32x32xf16>
  return
}

// -----

// ... nor an f32 product into another type.
func.func @store_cast_to_i8(%a: !pl.tile<16x16xf16>, %m: memref<16x16xi8>) {
  %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  // expected-error @+1 {{'pl.store' op expected the tile element type to equal the element type of the destination ('i8'), found 'f32'}}
  pl.store %c, %m[0, 0] : !pl.tile<16x16xf32>, memref<16x16xi8>
  return
}

// -----

func.func @add_types(%a: !pl.tile<1x64xf32>, %b: !pl.tile<1x32xf32>) {
  // expected-error @+1 {{'pl.add' op requires the same type for all operands and results}}
  %c = "pl.add"(%a, %b) : (!pl.tile<1x64xf32>, !pl.tile<1x32xf32>) -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @matmul_k(%a: !pl.tile<16x32xf16>, %b: !pl.tile<16x16xf16>) {
  // expected-error @+1 {{expected the contraction dimensions to agree, found K = 32 on the left and 16 on the right}}
  %c = pl.matmul %a, %b : !pl.tile<16x32xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @matmul_result(%a: !pl.tile<16x32xf16>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{expected a result tile of shape [16, 8], found [16, 16]}}
  %c = pl.matmul %a, %b : !pl.tile<16x32xf16>, !pl.tile<32x8xf16> -> !pl.tile<16x16xf32>
  return
}

// -----

func.func @matmul_rank(%a: !pl.tile<32xf16>, %b: !pl.tile<32x8xf16>) {
  // expected-error @+1 {{expected 2-D tiles [M, K] x [K, N] -> [M, N], found [32] x [32, 8] -> [1, 8]}}
  %c = pl.matmul %a, %b : !pl.tile<32xf16>, !pl.tile<32x8xf16> -> !pl.tile<1x8xf32>
  return
}

// -----

// expected-error @+1 {{expected 'pl.kernel' to be a #pl.kernel<host|incore>, found "incore"}}
func.func @kernel_attr_string() attributes {pl.kernel = "incore"} {
  return
}

// -----

func.func @kernel_attr_on_op() {
  // expected-error @+1 {{'pl.kernel' is only meaningful on a function, found it on 'arith.constant'}}
  %c = arith.constant {pl.kernel = #pl.kernel<incore>} 0 : index
  return
}

// -----

// expected-error @+1 {{unknown pl attribute 'pl.kernal'}}
func.func @kernel_attr_typo() attributes {pl.kernal = #pl.kernel<incore>} {
  return
}

// -----

// expected-error @+2 {{expected ::pld::pl::Level to be one of: core, core_group}}
// expected-error @+1 {{failed to parse Pl_LevelAttr parameter 'value'}}
%t = pl.at level chip name "x" {
}

// -----

func.func @store_valid_too_large(%m: memref<2x64xf32>, %t: !pl.tile<1x32xf32>) {
  // expected-error @+1 {{'pl.store' op expected valid_shape entry 1 in [0, 32] (the tile's extent), found 40}}
  pl.store %t, %m[0, 0] valid [1, 40] : !pl.tile<1x32xf32>, memref<2x64xf32>
  return
}

// -----

// Only the valid part is written, so a ragged tail may hang over the end.
func.func @store_valid_overhang(%m: memref<2x64xf32>, %t: !pl.tile<1x32xf32>) {
  pl.store %t, %m[1, 40] valid [1, 24] : !pl.tile<1x32xf32>, memref<2x64xf32>
  // expected-error @+1 {{'pl.store' op the accessed region does not fit inside the destination: dimension 1 covers [40, 72) but the destination has size 64 (shape [2, 64])}}
  pl.store %t, %m[1, 40] : !pl.tile<1x32xf32>, memref<2x64xf32>
  return
}

// -----

// A tile-scalar op's scalar has the tile's element type (f32 here).
func.func @scalar_of_another_type(%t: !pl.tile<1x64xf32>, %s: i32) {
  // expected-error @+1 {{'pl.adds' op failed to verify that scalar is the tile's element type}}
  %r = "pl.adds"(%t, %s) : (!pl.tile<1x64xf32>, i32) -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @fill_of_another_type(%s: f16) {
  // expected-error @+1 {{'pl.full' op failed to verify that value is the tile's element type}}
  %r = "pl.full"(%s) : (f16) -> !pl.tile<1x64xf32>
  return
}

// -----

// Near miss: the element type.
func.func @scalar_of_the_element_type(%m: memref<2x64xf32>, %s: f32) {
  %t = pl.load %m[0, 0] : memref<2x64xf32> -> !pl.tile<1x64xf32>
  %r = "pl.adds"(%t, %s) : (!pl.tile<1x64xf32>, f32) -> !pl.tile<1x64xf32>
  pl.store %r, %m[0, 0] : !pl.tile<1x64xf32>, memref<2x64xf32>
  %f = "pl.full"(%s) : (f32) -> !pl.tile<1x64xf32>
  pl.store %f, %m[1, 0] : !pl.tile<1x64xf32>, memref<2x64xf32>
  return
}

// -----

func.func @cast_of_another_shape(%t: !pl.tile<1x64xf32>) {
  // expected-error @+1 {{'pl.cast' op expected a result tile of the source's shape [1, 64], found [2, 32]}}
  %r = pl.cast %t round rint : !pl.tile<1x64xf32> to !pl.tile<2x32xf16>
  return
}
