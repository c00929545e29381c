#!/usr/bin/env bash
# Installs the `pld` Python package (python/) into python3, built by maturin
# from this checkout with the Rust build `cargo build` made (the debug
# profile, the same target directory): only the extension module itself is
# compiled and linked. Without build isolation, so that nothing is
# downloaded: scripts/install-deps.sh installs maturin. (`pip install
# ./python` does the same in an isolated build environment.)
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(--quiet --no-build-isolation --force-reinstall --no-deps)
# A Debian-managed python3 refuses plain pip installs (PEP 668).
if python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
  flags+=(--break-system-packages)
fi
python3 -m pip install "${flags[@]}" ./python
