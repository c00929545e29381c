//! pld's lowering below the pld level, written in Rust on melior:
//!
//! - `convert-pld-to-ascend` ([`convert`]): pld and pl to the `ascend`
//!   target dialect (kernels over `__gm__` pointers and the CommContext,
//!   host code that submits tasks, entry wrappers);
//! - `ascend-plan-ub` ([`plan_ub`]): unified-buffer offsets of the tiles;
//! - `ascend-insert-sync` ([`insert_sync`]): release before publishing,
//!   acquire after waiting, pipe syncs;
//! - `pld-to-cce-pipeline`: all of it from pld-level input to EmitC, which
//!   `pld-translate --pld-to-cce` prints as C++.
//!
//! The C++ the emitted code calls is `runtime/include/pld/runtime.h`: PTO
//! ISA on the device, the simulator on a host compiler.

pub mod ascend;
pub mod convert;
pub mod insert_sync;
pub mod plan_ub;
mod report;

use pld_passes::bridge::OptionError;
use pld_passes::{
    bridge::{self, PassOption, Pipeline},
    pipelines::{ToAscendPipeline, element},
};

/// Registers the lowering passes and `pld-to-cce-pipeline` (and, since the
/// pipeline runs them, pld's passes and the upstream ones it names).
pub fn register_passes() {
    pld_passes::register_passes();
    bridge::register::<convert::ConvertPldToAscend>();
    bridge::register::<plan_ub::PlanUb>();
    bridge::register::<insert_sync::InsertSync>();
    bridge::register_pipeline::<ToCcePipeline>();
}

/// `pld-to-cce-pipeline`: pld-level input to EmitC.
pub struct ToCcePipeline;

impl Pipeline for ToCcePipeline {
    const ARGUMENT: &'static str = "pld-to-cce-pipeline";
    const DESCRIPTION: &'static str = "pld-to-ascend-pipeline, convert-pld-to-ascend, cse, ascend-plan-ub, \
                                       ascend-insert-sync, arith-expand, convert-to-emitc: pld to \
                                       the EmitC that pld-translate --pld-to-cce prints";
    const OPTIONS: &'static [PassOption] = ToAscendPipeline::OPTIONS;

    fn passes(values: &[&str]) -> Result<String, OptionError> {
        let [kind, _, ub, ..] = values else {
            return Err(format!("expected 6 option values, found {}", values.len()).into());
        };
        Ok([
            ToAscendPipeline::passes(values)?,
            element::<convert::ConvertPldToAscend>(&[("default-kind", kind)])?,
            // The conversion builds each index constant, view and peer
            // pointer where it is used; sharing them shrinks the C++ (by a
            // sixth on the benchmark) and the work of every later pass.
            "cse".to_owned(),
            element::<plan_ub::PlanUb>(&[("ub-bytes", ub)])?,
            element::<insert_sync::InsertSync>(&[])?,
            "arith-expand".to_owned(),
            "convert-to-emitc".to_owned(),
        ]
        .join(","))
    }
}
