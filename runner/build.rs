//! Embeds the runtime (header, simulator and MPI backend sources) into the
//! library, so that pld-run carries exactly the runtime it was built with,
//! and names the C++ compiler it builds with by default.

use std::{
    env, fs,
    path::{Path, PathBuf},
};

fn main() {
    // The host C++ compiler pld-run builds with: LLVM's, from the prefix
    // .cargo/config.toml names.
    let prefix = env::var("MLIR_SYS_220_PREFIX").expect("MLIR_SYS_220_PREFIX names LLVM 22");
    println!(
        "cargo:rustc-env=PLD_DEFAULT_CXX={}",
        Path::new(&prefix).join("bin/clang++").display()
    );
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    let runtime =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("../lowering/runtime");
    let mut files = Vec::new();
    for directory in ["include", "sim", "mpi"] {
        collect(&runtime, &runtime.join(directory), &mut files);
    }
    files.sort();
    let mut source =
        String::from("/// The runtime's files: (path under lowering/runtime, contents).\n");
    source.push_str("pub const FILES: &[(&str, &[u8])] = &[\n");
    for (relative, absolute) in &files {
        println!("cargo:rerun-if-changed={}", absolute.display());
        source.push_str(&format!(
            "    ({relative:?}, include_bytes!({:?})),\n",
            absolute.display().to_string()
        ));
    }
    source.push_str("];\n");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("runtime_files.rs");
    fs::write(out, source).expect("the generated file is written");
    println!("cargo:rerun-if-changed={}", runtime.display());
}

/// Every file under `directory`, with its path relative to `root`.
fn collect(root: &Path, directory: &Path, files: &mut Vec<(String, PathBuf)>) {
    println!("cargo:rerun-if-changed={}", directory.display());
    for entry in fs::read_dir(directory).expect("the runtime directory exists") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            files.push((relative, path.canonicalize().unwrap()));
        }
    }
}
