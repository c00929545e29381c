//! `pld-lsp-server`: MLIR's language server with pld's dialects, for
//! editors (diagnostics, hover, go to definition, completion).

use pld_dialect::ffi::pldLspServerMain;

fn main() {
    // SAFETY: `pldLspServerMain` is a C `main` (MLIR's language server).
    unsafe { pld_tools::exit_with_entry_point(pldLspServerMain) };
}
