//! Waits an unlucky order starves: on a cell only Sets write, a wait holds
//! once it reads a value it accepts, so a Set of a value it does not accept
//! that may land after every accepted one and before the wait reads leaves
//! it waiting for good (a lost pulse: a flag set and cleared again before
//! the waiter looked). The run's own order may pass it; `pld-run --explore`
//! finds the order that hangs. Judged on the run's happens-before: the
//! spoiling Set is not ordered after the wait, and no accepted Set that may
//! come before the wait is ordered after the spoiler, so the order "the
//! accepted Sets, the spoiler, the wait's read" extends it.

use super::order::Order;
use super::run::{Cell, EventId, EventKind, Run};
use rustc_hash::FxHashMap as HashMap;

/// A wait, the Set that may spoil it, and the Sets it would accept.
pub struct Lost {
    pub wait: EventId,
    pub spoiler: EventId,
    pub accepted: Vec<EventId>,
}

pub fn lost(run: &Run, order: &Order) -> Vec<Lost> {
    // A plain store may write a cell of its memory: such cells are not
    // judged (as in hangs.rs).
    let stored = run.stored_places();
    let mut notifies: HashMap<Cell, Vec<(EventId, i64, bool)>> = HashMap::default();
    for (id, event) in run.events.iter().enumerate() {
        if let EventKind::Notify {
            cell, value, set, ..
        } = event.kind
        {
            notifies.entry(cell).or_default().push((id, value, set));
        }
    }
    let mut found = Vec::new();
    for (wait, event, cell, expected, eq) in run.waits() {
        let Some(list) = notifies.get(&cell) else {
            continue;
        };
        // Sets only; the cell starts at 0, which must not hold it already.
        let holds = |v: i64| if eq { v == expected } else { v >= expected };
        if event.op.is_none()
            || stored.contains(&cell.place)
            || holds(0)
            || list.iter().any(|(_, _, set)| !set)
        {
            continue;
        }
        let accepted: Vec<EventId> = list
            .iter()
            .filter(|(n, value, _)| holds(*value) && !order.before(wait, *n))
            .map(|(n, ..)| *n)
            .collect();
        if accepted.is_empty() {
            // A wait nothing can satisfy is hangs.rs's.
            continue;
        }
        let spoiler = list
            .iter()
            .find(|(s, value, _)| {
                !holds(*value)
                    && !order.before(wait, *s)
                    && accepted.iter().all(|n| !order.before(*s, *n))
            })
            .map(|(s, ..)| *s);
        if let Some(spoiler) = spoiler {
            found.push(Lost {
                wait,
                spoiler,
                accepted,
            });
        }
    }
    found
}
