// pld-translate --pld-to-cce on input it cannot lower: a located error, a
// non-zero exit, and no C++.
// RUN: pld-translate --pld-to-cce --split-input-file --verify-diagnostics %s
// RUN: not pld-translate --pld-to-cce %s -o %t.cpp
// RUN: not test -s %t.cpp
// A bad pipeline option names the option, not a location in the module.
// RUN: not pld-translate --pld-to-cce --pld-to-cce-options='chunk-bytes=7' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION
// OPTION: pld-translate: --pld-to-cce-options='chunk-bytes=7': pld-to-cce-pipeline: expected chunk-bytes to be a positive multiple of 32 of at most 65536, found 7
// OPTION-NOT: see current operation

// The pld-level checks run first: a protocol bug is reported as pld-verify
// reports it.
func.func @notify_before_data(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<1x64xf32>,
                              %mine: memref<1x64xf32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{the notify that publishes it}}
  pld.system.notify %signal[0, 0], peer %peer, value %v, op set : !pld.dtensor<2x1xi32>
  // expected-error @+1 {{'pld.tensor.remote_store' writes a payload after the notify that publishes it}}
  pld.tensor.remote_store %mine, %payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// -----

// A tile cannot be a kernel argument: it lives in one core's unified buffer.
// expected-error @+1 {{argument #0: a tile ('!pl.tile<1x64xf32>') cannot cross a function boundary: tiles live in one core's unified buffer}}
func.func @tile_argument(%t: !pl.tile<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  return
}
