//! `pld-translate`: MLIR's own translate driver with `--pld-to-cce`, which
//! lowers pld-level input through `pld-to-cce-pipeline` and prints CCE C++
//! (upstream EmitC's translateToCpp).

use pld_dialect::ffi::pldTranslateMain;

fn main() {
    // Without an input file, the driver reads stdin.
    pld_tools::refuse_known_parser_crashes(true);
    pld_compiler::register_all_passes();
    // SAFETY: `pldTranslateMain` is a C `main` (MLIR's translate driver).
    unsafe { pld_tools::exit_with_entry_point(pldTranslateMain) };
}
