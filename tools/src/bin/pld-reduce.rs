//! `pld-reduce`: MLIR's test case reducer with pld's dialects and passes:
//! it shrinks a module while an interestingness script still finds it
//! interesting (a crash, a diagnostic), by removing ops
//! (`reduction-tree`) and by running passes (`opt-reduction-pass`).

use std::ffi::{c_char, c_int};

// SAFETY: matches the prototype in `pld-c/ReduceMain.h`.
unsafe extern "C" {
    fn pldReduceMain(argc: c_int, argv: *mut *mut c_char) -> c_int;
}

fn main() {
    pld_lowering::register_passes();
    // SAFETY: `pldReduceMain` is a C `main` (MLIR's reducer).
    unsafe { pld_tools::exit_with_entry_point(pldReduceMain) };
}
