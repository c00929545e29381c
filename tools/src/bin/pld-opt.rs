//! `pld-opt`: MLIR's own opt driver (every standard flag works) with the pl
//! and pld dialects, upstream's transform passes, and pld's Rust passes.

use pld_dialect::ffi::pldOptMain;

/// Rust's allocations (the passes'); MLIR's C++ keeps its own. Under the
/// sanitizers (scripts/sanitizer-env.sh) they stay with the C allocator,
/// whose blocks LeakSanitizer scans for the C++ objects they point to.
#[cfg(not(pld_sanitize))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // Without an input file, the driver reads stdin.
    pld_tools::refuse_known_parser_crashes(true);
    pld_compiler::register_all_passes();
    // SAFETY: `pldOptMain` is a C `main` (MLIR's opt driver).
    unsafe { pld_tools::exit_with_entry_point(pldOptMain) };
}
