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
  // expected-error @+1 {{'ascend.tile' op expected offset to be a non-negative multiple of 32, found 8}}
  %t = ascend.tile {offset = 8 : i64} : !ascend.tile<1x64xf32>
  return
}

// -----

func.func @tile_past_the_buffer() {
  // The last bytes of the buffer are fine.
  %ok = ascend.tile {offset = 196352 : i64} : !ascend.tile<1x64xf32>
  // expected-error @+1 {{'ascend.tile' op the tile covers bytes [196384, 196640) of the unified buffer, which has 196608}}
  %t = ascend.tile {offset = 196384 : i64} : !ascend.tile<1x64xf32>
  return
}

// -----

func.func @load_element_mismatch(%p: !ascend.gm<f16>, %n: index) {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
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
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x4xi64>
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<i64> -> !ascend.view<i64>
  // expected-error @+1 {{'ascend.tstore' op atomic add is not supported for element type 'i64' (supported: f32, bf16, f16, i32, i16, i8)}}
  ascend.tstore %v, %t atomic add : !ascend.view<i64>, !ascend.tile<1x4xi64>
  return
}

// -----

// bf16 atomic add exists only on Ascend910B.
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @bf16_atomic_on_950(%p: !ascend.gm<bf16>, %n: index) {
    %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x16xbf16>
    %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<bf16> -> !ascend.view<bf16>
    // expected-error @+1 {{'ascend.tstore' op bf16 atomic add needs the Ascend910B profile, but the module targets Ascend950}}
    ascend.tstore %v, %t atomic add : !ascend.view<bf16>, !ascend.tile<1x16xbf16>
    return
  }
}

// -----

// The default profile (Ascend910B) has it.
func.func @bf16_atomic_default(%p: !ascend.gm<bf16>, %n: index) {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x16xbf16>
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<bf16> -> !ascend.view<bf16>
  ascend.tstore %v, %t atomic add : !ascend.view<bf16>, !ascend.tile<1x16xbf16>
  ascend.tput %v, %v, %t atomic add : !ascend.view<bf16>, !ascend.tile<1x16xbf16>
  return
}

// -----

func.func @pong_mismatch(%p: !ascend.gm<f32>, %n: index) {
  %a = ascend.tile {offset = 0 : i64} : !ascend.tile<1x16xf32>
  %b = ascend.tile {offset = 64 : i64} : !ascend.tile<2x16xf32>
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
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x4xi64>
  // expected-error @+1 {{'ascend.tadd' op TADD has no 'i64' tiles on Ascend910B (it has i16, i32, f16, f32)}}
  ascend.tadd %t, %t, %t : !ascend.tile<1x4xi64>
  return
}

// -----

module attributes {pld.target = #pld.target<Ascend910B>} {
  func.func @bf16_max_on_910b() {
    %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x16xbf16>
    // expected-error @+1 {{'ascend.tmax' op TMAX has no 'bf16' tiles on Ascend910B (it has i16, i32, f16, f32)}}
    ascend.tmax %t, %t, %t : !ascend.tile<1x16xbf16>
    return
  }
}

// -----

