//! Signals used in incompatible ways: Set and AtomicAdd mixed on the same
//! cells; a collective's self-clearing signal also driven by hand; one window
//! shared between a ring and a mesh collective.

use super::signals::{SignalGroups, accesses, collective_signals};
use crate::{report::Report, verify::ir};
use melior::ir::{Value, operation::OperationLike, operation::OperationRef};
use std::collections::HashMap;

/// The window buffer a signal views, when it is a `pld.tensor.window`.
fn window_buffer<'c: 'a, 'a>(signal: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    let definition = ir::defining_op(signal)?;
    (ir::name(&definition) == "pld.tensor.window").then(|| ir::operand(&definition, 0))?
}

fn is_ring(op: &OperationRef) -> bool {
    ir::name(op) == "pld.tensor.allreduce" && ir::enum_keyword(op, "mode") == Some("ring")
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    let all = accesses(ops);
    for group in SignalGroups::new(&all).iter() {
        let notifies: Vec<_> = group.iter().filter(|access| access.is_notify()).collect();
        for (index, later) in notifies.iter().enumerate() {
            if let Some(earlier) = notifies[..index]
                .iter()
                .find(|earlier| earlier.mode != later.mode && earlier.may_overlap(later))
            {
                report.error(
                    &later.op,
                    &format!(
                        "notify with op {} on signal{} mixes Set and AtomicAdd on the same cells",
                        later.mode,
                        later.cell_text()
                    ),
                    &[(
                        earlier.op.location(),
                        format!("op {} on signal{} here", earlier.mode, earlier.cell_text()),
                    )],
                );
            }
        }
    }

    let owned = collective_signals(ops);
    let owner_of: HashMap<usize, OperationRef> = owned
        .iter()
        .map(|(signal, collective)| (ir::value_key(*signal), *collective))
        .collect();
    for access in &all {
        if let Some(collective) = owner_of.get(&ir::value_key(access.signal)) {
            report.error(
                &access.op,
                &format!(
                    "the signal of '{}' is owned by that collective (it counts AtomicAdd credits \
                     and clears itself); '{}' on it corrupts the collective's protocol",
                    ir::name(collective),
                    ir::name(&access.op)
                ),
                &[(collective.location(), "the owning collective".to_owned())],
            );
        }
    }

    // Collectives by the window buffer their signal views: a ring and a mesh
    // algorithm must not share one.
    let by_buffer = ir::group_in_order(owned.iter().copied(), |(signal, _)| {
        window_buffer(signal).map(ir::value_key)
    });
    for collectives in &by_buffer {
        for (index, (_, later)) in collectives.iter().enumerate() {
            if let Some((_, earlier)) = collectives[..index]
                .iter()
                .find(|(_, earlier)| is_ring(earlier) != is_ring(later))
            {
                report.error(
                    later,
                    "a ring allreduce and a mesh collective share one signal window; each \
                     collective owns its signal",
                    &[(
                        earlier.location(),
                        "the other collective on the same window".to_owned(),
                    )],
                );
            }
        }
    }
}
