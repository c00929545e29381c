//! Links the C++ entry point of pld-opt (MLIR's opt driver), built by the
//! pld-dialect crate's CMake build.

fn main() {
    let lib_dir = std::env::var("DEP_PLD_MLIR_DIALECTS_LIB_DIR")
        .expect("pld-dialect exports the directory of its archives");
    println!("cargo:rustc-link-search=native={lib_dir}");
    println!("cargo:rustc-link-lib=static=PldOptMain");
    println!("cargo:rustc-link-lib=static=PldTranslateMain");
}
