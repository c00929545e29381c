// ascend-plan-ub: tiles that cannot be live together within ub-bytes are a
// located error at the tile that does not fit, with a note at every tile
// live there; tiles that are never live together fit however many there are.
// The option's value is checked when the pipeline is parsed.
// RUN: pld-opt %s --split-input-file --ascend-plan-ub=ub-bytes=1024 --verify-diagnostics
// RUN: not pld-opt %s --ascend-plan-ub=ub-bytes=16 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not pld-opt %s --pass-pipeline='builtin.module(ascend-plan-ub{ub-bytes=196609})' 2>&1 | FileCheck %s --check-prefix=LARGE

// SMALL: ascend-plan-ub: expected ub-bytes in [32, 196608], found '16'
// LARGE: ascend-plan-ub: expected ub-bytes in [32, 196608], found '196609'

// Five 256-byte tiles live at once need 1280 bytes: the fifth does not fit
// in 1024, and the notes name the four that hold the rest.
func.func @five_live(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t0 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t0, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t1 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t1, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t2 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t2, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t3 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t3, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-error @+1 {{the tiles live here need 1280 bytes of unified buffer, more than the 1024 available (ascend-plan-ub ub-bytes): use smaller chunks}}
  %t4 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t4, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t0 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %t1 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %t2 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %t3 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %t4 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// Four 1x64xf32 tiles (256 bytes each) fill 1024 exactly, a fifth of 32
// bytes (the smallest f32 tile: one 32-byte row) does not fit.
// Tiles already dead (%dead) are not named.
func.func @rounded_up(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %dead = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %dead, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %dead : !ascend.view<f32>, !ascend.tile<1x64xf32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t0 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t0, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t1 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t1, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t2 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t2, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %t3 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t3, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-error @+1 {{the tiles live here need 1056 bytes of unified buffer, more than the 1024 available}}
  %t4 = ascend.tile : !ascend.tile<1x8xf32>
  ascend.tadd %t4, %t4, %t4 : !ascend.tile<1x8xf32>
  ascend.tstore %v, %t0 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %t1 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %t2 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %t3 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// Live over the loop: %bias (read in the body) and both tiles the loop
// carries (%init, and %biased from the second iteration on) hold their bytes
// throughout the body, so with %x the body's %next finds no room, although
// %biased is made after it.
func.func @live_over_loop(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %bias = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %bias, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  // expected-note @+1 {{a live tile of 256 bytes}}
  %init = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %init, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!ascend.tile<1x64xf32>) {
    // expected-note @+1 {{a live tile of 256 bytes}}
    %x = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tload %x, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
    // expected-error @+1 {{the tiles live here need 1280 bytes of unified buffer, more than the 1024 available}}
    %next = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %next, %acc, %x : !ascend.tile<1x64xf32>
    // expected-note @+1 {{a live tile of 256 bytes}}
    %biased = ascend.tile : !ascend.tile<1x64xf32>
    ascend.tadd %biased, %next, %bias : !ascend.tile<1x64xf32>
    scf.yield %biased : !ascend.tile<1x64xf32>
  }
  ascend.tstore %v, %sum : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// The same five tiles one after another: never two live at once, all at
// offset 0, no diagnostic.
func.func @five_in_turn(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t0 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t0, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t0 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %t1 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t1, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t1 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %t2 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t2, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t2 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %t3 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t3, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t3 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  %t4 = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t4, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tstore %v, %t4 : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// A cube buffer is bounded by the chip's (64 KiB of L0A on Ascend910B), not
// by ub-bytes: two 32 KiB left tiles fit, a third live with them does not.
func.func @l0a_overflow(%m: !ascend.tile<128x128xf16, mat>, %c0: index) {
  // expected-note @+1 {{a live tile of 32768 bytes}}
  %a = ascend.tile : !ascend.tile<128x128xf16, left>
  // expected-note @+1 {{a live tile of 32768 bytes}}
  %b = ascend.tile : !ascend.tile<128x128xf16, left>
  // expected-error @+1 {{the tiles live here need 98304 bytes of L0A, more than the 65536 available on the chip}}
  %c = ascend.tile : !ascend.tile<128x128xf16, left>
  ascend.textract %a, %m, row %c0, col %c0 : !ascend.tile<128x128xf16, left>, !ascend.tile<128x128xf16, mat>
  ascend.textract %b, %m, row %c0, col %c0 : !ascend.tile<128x128xf16, left>, !ascend.tile<128x128xf16, mat>
  ascend.textract %c, %m, row %c0, col %c0 : !ascend.tile<128x128xf16, left>, !ascend.tile<128x128xf16, mat>
  return
}
