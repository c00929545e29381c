// Option values are checked when the pipeline is parsed.
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{chunk-bytes=100})' 2>&1 | FileCheck %s --check-prefix=CHUNK
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{chunk-bytes=131072})' 2>&1 | FileCheck %s --check-prefix=CHUNK-LARGE
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{allreduce=fastest})' 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{alpha-ns=-1})' 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-expand-transfers{ub-bytes=16})' 2>&1 | FileCheck %s --check-prefix=UB
// RUN: pld-opt %s --help | FileCheck %s --check-prefix=HELP

// CHUNK: pld-decompose-collectives: expected chunk-bytes to be a positive multiple of 32 of at most 65536, found 100
// CHUNK-LARGE: found 131072
// MODE: pld-decompose-collectives: expected allreduce to be 'as-written' or 'auto', found 'fastest'
// ALPHA: pld-decompose-collectives: expected alpha-ns to be a non-negative number, found '-1'
// UB: pld-expand-transfers: expected ub-bytes to be an integer >= 32, found '16'

// HELP: --pld-decompose-collectives
// HELP: --allreduce=
// HELP: --alpha-ns=
// HELP: --beta-ns-per-byte=
// HELP: --chunk-bytes=
// HELP: --pld-expand-transfers
// HELP: --ub-bytes=
// HELP: --pld-to-ascend-pipeline
// HELP: --allreduce=
// HELP: --chunk-bytes=
// HELP: --default-kind=
// HELP: --ub-bytes=

func.func @empty() {
  return
}
