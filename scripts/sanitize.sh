#!/usr/bin/env bash
# The C++ half and the whole lit suite under AddressSanitizer +
# UndefinedBehaviorSanitizer (the environment is scripts/sanitizer-env.sh),
# then a short fuzzing smoke (fuzz/run.sh). CI runs it after scripts/test.sh.
#
# usage: scripts/sanitize.sh [FUZZ_SECONDS]   (default 60; 0 skips fuzzing)
set -euo pipefail
source "$(dirname "$0")/sanitizer-env.sh"
cd "$root"
configure_sanitized_cxx
cargo build --quiet --workspace --bins --target "$rust_target"
PLD_TOOLS_DIR="$CARGO_TARGET_DIR/$rust_target/debug" PLD_SANITIZE_FLAGS="$sanitize_flags" \
  python3 -c 'import sys; from lit.main import main; sys.exit(main())' -v test
if [ "${1:-60}" != 0 ]; then
  fuzz/run.sh "${1:-60}"
fi
