#!/usr/bin/env bash
# Regenerates the dialect reference under docs/dialects from the ODS files
# and the pass reference docs/passes.md from Passes.td
# (test/Docs/dialect-docs.test and pass-docs.test fail when they are stale).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(sed -n 's/^MLIR_SYS_220_PREFIX = "\(.*\)"/\1/p' .cargo/config.toml)
tblgen="$prefix/bin/mlir-tblgen"
includes=(-I dialect/include -I "$prefix/include")
"$tblgen" -gen-dialect-doc -dialect=pld "${includes[@]}" \
  dialect/include/pld/Dialect/Pld/IR/PldOps.td -o docs/dialects/pld.md
"$tblgen" -gen-dialect-doc -dialect=pl "${includes[@]}" \
  dialect/include/pld/Dialect/Pl/IR/PlOps.td -o docs/dialects/pl.md
"$tblgen" -gen-dialect-doc -dialect=ascend "${includes[@]}" \
  dialect/include/pld/Dialect/Ascend/IR/AscendOps.td -o docs/dialects/ascend.md
"$tblgen" -gen-pass-doc "${includes[@]}" dialect/include/pld/Passes.td \
  -o docs/passes.md
