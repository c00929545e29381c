//! A payload write that is not ordered before the notify that publishes it
//! (notify-before-data): a write into a window that follows a notify in the
//! same phase (no wait in between) and that no later notify publishes.

use crate::report::Report;
use crate::verify::{
    ir,
    ops::{
        COLLECTIVE_SIGNALS, DEFER_WAIT, LOCAL_WRITES, NOTIFY, REMOTE_WRITES, WAIT, table_operand,
    },
    placement::kernels_of,
};
use melior::ir::{ValueLike, operation::OperationLike, operation::OperationRef};

/// The window operand a payload write writes, if `op` writes one.
fn payload_target<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<melior::ir::Value<'c, 'a>> {
    let target = table_operand(op, REMOTE_WRITES).or_else(|| table_operand(op, LOCAL_WRITES))?;
    pld_dialect::types::is_distributed_tensor(target.r#type()).then_some(target)
}

fn is_synchronisation(name: &str) -> bool {
    name == WAIT
        || name == DEFER_WAIT
        || COLLECTIVE_SIGNALS
            .iter()
            .any(|(collective, _)| *collective == name)
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    // Each kernel's own ops in program order (not those of nested tasks).
    let sequences = ir::group_in_order(ops.iter().copied().zip(kernels_of(ops)), |(_, kernel)| {
        kernel.map(|kernel| ir::op_key(&kernel))
    });
    for sequence in &sequences {
        let mut pending_notify: Option<OperationRef> = None;
        let mut unpublished: Vec<(OperationRef, OperationRef)> = Vec::new();
        for (op, _) in sequence {
            let name = ir::name(op);
            if name == NOTIFY {
                // This notify publishes every write before it.
                unpublished.clear();
                pending_notify = Some(*op);
            } else if is_synchronisation(name) {
                // A new phase: later writes belong to it, not to the notify.
                pending_notify = None;
            } else if payload_target(op).is_some()
                && let Some(notify) = pending_notify
            {
                unpublished.push((*op, notify));
            }
        }
        for (write, notify) in unpublished {
            report_write(&write, &notify, report);
        }
    }
}

fn report_write(write: &OperationRef, notify: &OperationRef, report: &mut Report) {
    report.error(
        write,
        &format!(
            "'{}' writes a payload after the notify that publishes it: a peer may see the \
             signal before the data; write the payload first, then notify",
            ir::name(write)
        ),
        &[(notify.location(), "the notify that publishes it".to_owned())],
    );
}
