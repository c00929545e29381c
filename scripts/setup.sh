#!/usr/bin/env bash
# First command on a fresh machine: install dependencies, build everything
# (the C++ dialects through cargo's build script, the Rust crates and the
# tools), then run the bundled example: lowered to C++, compiled against the
# host simulator and run on 4 ranks, its result checked and printed; then
# install the `pld` Python package and run the seed's handshake from Python.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --workspace
cargo run --quiet -p pld-tools --bin pld-run -- examples/allreduce.mlir --ranks 4 \
  --init '0=r * 10 + i' --expect '0=sum_r(r * 10 + i)' --print 0
scripts/install-python.sh
python3 examples/python/handshake.py
