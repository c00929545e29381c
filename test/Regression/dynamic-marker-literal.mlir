// A static index written as -9223372036854775808 (MLIR's dynamic marker)
// parses as an integer. Every op with a static/dynamic index list rejects it
// instead of printing an operand that does not exist (it used to crash the
// printer or print another operand in its place). Found by fuzzing.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @notify(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {
  // expected-error @+1 {{'pld.system.notify' op expected offsets to hold one dynamic entry per index operand (0), found 1; the integer -9223372036854775808 is reserved as the dynamic marker and is not a valid static entry}}
  pld.system.notify %s[0, -9223372036854775808], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @wait(%s: !pld.dtensor<2x1xi32>, %v: i32) {
  // expected-error @+1 {{'pld.system.wait' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  pld.system.wait %s[-9223372036854775808, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @defer_wait(%s: !pld.dtensor<2x1xi32>, %v: i32) {
  // expected-error @+1 {{'pld.system.defer_wait' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  pld.system.defer_wait %s[-9223372036854775808, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @remote_load(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{'pld.tile.remote_load' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  %t = pld.tile.remote_load %d[0, -9223372036854775808], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @remote_load_valid(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{'pld.tile.remote_load' op expected valid_shape to hold one dynamic entry per index operand (0), found 1}}
  %t = pld.tile.remote_load %d[0, 0], peer %p valid [1, -9223372036854775808] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @tile_remote_store(%d: !pld.dtensor<2x64xf32>, %t: !pl.tile<1x64xf32>, %p: index) {
  // expected-error @+1 {{'pld.tile.remote_store' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  pld.tile.remote_store %t, %d[-9223372036854775808, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @tensor_remote_store(%d: !pld.dtensor<2x64xf32>, %m: memref<1x64xf32>, %p: index) {
  // expected-error @+1 {{'pld.tensor.remote_store' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  pld.tensor.remote_store %m, %d[-9223372036854775808, 0], peer %p : memref<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @put_region(%d: !pld.dtensor<2x64xf32>, %m: memref<2x64xf32>, %p: index) {
  // expected-error @+1 {{'pld.tensor.put' op expected shape to hold one dynamic entry per index operand (0), found 1}}
  pld.tensor.put %d, peer %p, %m dst_offsets [0, 0] src_offsets [0, 0] shape [1, -9223372036854775808] : !pld.dtensor<2x64xf32>, memref<2x64xf32>
  return
}

// -----

func.func @alloc_sizes() {
  // expected-error @+1 {{'pld.tensor.alloc_window_buffer' op expected sizes to hold one dynamic entry per index operand (0), found 1}}
  %b = pld.tensor.alloc_window_buffer "buf" shape [4, -9223372036854775808] dtype f32
  return
}

// -----

func.func @load(%m: memref<2x64xf32>) {
  // expected-error @+1 {{'pl.load' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  %t = pl.load %m[0, -9223372036854775808] : memref<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @load_valid(%m: memref<2x64xf32>) {
  // expected-error @+1 {{'pl.load' op expected valid_shape to hold one dynamic entry per index operand (0), found 2}}
  %t = pl.load %m[0, 0] valid [-9223372036854775808, -9223372036854775808] : memref<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @store(%m: memref<2x64xf32>, %t: !pl.tile<1x64xf32>) {
  // expected-error @+1 {{'pl.store' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  pl.store %t, %m[-9223372036854775808, 0] : !pl.tile<1x64xf32>, memref<2x64xf32>
  return
}

// -----

func.func @read(%m: memref<2x64xf32>) {
  // expected-error @+1 {{'pl.read' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  %x = pl.read %m[0, -9223372036854775808] : memref<2x64xf32>
  return
}

// -----

func.func @write(%m: memref<2x64xf32>, %x: f32) {
  // expected-error @+1 {{'pl.write' op expected offsets to hold one dynamic entry per index operand (0), found 1}}
  pl.write %x, %m[0, -9223372036854775808] : memref<2x64xf32>
  return
}

// -----

// The generic form can also pair a marker with too few operands.
func.func @generic_too_few(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {
  // expected-error @+1 {{'pld.system.notify' op expected offsets to hold one dynamic entry per index operand (0), found 2}}
  "pld.system.notify"(%s, %p, %v) <{op = #pld<notify_op set>, static_offsets = array<i64: -9223372036854775808, -9223372036854775808>}> : (!pld.dtensor<2x1xi32>, index, i32) -> ()
  return
}
