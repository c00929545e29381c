// pld.tensor.window reads the size of its buffer while verifying, and that
// buffer's own verifier may not have run yet (here it stands later in the
// block). The window verifier must not assume the buffer is valid: it used
// to crash on a vector dtype. Found by fuzzing.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @vector_dtype() {
  %w = pld.tensor.window %b : !pld.dtensor<4xf32>
  // expected-error @+1 {{'pld.tensor.alloc_window_buffer' op expected an integer or float dtype, found 'vector<4xf32>'}}
  %b = pld.tensor.alloc_window_buffer "x" shape [4] dtype vector<4xf32>
  return
}

// -----

// A byte size that overflows int64 is not a known size: no fit check, no
// signed-overflow undefined behaviour.
func.func @overflowing_size() {
  %b = pld.tensor.alloc_window_buffer "x" shape [4611686018427387904, 4] dtype f32
  %w = pld.tensor.window %b : !pld.dtensor<4xf32>
  return
}
