//! pld's lowering below the pld level, written in Rust on melior:
//!
//! - `convert-pld-to-ascend` ([`convert`]): pld and pl to the `ascend`
//!   target dialect (kernels over `__gm__` pointers and the CommContext,
//!   host code that submits tasks, entry wrappers);
//! - `ascend-plan-ub` ([`plan_ub`]): unified-buffer offsets of the tiles;
//! - `ascend-insert-sync` ([`insert_sync`]): release before publishing,
//!   acquire after waiting, pipe syncs;
//!
//! `pld-to-cce-pipeline` (all of it from pld-level input to EmitC, which
//! `pld-translate --pld-to-cce` prints as C++) is `pld-compiler`'s: it runs
//! pld-passes' `pld-to-ascend-pipeline` first.
//!
//! The C++ the emitted code calls is `runtime/include/pld/runtime.h`: PTO
//! ISA on the device, the simulator on a host compiler.

pub mod allocate;
pub mod convert;
pub mod insert_sync;
pub mod plan_ub;

use pld_ir::pass::bridge;

/// Registers the Ascend target's passes (`pld-compiler` registers them with
/// pld's other passes and `pld-to-cce-pipeline`).
pub fn register_passes() {
    bridge::register::<convert::ConvertPldToAscend>();
    bridge::register::<plan_ub::PlanUb>();
    bridge::register::<insert_sync::InsertSync>();
}
