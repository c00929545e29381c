//! Waits that no execution of a run satisfies (a hang on that rank count):
//! the cell can never reach the expected value from the notifies that may
//! come before the wait. Only signals the run notifies somewhere are
//! judged: one it never notifies is driven from outside it. Judged with the counting semantics of
//! [`super::order`]: cells start at 0, and a notify ordered after the wait
//! (by program order, a task dependency or a collective) cannot help it.

use super::order::Order;
use super::run::{Cell, EventId, EventKind, Run};
use std::collections::{HashMap, HashSet};

/// A wait that never returns, and why.
pub struct Hang {
    pub wait: EventId,
    /// The notifies of its cell that may come before it.
    pub notifies: Vec<EventId>,
    pub reason: String,
}

pub fn hangs(run: &Run, order: &Order) -> Vec<Hang> {
    // A plain store may write a cell of its memory: such cells are not
    // judged here.
    let stored = run.stored_places();
    let mut notifies: HashMap<Cell, Vec<EventId>> = HashMap::new();
    for (id, event) in run.events.iter().enumerate() {
        if let EventKind::Notify { cell, .. } = event.kind {
            notifies.entry(cell).or_default().push(id);
        }
    }
    // A signal the run never notifies on any rank is driven from outside
    // it (the host, another launch): its waits are not judged.
    let notified: HashSet<usize> = notifies.keys().map(|cell| cell.place.buffer).collect();
    let mut found = Vec::new();
    for (wait, event, cell, expected, eq) in run.waits() {
        if event.op.is_none()
            || stored.contains(&cell.place)
            || !notified.contains(&cell.place.buffer)
        {
            continue;
        }
        let possible: Vec<EventId> = notifies
            .get(&cell)
            .map(|list| {
                list.iter()
                    .copied()
                    .filter(|n| !order.before(wait, *n))
                    .collect()
            })
            .unwrap_or_default();
        let notify = |n: EventId| match run.events[n].kind {
            EventKind::Notify { value, set, .. } => (value, set),
            _ => unreachable!("notifies only"),
        };
        let sets = possible.iter().filter(|n| notify(**n).1).count();
        let predicate = if eq { "==" } else { ">=" };
        let reason = if sets == 0 {
            // Atomic adds (or none): the most the cell can hold bounds what
            // a wait can see, for `eq` as for `ge`.
            let most: i64 = possible.iter().map(|n| notify(*n).0.max(0)).sum();
            (most < expected).then(|| {
                if possible.is_empty() {
                    format!("no notify that may come before it reaches the cell, which stays 0, short of {predicate} {expected}")
                } else {
                    format!(
                        "the notifies that may come before it add at most {most}, short of {predicate} {expected}"
                    )
                }
            })
        } else if sets == possible.len() {
            let holds = |v: i64| if eq { v == expected } else { v >= expected };
            let mut values: Vec<i64> = possible.iter().map(|n| notify(*n).0).collect();
            values.sort_unstable();
            values.dedup();
            (!holds(0) && !values.iter().any(|v| holds(*v))).then(|| {
                let listed = values
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "the notifies that may come before it set {listed}, none {predicate} {expected}"
                )
            })
        } else {
            // Sets and adds mixed: the mixing rule's.
            None
        };
        if let Some(reason) = reason {
            found.push(Hang {
                wait,
                notifies: possible,
                reason,
            });
        }
    }
    found
}
