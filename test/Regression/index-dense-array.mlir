// A dense array of `index` elements (a mistyped static_offsets) crashes the
// parser of MLIR 22.1 (llvm/llvm-project#179045, fixed after 22.1.8): every
// tool that reads a file refuses it with a located error first
// (pld_dialect::parser_guard), and exits 1 (pld-run: 2, bad input).
// RUN: not pld-opt %s 2>&1 | FileCheck %s
// RUN: not pld-translate --pld-to-cce %s 2>&1 | FileCheck %s
// RUN: %expect_exit 2 -- pld-run %s --ranks 1 2>&1 | FileCheck %s
// On stdin too: named `-`, or no input named at all (it segfaulted).
// RUN: not pld-opt - < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not pld-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not pld-translate --pld-to-cce < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>:[[@LINE+4]]:40: error: a dense array of 'index' elements crashes the parser of MLIR 22.1
// CHECK: index-dense-array.mlir:[[@LINE+3]]:40: error: a dense array of 'index' elements crashes the parser of MLIR 22.1

func.func @f(%d: !pld.dtensor<2x64xf32>) {
  %t = "pl.load"(%d) {static_offsets = array<index: 0, 0>} : (!pld.dtensor<2x64xf32>) -> !pl.tile<1x64xf32>
  return
}
