#!/usr/bin/env bash
# Deterministic cost of the lowering (issues 6 and 7; not run in CI):
# callgrind instruction counts on generated modules of N kernels (default
# 1000 and 10000), for pld-to-ascend-pipeline and for pld-to-cce-pipeline.
#   parse+print in   pld-opt on the input, no passes
#   passes           instructions inside mlir::PassManager::run of
#                    `pld-opt --<pipeline>` (the passes alone)
#   parse+print out  pld-opt on the pipeline's output, no passes
#   to C++           (pld-to-cce-pipeline) instructions inside
#                    mlir::emitc::translateToCpp of `pld-translate --pld-to-cce`
# Each whole-run count has the cost of an empty run (start-up) removed.
# Targets: passes <= parse+print out, and passes(10x) / passes(1x) <= 11.
# usage: [PIPELINES="pld-to-ascend-pipeline"] bench/lowering.sh [KERNELS...]
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
(( ${#counts[@]} )) || counts=(1000 10000)
cargo build --quiet --release -p pld-tools
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
opt="$target/release/pld-opt"
translate="$target/release/pld-translate"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions executed by `COMMAND...` (optionally only inside the function
# given with --toggle-collect).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo 'func.func @empty() { return }' > "$work/empty.mlir"
startup=$(instructions "$opt" "$work/empty.mlir" -o /dev/null)
for pipeline in ${PIPELINES:-pld-to-ascend-pipeline pld-to-cce-pipeline}; do
  echo "$pipeline"
  printf '%8s %16s %16s %16s %8s %16s\n' kernels parse+print_in passes parse+print_out ratio to_C++
  declare -A passes_of=()
  for count in "${counts[@]}"; do
    python3 bench/gen_lowering.py "$count" > "$work/in.mlir"
    "$opt" "$work/in.mlir" --"$pipeline" -o "$work/out.mlir"
    input=$(( $(instructions "$opt" "$work/in.mlir" -o /dev/null) - startup ))
    passes=$(instructions --toggle-collect='mlir::PassManager::run(mlir::Operation*)' \
      "$opt" "$work/in.mlir" --"$pipeline" -o /dev/null)
    output=$(( $(instructions "$opt" "$work/out.mlir" -o /dev/null) - startup ))
    cpp=-
    if [[ $pipeline == pld-to-cce-pipeline ]]; then
      cpp=$(instructions --toggle-collect='mlir::emitc::translateToCpp*' \
        "$translate" --pld-to-cce "$work/in.mlir" -o /dev/null)
    fi
    passes_of[$count]=$passes
    printf '%8d %16d %16d %16d %8.2f %16s\n' "$count" "$input" "$passes" "$output" \
      "$(echo "$passes / $output" | bc -l)" "$cpp"
  done
  if (( ${#counts[@]} > 1 )); then
    first=${counts[0]} last=${counts[-1]}
    printf 'passes(%d) / passes(%d) = %.2f\n' "$last" "$first" \
      "$(echo "${passes_of[$last]} / ${passes_of[$first]}" | bc -l)"
  fi
done
