//! Protocol analysis (semantics §6): the bugs that nothing in the original system
//! diagnoses. Every rule errs on the side of silence: it only reports what
//! the IR proves (constant values, static offsets and shapes).

mod double_notify;
mod mixed_signals;
mod publish_order;
mod region_mismatch;
mod reused_signal;
mod signals;
mod unreachable_wait;
mod windows;

use crate::verify::declarations::Declarations;
use melior::ir::operation::OperationRef;
use pld_ir::pass::report::Report;
pub use signals::SignalAccess;
pub use unreachable_wait::SINGLE_RANK_WARNING;

pub fn check<'c, 'a>(
    root: &OperationRef<'c, 'a>,
    ops: &[OperationRef<'c, 'a>],
    declared: &mut Declarations<'c, 'a>,
    report: &mut Report,
) {
    // Every notify, wait and defer_wait with its cell resolved, once for the
    // rules that read them.
    let signals = signals::accesses(ops);
    unreachable_wait::check(root, ops, &signals, report);
    double_notify::check(ops, declared, report);
    mixed_signals::check(ops, &signals, report);
    reused_signal::check(ops, &signals, report);
    region_mismatch::check(ops, declared, report);
    publish_order::check(ops, report);
}
