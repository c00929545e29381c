#!/usr/bin/env bash
# Runs every test: the Rust crates' tests (cargo) and the lit suite.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --workspace
cargo test --workspace
lit -v test
