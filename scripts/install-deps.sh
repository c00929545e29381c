#!/usr/bin/env bash
# Installs what pld needs on a fresh Debian 12 machine: LLVM/MLIR 22 from
# Debian's packages, CMake + Ninja for the C++ half, clang/libclang for
# bindgen and for compiling emitted C++ (pld-run, the tests) with the
# sanitizer runtimes, clang-format for the style check, Open MPI for
# `pld-run --backend mpi` (ranks as processes), and from PyPI lit and what
# the Python package builds and tests with.
# Rust (cargo) is expected to be present.
set -euo pipefail

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libpolly-22-dev
  clang-22 libclang-22-dev libclang-rt-22-dev clang-format-22
  libzstd-dev zlib1g-dev libxml2-dev
  cmake ninja-build g++
  openmpi-bin libopenmpi-dev
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# From PyPI: lit (the test runner), and for the Python package (python/)
# maturin (its build backend), numpy (its arrays) and pytest (its tests).
python_modules=(lit maturin numpy pytest)
missing_modules=()
for module in "${python_modules[@]}"; do
  python3 -c "import $module" 2>/dev/null || missing_modules+=("$module")
done
if [ "${#missing_modules[@]}" -gt 0 ]; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends python3-pip
  fi
  # A Debian-managed python3 refuses plain pip installs (PEP 668).
  python3 -m pip install --quiet "${missing_modules[@]}" 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages "${missing_modules[@]}"
fi

command -v cargo >/dev/null || { echo "cargo (Rust) is required" >&2; exit 1; }
