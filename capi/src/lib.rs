//! The C entry point of pld's Rust passes, declared in `pld-c/Passes.h`.
//!
//! A C or C++ tool links `pld::PldPasses` from the installed CMake package
//! (this crate as a static archive), calls `pldRegisterAllPasses()` once at
//! start-up, and every pld pass and pipeline is an ordinary named MLIR pass
//! in its process: `mlir::parsePassPipeline("pld-verify")`,
//! `mlirParsePassPipeline`, or its own `mlir-opt`-like driver.

/// Registers every pld pass (`pld-verify`, `pld-decompose-collectives`,
/// `pld-expand-transfers`, `convert-pld-to-ascend`, `ascend-plan-ub`,
/// `ascend-insert-sync`), every pipeline (`pld-to-ascend-pipeline`,
/// `pld-to-cce-pipeline`) and the upstream passes those pipelines name.
/// Safe to call more than once and from several threads; call it before any
/// thread parses a pipeline.
#[unsafe(no_mangle)]
pub extern "C" fn pldRegisterAllPasses() {
    pld_compiler::register_all_passes();
}
