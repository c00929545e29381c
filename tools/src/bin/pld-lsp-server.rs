//! `pld-lsp-server`: MLIR's language server with pld's dialects, for
//! editors (diagnostics, hover, go to definition, completion), with
//! pld-verify's diagnostics and the ops' documentation added
//! ([`pld_tools::lsp`]).

fn main() {
    pld_tools::lsp::main();
}
