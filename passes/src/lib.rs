//! pld's passes, written in Rust on melior.
//!
//! Each pass implements [`bridge::Pass`] and becomes an ordinary named MLIR
//! pass through [`register_passes`]: a `pld-opt` flag, a `--pass-pipeline`
//! element with `{key=value}` options, and a pass any embedding compiler can
//! parse into its own pipeline.

pub mod bridge;
pub mod declared;
pub mod decompose;
pub mod expand;
pub mod ir;
pub mod model;
pub mod pipelines;
pub mod report;
pub mod verify;

/// Registers every pld pass with MLIR's global pass registry, and the
/// upstream passes pld's pipelines name (safe to call more than once).
pub fn register_passes() {
    pld_dialect::register_upstream_passes();
    bridge::register::<verify::PldVerify>();
    bridge::register::<decompose::DecomposeCollectives>();
    bridge::register::<expand::ExpandTransfers>();
    bridge::register_pipeline::<pipelines::ToAscendPipeline>();
}
