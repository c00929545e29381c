// One case per ascend verifier rule, each with its exact message.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{an ascend tile is 2-D, found shape [1, 2, 3]}}
func.func @tile_rank(%t: !ascend.tile<1x2x3xf32>)

// -----

// expected-error @+1 {{expected positive tile dimensions, found [0, 4]}}
func.func @tile_zero(%t: !ascend.tile<0x4xf32>)

// -----

// expected-error @+1 {{expected an integer or float element type, found 'index'}}
func.func @gm_index(%p: !ascend.gm<index>)

// -----

func.func @notify_f32_cell(%p: !ascend.gm<f32>, %v: i32) {
  // expected-error @+1 {{operand #0 must be __gm__ int32_t pointer (a signal cell), but got '!ascend.gm<f32>'}}
  ascend.tnotify %p, %v, op set, signal %p[] : !ascend.gm<f32>
  return
}

// -----

func.func @wait_i64_expected(%p: !ascend.gm<i32>, %v: i64) {
  // expected-error @+1 {{operand #1 must be 32-bit signless integer}}
  "ascend.twait"(%p, %v, %p) <{cmp = #ascend<wait_cmp ge>}> : (!ascend.gm<i32>, i64, !ascend.gm<i32>) -> ()
  return
}

// -----

func.func @wait_gt(%p: !ascend.gm<i32>, %v: i32) {
  // PTO has GT, but pld waits only with eq and ge.
  // expected-error @+2 {{expected ::pld::ascend::WaitCmp to be one of: eq, ge}}
  // expected-error @+1 {{failed to parse Ascend_WaitCmpAttr parameter 'value' which is to be a `::pld::ascend::WaitCmp`}}
  ascend.twait %p, %v, cmp gt, signal %p[] : !ascend.gm<i32>
  return
}

// -----

func.func @tile_offset_unaligned() {
  // expected-error @+1 {{'ascend.tile' op expected ub_offset to be a non-negative multiple of 32, found 8}}
  %t = ascend.tile {ub_offset = 8 : i64} : !ascend.tile<1x64xf32>
  return
}

// -----

func.func @tile_past_the_buffer() {
  // The last bytes of the buffer are fine.
  %ok = ascend.tile {ub_offset = 196352 : i64} : !ascend.tile<1x64xf32>
  // expected-error @+1 {{'ascend.tile' op the tile covers bytes [196384, 196640) of the unified buffer, which has 196608}}
  %t = ascend.tile {ub_offset = 196384 : i64} : !ascend.tile<1x64xf32>
  return
}

// -----

func.func @load_element_mismatch(%p: !ascend.gm<f16>, %n: index) {
  %t = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x64xf32>
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<f16> -> !ascend.view<f16>
  // expected-error @+1 {{'ascend.tload' op expected 'dst' and 'src' to have the same element type, found 'f32' and 'f16'}}
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f16>
  return
}

// -----

func.func @view_element_mismatch(%p: !ascend.gm<f16>, %n: index) {
  // expected-error @+1 {{'ascend.view' op expected a view of the pointer's element type 'f16', found 'f32'}}
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<f16> -> !ascend.view<f32>
  return
}

// -----

func.func @atomic_i64(%p: !ascend.gm<i64>, %n: index) {
  %t = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x4xi64>
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<i64> -> !ascend.view<i64>
  // expected-error @+1 {{'ascend.tstore' op atomic add is not supported for element type 'i64' (supported: f32, bf16, f16, i32, i16, i8)}}
  ascend.tstore %v, %t atomic add : !ascend.view<i64>, !ascend.tile<1x4xi64>
  return
}

// -----

// bf16 atomic add exists only on Ascend910B.
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @bf16_atomic_on_950(%p: !ascend.gm<bf16>, %n: index) {
    %t = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x16xbf16>
    %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<bf16> -> !ascend.view<bf16>
    // expected-error @+1 {{'ascend.tstore' op bf16 atomic add needs the Ascend910B profile, but the module targets Ascend950}}
    ascend.tstore %v, %t atomic add : !ascend.view<bf16>, !ascend.tile<1x16xbf16>
    return
  }
}

// -----

// The default profile (Ascend910B) has it.
func.func @bf16_atomic_default(%p: !ascend.gm<bf16>, %n: index) {
  %t = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x16xbf16>
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<bf16> -> !ascend.view<bf16>
  ascend.tstore %v, %t atomic add : !ascend.view<bf16>, !ascend.tile<1x16xbf16>
  ascend.tput %v, %v, %t atomic add : !ascend.view<bf16>, !ascend.tile<1x16xbf16>
  return
}

// -----

func.func @pong_mismatch(%p: !ascend.gm<f32>, %n: index) {
  %a = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x16xf32>
  %b = ascend.tile {ub_offset = 64 : i64} : !ascend.tile<2x16xf32>
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<f32> -> !ascend.view<f32>
  // expected-error @+1 {{'ascend.tget' op expected the ping and pong tiles to have one type, found '!ascend.tile<1x16xf32>' and '!ascend.tile<2x16xf32>'}}
  ascend.tget %v, %v, %a, %b : !ascend.view<f32>, !ascend.tile<1x16xf32>, !ascend.tile<2x16xf32>
  return
}

