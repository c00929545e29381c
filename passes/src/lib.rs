//! pld's passes, written in Rust on melior.
//!
//! Each pass implements [`pld_ir::pass::bridge::Pass`] and becomes an ordinary named MLIR
//! pass through [`register_passes`]: a `pld-opt` flag, a `--pass-pipeline`
//! element with `{key=value}` options, and a pass any embedding compiler can
//! parse into its own pipeline.

pub mod decompose;
pub mod expand;
pub mod model;
pub mod pipelines;
pub mod verify;

/// How pld-verify's warning about a wait on a single rank starts (pld-run
/// shows it only for a run on one rank).
pub use verify::SINGLE_RANK_WARNING;

/// Registers every pld pass with MLIR's global pass registry, and the
/// upstream passes pld's pipelines name (safe to call more than once).
pub fn register_passes() {
    use pld_ir::pass::bridge;
    pld_dialect::register_upstream_passes();
    bridge::register::<verify::PldVerify>();
    bridge::register::<decompose::DecomposeCollectives>();
    bridge::register::<expand::ExpandTransfers>();
    bridge::register_pipeline::<pipelines::ToAscendPipeline>();
}
