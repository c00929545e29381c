//! The named pipelines: each is a list of registered passes, with the
//! options of the passes it runs.

use crate::{decompose::DecomposeCollectives, expand::ExpandTransfers, verify::PldVerify};
use pld_ir::pass::{
    bridge::{OptionError, PassOption, Pipeline, element},
    declared,
};

/// `pld-to-ascend-pipeline`: pld with collectives and transfers -> pld with
/// only notify/wait, tile loads/stores and remote tile accesses, folded, and
/// checked before and after.
pub struct ToAscendPipeline;

impl Pipeline for ToAscendPipeline {
    const ARGUMENT: &'static str = "pld-to-ascend-pipeline";
    const DESCRIPTION: &'static str = "pld-verify, pld-decompose-collectives, pld-expand-transfers, \
                                       canonicalize, cse, pld-verify: the pld-level half of the \
                                       lowering";
    // The passes' own options, which the pipeline hands on.
    const OPTIONS: &'static [PassOption] = &[
        declared::pld_verify::DEFAULT_KIND,
        declared::pld_decompose_collectives::CHUNK_BYTES,
        PassOption {
            description: "Unified-buffer bytes for the chunk tiles of \
                          pld-decompose-collectives and the staging tiles of \
                          pld-expand-transfers (and ascend-plan-ub's budget)",
            ..declared::pld_decompose_collectives::UB_BYTES
        },
        declared::pld_decompose_collectives::ALGORITHM,
        declared::pld_decompose_collectives::MODEL,
        declared::pld_decompose_collectives::MODEL_OVERRIDES,
        PassOption {
            name: "verify",
            description: "Whether pld-verify runs before and after the rewrites: true, or \
                          false to lower a program its rules reject (pld-run --no-verify)",
            default: "true",
        },
    ];

    fn passes(values: &[&str]) -> Result<String, OptionError> {
        let [kind, chunk, ub, algorithm, model, overrides, verify] = values else {
            return Err(format!("expected 7 option values, found {}", values.len()).into());
        };
        let verify = match *verify {
            "true" => true,
            "false" => false,
            other => {
                return Err(
                    format!("expected verify to be 'true' or 'false', found '{other}'").into(),
                );
            }
        };
        // Inside a pipeline a race the rule cannot decide, or the choice
        // auto made, is not news: the user asked for code, not for a review.
        let verify = verify
            .then(|| element::<PldVerify>(&[("default-kind", kind), ("remarks", "false")]))
            .transpose()?;
        let rewrites = [
            element::<DecomposeCollectives>(&[
                ("chunk-bytes", chunk),
                ("ub-bytes", ub),
                ("algorithm", algorithm),
                ("model", model),
                ("model-overrides", overrides),
                ("remarks", "false"),
                ("default-kind", kind),
            ])?,
            element::<ExpandTransfers>(&[("ub-bytes", ub)])?,
            // The generated code repeats constants and index arithmetic per
            // builder call; folding it keeps the output readable.
            "canonicalize".to_owned(),
            "cse".to_owned(),
        ];
        Ok(verify
            .clone()
            .into_iter()
            .chain(rewrites)
            .chain(verify)
            .collect::<Vec<_>>()
            .join(","))
    }
}
