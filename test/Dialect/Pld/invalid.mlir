// One case per per-op rule of semantics §3, each with its exact message.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{a distributed tensor has at least one dimension}}
func.func @dt_rank0(%x: !pld.dtensor<f32>)

// -----

// expected-error @+1 {{distributed tensor dimensions are positive or dynamic ('?'), found 0}}
func.func @dt_zero_dim(%x: !pld.dtensor<0x4xf32>)

// -----

// expected-error @+1 {{expected an integer or float element type, found 'index'}}
func.func @dt_index(%x: !pld.dtensor<4xindex>)

// -----

func.func @comm_ctx_of_plain_tensor(%m: memref<2x1xi32>) {
  // expected-error @+1 {{'pld.system.get_comm_ctx' op operand #0 must be window-bound !pld.dtensor (a plain memref is not a window), but got 'memref<2x1xi32>'}}
  %ctx = "pld.system.get_comm_ctx"(%m) : (memref<2x1xi32>) -> !pld.comm_ctx
  return
}

// -----

func.func @allreduce_plain_signal(%d: !pld.dtensor<1x64xf32>, %m: memref<4x1xi32>) {
  // expected-error @+1 {{'pld.tensor.allreduce' op operand #1 must be window-bound !pld.dtensor (a plain memref is not a window), but got 'memref<4x1xi32>'}}
  %r = pld.tensor.allreduce %d, %m, op sum : !pld.dtensor<1x64xf32>, memref<4x1xi32>
  return
}

// -----

