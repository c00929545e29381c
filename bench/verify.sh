#!/usr/bin/env bash
# Times pld-verify on synthetic modules of growing size (not run in CI).
# Prints: kernels, ops, seconds for parse + verify alone, seconds with pld-verify.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p pld-tools
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
opt="$target/release/pld-opt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%8s %8s %12s %12s\n' kernels ops parse_s verify_s
for count in 10 100 400 1600; do
  python3 bench/gen_kernels.py "$count" > "$work/module.mlir"
  ops=$(grep -cE '^\s+(%[^ ]+ = )?[a-z_]+\.[a-z_.]+' "$work/module.mlir")
  start=$(date +%s.%N); "$opt" "$work/module.mlir" -o /dev/null; mid=$(date +%s.%N)
  "$opt" "$work/module.mlir" --pld-verify -o /dev/null; end=$(date +%s.%N)
  printf '%8d %8d %12.3f %12.3f\n' "$count" "$ops" "$(echo "$mid - $start" | bc)" "$(echo "$end - $mid" | bc)"
done
