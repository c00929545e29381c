// pld-opt is MLIR's opt driver: the standard flags work with pld's passes.

// RUN: pld-opt --help | FileCheck %s --check-prefix=HELP
// HELP-DAG: --pass-pipeline=<string>
// HELP-DAG: --split-input-file
// HELP-DAG: --verify-diagnostics
// HELP-DAG: --mlir-print-ir-after-all
// HELP-DAG: --mlir-timing
// HELP-DAG: --emit-bytecode
// HELP-DAG: --canonicalize
// HELP-DAG: --cse
// HELP-DAG: --pld-verify {{.*}}- Check the contextual rules of pld programs
// HELP-DAG: --default-kind=<string> {{.*}}- Kind of a function without a pl.kernel attribute: host or incore

// RUN: pld-opt %s --pld-verify -o %t.mlir && FileCheck %s --check-prefix=OUT < %t.mlir
// OUT: func.func @kernel

// RUN: pld-opt %s --pld-verify --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: IR Dump After pld-verify (pld-verify)
// DUMP: pld.system.notify

// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-verify{default-kind=incore},canonicalize)' --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: pld-verify
// TIMING: Canonicalizer

// An op verifier's error stands alone: no generic dump of the op after it,
// unless asked for.
// RUN: not pld-opt %S/Inputs/bad-signal-type.mlir --pld-verify 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERIFIER --implicit-check-not='see current operation'
// VERIFIER: error: 'pld.system.notify' op expected 'target' to be an i32 signal tensor, found element type 'f32'
// RUN: not pld-opt %S/Inputs/bad-signal-type.mlir --mlir-print-op-on-diagnostic 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DUMPOP
// DUMPOP: note: see current operation: "pld.system.notify"

// RUN: pld-opt %s --emit-bytecode | pld-opt --pld-verify | FileCheck %s --check-prefix=OUT

// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-verify{default-kind=gpu})' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// BADVALUE: pld-verify: expected default-kind to be 'host' or 'incore', found 'gpu'

// An empty option value is an error too (it used to abort the process).
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-verify{default-kind=})' 2>&1 | FileCheck %s --check-prefix=EMPTYVALUE
// EMPTYVALUE: pld-verify: expected default-kind to be 'host' or 'incore', found ''

// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-verify{bogus=1})' 2>&1 | FileCheck %s --check-prefix=BADKEY
// BADKEY: no such option bogus

// RUN: not pld-opt %S/Inputs/truncated.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: truncated.mlir:{{[0-9]+}}:{{[0-9]+}}: error:

func.func @kernel(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.notify %s[0, 0], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
  return
}