// -----

// TLOAD and TSTORE move no f64 (PTO's tload_common.hpp type list).
// expected-error @+1 {{expected an element type that TLOAD and TSTORE move (i8, i16, i32, i64, f16, bf16, f32), found 'f64'}}
func.func private @f64_tile() -> !ascend.tile<1x4xf64>

// -----

// A row-major Vec tile's row is a whole number of 32-byte blocks.
// expected-error @+1 {{expected a tile row of a multiple of 32 bytes, found 5 x 'i32' = 20 bytes (pad the columns to 8 and make the logical width the valid shape)}}
func.func private @unaligned_row() -> !ascend.tile<1x5xi32>

// -----

// The near miss: 8 x i32 is one block.
func.func private @aligned_row() -> !ascend.tile<3x8xi32>

// -----

// Ascend910B's vector unit has no i64 (or bf16, or i8) tile math.
func.func @i64_math_on_910b() {
  %t = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x4xi64>
  // expected-error @+1 {{'ascend.tadd' op TADD has no 'i64' tiles on Ascend910B (it has i16, i32, f16, f32)}}
  ascend.tadd %t, %t, %t : !ascend.tile<1x4xi64>
  return
}

// -----

module attributes {pld.target = #pld.target<Ascend910B>} {
  func.func @bf16_max_on_910b() {
    %t = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x16xbf16>
    // expected-error @+1 {{'ascend.tmax' op TMAX has no 'bf16' tiles on Ascend910B (it has i16, i32, f16, f32)}}
    ascend.tmax %t, %t, %t : !ascend.tile<1x16xbf16>
    return
  }
}

// -----

// Ascend950 has both; its TMUL has no 8-bit integers, its TADD does.
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @math_on_950() {
    %l = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x4xi64>
    %b = ascend.tile {ub_offset = 32 : i64} : !ascend.tile<1x16xbf16>
    %i = ascend.tile {ub_offset = 64 : i64} : !ascend.tile<1x32xi8>
    ascend.tadd %l, %l, %l : !ascend.tile<1x4xi64>
    ascend.tmul %b, %b, %b : !ascend.tile<1x16xbf16>
    ascend.tadd %i, %i, %i : !ascend.tile<1x32xi8>
    // expected-error @+1 {{'ascend.tmul' op TMUL has no 'i8' tiles on Ascend950 (it has i16, i32, i64, f16, bf16, f32)}}
    ascend.tmul %i, %i, %i : !ascend.tile<1x32xi8>
    return
  }
}

// -----

func.func @view_tensor_without_count(%p: !ascend.gm<f32>, %n: index) {
  // expected-error @+1 {{'ascend.view' op expected both the tensor and its element count, or neither}}
  %v = "ascend.view"(%p, %n, %n, %n, %p) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>} : (!ascend.gm<f32>, index, index, index, !ascend.gm<f32>) -> !ascend.view<f32>
  return
}

// -----

func.func @view_tensor_type(%p: !ascend.gm<f32>, %q: !ascend.gm<i32>, %n: index) {
  // expected-error @+1 {{'ascend.view' op failed to verify that the tensor has the access's pointer type}}
  %v = "ascend.view"(%p, %n, %n, %n, %q, %n) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>} : (!ascend.gm<f32>, index, index, index, !ascend.gm<i32>, index) -> !ascend.view<f32>
  return
}

// -----

// Only the task runtime passes a dispatch payload: a launch cannot.
// expected-note @+1 {{the function is declared here}}
func.func @deferring(%ctx: !ascend.ctx, %payload: !ascend.dispatch_payload) {
  return
}
func.func @launch_deferring(%ctx: !ascend.ctx) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'ascend.launch' op expected 'deferring' to take (!ascend.ctx, ) and return nothing}}
  ascend.launch @deferring() ctx %ctx blocks %c1 : () -> ()
  return
}

// -----

func.func @read_type(%p: !ascend.gm<f32>) {
  // expected-error @+1 {{'ascend.read' op expected a value of the pointer's element type 'f32', found 'i32'}}
  %x = ascend.read %p : !ascend.gm<f32> -> i32
  return
}

// -----

func.func @kernel(%ctx: !ascend.ctx, %p: !ascend.gm<f32>) {
  return
}

// expected-note @+1 {{the function is declared here}}
func.func @no_ctx(%p: !ascend.gm<f32>) {
  return
}

func.func @host(%ctx: !ascend.ctx, %p: !ascend.gm<f32>, %n: index) {
  // expected-error @+1 {{'ascend.launch' op expected 'no_ctx' to take (!ascend.ctx, '!ascend.gm<f32>') and return nothing}}
  ascend.launch @no_ctx(%p) ctx %ctx blocks %n : (!ascend.gm<f32>) -> ()
  return
}

// -----

func.func @host(%ctx: !ascend.ctx, %n: index) {
  // expected-error @+1 {{'ascend.submit' op expected 'missing' to name a function}}
  %t = ascend.submit @missing() ctx %ctx blocks %n name "t" : () -> !ascend.task
  return
}