func.func @remote_load_plain_tensor(%m: memref<2x64xf32>, %p: index) {
  // expected-error @+1 {{'pld.tile.remote_load' op operand #0 must be window-bound !pld.dtensor (a plain memref is not a window), but got 'memref<2x64xf32>'}}
  %t = pld.tile.remote_load %m[0, 0], peer %p : memref<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @notify_plain_tensor(%m: memref<2x1xi32>, %p: index, %v: i32) {
  // expected-error @+1 {{'pld.system.notify' op operand #0 must be window-bound !pld.dtensor (a plain memref is not a window), but got 'memref<2x1xi32>'}}
  pld.system.notify %m[0, 0], peer %p, value %v, op set : memref<2x1xi32>
  return
}

// -----

func.func @rank_of_tensor(%s: !pld.dtensor<2x1xi32>) {
  // expected-error @+1 {{'pld.system.rank' op operand #0 must be the communication context handed to a kernel, but got '!pld.dtensor<2x1xi32>'}}
  %r = "pld.system.rank"(%s) : (!pld.dtensor<2x1xi32>) -> i32
  return
}

// -----

func.func @notify_offset_count(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {
  // expected-error @+1 {{expected one offset entry per dimension of 'target' (2), found 1}}
  pld.system.notify %s[0], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @notify_not_i32(%s: !pld.dtensor<2x1xf32>, %p: index, %v: i32) {
  // expected-error @+1 {{expected 'target' to be an i32 signal tensor, found element type 'f32'}}
  pld.system.notify %s[0, 0], peer %p, value %v, op set : !pld.dtensor<2x1xf32>
  return
}

// -----

func.func @notify_negative_offset(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {
  // expected-error @+1 {{expected offset entry 0 to be non-negative, found -1}}
  pld.system.notify %s[-1, 0], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @notify_out_of_bounds(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {
  // expected-error @+1 {{the accessed element does not fit inside 'target': dimension 0 covers [2, 3) but 'target' has size 2 (shape [2, 1])}}
  pld.system.notify %s[2, 0], peer %p, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @wait_offset_count(%s: !pld.dtensor<2x1xi32>, %e: i32) {
  // expected-error @+1 {{expected one offset entry per dimension of 'signal' (2), found 3}}
  pld.system.wait %s[0, 0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @wait_not_i32(%s: !pld.dtensor<2x1xi64>, %e: i32) {
  // expected-error @+1 {{expected 'signal' to be an i32 signal tensor, found element type 'i64'}}
  pld.system.wait %s[0, 0], expected %e, cmp eq : !pld.dtensor<2x1xi64>
  return
}

// -----

func.func @defer_wait_eq(%s: !pld.dtensor<2x1xi32>, %e: i32) {
  // expected-error @+1 {{only 'cmp ge' is supported by defer_wait, found 'cmp eq'}}
  pld.system.defer_wait %s[0, 0], expected %e, cmp eq : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @defer_wait_negative(%s: !pld.dtensor<2x1xi32>) {
  %e = arith.constant -1 : i32
  // expected-error @+1 {{expected a constant 'expected' in [0, 2147483647], found -1 (counters are polled as uint32, so a negative threshold is never a valid one)}}
  pld.system.defer_wait %s[0, 0], expected %e, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @alloc_empty_name() {
  // expected-error @+1 {{expected a non-empty buffer name}}
  %b = pld.tensor.alloc_window_buffer "" bytes 64
  return
}

// -----

func.func @group_without_ranks() {
  // expected-error @+1 {{expected at least one rank in the comm group}}
  %b = pld.tensor.alloc_window_buffer "buf" bytes 64 ranks []
  return
}

// -----

func.func @group_rank_beyond_64() {
  // expected-error @+1 {{expected comm group ranks in [0, 64), found 64}}
  %b = pld.tensor.alloc_window_buffer "buf" bytes 64 ranks [0, 64]
  return
}

// -----

func.func @group_negative_rank() {
  // expected-error @+1 {{expected comm group ranks in [0, 64), found -1}}
  %b = pld.tensor.alloc_window_buffer "buf" bytes 64 ranks [-1, 0]
  return
}

// -----

func.func @group_descending() {
  // expected-error @+1 {{expected comm group ranks in ascending order, each once, found 1 after 2}}
  %b = pld.tensor.alloc_window_buffer "buf" bytes 64 ranks [2, 1]
  return
}

// -----

func.func @group_rank_twice() {
  // expected-error @+1 {{expected comm group ranks in ascending order, each once, found 1 after 1}}
  %b = pld.tensor.alloc_window_buffer "buf" bytes 64 ranks [0, 1, 1]
  return
}

// -----

// The near miss: a group of one rank, and of every rank a program may have.
func.func @groups_at_the_bounds() {
  %one = pld.tensor.alloc_window_buffer "one" bytes 64 ranks [63]
  %all = pld.tensor.alloc_window_buffer "all" bytes 64 ranks [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]
  return
}

// -----

func.func @alloc_zero_size() {
  // expected-error @+1 {{expected positive sizes, found 0}}
  %b = pld.tensor.alloc_window_buffer "buf" shape [4, 0] dtype f32
  return
}

// -----

func.func @alloc_bytes_two_sizes() {
  // expected-error @+1 {{the byte-size overload takes exactly one size, found 2}}
  %b = "pld.tensor.alloc_window_buffer"() <{name = "buf", static_sizes = array<i64: 4, 4>, operandSegmentSizes = array<i32: 0>}> : () -> !pld.ptr
  return
}

// -----

func.func @alloc_bad_dtype() {
  // expected-error @+1 {{expected an integer or float dtype, found 'index'}}
  %b = pld.tensor.alloc_window_buffer "buf" shape [4] dtype index
  return
}

// -----

func.func @window_dynamic_count(%b: !pld.ptr) {
  // expected-error @+1 {{expected 1 dynamic size operand(s), one per '?' of '!pld.dtensor<4x?xf32>', found 0}}
  %d = pld.tensor.window %b : !pld.dtensor<4x?xf32>
  return
}

// -----

func.func @window_too_large() {
  // expected-note @+1 {{buffer allocated here}}
  %b = pld.tensor.alloc_window_buffer "small" shape [4, 4] dtype f32
  // expected-error @+1 {{the view needs 128 bytes but window buffer 'small' holds 64}}
  %d = pld.tensor.window %b : !pld.dtensor<4x8xf32>
  return
}

// -----

func.func @remote_load_offset_count(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected one offset entry per dimension of the target (2), found 1}}
  %t = pld.tile.remote_load %d[0], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @remote_load_tile_rank(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected the tile to have the rank of the target (2), found a tile of shape [64]}}
  %t = pld.tile.remote_load %d[0, 0], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<64xf32>
  return
}

// -----

func.func @remote_load_element_type(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected the tile element type to equal the element type of the target ('f32'), found 'f16'}}
  %t = pld.tile.remote_load %d[0, 0], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf16>
  return
}

// -----

func.func @remote_load_valid_count(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected one valid_shape entry per dimension of the target (2), found 1}}
  %t = pld.tile.remote_load %d[0, 0], peer %p valid [1] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @remote_load_valid_too_large(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected valid_shape entry 1 in [0, 32] (the tile's extent), found 33}}
  %t = pld.tile.remote_load %d[0, 0], peer %p valid [1, 33] : !pld.dtensor<2x64xf32> -> !pl.tile<1x32xf32>
  return
}

// -----

func.func @remote_load_valid_negative(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected valid_shape entry 0 in [0, 1] (the tile's extent), found -1}}
  %t = pld.tile.remote_load %d[0, 0], peer %p valid [-1, 32] : !pld.dtensor<2x64xf32> -> !pl.tile<1x32xf32>
  return
}

// -----

func.func @remote_load_out_of_bounds(%d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{the accessed region does not fit inside the target: dimension 1 covers [48, 80) but the target has size 64 (shape [2, 64])}}
  %t = pld.tile.remote_load %d[0, 48], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<1x32xf32>
  return
}

// -----

func.func @remote_store_element_type(%t: !pl.tile<1x32xf16>, %d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected the source element type to equal the target's ('f32'), found 'f16'}}
  pld.tile.remote_store %t, %d[0, 0], peer %p : !pl.tile<1x32xf16>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @remote_store_target_rank(%t: !pl.tile<1x32xf32>, %d: !pld.dtensor<64xf32>, %p: index) {
  // expected-error @+1 {{expected a target of rank >= 2, found '!pld.dtensor<64xf32>' of rank 1}}
  pld.tile.remote_store %t, %d[0], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<64xf32>
  return
}

// -----

func.func @remote_store_leading_dims(%t: !pl.tile<2x1x32xf32>, %d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected a 2-D source, or an N-D source whose leading dimensions are 1, found shape [2, 1, 32]}}
  pld.tile.remote_store %t, %d[0, 0], peer %p : !pl.tile<2x1x32xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @remote_store_does_not_fit(%t: !pl.tile<1x32xf32>, %d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{the pushed region does not fit inside the target: dimension 1 covers [33, 65) but the target has size 64 (shape [2, 64])}}
  pld.tile.remote_store %t, %d[0, 33], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @remote_store_atomic_f64(%t: !pl.tile<1x32xf64>, %d: !pld.dtensor<2x64xf64>, %p: index) {
  // expected-error @+1 {{atomic add is not supported for element type 'f64' (supported: f32, bf16, f16, i32, i16, i8)}}
  pld.tile.remote_store %t, %d[0, 0], peer %p atomic add : !pl.tile<1x32xf64>, !pld.dtensor<2x64xf64>
  return
}

// -----

func.func @tensor_remote_store_offsets(%m: memref<1x64xf32>, %d: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected one offset entry per dimension of the target (2), found 1}}
  pld.tensor.remote_store %m, %d[0], peer %p : memref<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @tensor_remote_store_atomic_i64(%m: memref<1x64xi64>, %d: !pld.dtensor<2x64xi64>, %p: index) {
  // expected-error @+1 {{atomic add is not supported for element type 'i64' (supported: f32, bf16, f16, i32, i16, i8)}}
  pld.tensor.remote_store %m, %d[0, 0], peer %p atomic add : memref<1x64xi64>, !pld.dtensor<2x64xi64>
  return
}

// -----

func.func @put_to_plain_tensor(%dst: memref<64xf32>, %src: memref<64xf32>, %p: index) {
  // expected-error @+1 {{expected 'dst' (the remote side of a put) to be a window-bound !pld.dtensor, found 'memref<64xf32>'}}
  pld.tensor.put %dst, peer %p, %src : memref<64xf32>, memref<64xf32>
  return
}

// -----

func.func @put_from_tile(%dst: !pld.dtensor<1x64xf32>, %t: !pl.tile<1x64xf32>, %p: index) {
  // expected-error @+1 {{a computed tile is not a valid put src; use pld.tile.remote_store to push a tile}}
  pld.tensor.put %dst, peer %p, %t : !pld.dtensor<1x64xf32>, !pl.tile<1x64xf32>
  return
}

// -----

func.func @get_into_tile(%t: !pl.tile<1x64xf32>, %src: !pld.dtensor<1x64xf32>, %p: index) {
  // expected-error @+1 {{a computed tile is not a valid get dst; use pld.tile.remote_load to read into a tile}}
  pld.tensor.get %t, peer %p, %src : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// -----

func.func @get_from_plain_tensor(%dst: memref<64xf32>, %src: memref<64xf32>, %p: index) {
  // expected-error @+1 {{expected 'src' (the remote side of a get) to be a window-bound !pld.dtensor, found 'memref<64xf32>'}}
  pld.tensor.get %dst, peer %p, %src : memref<64xf32>, memref<64xf32>
  return
}

// -----

func.func @put_element_type(%dst: !pld.dtensor<64xf32>, %src: memref<64xf16>, %p: index) {
  // expected-error @+1 {{expected 'dst' and 'src' to have the same element type, found 'f32' and 'f16'}}
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<64xf32>, memref<64xf16>
  return
}

// -----

func.func @put_rank(%dst: !pld.dtensor<1x64xf32>, %src: memref<64xf32>, %p: index) {
  // expected-error @+1 {{expected 'dst' and 'src' to have the same rank, found 2 and 1}}
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<1x64xf32>, memref<64xf32>
  return
}

// -----

func.func @put_zero_dim(%dst: !pld.dtensor<64xf32>, %src: memref<0xf32>, %p: index) {
  // expected-error @+1 {{expected positive static dimensions, found 'memref<0xf32>'}}
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<64xf32>, memref<0xf32>
  return
}

// -----

func.func @put_partial_region(%dst: !pld.dtensor<2x64xf32>, %src: memref<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected dst_offsets, src_offsets and shape all together or not at all, found only dst_offsets shape}}
  pld.tensor.put %dst, peer %p, %src dst_offsets [1, 0] shape [1, 64] : !pld.dtensor<2x64xf32>, memref<2x64xf32>
  return
}

// -----

func.func @put_region_count(%dst: !pld.dtensor<2x64xf32>, %src: memref<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected one shape entry per dimension of 'dst' and 'src' (2), found 1}}
  pld.tensor.put %dst, peer %p, %src dst_offsets [1, 0] src_offsets [0, 0] shape [64] : !pld.dtensor<2x64xf32>, memref<2x64xf32>
  return
}

// -----

func.func @put_region_shape_positive(%dst: !pld.dtensor<2x64xf32>, %src: memref<2x64xf32>, %p: index) {
  // expected-error @+1 {{expected shape entry 0 to be positive, found 0}}
  pld.tensor.put %dst, peer %p, %src dst_offsets [1, 0] src_offsets [0, 0] shape [0, 64] : !pld.dtensor<2x64xf32>, memref<2x64xf32>
  return
}

// -----

func.func @put_region_out_of_bounds(%dst: !pld.dtensor<2x64xf32>, %src: memref<2x64xf32>, %p: index) {
  // expected-error @+1 {{the transferred region does not fit inside 'dst': dimension 0 covers [2, 3) but 'dst' has size 2 (shape [2, 64])}}
  pld.tensor.put %dst, peer %p, %src dst_offsets [2, 0] src_offsets [0, 0] shape [1, 64] : !pld.dtensor<2x64xf32>, memref<2x64xf32>
  return
}

// -----

func.func @get_region_out_of_bounds_src(%dst: memref<2x64xf32>, %src: !pld.dtensor<2x64xf32>, %p: index) {
  // expected-error @+1 {{the transferred region does not fit inside 'src': dimension 1 covers [32, 96) but 'src' has size 64 (shape [2, 64])}}
  pld.tensor.get %dst, peer %p, %src dst_offsets [0, 0] src_offsets [0, 32] shape [1, 64] : memref<2x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @put_shape_mismatch(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x32xf32>, %p: index) {
  // expected-error @+1 {{without dst_offsets/src_offsets/shape the whole local slice moves, so 'dst' and 'src' must have equal shapes, found [8, 64] and [8, 32]}}
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<8x64xf32>, memref<8x32xf32>
  return
}

// -----

func.func @put_negative_chunk(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x64xf32>, %p: index) {
  // expected-error @+1 {{expected chunk_rows and chunk_cols >= 0, found chunk_rows = -2, chunk_cols = 0}}
  pld.tensor.put %dst, peer %p, %src chunk_rows -2 : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  return
}

// -----

// The SDMA engine stages nothing: chunks and pipelining mean nothing there.
func.func @put_sdma_chunked(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x64xf32>, %p: index) {
  // expected-error @+1 {{engine sdma moves the region from global memory to global memory without a staging tile, so chunk_rows, chunk_cols cannot apply (they size the staging of engine mte)}}
  pld.tensor.put %dst, peer %p, %src engine sdma chunk_rows 4 chunk_cols 64 : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  return
}

// -----

func.func @get_sdma_pipeline(%dst: memref<8x64xf32>, %src: !pld.dtensor<8x64xf32>, %p: index) {
  // expected-error @+1 {{engine sdma moves the region from global memory to global memory without a staging tile, so pipeline cannot apply (they size the staging of engine mte)}}
  pld.tensor.get %dst, peer %p, %src engine sdma pipeline : memref<8x64xf32>, !pld.dtensor<8x64xf32>
  return
}

// -----

// TPUT_ASYNC only copies.
func.func @put_sdma_atomic(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x64xf32>, %p: index) {
  // expected-error @+1 {{engine sdma cannot put with atomic add: the SDMA engine only copies (TPUT_ASYNC has no atomic form); use engine mte}}
  pld.tensor.put %dst, peer %p, %src atomic add engine sdma : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  return
}

// -----

// The region rules hold for either engine.
func.func @get_sdma_region(%dst: memref<8x64xf32>, %src: !pld.dtensor<8x64xf32>, %p: index) {
  // expected-error @+1 {{the transferred region}}
  pld.tensor.get %dst, peer %p, %src dst_offsets [0, 0] src_offsets [7, 0] shape [2, 64] engine sdma : memref<8x64xf32>, !pld.dtensor<8x64xf32>
  return
}

// -----

// An unknown engine.
func.func @get_unknown_engine(%dst: memref<8x64xf32>, %src: !pld.dtensor<8x64xf32>, %p: index) {
  // expected-error @+2 {{expected ::pld::TransferEngine to be one of: mte, sdma}}
  // expected-error @+1 {{failed to parse Pld_TransferEngineAttr parameter 'value'}}
  pld.tensor.get %dst, peer %p, %src engine rdma : memref<8x64xf32>, !pld.dtensor<8x64xf32>
  return
}

// -----

func.func @put_pipeline_unchunked(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x64xf32>, %p: index) {
  // expected-error @+1 {{pipeline requires chunk_rows > 0 and chunk_cols > 0 (double buffering needs a chunked transfer), found chunk_rows = 4, chunk_cols = 0}}
  pld.tensor.put %dst, peer %p, %src chunk_rows 4 pipeline : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  return
}

// -----

func.func @get_pipeline_unchunked(%dst: memref<8x64xf32>, %src: !pld.dtensor<8x64xf32>, %p: index) {
  // expected-error @+1 {{pipeline requires chunk_rows > 0 and chunk_cols > 0 (double buffering needs a chunked transfer), found chunk_rows = 0, chunk_cols = 0}}
  pld.tensor.get %dst, peer %p, %src pipeline : memref<8x64xf32>, !pld.dtensor<8x64xf32>
  return
}

// -----

func.func @put_dynamic_rows(%dst: !pld.dtensor<?x64xf32>, %src: memref<?x64xf32>, %p: index) {
  // expected-error @+1 {{a dynamic leading dimension needs chunk_rows > 0 (the staging tile is sized statically), found transfer shape [?, 64]}}
  pld.tensor.put %dst, peer %p, %src chunk_cols 64 : !pld.dtensor<?x64xf32>, memref<?x64xf32>
  return
}

// -----

func.func @put_dynamic_cols(%dst: !pld.dtensor<8x?xf32>, %src: memref<8x?xf32>, %p: index) {
  // expected-error @+1 {{a dynamic innermost dimension needs chunk_cols > 0 (the staging tile is sized statically), found transfer shape [8, ?]}}
  pld.tensor.put %dst, peer %p, %src chunk_rows 8 : !pld.dtensor<8x?xf32>, memref<8x?xf32>
  return
}

// -----

func.func @put_dynamic_region_cols(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x64xf32>, %p: index, %n: index) {
  // expected-error @+1 {{a dynamic innermost dimension needs chunk_cols > 0 (the staging tile is sized statically), found transfer shape [1, ?]}}
  pld.tensor.put %dst, peer %p, %src dst_offsets [0, 0] src_offsets [0, 0] shape [1, %n] : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  return
}

// -----

func.func @put_atomic_f64(%dst: !pld.dtensor<64xf64>, %src: memref<64xf64>, %p: index) {
  // expected-error @+1 {{atomic add is not supported for element type 'f64' (supported: f32, bf16, f16, i32, i16, i8)}}
  pld.tensor.put %dst, peer %p, %src atomic add : !pld.dtensor<64xf64>, memref<64xf64>
  return
}

// -----

// The epoch algorithms: an epoch and a workspace together, each rule with
// its near miss in test/Dialect/Pld/ops.mlir.
func.func @epoch_algorithm_without_epoch(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{algorithm oneshot_epoch needs 'epoch' and 'workspace' (the call's number and a [2, L] buffer), found neither}}
  %r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot_epoch : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @epoch_with_other_algorithm(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>, %e: index, %w: !pld.dtensor<2x64xf32>) {
  // expected-error @+1 {{with 'epoch' expected algorithm auto, oneshot_epoch or twoshot_epoch, found oneshot}}
  %r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @epoch_zero(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>, %w: !pld.dtensor<2x64xf32>) {
  %e = arith.constant 0 : index
  // expected-error @+1 {{expected an epoch in [1, 2147483647] (calls count from 1 on a zeroed signal), found 0}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @epoch_workspace_shape(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>, %e: index, %w: !pld.dtensor<2x32xf32>) {
  // expected-error @+1 {{expected a workspace of shape [2, 64] (a row per epoch parity, as many elements as the target), found [2, 32]}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x32xf32>
  return
}

// -----

func.func @epoch_workspace_type(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>, %e: index, %w: !pld.dtensor<2x64xf16>) {
  // expected-error @+1 {{expected a workspace of the target's element type 'f32', found 'f16'}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x64xf16>
  return
}

// -----

func.func @epoch_workspace_is_target(%d: !pld.dtensor<2x32xf32>, %s: !pld.dtensor<4x2xi32>, %e: index) {
  // expected-error @+1 {{expected 'workspace' and 'target' to be distinct tensors, found the same value}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %d : !pld.dtensor<2x32xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x32xf32>
  return
}

// -----

func.func @epoch_ring(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<6x4xi32>, %e: index, %w: !pld.dtensor<2x64xf32>) {
  // expected-error @+1 {{the epoch algorithms run on a mesh signal: expected mode mesh with 'epoch'}}
  %r = pld.tensor.allreduce %d, %s, op sum mode ring epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<6x4xi32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @twoshot_epoch_one_column(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>, %e: index, %w: !pld.dtensor<2x64xf32>) {
  // expected-error @+1 {{algorithm twoshot_epoch announces two phases on two cells per source rank: expected a signal of shape [N, 2], found [4, 1]}}
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot_epoch epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @epoch_workspace_alone(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>, %w: !pld.dtensor<2x64xf32>) {
  // expected-error @+1 {{expected 'epoch' and 'workspace' together, found a workspace alone}}
  %r = "pld.tensor.allreduce"(%d, %s, %w) <{op = #pld<reduce_op sum>, operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x64xf32>) -> !pld.dtensor<1x64xf32>
  return
}

// -----

func.func @allreduce_dtype(%d: !pld.dtensor<1x64xi32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected an f16 or f32 target, found element type 'i32'}}
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xi32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allreduce_same_operand(%s: !pld.dtensor<4x1xf32>) {
  // expected-error @+1 {{expected 'target' and 'signal' to be distinct tensors, found the same value}}
  %r = pld.tensor.allreduce %s, %s, op sum : !pld.dtensor<4x1xf32>, !pld.dtensor<4x1xf32>
  return
}

// -----

func.func @allreduce_signal_type(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xf32>) {
  // expected-error @+1 {{expected 'signal' to be an i32 signal tensor, found element type 'f32'}}
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xf32>
  return
}

// -----

// PyPTO's [world_size] signal serves a mesh allreduce on one core (its
// near miss in test/Dialect/Pld/ops.mlir), not a ring one.
func.func @allreduce_signal_rank(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error @+1 {{expected a 2-D signal (or [N] for a mesh allreduce on one core), found shape [4]}}
  %r = pld.tensor.allreduce %d, %s, op sum mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<4xi32>
  return
}

// -----

func.func @allreduce_vector_signal_cores(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error @+1 {{expected a 2-D signal (or [N] for a mesh allreduce on one core), found shape [4]}}
  %r = pld.tensor.allreduce %d, %s, op sum core_num 2 : !pld.dtensor<1x64xf32>, !pld.dtensor<4xi32>
  return
}

// -----

func.func @twoshot_epoch_vector_signal(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4xi32>, %e: index, %w: !pld.dtensor<2x64xf32>) {
  // expected-error @+1 {{algorithm twoshot_epoch announces two phases on two cells per source rank: expected a signal of shape [N, 2], found [4]}}
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot_epoch epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<4xi32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @allreduce_mesh_signal(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x3xi32>) {
  // expected-error @+1 {{mesh allreduce on 1 core expects a signal of shape [N, 1] or [N, 2], found [4, 3]}}
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x3xi32>
  return
}

// -----

// Block b of 4 counts on column b (or 2b and 2b + 1): the signal has 4 or 8.
func.func @allreduce_cores_signal(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{mesh allreduce on 4 cores expects a signal of shape [N, 4] or [N, 8], found [4, 2]}}
  %r = pld.tensor.allreduce %d, %s, op sum core_num 4 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allreduce_cores_seed(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x4xi32>) {
  // expected-error @+1 {{core_num 4 needs algorithm auto, oneshot, twoshot, twoshot_push, oneshot_epoch or twoshot_epoch, found seed_mesh}}
  %r = pld.tensor.allreduce %d, %s, op sum algorithm seed_mesh core_num 4 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x4xi32>
  return
}

// -----

func.func @allreduce_cores_ring(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<6x4xi32>) {
  // expected-error @+1 {{core_num 2 runs the mesh algorithms: expected mode mesh}}
  %r = pld.tensor.allreduce %d, %s, op sum mode ring core_num 2 : !pld.dtensor<1x64xf32>, !pld.dtensor<6x4xi32>
  return
}

// -----

func.func @reduce_scatter_cores_signal(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{on 3 cores expects a signal of shape [N, 3] or [N, 6], found [4, 2]}}
  %r = pld.tensor.reduce_scatter %d, %s, op sum core_num 3 : !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_cores_vector(%l: !pld.dtensor<1x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error @+1 {{on 2 cores expects a signal of shape [N, 2] or [N, 4], found [4]}}
  %r = pld.tensor.allgather %l, %d, %s core_num 2 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  return
}

// -----

// The seed's broadcast runs on one core (star and scatter_allgather on a
// part of the data: test/Execution/cores.test).
func.func @broadcast_cores_seed(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>, %root: index) {
  // expected-error @+1 {{core_num 2 needs algorithm auto, star or scatter_allgather, found seed}}
  %r = pld.tensor.broadcast %d, %s, root %root algorithm seed core_num 2 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allreduce_cores_zero(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{attribute 'core_num' failed to satisfy constraint}}
  %r = pld.tensor.allreduce %d, %s, op sum core_num 0 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allreduce_ring_signal(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x4xi32>) {
  // expected-error @+1 {{ring allreduce expects a signal of shape [2 * (N - 1), N] = [6, 4] (or one spare row, [7, 4]), found [4, 4]}}
  %r = pld.tensor.allreduce %d, %s, op min mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<4x4xi32>
  return
}

// -----

// An algorithm the collective does not have.
func.func @reduce_scatter_algorithm(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{'pld.tensor.reduce_scatter' op expected an algorithm in [auto, direct, seed], found twoshot}}
  %r = pld.tensor.reduce_scatter %d, %s, op sum algorithm twoshot : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @broadcast_algorithm(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>, %root: index) {
  // expected-error @+1 {{expected an algorithm in [auto, star, scatter_allgather, seed], found direct}}
  %r = pld.tensor.broadcast %d, %s, root %root algorithm direct : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// A signal that cannot host the algorithm: the ring needs the ring signal.
func.func @allreduce_ring_on_mesh_signal(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{algorithm ring needs a ring signal of shape [2 * (N - 1), N] (mode ring), found the mesh signal [4, 1]}}
  %r = pld.tensor.allreduce %d, %s, op sum algorithm ring : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allreduce_seed_ring_on_mesh_signal(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{algorithm seed_ring needs a ring signal of shape [2 * (N - 1), N] (mode ring), found the mesh signal [4, 1]}}
  %r = pld.tensor.allreduce %d, %s, op sum algorithm seed_ring : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allreduce_too_many_ranks(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<65x1xi32>) {
  // expected-error @+1 {{expected a rank count N in [1, 64] (the signal's leading dimension), found 65}}
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<65x1xi32>
  return
}

// -----

func.func @reduce_scatter_target_rank(%d: !pld.dtensor<64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected a target of shape [N, SIZE], found [64]}}
  %r = pld.tensor.reduce_scatter %d, %s, op sum : !pld.dtensor<64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @reduce_scatter_rank_count(%d: !pld.dtensor<2x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected the leading dimension of 'target' (2) to equal the rank count N of the signal (4)}}
  %r = pld.tensor.reduce_scatter %d, %s, op sum : !pld.dtensor<2x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allgather_same(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected 'local' and 'target' to be distinct tensors, found the same value}}
  %r = pld.tensor.allgather %d, %d, %s : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allgather_local_shape(%l: !pld.dtensor<2x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected a local row of shape [1, SIZE], found [2, 64]}}
  %r = pld.tensor.allgather %l, %d, %s : !pld.dtensor<2x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allgather_dtype(%l: memref<1x64xf16>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected 'local' and 'target' to have the same element type, found 'f16' and 'f32'}}
  %r = pld.tensor.allgather %l, %d, %s : memref<1x64xf16>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allgather_size(%l: memref<1x32xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected 'local' and 'target' rows of the same SIZE, found 32 and 64}}
  %r = pld.tensor.allgather %l, %d, %s : memref<1x32xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @allgather_signal_shape(%l: memref<1x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x3xi32>) {
  // expected-error @+1 {{expected a signal of shape [N, 1], [N, 2] or [N] (a cell per rank; a second column counts barriers), found [4, 3]}}
  %r = pld.tensor.allgather %l, %d, %s : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x3xi32>
  return
}

// -----

func.func @allgather_rank_count(%l: memref<1x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<2xi32>) {
  // expected-error @+1 {{expected the leading dimension of 'target' (4) to equal the rank count N of the signal (2)}}
  %r = pld.tensor.allgather %l, %d, %s : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<2xi32>
  return
}

// -----

func.func @broadcast_root_range(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  %root = arith.constant 4 : index
  // expected-error @+1 {{expected root in [0, N) = [0, 4), found 4}}
  %r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @broadcast_root_negative(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<?x1xi32>) {
  %root = arith.constant -1 : index
  // expected-error @+1 {{expected root in [0, N) = [0, ?), found -1}}
  %r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<?x1xi32>
  return
}

// -----

func.func @barrier_signal_shape(%s: !pld.dtensor<4x3xi32>) {
  // expected-error @+1 {{expected a signal of shape [N, 1], [N, 2] or [N] (a cell per rank; a second column counts barriers), found [4, 3]}}
  pld.tensor.barrier %s : !pld.dtensor<4x3xi32>
  return
}

// -----

func.func @barrier_signal_type(%s: !pld.dtensor<4x1xf32>) {
  // expected-error @+1 {{expected 'signal' to be an i32 signal tensor, found element type 'f32'}}
  pld.tensor.barrier %s : !pld.dtensor<4x1xf32>
  return
}

// -----

func.func @all_to_all_same(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected 'input' and 'target' to be distinct tensors, found the same value}}
  %r = pld.tensor.all_to_all %d, %d, %s : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @all_to_all_types(%i: !pld.dtensor<4x32xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected 'input' and 'target' of the same shape and element type, found '!pld.dtensor<4x32xf32>' and '!pld.dtensor<4x64xf32>'}}
  %r = pld.tensor.all_to_all %i, %d, %s : !pld.dtensor<4x32xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @all_to_all_rank_count(%i: !pld.dtensor<2x64xf32>, %d: !pld.dtensor<2x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected the leading dimension of 'target' (2) to equal the rank count N of the signal (4)}}
  %r = pld.tensor.all_to_all %i, %d, %s : !pld.dtensor<2x64xf32>, !pld.dtensor<2x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// expected-error @+1 {{expected 'pld.target' to be a #pld.target<Ascend910B|Ascend950>, found "Ascend950"}}
module attributes {pld.target = "Ascend950"} {
}

// -----

// expected-error @+1 {{'pld.target' belongs on a builtin.module, found it on 'func.func'}}
func.func @target_on_function() attributes {pld.target = #pld.target<Ascend950>} {
  return
}

// -----

// expected-error @+1 {{unknown pld attribute 'pld.targets'}}
module attributes {pld.targets = #pld.target<Ascend950>} {
}

// -----

// expected-error @+2 {{expected ::pld::TargetProfile to be one of: Ascend910B, Ascend950}}
// expected-error @+1 {{failed to parse Pld_TargetProfileAttr parameter 'value'}}
module attributes {pld.target = #pld.target<Ascend310>} {
}

// -----

func.func @reshape_element_count(%v: !pld.dtensor<64xf32>) {
  // expected-error @+1 {{'pld.tensor.reshape' op expected the same number of elements, found 64 in [64] and 32 in [1, 32]}}
  %r = pld.tensor.reshape %v : !pld.dtensor<64xf32> to !pld.dtensor<1x32xf32>
  return
}

// -----

func.func @reshape_element_type(%v: !pld.dtensor<64xf32>) {
  // expected-error @+1 {{'pld.tensor.reshape' op expected the result element type to equal the source's ('f32'), found 'f16'}}
  %r = pld.tensor.reshape %v : !pld.dtensor<64xf32> to !pld.dtensor<1x64xf16>
  return
}

// -----

func.func @reshape_dynamic_count(%v: !pld.dtensor<?xf32>) {
  // expected-error @+1 {{'pld.tensor.reshape' op expected 1 dynamic size operand(s), one per '?' of '!pld.dtensor<1x?xf32>', found 0}}
  %r = pld.tensor.reshape %v : !pld.dtensor<?xf32> to !pld.dtensor<1x?xf32>
  return
}

// -----

func.func @dim_out_of_range(%v: !pld.dtensor<4x?xf32>) {
  // expected-error @+1 {{'pld.tensor.dim' op expected dim in [0, 2), found 2}}
  %d = pld.tensor.dim %v, 2 : !pld.dtensor<4x?xf32>
  return
}

// -----

func.func @remote_store_valid_rank(%d: !pld.dtensor<2x64xf32>, %t: !pl.tile<1x64xf32>, %p: index) {
  // expected-error @+1 {{'pld.tile.remote_store' op expected one valid_shape entry per dimension of the source (2), found 1}}
  pld.tile.remote_store %t, %d[0, 0], peer %p valid [64] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @remote_store_valid_too_large(%d: !pld.dtensor<2x64xf32>, %t: !pl.tile<1x32xf32>, %p: index) {
  // expected-error @+1 {{'pld.tile.remote_store' op expected valid_shape entry 1 in [0, 32] (the tile's extent), found 33}}
  pld.tile.remote_store %t, %d[0, 0], peer %p valid [1, 33] : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// The valid part must fit, the whole tile need not: a ragged edge.
func.func @remote_store_valid_overhang(%d: !pld.dtensor<2x64xf32>, %t: !pl.tile<1x32xf32>, %p: index) {
  pld.tile.remote_store %t, %d[0, 48], peer %p valid [1, 16] : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // expected-error @+1 {{'pld.tile.remote_store' op the pushed region does not fit inside the target: dimension 1 covers [48, 65) but the target has size 64 (shape [2, 64])}}
  pld.tile.remote_store %t, %d[0, 48], peer %p valid [1, 17] : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// A GEMM fused with communication sums its products.
func.func @matmul_allreduce_max(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected op sum (the products are summed), found max}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op max : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_allreduce_inner(%a: memref<32x16xf16>, %b: memref<24x32xf16>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected the columns of 'a' (16) to equal the rows of 'b' (24)}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<32x16xf16>, memref<24x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_allreduce_c_shape(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x16xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected 'c' of shape [32, 32] (rows of 'a', columns of 'b'), found [32, 16]}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x16xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_allreduce_dynamic(%a: memref<?x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected 'a' to have a static shape, found [?, 16] (the decomposition tiles the product statically)}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<?x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_allreduce_inputs(%a: memref<32x16xf32>, %b: memref<16x32xf32>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected 'a' and 'b' of one element type, f16 or bf16, found 'f32' and 'f32'}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<32x16xf32>, memref<16x32xf32>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_allreduce_output(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xbf16>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected 'c' of element type f32 or 'f16' (the fixpipe's cast of the f32 product), found 'bf16'}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xbf16>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_allreduce_signal(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op on 4 cube cores expects a signal of shape [N, 8 * m] (a row per rank, a multiple of 8 columns), found [4, 2]}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum core_num 4 : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_allreduce_algorithm(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected an algorithm in [auto, fused, unfused], found twoshot}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum algorithm twoshot : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// The unfused form allreduces on the signal seen as [N * m, 2 * core_num]:
// at most 64 rows.
func.func @matmul_allreduce_unfused_rows(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<40x4xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op algorithm unfused allreduces on the signal seen as [80, 2], but an allreduce's signal has at most 64 rows: use fewer columns}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum algorithm unfused : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<40x4xi32>
  // The same signal hosts the fused form.
  %u = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum algorithm fused : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<40x4xi32>
  return
}

// -----

func.func @matmul_allreduce_ranks(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<65x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_allreduce' op expected a rank count N in [1, 64] (the signal's leading dimension), found 65}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s, op sum : memref<32x16xf16>, memref<16x32xf16>, !pld.dtensor<32x32xf32>, !pld.dtensor<65x2xi32>
  return
}

// -----

// matmul_reduce_scatter: rank r's `out` is rows [r M / N, (r + 1) M / N) of
// the sum of the products.
func.func @matmul_reduce_scatter_max(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected op sum (the products are summed), found max}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op max : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  // Near miss: op sum.
  %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_alias(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'partial' and 'signal' to be distinct tensors, found the same value}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %s, %p, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<4x2xi32>, !pld.dtensor<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_same_out(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %s: !pld.dtensor<1x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'partial' and 'out' to be distinct tensors, found the same value}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %p, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<64x32xf32>, !pld.dtensor<1x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_dynamic(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<?x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'out' to have a static shape, found [?, 32] (the decomposition tiles the product statically)}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<?x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_inner(%a: memref<64x16xf16>, %b: memref<24x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected the columns of 'a' (16) to equal the rows of 'b' (24)}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<24x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_partial(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x16xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'partial' of shape [64, 32] (rows of 'a', columns of 'b'), found [64, 16]}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x16xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_inputs(%a: memref<64x16xf16>, %b: memref<16x32xbf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'a' and 'b' of one element type, f16 or bf16, found 'f16' and 'bf16'}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xbf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_output(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xbf16>, %o: !pld.dtensor<16x32xbf16>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'partial' of element type f32 or 'f16' (the fixpipe's cast of the f32 product), found 'bf16'}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xbf16>, !pld.dtensor<16x32xbf16>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_out_type(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf16>, %o: !pld.dtensor<16x32xf32>, %oh: !pld.dtensor<16x32xf16>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'out' of the element type of 'partial' ('f16', the sum it receives), found 'f32'}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf16>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  // Near miss: both f16.
  %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %oh, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf16>, !pld.dtensor<16x32xf16>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_signal(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x6xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op on 2 cube cores expects a signal of shape [N, 4 * m] (a row per rank, a multiple of 4 columns), found [4, 6]}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum core_num 2 : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x6xi32>
  // Near miss: 6 columns on 3 cube cores.
  %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum core_num 3 : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x6xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_ranks(%a: memref<65x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<65x32xf32>, %o: !pld.dtensor<1x32xf32>, %s: !pld.dtensor<65x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected a rank count N in [1, 64] (the signal's leading dimension), found 65}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<65x16xf16>, memref<16x32xf16>, !pld.dtensor<65x32xf32>, !pld.dtensor<1x32xf32>, !pld.dtensor<65x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_dynamic_ranks(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<?x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected a static rank count N (the signal's leading dimension: the operands' rows are cut by rank), found [?, 2]}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<?x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_rows(%a: memref<66x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<66x32xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected the rows of 'a' (66) to be a multiple of the rank count N of the signal (4): rank r receives rows [r M / N, (r + 1) M / N)}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<66x16xf16>, memref<16x32xf16>, !pld.dtensor<66x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_out(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<32x32xf32>, %s: !pld.dtensor<4x2xi32>, %s2: !pld.dtensor<2x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected 'out' of shape [16, 32] (the rows of 'a' over the 4 ranks of the signal, the columns of 'b'), found [32, 32]}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<32x32xf32>, !pld.dtensor<4x2xi32>
  // Near miss: the same `out` on 2 ranks.
  %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s2, op sum : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<32x32xf32>, !pld.dtensor<2x2xi32>
  return
}

// -----

func.func @matmul_reduce_scatter_algorithm(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: !pld.dtensor<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op expected an algorithm in [auto, fused, unfused], found direct}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum algorithm direct : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// The fused form adds into the owners' `out`: a window, not a memref.
func.func @matmul_reduce_scatter_fused_memref(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %p: !pld.dtensor<64x32xf32>, %o: memref<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.matmul_reduce_scatter' op algorithm fused adds every rank's tiles into the owner's 'out', which must be a window tensor, found 'memref<16x32xf32>'}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum algorithm fused : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, memref<16x32xf32>, !pld.dtensor<4x2xi32>
  // Near miss: the unfused form copies into a memref.
  %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s, op sum algorithm unfused : memref<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x32xf32>, memref<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

// allgather_matmul: c = every rank's `a`, stacked in `gathered`, times `b`.
func.func @allgather_matmul_alias(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'gathered' and 'c' to be distinct tensors, found the same value}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %g, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, !pld.dtensor<64x16xf16>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_alias_signal(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'c' and 'signal' to be distinct tensors, found the same value}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %s, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, !pld.dtensor<4x2xi32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_dynamic(%a: memref<?x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'a' to have a static shape, found [?, 16] (the decomposition tiles the product statically)}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<?x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_inner(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<24x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected the columns of 'a' (16) to equal the rows of 'b' (24)}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<24x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_inputs(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xbf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'a', 'gathered' and 'b' of one element type, f16 or bf16, found 'f16', 'bf16' and 'f16'}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<64x16xbf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_output(%a: memref<16x16xbf16>, %g: !pld.dtensor<64x16xbf16>, %b: memref<16x32xbf16>, %c: memref<64x32xf16>, %cb: memref<64x32xbf16>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'c' of element type f32 or 'bf16' (the fixpipe's cast of the f32 product), found 'f16'}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<16x16xbf16>, !pld.dtensor<64x16xbf16>, memref<16x32xbf16>, memref<64x32xf16>, !pld.dtensor<4x2xi32>
  // Near miss: bf16 in, bf16 out.
  %u = pld.tensor.allgather_matmul %a, %g, %b, %cb, %s : memref<16x16xbf16>, !pld.dtensor<64x16xbf16>, memref<16x32xbf16>, memref<64x32xbf16>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_signal(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op on 2 cube cores expects a signal of shape [N, 4 * m] (a row per rank, a multiple of 4 columns), found [4, 2]}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s core_num 2 : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_signal_type(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<4x2xf32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'signal' to be an i32 signal tensor, found element type 'f32'}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xf32>
  return
}

// -----

func.func @allgather_matmul_dynamic_ranks(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<?x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected a static rank count N (the signal's leading dimension: the operands' rows are cut by rank), found [?, 2]}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<?x2xi32>
  return
}

// -----

func.func @allgather_matmul_gathered(%a: memref<16x16xf16>, %g: !pld.dtensor<48x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<4x2xi32>, %s3: !pld.dtensor<3x2xi32>, %c3: memref<48x32xf32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'gathered' of shape [64, 16] (the rows of 'a' from each of the 4 ranks of the signal), found [48, 16]}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<48x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  // Near miss: the same `gathered` for 3 ranks.
  %u = pld.tensor.allgather_matmul %a, %g, %b, %c3, %s3 : memref<16x16xf16>, !pld.dtensor<48x16xf16>, memref<16x32xf16>, memref<48x32xf32>, !pld.dtensor<3x2xi32>
  return
}

// -----

func.func @allgather_matmul_c(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %c: memref<16x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'c' of shape [64, 32] (rows of 'gathered', columns of 'b'), found [16, 32]}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<16x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_algorithm(%a: memref<16x16xf16>, %g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected an algorithm in [auto, fused, unfused], found seed}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s algorithm seed : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  // Near miss: fused.
  %u = pld.tensor.allgather_matmul %a, %g, %b, %c, %s algorithm fused : memref<16x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @allgather_matmul_alias_a(%g: !pld.dtensor<64x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>, %s: !pld.dtensor<1x2xi32>) {
  // expected-error @+1 {{'pld.tensor.allgather_matmul' op expected 'a' and 'gathered' to be distinct tensors, found the same value}}
  %t = pld.tensor.allgather_matmul %g, %g, %b, %c, %s : !pld.dtensor<64x16xf16>, !pld.dtensor<64x16xf16>, memref<16x32xf16>, memref<64x32xf32>, !pld.dtensor<1x2xi32>
  return
}

// -----

// A memref input (PyPTO's plain tensor) runs seed on one core; the near
// miss is in test/Dialect/Pld/ops.mlir.
func.func @all_to_all_private_direct(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{algorithm direct pulls each row from the peer's input, which must be in the window (a distributed tensor); a memref input runs seed}}
  %t = pld.tensor.all_to_all %in, %out, %s algorithm direct : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @all_to_all_private_cores(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error @+1 {{core_num 2 runs direct, which pulls each row from the peer's input: a memref input (not in the window) runs seed, on one core}}
  %t = pld.tensor.all_to_all %in, %out, %s core_num 2 : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  return
}

// -----

func.func @all_to_all_private_shape(%in: memref<4x32xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error @+1 {{expected 'input' and 'target' of the same shape and element type, found 'memref<4x32xf32>' and '!pld.dtensor<4x64xf32>'}}
  %t = pld.tensor.all_to_all %in, %out, %s : memref<4x32xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @rank_type(%s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
  // expected-error @+1 {{'pld.system.rank' op result #0 must be 32-bit signless integer or index, but got 'i64'}}
  %r = pld.system.rank %ctx : i64
  return
}

// -----

// all_to_all_v: each rule, its near miss in test/Dialect/Pld/ops.mlir.
func.func @all_to_all_v_counts_type(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>, %send: memref<4xf32>, %recv: !pld.dtensor<4xi32>) {
  // expected-error @+1 {{expected 'send_counts' to be i32 [N] (a count per rank), found 'memref<4xf32>'}}
  %t = pld.tensor.all_to_all_v %in, %out, %s counts %send to %recv : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xf32>, !pld.dtensor<4xi32>
  return
}

// -----

func.func @all_to_all_v_counts_ranks(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>, %send: memref<4xi32>, %recv: !pld.dtensor<3xi32>) {
  // expected-error @+1 {{expected the leading dimension of 'recv_counts' (3) to equal the rank count N of the signal (4)}}
  %t = pld.tensor.all_to_all_v %in, %out, %s counts %send to %recv : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xi32>, !pld.dtensor<3xi32>
  return
}

// -----

func.func @all_to_all_v_direct(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>, %send: memref<4xi32>, %recv: !pld.dtensor<4xi32>) {
  // expected-error @+1 {{expected an algorithm in [auto, seed], found direct}}
  %t = pld.tensor.all_to_all_v %in, %out, %s counts %send to %recv algorithm direct : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xi32>, !pld.dtensor<4xi32>
  return
}

// -----

func.func @all_to_all_v_recv_is_signal(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4xi32>, %send: memref<4xi32>) {
  // expected-error @+1 {{expected 'recv_counts' and 'signal' to be distinct tensors, found the same value}}
  %t = pld.tensor.all_to_all_v %in, %out, %s counts %send to %s : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>, memref<4xi32>, !pld.dtensor<4xi32>
  return
}
