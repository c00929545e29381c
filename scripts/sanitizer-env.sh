# Sourced by scripts/sanitize.sh and fuzz/run.sh: the environment of the
# sanitizer build. The C++ half is built by clang under AddressSanitizer and
# UndefinedBehaviorSanitizer with libFuzzer's coverage, in its own CMake build
# directory; the Rust crates get coverage instrumentation and are linked by
# clang++ with the sanitizer runtimes, into their own target directory. All of
# it works on the stable toolchain (Rust code itself is not ASan-instrumented:
# that needs nightly's -Zsanitizer, and the Rust passes are safe code apart
# from the FFI calls into the instrumented C++).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
llvm_prefix=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["env"]["MLIR_SYS_220_PREFIX"])' "$root/.cargo/config.toml")
sanitize_flags="-fsanitize=address,undefined"
# vptr needs RTTI, which MLIR is built without; every UB report is fatal.
cxx_sanitize_flags="$sanitize_flags,fuzzer-no-link -fno-sanitize=vptr -fno-sanitize-recover=all -fno-omit-frame-pointer -gline-tables-only"
export PLD_CMAKE_BUILD_DIR="$root/build/sanitize"
# (Sourcing this twice, as fuzz/run.sh under sanitize.sh does, keeps one suffix.)
case "${CARGO_TARGET_DIR:-}" in
  *-sanitize) ;;
  *) export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/pld/target}-sanitize" ;;
esac
# Instrumented code must not run inside rustc: with an explicit --target,
# RUSTFLAGS reach only the target's code, not build scripts or proc macros.
rust_target=$(rustc -vV | sed -n 's/^host: //p')
# `pld_sanitize` keeps pld-opt's Rust allocations with the C allocator,
# where LeakSanitizer sees them.
export RUSTFLAGS="--cfg pld_sanitize -Clinker=$llvm_prefix/bin/clang++ -Clink-arg=$sanitize_flags -Cforce-frame-pointers=yes \
-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares"
# Debian's MLIR is not instrumented, yet LLVM's headers poison and unpoison
# allocator memory when the including code is (LLVM_ADDRESS_SANITIZER_BUILD):
# the two halves disagree, so manual poisoning is off. LLVM installs its own
# alternate signal stack, which ASan must not try to unmap at thread exit.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allow_user_poisoning=0:use_sigaltstack=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Configures the sanitized C++ build once; cargo (dialect/build.rs) builds it.
configure_sanitized_cxx() {
  [ -f "$PLD_CMAKE_BUILD_DIR/build.ninja" ] && return
  cmake -G Ninja -S "$root" -B "$PLD_CMAKE_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$llvm_prefix/bin/clang" \
    -DCMAKE_CXX_COMPILER="$llvm_prefix/bin/clang++" \
    -DCMAKE_C_FLAGS="$cxx_sanitize_flags" -DCMAKE_CXX_FLAGS="$cxx_sanitize_flags" \
    -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" > /dev/null
}
