#!/usr/bin/env bash
# First command on a fresh machine: install dependencies, build everything
# (the C++ dialects through cargo's build script, the Rust crates and
# pld-opt), then run pld-opt with pld-verify on a bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --workspace
cargo run --quiet -p pld-tools --bin pld-opt -- --pld-verify test/Examples/deferred_completion.mlir
