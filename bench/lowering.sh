#!/usr/bin/env bash
# Deterministic cost of pld-to-ascend-pipeline (issue 6; not run in CI):
# callgrind instruction counts on generated modules of 1k and 10k kernels.
#   parse+print in   pld-opt on the input, no passes
#   passes           instructions inside mlir::PassManager::run of
#                    `pld-opt --pld-to-ascend-pipeline` (the passes alone)
#   parse+print out  pld-opt on the pipeline's output, no passes
# Each whole-run count has the cost of an empty run (start-up) removed.
# Targets: passes <= parse+print out, and passes(10k) / passes(1k) <= 11.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p pld-tools
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
opt="$target/release/pld-opt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions executed by `pld-opt ARGS...` (optionally only inside the
# function given with --toggle-collect).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo 'func.func @empty() { return }' > "$work/empty.mlir"
startup=$(instructions "$opt" "$work/empty.mlir" -o /dev/null)
printf '%8s %16s %16s %16s %8s\n' kernels parse+print_in passes parse+print_out ratio
declare -A passes_of
for count in 1000 10000; do
  python3 bench/gen_lowering.py "$count" > "$work/in.mlir"
  "$opt" "$work/in.mlir" --pld-to-ascend-pipeline -o "$work/out.mlir"
  input=$(( $(instructions "$opt" "$work/in.mlir" -o /dev/null) - startup ))
  passes=$(instructions --toggle-collect='mlir::PassManager::run(mlir::Operation*)' \
    "$opt" "$work/in.mlir" --pld-to-ascend-pipeline -o /dev/null)
  output=$(( $(instructions "$opt" "$work/out.mlir" -o /dev/null) - startup ))
  passes_of[$count]=$passes
  printf '%8d %16d %16d %16d %8.2f\n' "$count" "$input" "$passes" "$output" \
    "$(echo "$passes / $output" | bc -l)"
done
printf 'passes(10k) / passes(1k) = %.2f\n' "$(echo "${passes_of[10000]} / ${passes_of[1000]}" | bc -l)"
