#!/usr/bin/env bash
# Runs every test: the Rust crates' tests (cargo) and the lit suite.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- --deny warnings
cargo build --workspace
cargo test --workspace
# lit through the interpreter it was installed for (no reliance on a shim on PATH).
python3 -c 'import sys; from lit.main import main; sys.exit(main())' -v test
