//! `pld-verify`: the rules of pld programs that no single op can check.
//!
//! - placement (SPEC §1, §3): host-only and InCore-only ops;
//! - target (SPEC §3): the module's chip profile (`pld.target`, default
//!   Ascend910B) and the HOST rail's collective limits;
//! - collective operands judged by value (SPEC §3): a broadcast's root;
//! - the defer_wait contract (SPEC §3);
//! - protocol analysis (SPEC §6).
//!
//! Code is InCore inside a function marked `pl.kernel = #pl.kernel<incore>`
//! and inside the body of a task (`pl.at`, `pl.spmd`), wherever that task
//! stands; it is host code in a function marked `#pl.kernel<host>`. A
//! function without the attribute is of the kind the `default-kind` option
//! names (`host` unless told otherwise).

mod collectives;
mod defer_wait;
mod fold;
pub mod ir;
mod ops;
pub mod placement;
mod protocol;

mod target;

use crate::bridge::{Pass, PassFailed, PassOption};
use crate::report::Report;
use melior::ir::operation::OperationRef;
pub use placement::CodeKind;

/// The `pld-verify` pass.
pub struct PldVerify {
    default_kind: CodeKind,
}

impl Pass for PldVerify {
    const ARGUMENT: &'static str = "pld-verify";
    const DESCRIPTION: &'static str = "Check the contextual rules of pld programs: placement, \
                                       target profile, the defer_wait contract and the signal \
                                       protocol";
    const OPTIONS: &'static [PassOption] = &[PassOption {
        name: "default-kind",
        description: "Kind of a function without a pl.kernel attribute: host or incore",
        default: "host",
    }];
    // The checks only read the IR (the value analysis restores the
    // visibility it changes while it runs).
    const LEAVES_IR_UNCHANGED: bool = true;

    fn from_options(values: &[&str]) -> Result<Self, String> {
        Ok(Self {
            default_kind: CodeKind::parse(values.first().copied().unwrap_or("host"))?,
        })
    }

    fn run(&self, op: OperationRef) -> Result<(), PassFailed> {
        // The rules judge values, not spellings: what the dataflow analyses
        // know of every integer (constants however computed, ranges).
        // SAFETY: `_facts` drops at the end of this call, while `op` (the op
        // the pass runs on, alive for the run) still exists.
        let _facts = unsafe { ir::FactsScope::enter(op) };
        let ops = ir::nested_ops(op);
        let mut report = Report::default();
        placement::check(&ops, self.default_kind, &mut report);
        target::check(&ops, self.default_kind, &mut report);
        collectives::check(&ops, &mut report);
        defer_wait::check(&ops, &mut report);
        protocol::check(&op, &ops, &mut report);
        if report.failed() {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}
