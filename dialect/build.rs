//! Builds the C++ half (ODS dialects, C API, pass bridge, pld-opt entry
//! point) with CMake + Ninja, so that `cargo build` alone builds everything,
//! and tells rustc how to link it. The archives do not bundle MLIR: mlir-sys
//! links the single copy of MLIR.

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

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap();
    let build_dir =
        PathBuf::from(env::var("PLD_CMAKE_BUILD_DIR").expect(
            "PLD_CMAKE_BUILD_DIR names the C++ build directory (set in .cargo/config.toml)",
        ));
    let prefix = env::var("MLIR_SYS_220_PREFIX").expect(
        "MLIR_SYS_220_PREFIX must name the LLVM/MLIR 22 prefix (set in .cargo/config.toml)",
    );

    for input in [
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
    ]));

    let lib_dir = build_dir.join("dialect/lib");
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    // PldCAPI uses PldDialects, so it comes first on the link line.
    println!("cargo:rustc-link-lib=static=PldCAPI");
    println!("cargo:rustc-link-lib=static=PldDialects");
    // For dependents' build scripts (DEP_PLD_MLIR_DIALECTS_LIB_DIR): the
    // pld-opt entry point lives in its own archive.
    println!("cargo:lib_dir={}", lib_dir.display());
    // For the `dialect!` macro, which reads the same .td files as CMake.
    println!(
        "cargo:rustc-env=PLD_TD_INCLUDE_DIR={}",
        manifest_dir.join("include").display()
    );
}
