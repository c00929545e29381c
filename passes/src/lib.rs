//! pld's passes, written in Rust on melior.
//!
//! Each pass implements [`bridge::Pass`] and becomes an ordinary named MLIR
//! pass through [`register_passes`]: a `pld-opt` flag, a `--pass-pipeline`
//! element with `{key=value}` options, and a pass any embedding compiler can
//! parse into its own pipeline.

pub mod bridge;
pub mod verify;

use std::sync::Once;

/// Registers every pld pass with MLIR's global pass registry. Safe to call
/// more than once: MLIR rejects a second registration of a name.
pub fn register_passes() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        bridge::register::<verify::PldVerify>();
    });
}
