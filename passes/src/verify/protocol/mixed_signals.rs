//! Signals used in incompatible ways: Set and AtomicAdd mixed on the same
//! cells; a collective's self-clearing signal also driven by hand; one window
//! shared between a ring and a mesh collective (in one function, or across
//! kernels that receive one buffer as arguments).

use super::signals::{NotifyIndex, SignalAccess, SignalGroups, collective_signals};
use super::windows::WindowRoots;
use melior::ir::{Value, operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::CollectiveMode;
use pld_dialect::ops::pld;
use pld_ir::ValueKey;
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use std::collections::{HashMap, HashSet};

fn is_ring(op: &OperationRef) -> bool {
    pld::TensorAllreduceOp::get_mode(op) == Some(CollectiveMode::Ring)
}

pub fn check(ops: &[OperationRef], all: &[SignalAccess], report: &mut Report) {
    for group in SignalGroups::new(all).iter() {
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
    let owner_of: HashMap<ValueKey, OperationRef> = owned
        .iter()
        .map(|(signal, collective)| (ir::value_key(*signal), *collective))
        .collect();
    for access in all {
        if let Some(collective) = owner_of.get(&ir::value_key(access.signal)) {
            report.error(
                &access.op,
                &format!(
                    "the signal of '{}' is owned by that collective (it counts AtomicAdd credits \
                     and clears itself); '{}' on it corrupts the collective's protocol",
                    ir::name(collective),
                    ir::name(access.op)
                ),
                &[(collective.location(), "the owning collective".to_owned())],
            );
        }
    }

    // Collectives by the window buffer their signal views, followed through
    // the module's calls: one buffer may reach a ring allreduce in one
    // kernel and a mesh collective in another as two arguments. A ring and a
    // mesh algorithm must not share one.
    if owned.is_empty() {
        return;
    }
    let mut roots = WindowRoots::new(ops);
    let memberships: Vec<(OperationRef, Value)> = owned
        .iter()
        .flat_map(|(signal, collective)| {
            roots
                .of(*signal)
                .iter()
                .map(|root| (*collective, *root))
                .collect::<Vec<_>>()
        })
        .collect();
    let by_buffer = ir::group_in_order(memberships, |(_, root)| Some(ir::value_key(root)));
    // A collective whose signal may be several buffers is reported once.
    let mut reported = HashSet::new();
    for collectives in &by_buffer {
        // The first earlier collective of the other kind is the first of
        // that kind so far: remembering the first ring and the first mesh
        // one keeps thousands of views of one buffer linear.
        let mut first: [Option<OperationRef>; 2] = [None, None];
        for (later, root) in collectives {
            let ring = is_ring(later);
            first[usize::from(ring)].get_or_insert(*later);
            let Some(earlier) = first[usize::from(!ring)] else {
                continue;
            };
            if !reported.insert(ir::op_key(later)) {
                continue;
            }
            let mut notes = vec![(
                earlier.location(),
                "the other collective on the same window".to_owned(),
            )];
            // Across kernels, where the one buffer comes from.
            if ir::enclosing_function(&earlier) != ir::enclosing_function(later)
                && let Some(buffer) = ir::defining_op(*root)
            {
                notes.push((
                    buffer.location(),
                    "the window buffer both signals view, passed to the kernels through calls"
                        .to_owned(),
                ));
            }
            report.error(
                later,
                "a ring allreduce and a mesh collective share one signal window; each \
                 collective owns its signal",
                &notes,
            );
        }
    }
}
