//! Rust passes as named MLIR passes: the bridge, the passes as
//! `Passes.td` declares them, and the report of located diagnostics.

pub mod bridge;
pub mod declared;
pub mod report;
