// Transfers pld-expand-transfers cannot stage: a located error, no output.
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-expand-transfers{ub-bytes=32})' --verify-diagnostics

func.func @nothing_fits(%dst: !pld.dtensor<8x64xf32>, %src: memref<8x64xf32>, %p: index) {
  // expected-error @+1 {{pld.tensor.put cannot be staged: not even one 32-byte row of f32 fits each of the two pipeline tiles of a 32-byte unified buffer (pld-expand-transfers ub-bytes)}}
  pld.tensor.put %dst, peer %p, %src chunk_rows 1 chunk_cols 64 pipeline : !pld.dtensor<8x64xf32>, memref<8x64xf32>
  return
}

// -----

func.func @strided(%dst: !pld.dtensor<4x4xf32>, %src: memref<4x4xf32, strided<[8, 1]>>, %p: index) {
  // expected-error @+1 {{pld.tensor.put cannot be staged: 'memref<4x4xf32, strided<[8, 1]>>' is not a contiguous row-major memref (the staging loads and stores address rows by offset)}}
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<4x4xf32>, memref<4x4xf32, strided<[8, 1]>>
  return
}