// Ascend950 has both; its TMUL has no 8-bit integers, its TADD does.
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @math_on_950() {
    %l = ascend.tile {offset = 0 : i64} : !ascend.tile<1x4xi64>
    %b = ascend.tile {offset = 32 : i64} : !ascend.tile<1x16xbf16>
    %i = ascend.tile {offset = 64 : i64} : !ascend.tile<1x32xi8>
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

// -----

// The cube's tiles: what TMATMUL multiplies and produces, in whole fractals.
// expected-error @+1 {{expected an i8, f16, bf16 or f32 element type for a 'left' tile (what TMATMUL multiplies), found 'i32'}}
func.func @left_of_i32(%t: !ascend.tile<16x8xi32, left>)

// -----

// expected-error @+1 {{expected an i32 or f32 element type for an 'acc' tile (what TMATMUL produces), found 'f16'}}
func.func @acc_of_f16(%t: !ascend.tile<16x16xf16, acc>)

// -----

// expected-error @+1 {{expected the rows and columns of a 'left' tile of 'f16' to be multiples of 16 and 16 (its fractal), found [8, 16]}}
func.func @left_rows(%t: !ascend.tile<8x16xf16, left>)

// -----

// A right tile's inner box is transposed: 32 bytes of rows, 16 columns.
// expected-error @+1 {{expected the rows and columns of a 'right' tile of 'i8' to be multiples of 32 and 16 (its fractal), found [16, 16]}}
func.func @right_rows(%t: !ascend.tile<16x16xi8, right>)

// -----

func.func @acc_past_l0c() {
  %ok = ascend.tile {offset = 0 : i64} : !ascend.tile<128x256xf32, acc>
  // expected-error @+1 {{'ascend.tile' op the tile covers bytes [32, 131104) of the L0C, which has 131072}}
  %t = ascend.tile {offset = 32 : i64} : !ascend.tile<128x256xf32, acc>
  return
}

// -----

func.func @tload_into_left(%v: !ascend.view<f16>) {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, left>
  // expected-error @+1 {{'ascend.tload' op expected 'dst' to be a 'vec' or 'mat' tile, found a 'left' tile}}
  ascend.tload %t, %v : !ascend.tile<16x16xf16, left>, !ascend.view<f16>
  return
}

// -----

func.func @tstore_of_acc(%v: !ascend.view<f32>) {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf32, acc>
  // expected-error @+1 {{'ascend.tstore' op expected 'tile' to be a 'vec' tile, found a 'acc' tile}}
  ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<16x16xf32, acc>
  return
}

// -----

func.func @textract_from_vec(%i: index) {
  %l = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, left>
  %v = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16>
  // expected-error @+1 {{'ascend.textract' op expected 'src' to be a 'mat' tile, found a 'vec' tile}}
  ascend.textract %l, %v, row %i, col %i : !ascend.tile<16x16xf16, left>, !ascend.tile<16x16xf16>
  return
}

// -----

func.func @textract_too_big(%i: index) {
  %l = ascend.tile {offset = 0 : i64} : !ascend.tile<32x16xf16, left>
  %m = ascend.tile {offset = 0 : i64} : !ascend.tile<16x64xf16, mat>
  // expected-error @+1 {{'ascend.textract' op expected 'dst' ([32, 16]) to fit inside 'src' ([16, 64])}}
  ascend.textract %l, %m, row %i, col %i : !ascend.tile<32x16xf16, left>, !ascend.tile<16x64xf16, mat>
  return
}

// -----

func.func @matmul_types() {
  %c = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xi32, acc>
  %a = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, left>
  %b = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, right>
  // expected-error @+1 {{'ascend.tmatmul' op TMATMUL has no ('i32', 'f16', 'f16') (acc, lhs, rhs) element types (it has (i32, i8, i8), (f32, f16, f16), (f32, f32, f32), (f32, bf16, bf16))}}
  ascend.tmatmul %c, %a, %b : !ascend.tile<16x16xi32, acc>, !ascend.tile<16x16xf16, left>, !ascend.tile<16x16xf16, right>
  return
}

// -----

func.func @matmul_shapes() {
  %c = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf32, acc>
  %a = ascend.tile {offset = 0 : i64} : !ascend.tile<16x32xf16, left>
  %b = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, right>
  // expected-error @+1 {{'ascend.tmatmul_acc' op expected an m x k 'lhs', a k x n 'rhs' and an m x n 'acc', found [16, 32], [16, 16] and [16, 16]}}
  ascend.tmatmul_acc %c, %a, %b : !ascend.tile<16x16xf32, acc>, !ascend.tile<16x32xf16, left>, !ascend.tile<16x16xf16, right>
  return
}

// -----

func.func @matmul_kinds() {
  %c = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf32>
  %a = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, left>
  %b = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf16, right>
  // expected-error @+1 {{'ascend.tmatmul' op expected 'acc' to be a 'acc' tile, found a 'vec' tile}}
  ascend.tmatmul %c, %a, %b : !ascend.tile<16x16xf32>, !ascend.tile<16x16xf16, left>, !ascend.tile<16x16xf16, right>
  return
}

// -----

func.func @fixpipe_conversion(%v: !ascend.view<i8>) {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf32, acc>
  // expected-error @+1 {{'ascend.tstore_acc' op the fixpipe does not store an 'f32' accumulator as 'i8' (f32 as f32, f16 or bf16; i32 as i32)}}
  ascend.tstore_acc %v, %t : !ascend.view<i8>, !ascend.tile<16x16xf32, acc>
  return
}

// -----

func.func @tadd_on_acc() {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<16x16xf32, acc>
  // expected-error @+1 {{'ascend.tadd' op expected 'dst' to be a 'vec' tile, found a 'acc' tile}}
  ascend.tadd %t, %t, %t : !ascend.tile<16x16xf32, acc>
  return
}

// -----

func.func @flag_to_itself() {
  // expected-error @+1 {{'ascend.cross_core_signal' op expected a flag between the cube and a vector core, found aic -> aic}}
  ascend.cross_core_signal aic -> aic
  return
}

// -----

module {
  // expected-note @+1 {{the function is declared here}}
  func.func @half(%ctx: !ascend.ctx) {
    return
  }
  func.func @mixed(%ctx: !ascend.ctx, %x: !ascend.gm<f32>) {
    // expected-error @+1 {{'ascend.run_mixed' op expected 'half' to take (!ascend.ctx, '!ascend.gm<f32>') and return nothing}}
    ascend.run_mixed @half, @half(%x) ctx %ctx : (!ascend.gm<f32>) -> ()
    return
  }
}

// -----

// Ascend910B's TLOAD and TSTORE move at most 4095 rows.
func.func @tload_rows(%v: !ascend.view<f32>) {
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<4096x8xf32>
  // expected-error @+1 {{'ascend.tload' op moves a tile of 4096 rows, but Ascend910B's TLOAD and TSTORE move at most 4095 rows}}
  ascend.tload %t, %v : !ascend.tile<4096x8xf32>, !ascend.view<f32>
  return
}

// -----

module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @tstore_rows_a5(%v: !ascend.view<f32>) {
    %t = ascend.tile {offset = 0 : i64} : !ascend.tile<4096x8xf32>
    ascend.tstore %v, %t : !ascend.view<f32>, !ascend.tile<4096x8xf32>
    return
  }
}

