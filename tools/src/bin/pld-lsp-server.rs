//! `pld-lsp-server`: MLIR's language server with pld's dialects, for
//! editors (diagnostics, hover, go to definition, completion).

use std::ffi::{c_char, c_int};

// SAFETY: matches the prototype in `pld-c/LspServerMain.h`.
unsafe extern "C" {
    fn pldLspServerMain(argc: c_int, argv: *mut *mut c_char) -> c_int;
}

fn main() {
    // SAFETY: `pldLspServerMain` is a C `main` (MLIR's language server).
    unsafe { pld_tools::exit_with_entry_point(pldLspServerMain) };
}
