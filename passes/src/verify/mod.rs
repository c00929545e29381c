//! `pld-verify`: the contextual rules of pld programs that no single op can
//! check (SPEC §1, §3): which ops may stand in host orchestrator code and
//! which only in InCore kernel code.
//!
//! Code is InCore inside a function marked `pl.kernel = #pl.kernel<incore>`
//! and inside the body of a task (`pl.at`, `pl.spmd`), wherever that task
//! stands; it is host code in a function marked `#pl.kernel<host>`. A
//! function without the attribute is of the kind the `default-kind` option
//! names (`host` unless told otherwise).

mod placement;

use crate::bridge::{Pass, PassFailed, PassOption};
use melior::ir::operation::OperationRef;
pub use placement::CodeKind;

/// The `pld-verify` pass.
pub struct PldVerify {
    default_kind: CodeKind,
}

impl Pass for PldVerify {
    const ARGUMENT: &'static str = "pld-verify";
    const DESCRIPTION: &'static str =
        "Check the contextual rules of pld programs (host vs InCore placement)";
    const OPTIONS: &'static [PassOption] = &[PassOption {
        name: "default-kind",
        description: "Kind of a function without a pl.kernel attribute: host or incore",
        default: "host",
    }];

    fn from_options(values: &[&str]) -> Result<Self, String> {
        let default_kind = match values.first().copied().unwrap_or("host") {
            "host" => CodeKind::Host,
            "incore" => CodeKind::InCore,
            other => {
                return Err(format!(
                    "expected default-kind to be 'host' or 'incore', found '{other}'"
                ));
            }
        };
        Ok(Self { default_kind })
    }

    fn run(&self, op: OperationRef) -> Result<(), PassFailed> {
        placement::check(op, self.default_kind)
    }
}
