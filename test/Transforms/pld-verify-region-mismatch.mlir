// pld-verify: offsets or shapes that provably disagree between the writer
// and the reader of a window region (semantics §6: "a one-element misalignment is
// silent corruption").
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

func.func @off_by_one(%data: !pld.dtensor<2x80xf32>, %t: !pl.tile<1x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{writes [0, 1) x [0, 64) here}}
  pld.tile.remote_store %t, %data[0, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<2x80xf32>
  // expected-error @+1 {{'pld.tile.remote_load' reads [0, 1) x [1, 65) of the window, but the writes into it cover only part of that region: the reader and the writer disagree on offsets or shapes (a one-element misalignment is silent corruption)}}
  %r = pld.tile.remote_load %data[0, 1], peer %p : !pld.dtensor<2x80xf32> -> !pl.tile<1x64xf32>
  // Near misses: the region as written, and a part of it.
  %s = pld.tile.remote_load %data[0, 0], peer %p : !pld.dtensor<2x80xf32> -> !pl.tile<1x64xf32>
  %u = pld.tile.remote_load %data[0, 16], peer %p : !pld.dtensor<2x80xf32> -> !pl.tile<1x32xf32>
  return
}

// -----

// The seed's scenario: two half-width pushes assemble the full row, which is
// then read whole. Reading a row nobody writes is not a disagreement either.
func.func @halves_assemble_a_row(%data: !pld.dtensor<2x64xf32>, %half: memref<1x32xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %h = pl.load %half[0, 0] : memref<1x32xf32> -> !pl.tile<1x32xf32>
  pld.tile.remote_store %h, %data[0, 0], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  pld.tile.remote_store %h, %data[0, 32], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  %row = pld.tile.remote_load %data[0, 0], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  %other = pld.tile.remote_load %data[1, 0], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  return
}

// -----

func.func @gap_between_halves(%data: !pld.dtensor<2x64xf32>, %h: !pl.tile<1x32xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{writes [0, 1) x [0, 32) here}}
  pld.tile.remote_store %h, %data[0, 0], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // expected-note @-1 {{the conflicting pld.tile.remote_store on rank 0}}
  // expected-note @+1 {{writes [0, 1) x [31, 63) here}}
  pld.tile.remote_store %h, %data[0, 31], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // expected-note @-1 {{the conflicting pld.tile.remote_store on rank 0}}
  // expected-error @+1 {{'pl.load' reads [0, 1) x [0, 64) of the window}}
  %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @-1 {{data race on 2 ranks with argument 2 of @gap_between_halves = 1, 0 on ranks 0, 1: this pl.load on rank 1 reads}}
  return
}

// -----

// A put's destination region and a ragged-tail read (valid_shape).
func.func @put_and_tail(%data: !pld.dtensor<2x100xf32>, %src: memref<2x100xf32>, %p: index) {
  // expected-note @+1 {{writes [1, 2) x [0, 64) here}}
  pld.tensor.put %data, peer %p, %src dst_offsets [1, 0] src_offsets [0, 0] shape [1, 64] : !pld.dtensor<2x100xf32>, memref<2x100xf32>
  %t = pl.at level core_group name "read" {
    // Near miss: the tail read covers [1, 2) x [64, 100), which the put does not touch.
    %tail = pld.tile.remote_load %data[1, 64], peer %p valid [1, 36] : !pld.dtensor<2x100xf32> -> !pl.tile<1x64xf32>
    // expected-error @+1 {{'pld.tile.remote_load' reads [1, 2) x [32, 96) of the window}}
    %bad = pld.tile.remote_load %data[1, 32], peer %p : !pld.dtensor<2x100xf32> -> !pl.tile<1x64xf32>
  }
  return
}

// -----

// A get of rows [6, 8) after a put into row 7: row 6 is written by no op of
// the module (it holds what the host put there), a warning.
func.func @unwritten_row(%data: !pld.dtensor<8x64xf32>, %src: memref<1x64xf32>, %dst: memref<2x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{writes [7, 8) x [0, 64) here}}
  pld.tile.remote_store %t, %data[7, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<8x64xf32>
  // expected-warning @+1 {{'pld.tile.remote_load' reads [6, 8) x [0, 64) of the window, but the writes into it cover only some of its rows, and no op writes the others: they hold what the host put there; if a peer should write them, the reader and the writer disagree}}
  %rows = pld.tile.remote_load %data[6, 0], peer %p : !pld.dtensor<8x64xf32> -> !pl.tile<2x64xf32>
  pl.store %rows, %dst[0, 0] : !pl.tile<2x64xf32>, memref<2x64xf32>
  return
}

// Near miss: a row written in part (columns [0, 32) of row 7) is still an
// error.
func.func @half_written_row(%data: !pld.dtensor<8x64xf32>, %src: memref<1x32xf32>, %dst: memref<2x64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x32xf32> -> !pl.tile<1x32xf32>
  // expected-note @+1 {{writes [7, 8) x [0, 32) here}}
  pld.tile.remote_store %t, %data[7, 0], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<8x64xf32>
  // expected-error @+1 {{'pld.tile.remote_load' reads [6, 8) x [0, 64) of the window, but the writes into it cover only part of that region}}
  %rows = pld.tile.remote_load %data[6, 0], peer %p : !pld.dtensor<8x64xf32> -> !pl.tile<2x64xf32>
  pl.store %rows, %dst[0, 0] : !pl.tile<2x64xf32>, memref<2x64xf32>
  return
}
