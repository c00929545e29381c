//! Set and AtomicAdd on one signal cell (semantics §6), judged on each rank's
//! run: the cell a notify reaches is known there even where its offsets are
//! computed (`[%me, 0]` on the ranks that take a branch), so a protocol
//! whose Sets and atomic adds only look alike in the IR (a post of `[0, 0]`
//! to the origins, completions into `[%me, 0]` of the target) is accepted,
//! and one whose computed cells do meet is reported. Pairs whose offsets
//! are all constants are the protocol rule's (`protocol::mixed_signals`).

use super::run::{EventId, EventKind, Run};
use crate::verify::protocol::SignalAccess;
use rustc_hash::FxHashMap as HashMap;

/// Pairs of notifies of the two modes that reach one cell in this run, one
/// pair per cell: the op written later first (it carries the error), then
/// the earlier, as `position` orders ops in the module's text.
pub fn mixed(run: &Run, position: impl Fn(EventId) -> usize) -> Vec<(EventId, EventId)> {
    // The notify of each mode that comes first in the text, per cell.
    let mut first: HashMap<_, [Option<EventId>; 2]> = HashMap::default();
    for (event, e) in run.events.iter().enumerate() {
        if let EventKind::Notify { cell, set, .. } = &e.kind {
            let slot = &mut first.entry(*cell).or_default()[usize::from(*set)];
            if slot.is_none_or(|other| position(event) < position(other)) {
                *slot = Some(event);
            }
        }
    }
    let mut pairs: Vec<(EventId, EventId)> = first
        .into_values()
        .filter_map(|[add, set]| {
            let (add, set) = (add?, set?);
            let pair = if position(add) < position(set) {
                (set, add)
            } else {
                (add, set)
            };
            (!both_constant(run, add, set)).then_some(pair)
        })
        .collect();
    pairs.sort_unstable_by_key(|(later, earlier)| (position(*later), position(*earlier)));
    pairs
}

/// Whether both notifies name their cell with constants only.
fn both_constant(run: &Run, a: EventId, b: EventId) -> bool {
    let constant = |event: EventId| {
        run.events[event]
            .op
            .and_then(SignalAccess::of)
            .is_some_and(|access| access.cell.iter().all(Option::is_some))
    };
    constant(a) && constant(b)
}
