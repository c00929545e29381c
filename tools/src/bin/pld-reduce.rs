//! `pld-reduce`: MLIR's test case reducer with pld's dialects and passes:
//! it shrinks a module while an interestingness script still finds it
//! interesting (a crash, a diagnostic), by removing ops
//! (`reduction-tree`) and by running passes (`opt-reduction-pass`).

use pld_dialect::ffi::pldReduceMain;

fn main() {
    // The reducer needs its input named (stdin only as `-`).
    pld_tools::refuse_known_parser_crashes(false);
    pld_compiler::register_all_passes();
    // SAFETY: `pldReduceMain` is a C `main` (MLIR's reducer).
    unsafe { pld_tools::exit_with_entry_point(pldReduceMain) };
}
