//! Builds the C++ half (ODS dialects, C API, pass bridge, the tools' entry
//! points) with CMake + Ninja, so that `cargo build` alone builds everything,
//! and tells rustc how to link it. The archives do not bundle MLIR: mlir-sys
//! links the single copy of MLIR. They are linked unbundled (`-bundle`): the
//! rlib does not carry a copy of them, so a staticlib built on this crate
//! (`pld-capi`, for C and C++ tools) leaves them to the final link, where
//! the installed CMake package supplies exactly one copy.

use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
};

fn run(command: &mut Command) {
    let status = command
        .status()
        .unwrap_or_else(|error| panic!("failed to start {command:?}: {error}"));
    assert!(status.success(), "{command:?} failed with {status}");
}

/// The LLVM/MLIR 22 prefix, from MLIR_SYS_220_PREFIX (the variable mlir-sys
/// reads too), checked to hold LLVM 22.
fn llvm_prefix() -> String {
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| {
        panic!(
            "set MLIR_SYS_220_PREFIX to the LLVM/MLIR 22 installation prefix \
             (e.g. /usr/lib/llvm-22 from Debian's llvm-22-dev and libmlir-22-dev)"
        )
    });
    let llvm_config = Path::new(&prefix).join("bin/llvm-config");
    let version = Command::new(&llvm_config)
        .arg("--version")
        .output()
        .unwrap_or_else(|error| {
            panic!(
                "MLIR_SYS_220_PREFIX={prefix}: cannot run {}: {error}",
                llvm_config.display()
            )
        });
    let version = String::from_utf8_lossy(&version.stdout).trim().to_owned();
    assert!(
        version.starts_with("22."),
        "MLIR_SYS_220_PREFIX={prefix} holds LLVM {version}; pld needs LLVM/MLIR 22"
    );
    prefix
}

/// Tells rustc to link the C++ half's archives from `lib_dir`.
fn link_archives(lib_dir: &Path) {
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    // PldCAPI uses PldDialects, so it comes first on the link line.
    println!("cargo:rustc-link-lib=static:-bundle=PldCAPI");
    println!("cargo:rustc-link-lib=static:-bundle=PldDialects");
    // For dependents' build scripts (DEP_PLD_MLIR_DIALECTS_LIB_DIR): the
    // pld-opt entry point lives in its own archive.
    println!("cargo:lib_dir={}", lib_dir.display());
}

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap();
    // For the `dialect!` macro, which reads the same .td files as CMake.
    println!(
        "cargo:rustc-env=PLD_TD_INCLUDE_DIR={}",
        manifest_dir.join("include").display()
    );
    // A CMake build of pld that builds `pld-capi` through cargo has already
    // built the archives, and names their directory: building them again from
    // here would run CMake inside its own build.
    println!("cargo:rerun-if-env-changed=PLD_CXX_LIB_DIR");
    if let Ok(lib_dir) = env::var("PLD_CXX_LIB_DIR") {
        link_archives(Path::new(&lib_dir));
        return;
    }
    // The C++ half builds into OUT_DIR unless PLD_CMAKE_BUILD_DIR names an
    // absolute directory (this repository's .cargo/config.toml does, so
    // that lit and the CMake package test find it).
    let build_dir = match env::var("PLD_CMAKE_BUILD_DIR") {
        Ok(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        Ok(dir) => panic!(
            "PLD_CMAKE_BUILD_DIR must be an absolute path (found '{dir}'); a relative one \
             would build inside whichever crate's source directory cargo runs this from"
        ),
        Err(_) => PathBuf::from(env::var("OUT_DIR").unwrap()).join("cmake"),
    };
    let prefix = llvm_prefix();

    for input in [
        // The tools' version and issue tracker (pld-c/Tools.h).
        "Cargo.toml",
        "CMakeLists.txt",
        "dialect/CMakeLists.txt",
        "dialect/cmake",
        "dialect/include",
        "dialect/lib",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(input).display());
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rerun-if-env-changed=PLD_CMAKE_BUILD_DIR");
    // Rebuild when the build directory is gone, not only when sources change.
    println!(
        "cargo:rerun-if-changed={}",
        build_dir.join("dialect/lib/libPldCAPI.a").display()
    );

    if !build_dir.join("build.ninja").exists() {
        run(Command::new("cmake")
            .args(["-G", "Ninja", "-S"])
            .arg(root)
            .arg("-B")
            .arg(&build_dir)
            .arg("-DCMAKE_BUILD_TYPE=Release")
            // cargo is the driver here: the CMake build must not run cargo.
            .arg("-DPLD_ENABLE_RUST_PASSES=OFF")
            .arg(format!(
                "-DMLIR_DIR={}",
                Path::new(&prefix).join("lib/cmake/mlir").display()
            )));
    }
    run(Command::new("cmake").arg("--build").arg(&build_dir).args([
        "--target",
        "PldCAPI",
        "PldDialects",
        "PldOptMain",
        "PldTranslateMain",
        "PldLspServerMain",
        "PldReduceMain",
    ]));

    link_archives(&build_dir.join("dialect/lib"));
}
