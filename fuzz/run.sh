#!/usr/bin/env bash
# Builds the fuzz target (fuzz_targets/pipeline.rs) against the sanitized C++
# half and fuzzes for SECONDS (default 60) from a seed corpus of every test
# input, with a dictionary of the dialects' keywords. Findings land in
# fuzz/artifacts/; replay one with `fuzz/run.sh 0 fuzz/artifacts/crash-...`.
#
# usage: fuzz/run.sh [SECONDS] [INPUT...]
set -euo pipefail
source "$(dirname "$0")/../scripts/sanitizer-env.sh"
cd "$root"
configure_sanitized_cxx
cargo build --quiet --manifest-path fuzz/Cargo.toml --bin pipeline --target "$rust_target"
fuzzer="$CARGO_TARGET_DIR/$rust_target/debug/pipeline"
seconds=${1:-60}
shift || true
if [ $# -gt 0 ]; then
  exec "$fuzzer" "$@"
fi
work="$root/build/fuzz"
mkdir -p "$work/corpus" "$root/fuzz/artifacts"
python3 fuzz/seed.py "$work/seeds" "$work/pld.dict"
# The corpus grows across local runs; the seeds are re-read every time.
exec "$fuzzer" "$work/corpus" "$work/seeds" -dict="$work/pld.dict" \
  -max_total_time="$seconds" -max_len=16384 -timeout=20 -rss_limit_mb=4096 \
  -artifact_prefix="$root/fuzz/artifacts/" -print_final_stats=1
