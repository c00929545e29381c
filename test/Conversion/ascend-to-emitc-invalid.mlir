// What the ascend -> EmitC conversion (convert-to-emitc) rejects, with a
// located error at the op: a tile must have its unified-buffer offset
// (ascend-plan-ub) before it can be emitted.
// RUN: pld-opt %s --split-input-file --convert-to-emitc --verify-diagnostics

// An unplanned tile has no address to emit: the conversion fails at the tile
// (the pattern's reason, "run ascend-plan-ub first", shows only in the
// dialect-conversion debug output).
func.func @unplanned_tile(%ctx: !ascend.ctx, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  // expected-error @+1 {{failed to legalize operation 'ascend.tile' that was explicitly marked illegal}}
  %t = ascend.tile : !ascend.tile<1x64xf32>
  ascend.tload %t, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  return
}

// -----

// Nor has an unplanned SDMA session a scratch buffer.
func.func @unplanned_session(%ws: !ascend.sdma_workspace, %id: i32) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  // expected-error @+1 {{failed to legalize operation 'ascend.sdma_session' that was explicitly marked illegal}}
  %s = ascend.sdma_session %ws, sync_id %id
  return
}
