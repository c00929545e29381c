#!/usr/bin/env bash
# Runs every test: the Rust crates' tests (cargo), the Python package's
# (pytest) and the lit suite.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
cargo fmt --manifest-path fuzz/Cargo.toml --check
# The C++ half and the runtime follow LLVM style (.clang-format), checked
# with the clang-format of the LLVM that .cargo/config.toml names.
llvm_prefix=$(python3 -c 'import tomllib; print(tomllib.load(open(".cargo/config.toml", "rb"))["env"]["MLIR_SYS_220_PREFIX"])')
git ls-files -z -- 'dialect/*.cpp' 'dialect/*.h' 'lowering/runtime/*.cpp' \
  'lowering/runtime/*.h' 'test/Target/CCE/Inputs/*.hpp' \
  'test/Target/CCE/Inputs/*.h' 'test/Target/CCE/Inputs/*.cpp' \
  | xargs -0 "$llvm_prefix/bin/clang-format" --dry-run -Werror
cargo clippy --workspace --all-targets --quiet -- --deny warnings
cargo build --workspace
cargo test --workspace
scripts/install-python.sh
python3 -m pytest --quiet python/tests
# lit through the interpreter it was installed for (no reliance on a shim on PATH).
python3 -c 'import sys; from lit.main import main; sys.exit(main())' -v test
