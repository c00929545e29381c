// Input pld-decompose-collectives cannot decompose: a located error, no output.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=remarks=false --verify-diagnostics

func.func @i8_sum(%t: !pld.dtensor<4x64xi8>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{pld-decompose-collectives cannot combine element type i8 (the vector unit combines f16, bf16, f32, i16 and i32)}}
  %r = pld.tensor.reduce_scatter %t, %s, op sum : !pld.dtensor<4x64xi8>, !pld.dtensor<4x1xi32>
  return
}

// -----

func.func @f64_max(%t: !pld.dtensor<2x8xf64>, %s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{pld-decompose-collectives cannot combine element type f64}}
  %r = pld.tensor.reduce_scatter %t, %s, op max : !pld.dtensor<2x8xf64>, !pld.dtensor<2x1xi32>
  return
}

// -----

// Collectives that only move data take any element type.
func.func @i8_allgather(%row: !pld.dtensor<1x64xi8>, %t: !pld.dtensor<4x64xi8>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %row, %t, %s : !pld.dtensor<1x64xi8>, !pld.dtensor<4x64xi8>, !pld.dtensor<4x1xi32>
  return
}

// -----

// A signal too small for the rank count its target implies is an op
// verifier error, so such IR never reaches the pass.
func.func @signal_too_small(%t: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.reduce_scatter' op expected the leading dimension of 'target' (4) to equal the rank count N of the signal (2)}}
  %r = pld.tensor.reduce_scatter %t, %s, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<2x1xi32>
  return
}

// -----

func.func @ring_signal_too_small(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-error @+1 {{'pld.tensor.allreduce' op ring allreduce expects a signal of shape [2 * (N - 1), N] = [6, 4] (or one spare row, [7, 4]), found [4, 4]}}
  %r = pld.tensor.allreduce %d, %s, op sum mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<4x4xi32>
  return
}

// -----

// On several cores a collective needs the blocks of a kernel launch; in
// host code it would run on the HOST rail in a kernel of one block.
func.func @host_cores(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x4xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-error @+1 {{core_num 2 runs a collective on several blocks of a kernel, but this one is in host code, which runs it on the HOST rail in a kernel of one block: call it from an InCore kernel launched with 2 blocks}}
  %r = pld.tensor.allreduce %data, %signal, op sum core_num 2 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x4xi32>
  return
}
