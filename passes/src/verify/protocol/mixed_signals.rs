//! Signals used in incompatible ways: Set and AtomicAdd mixed on the same
//! cells; a collective's self-clearing signal also driven by hand; one window
//! shared between a ring and a mesh collective.

use super::signals::{NotifyIndex, SignalGroups, accesses, collective_signals};
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
        // The first earlier notify of another mode on a cell that may be the
        // same, looked up by cell rather than by scanning every earlier
        // notify (which is quadratic in a kernel that notifies one signal
        // thousands of times).
        let index = NotifyIndex::new(group);
        for (position, later) in index.notifies.iter().enumerate() {
            if let Some(earlier) = index
                .first_of_other_mode(&later.cell, later.mode, position)
                .map(|earlier| index.notifies[earlier])
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
        // The first earlier collective of the other kind is the first of
        // that kind so far: remembering the first ring and the first mesh
        // one keeps thousands of views of one buffer linear.
        let mut first: [Option<OperationRef>; 2] = [None, None];
        for (_, later) in collectives {
            let ring = is_ring(later);
            first[usize::from(ring)].get_or_insert(*later);
            if let Some(earlier) = first[usize::from(!ring)] {
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
