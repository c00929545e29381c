// Option values are read as the types Passes.td declares; a value that is
// not of its option's type is an error naming the option, the type and the
// value, when the pipeline is parsed.
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{chunk-bytes=lots})' 2>&1 | FileCheck %s --check-prefix=INTEGER
// RUN: not pld-opt %s --pass-pipeline='builtin.module(ascend-plan-ub{ub-bytes=1k})' 2>&1 | FileCheck %s --check-prefix=PLAN-UB
// RUN: not pld-opt %s --pld-verify='remarks=yes' 2>&1 | FileCheck %s --check-prefix=BOOL
// Every pass is listed by --help with the summary Passes.td gives it.
// RUN: pld-opt --help | FileCheck %s --check-prefix=HELP

// INTEGER: pld-decompose-collectives: expected chunk-bytes to be an integer, found 'lots'
// PLAN-UB: ascend-plan-ub: expected ub-bytes to be an integer, found '1k'
// BOOL: pld-verify: expected remarks to be 'true' or 'false', found 'yes'

// HELP-DAG: --ascend-insert-sync - Insert release between a payload access and a notify
// HELP-DAG: --ascend-plan-ub - Choose the unified-buffer offset of every ascend tile
// HELP-DAG: --convert-pld-to-ascend - Lower pld and pl
// HELP-DAG: --pld-decompose-collectives - Decompose every collective
// HELP-DAG: --pld-expand-transfers - Expand put, get and tensor.remote_store
// HELP-DAG: --pld-verify - Check the contextual rules of pld programs

func.func @empty() {
  return
}
