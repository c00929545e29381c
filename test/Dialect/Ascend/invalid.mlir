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

func.func @atomic_f64(%p: !ascend.gm<f64>, %n: index) {
  %t = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<1x8xf64>
  %v = ascend.view %p, rows %n, cols %n, stride %n : !ascend.gm<f64> -> !ascend.view<f64>
  // expected-error @+1 {{'ascend.tstore' op atomic add is not supported for element type 'f64' (supported: f32, bf16, f16, i32, i16, i8)}}
  ascend.tstore %v, %t atomic add : !ascend.view<f64>, !ascend.tile<1x8xf64>
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

func.func @matmul_shapes() {
  %c = ascend.tile {ub_offset = 0 : i64} : !ascend.tile<16x16xf32>
  %a = ascend.tile {ub_offset = 1024 : i64} : !ascend.tile<16x32xf16>
  %b = ascend.tile {ub_offset = 2048 : i64} : !ascend.tile<16x16xf16>
  // expected-error @+1 {{'ascend.tmatmul' op expected [M, K] x [K, N] -> [M, N], found [16, 32] x [16, 16] -> [16, 16]}}
  ascend.tmatmul %c, %a, %b : !ascend.tile<16x16xf32>, !ascend.tile<16x32xf16>, !ascend.tile<16x16xf16>
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
