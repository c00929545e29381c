# lit configuration of the pld test suite.
#
# Tools come from the cargo target directory (asked from cargo itself, so
# CARGO_TARGET_DIR is honoured); FileCheck and `not` from the LLVM prefix that
# .cargo/config.toml names, which stays the one place that says where LLVM
# lives.

import json
import os
import shutil
import subprocess
import tomllib

import lit.formats

config.name = "pld"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".c", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]

source_root = os.path.dirname(os.path.abspath(__file__))
project_root = os.path.dirname(source_root)
config.test_source_root = source_root

with open(os.path.join(project_root, ".cargo", "config.toml"), "rb") as file:
    llvm_prefix = tomllib.load(file)["env"]["MLIR_SYS_220_PREFIX"]
llvm_bin = os.path.join(llvm_prefix, "bin")

metadata = json.loads(
    subprocess.check_output(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=project_root,
    )
)
target_dir = metadata["target_directory"]
# scripts/test.sh builds the dev profile; scripts/sanitize.sh runs the suite
# with tools and a C++ build of its own, under sanitizers whose flags every
# program linked against the C++ half needs too.
tools_dir = os.environ.get("PLD_TOOLS_DIR", os.path.join(target_dir, "debug"))
# The C++ half's CMake build (see `PLD_CMAKE_BUILD_DIR` in .cargo/config.toml).
cmake_build_dir = os.environ.get(
    "PLD_CMAKE_BUILD_DIR", os.path.join(project_root, "build", "cmake")
)
sanitize_flags = os.environ.get("PLD_SANITIZE_FLAGS", "")
if sanitize_flags:
    config.available_features.add("sanitized")

config.test_exec_root = os.path.join(target_dir, "lit")

# Tests that give a file to another user (pld-run's cache ownership check).
if os.geteuid() == 0:
    config.available_features.add("root")

# cargo and rustup find their homes (the registry, the toolchain) through
# these; the embedding tests run cargo.
for variable in ["HOME", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN"]:
    if variable in os.environ:
        config.environment[variable] = os.environ[variable]

config.environment["PATH"] = os.pathsep.join(
    [tools_dir, llvm_bin, config.environment.get("PATH", os.environ["PATH"])]
)

config.substitutions.append(("%pld_src_root", project_root))
# What every tool's --version says: the workspace's version (Cargo.toml).
with open(os.path.join(project_root, "Cargo.toml"), "rb") as file:
    workspace_package = tomllib.load(file)["workspace"]["package"]
config.substitutions.append(("%pld_version", workspace_package["version"]))
config.substitutions.append(("%pld_cmake_build", cmake_build_dir))
# A CMake build of pld with its Rust passes (PLD_ENABLE_RUST_PASSES), which
# test/CMake/rust-passes.test installs; kept beside the others so that a
# second run rebuilds only what changed.
config.substitutions.append(
    ("%pld_embed_build", os.path.join(project_root, "build", "embed"))
)
# The target directory of test/Crate/outside-crate.test's crate, for the same
# reason.
config.substitutions.append(
    ("%pld_outside_crate_target", os.path.join(project_root, "build", "outside-crate"))
)
config.substitutions.append(("%llvm_prefix", llvm_prefix))
config.substitutions.append(("%mlir_tblgen", os.path.join(llvm_bin, "mlir-tblgen")))

# Linking a C program against the C API: pld's archives, then every static
# MLIR library (as mlir-sys links them) and LLVM's, in one group.
llvm_config = os.path.join(llvm_bin, "llvm-config")
mlir_libs = sorted(
    os.path.join(llvm_prefix, "lib", name)
    for name in os.listdir(os.path.join(llvm_prefix, "lib"))
    if name.startswith("libMLIR") and name.endswith(".a")
)
llvm_link = subprocess.check_output(
    [llvm_config, "--link-static", "--ignore-libllvm", "--libs", "--system-libs"],
    text=True,
).split()
capi_link_flags = " ".join(
    sanitize_flags.split()
    + [
        "-I" + os.path.join(project_root, "dialect", "include"),
        "-I" + os.path.join(cmake_build_dir, "dialect", "include"),
        "-I" + os.path.join(llvm_prefix, "include"),
        "-L" + os.path.join(cmake_build_dir, "dialect", "lib"),
        "-L" + os.path.join(llvm_prefix, "lib"),
        "-Wl,--start-group",
        "-lPldCAPI",
        "-lPldDialects",
    ]
    + mlir_libs
    + llvm_link
    + ["-Wl,--end-group", "-lstdc++", "-lm"]
)
config.substitutions.append(
    ("%cc", os.path.join(llvm_bin, "clang") if sanitize_flags else "cc")
)
# What an external CMake project that links the C++ half is configured with.
config.substitutions.append(
    (
        "%cmake_link_options",
        f"-DCMAKE_CXX_COMPILER={os.path.join(llvm_bin, 'clang++')} "
        f"'-DCMAKE_EXE_LINKER_FLAGS={sanitize_flags}'"
        if sanitize_flags
        else "",
    )
)
config.substitutions.append(
    ("%expect_exit", "python3 " + os.path.join(source_root, "Inputs", "expect_exit.py"))
)
config.substitutions.append(("%capi_link_flags", capi_link_flags))

# --- runtime (simulator) ---
# The runtime header's host half and the simulator library under
# lowering/runtime/ (see its README.md). test/Runtime/lit.local.cfg builds the
# library once per lit run and adds the substitutions that use it.
runtime_root = os.path.join(project_root, "lowering", "runtime")
config.substitutions.append(("%clangxx", os.path.join(llvm_bin, "clang++")))
config.substitutions.append(
    ("%pld_runtime_include", os.path.join(runtime_root, "include"))
)
config.substitutions.append(("%pld_runtime_sim", os.path.join(runtime_root, "sim")))
# pld-run caches what it compiles by content; inside the build tree, not the
# user's ~/.cache, so a test run leaves nothing outside it.
config.environment["PLD_RUN_CACHE"] = os.path.join(config.test_exec_root, "pld-run-cache")
# Under the sanitizers what is instrumented is pld-run's compile path, which
# runs once per kernel; the programs it builds are not (the plain run
# executes every case of them): the execution matrix compiles every kernel
# and runs a sample of its cases (test/Execution/Inputs/matrix.py).
if sanitize_flags:
    config.environment["PLD_MATRIX_SAMPLE"] = "1"

# --- pld-run --backend mpi ---
# Tests that start MPI processes (REQUIRES: mpi) need Open MPI's launcher and
# compiler wrapper (scripts/install-deps.sh installs them); elsewhere they are
# skipped, with this note.
if shutil.which("mpirun") and shutil.which("mpicxx"):
    config.available_features.add("mpi")
else:
    lit_config.note(
        "mpirun or mpicxx not found: the pld-run --backend mpi tests are skipped "
        "(Debian: apt-get install openmpi-bin libopenmpi-dev)"
    )
# Open MPI refuses to run as root unless told so twice (pld-run tells it;
# tests that start mpirun themselves need these).
if os.geteuid() == 0:
    for variable in ["OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"]:
        config.environment[variable] = "1"
