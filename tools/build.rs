//! Links the C++ entry points of pld-opt, pld-translate, pld-lsp-server and
//! pld-reduce (MLIR's opt, translate, language server and reducer drivers),
//! built by the pld-dialect crate's CMake build. (pld-run's runtime is
//! embedded by the pld-run crate's own build script.)

use std::env;

fn main() {
    let lib_dir = env::var("DEP_PLD_MLIR_DIALECTS_LIB_DIR")
        .expect("pld-dialect exports the directory of its archives");
    println!("cargo:rustc-link-search=native={lib_dir}");
    println!("cargo:rustc-link-lib=static=PldOptMain");
    println!("cargo:rustc-link-lib=static=PldTranslateMain");
    println!("cargo:rustc-link-lib=static=PldLspServerMain");
    println!("cargo:rustc-link-lib=static=PldReduceMain");
}
