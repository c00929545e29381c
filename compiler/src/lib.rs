//! All of pld's passes in one registration, and the pipeline that spans the
//! layers: `pld-to-cce-pipeline` runs `pld-to-ascend-pipeline` (pld-passes)
//! and then the Ascend target's passes (pld-lowering), which stand side by
//! side on pld-ir and do not know each other.

use pld_ir::pass::bridge::{self, OptionError, PassOption, Pipeline, element};
use pld_lowering::{convert::ConvertPldToAscend, insert_sync::InsertSync, plan_ub::PlanUb};
use pld_passes::pipelines::ToAscendPipeline;

/// Registers every pld pass and pipeline with MLIR's global pass registry,
/// and the upstream passes they name (safe to call more than once).
pub fn register_all_passes() {
    pld_passes::register_passes();
    pld_lowering::register_passes();
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
            return Err(format!("expected 7 option values, found {}", values.len()).into());
        };
        Ok([
            ToAscendPipeline::passes(values)?,
            element::<ConvertPldToAscend>(&[("default-kind", kind)])?,
            // The conversion builds each index constant, view and peer
            // pointer where it is used; sharing them shrinks the C++ (by a
            // sixth on the benchmark) and the work of every later pass.
            "cse".to_owned(),
            element::<PlanUb>(&[("ub-bytes", ub)])?,
            element::<InsertSync>(&[])?,
            "arith-expand".to_owned(),
            "convert-to-emitc".to_owned(),
        ]
        .join(","))
    }
}