// -----

// An SDMA session's scratch buffer sits on a 32-byte boundary of the
// unified buffer, inside it.
func.func @sdma_session_misaligned(%ws: !ascend.sdma_workspace, %id: i32) {
  // expected-error @+1 {{'ascend.sdma_session' op expected offset to be a non-negative multiple of 32, found 48}}
  %s = ascend.sdma_session %ws, sync_id %id {offset = 48 : i64}
  return
}

// -----

func.func @sdma_session_outside(%ws: !ascend.sdma_workspace, %id: i32) {
  // expected-error @+1 {{'ascend.sdma_session' op the session's scratch buffer covers bytes [196480, 196736) of the unified buffer, which has 196608}}
  %s = ascend.sdma_session %ws, sync_id %id {offset = 196480 : i64}
  return
}

// -----

// The sync id is an i32.
func.func @sdma_session_sync_id(%ws: !ascend.sdma_workspace, %id: i64) {
  // expected-error @+1 {{'ascend.sdma_session' op operand #1 must be 32-bit signless integer, but got 'i64'}}
  %s = "ascend.sdma_session"(%ws, %id) : (!ascend.sdma_workspace, i64) -> !ascend.async_session
  return
}

// -----

// An SDMA transfer copies one element type.
func.func @sdma_transfer_types(%ws: !ascend.sdma_workspace, %id: i32, %a: !ascend.view<f32>, %b: !ascend.view<i32>) {
  %s = ascend.sdma_session %ws, sync_id %id
  // expected-error @+1 {{'ascend.tget_async' op failed to verify that all of {dst, src} have same type}}
  %e = "ascend.tget_async"(%a, %b, %s) : (!ascend.view<f32>, !ascend.view<i32>, !ascend.async_session) -> !ascend.async_event
  return
}

// -----

// A post goes through a session, and a wait takes its event.
func.func @sdma_wait_event(%ws: !ascend.sdma_workspace, %id: i32, %a: !ascend.view<f32>) {
  %s = ascend.sdma_session %ws, sync_id %id
  // expected-error @+1 {{'ascend.wait_async' op operand #0 must be the completion of one SDMA transfer (`pto::comm::AsyncEvent`), but got '!ascend.async_session'}}
  "ascend.wait_async"(%s, %s) : (!ascend.async_session, !ascend.async_session) -> ()
  return
}

// -----

// TCVT's pairs are the chip's: a2a3 (the default profile) has no i8 -> i32
// (npu/a2a3/TCvt.hpp:807-895).
func.func @tcvt_pair_on_910b() {
  %w = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xi32>
  %c = ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xi8>
  %h = ascend.tile {offset = 320 : i64} : !ascend.tile<1x64xf16>
  ascend.tcvt %h, %c round 0 : !ascend.tile<1x64xf16>, !ascend.tile<1x64xi8>
  // expected-error-re @+1 {{'ascend.tcvt' op TCVT has no 'i8' -> 'i32' conversion on Ascend910B (it has f32 -> f16, {{.*}}, i64 -> i32)}}
  ascend.tcvt %w, %c round 0 : !ascend.tile<1x64xi32>, !ascend.tile<1x64xi8>
  return
}

// -----

// a5 has it (npu/a5/TCvt.hpp:2326-2332), and still no f16 -> bf16.
module attributes {pld.target = #pld.target<Ascend950>} {
  func.func @tcvt_pair_on_950() {
    %w = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xi32>
    %c = ascend.tile {offset = 256 : i64} : !ascend.tile<1x64xi8>
    %h = ascend.tile {offset = 320 : i64} : !ascend.tile<1x64xf16>
    %b = ascend.tile {offset = 448 : i64} : !ascend.tile<1x64xbf16>
    ascend.tcvt %w, %c round 0 : !ascend.tile<1x64xi32>, !ascend.tile<1x64xi8>
    // expected-error @+1 {{'ascend.tcvt' op TCVT has no 'f16' -> 'bf16' conversion on Ascend950}}
    ascend.tcvt %b, %h round 1 : !ascend.tile<1x64xbf16>, !ascend.tile<1x64xf16>
    return
  }
}

// -----

func.func @tcvt_round_mode() {
  %h = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf16>
  %f = ascend.tile {offset = 128 : i64} : !ascend.tile<1x64xf32>
  // expected-error @+1 {{'ascend.tcvt' op expected a RoundMode in [0, 6], found 7}}
  ascend.tcvt %h, %f round 7 : !ascend.tile<1x64xf16>, !ascend.tile<1x64xf32>
  return
}
