//! Integers a program reads from windows: a `pl.read` of a cell the peers
//! write, as MoE's prefix sums read the counts every rank published with
//! atomic-add notifies. Each rank runs on its own (interpret.rs), so a
//! peer's write is not there yet when a rank reads; the run assumes a value
//! instead (the window's start, 0, at first) and the read's value is
//! checked against the run's order afterwards: what a read sees is the
//! writes of its cell ordered before it (a notify's add or set, a
//! `pl.write` of a value the run knows), the last set among them and the
//! adds after it. A run whose every read saw what it assumed is an
//! execution of the program; one that did not runs again with what its
//! reads saw, until the values settle ([`MAX_ROUNDS`] runs at most).
//!
//! A read whose value is not known (its cell set by writes no order puts
//! one after the other, or written by a store whose values the run does not
//! follow) gives an unknown value in the next run, as any unknown integer:
//! what needs it (a peer, an offset, a branch) leaves the rule undecided
//! there, and a value nothing needs decides nothing.
//!
//! A write unordered with a read is left out of what the read sees: it
//! conflicts with the read, a race the run reports once the values settle,
//! or before, when no read in the causal past of either access is one whose
//! value has not settled (everything that led to the two accesses is then
//! what the program does).

use super::conflicts;
use super::order::Order;
use super::run::{EventId, EventKind, Place, Run};
use rustc_hash::FxHashMap as HashMap;

/// The most runs of one assignment whose window reads have not settled.
pub const MAX_ROUNDS: usize = 8;

/// A window element the run read as an integer, and the value it assumed.
#[derive(Clone, Debug)]
pub struct WindowRead {
    pub event: EventId,
    pub place: Place,
    pub byte: i64,
    /// How many reads of the element came before in the run.
    pub occurrence: usize,
    /// `None`: the run took the value as unknown.
    pub assumed: Option<i64>,
}

/// The values runs assume their window reads see, by the element (place
/// and byte) and the occurrence of the read (`Some(0)` for any other: a
/// window starts zeroed); `None` where the value is not known. A cell read
/// again after new writes holds a new value.
pub type Assumed = HashMap<(Place, i64, usize), Option<i64>>;

/// What a run with window reads comes to.
pub enum Judged {
    /// Its reads settled: judge it as any run.
    Settled,
    /// They did not, but these races happen whatever they see: nothing in
    /// the causal past of either access read a value that changed.
    Races(Vec<(EventId, EventId)>),
    /// Run the assignment again, assuming these values.
    Again(Assumed),
    /// They did not settle in [`MAX_ROUNDS`] runs: this read, for one.
    Unsettled(EventId),
}

/// Judges `run`, the `round`-th run of its assignment, by its `order`.
pub fn judge(run: &Run, order: &Order, round: usize) -> Judged {
    let (seen, unsettled) = match settle(run, order) {
        Settled::Yes => return Judged::Settled,
        Settled::Again { seen, unsettled } => (seen, unsettled),
    };
    // A run a rank stopped in by a trap is judged once its reads settle.
    if run.trapped.is_none() {
        let caused = |event: EventId| {
            unsettled
                .iter()
                .any(|read| *read != event && order.before(*read, event))
        };
        let races: Vec<(EventId, EventId)> = conflicts::races(run, order)
            .unwrap_or_default()
            .into_iter()
            .filter(|(a, b)| !caused(*a) && !caused(*b))
            .collect();
        if !races.is_empty() {
            return Judged::Races(races);
        }
    }
    if round + 1 < MAX_ROUNDS {
        Judged::Again(seen)
    } else {
        Judged::Unsettled(unsettled[0])
    }
}

/// Whether a run's window reads saw what they assumed.
enum Settled {
    /// They did: the run is an execution of the program.
    Yes,
    /// Some did not: run again assuming what they saw (`seen`); the reads
    /// that did not see what they assumed.
    Again {
        seen: Assumed,
        unsettled: Vec<EventId>,
    },
}

/// A write of a window element: what it does to the element.
#[derive(Clone, Copy)]
enum Effect {
    Add(i64),
    Set(i64),
    /// A plain write: the value the run followed at a byte
    /// ([`Run::written`]), or one it did not follow.
    Written,
    /// A write whose value the run does not follow (an atomic add of a
    /// region).
    Opaque,
}

/// A write of a place: its event, the bytes it covers, what it does.
type Write = (EventId, (i64, i64), Effect);

/// Checks the reads of `run` against its `order`.
fn settle(run: &Run, order: &Order) -> Settled {
    // The writes of each place a read reads, with the bytes they cover (a
    // write the run followed, the value it left at the read's byte).
    let mut writes: HashMap<Place, Vec<Write>> = HashMap::default();
    for read in &run.window_reads {
        writes.entry(read.place).or_default();
    }
    for (event, happened) in run.events.iter().enumerate() {
        let (place, bytes, effect) = match &happened.kind {
            EventKind::Notify {
                cell, value, set, ..
            } => {
                let effect = if *set {
                    Effect::Set(*value)
                } else {
                    Effect::Add(*value)
                };
                (cell.place, vec![(cell.byte, cell.byte + 4)], effect)
            }
            EventKind::Access {
                place,
                footprint,
                kind,
            } if *kind != pld_dialect::interfaces::AccessKind::Read => {
                let effect = if *kind == pld_dialect::interfaces::AccessKind::Write {
                    Effect::Written
                } else {
                    Effect::Opaque
                };
                (*place, footprint.bytes(), effect)
            }
            _ => continue,
        };
        if let Some(list) = writes.get_mut(&place) {
            list.extend(bytes.into_iter().map(|range| (event, range, effect)));
        }
    }
    let mut seen = Assumed::default();
    let mut unsettled = Vec::new();
    let mut unknown = Vec::new();
    for read in &run.window_reads {
        let before: Vec<(EventId, Effect)> = writes[&read.place]
            .iter()
            .filter(|(event, (start, end), _)| {
                *start <= read.byte && read.byte < *end && order.before(*event, read.event)
            })
            .map(|(event, _, effect)| {
                let effect = match effect {
                    Effect::Written => run
                        .written
                        .get(&(*event, read.byte))
                        .map_or(Effect::Opaque, |value| Effect::Set(*value)),
                    other => *other,
                };
                (*event, effect)
            })
            .collect();
        let key = (read.place, read.byte, read.occurrence);
        match value_seen(&before, order) {
            // Not known, where the run assumed a value: kept until every
            // other read has settled (a run on unsettled values may make
            // writes no later run makes: two ranks putting into one slot
            // whose offsets they have not learnt yet).
            None if read.assumed.is_some() => {
                unknown.push((read.event, key));
                seen.insert(key, read.assumed);
            }
            value => {
                if value != read.assumed {
                    unsettled.push(read.event);
                }
                seen.insert(key, value);
            }
        }
    }
    if !unsettled.is_empty() {
        return Settled::Again { seen, unsettled };
    }
    if unknown.is_empty() {
        return Settled::Yes;
    }
    // Everything else settled: what these reads see is not known.
    for (_, key) in &unknown {
        seen.insert(*key, None);
    }
    Settled::Again {
        seen,
        unsettled: unknown.into_iter().map(|(read, _)| read).collect(),
    }
}

/// What a read sees after the writes `before` (all ordered before it):
/// `None` when that is not known.
fn value_seen(before: &[(EventId, Effect)], order: &Order) -> Option<i64> {
    if before
        .iter()
        .any(|(_, effect)| matches!(effect, Effect::Opaque))
    {
        return None;
    }
    let sets: Vec<(EventId, i64)> = before
        .iter()
        .filter_map(|(event, effect)| match effect {
            Effect::Set(value) => Some((*event, *value)),
            _ => None,
        })
        .collect();
    let last: Vec<&(EventId, i64)> = sets
        .iter()
        .filter(|(set, _)| {
            !sets
                .iter()
                .any(|(other, _)| other != set && order.before(*set, *other))
        })
        .collect();
    let (base, from) = match last.as_slice() {
        [] => (0, None),
        [(event, value)] => (*value, Some(*event)),
        // Set by writes that no order puts one after the other.
        _ => return None,
    };
    let mut value = base;
    for (event, effect) in before {
        let Effect::Add(amount) = effect else {
            continue;
        };
        match from {
            None => value += amount,
            Some(set) if order.before(set, *event) => value += amount,
            Some(set) if order.before(*event, set) => {}
            // Set and added to by writes no order puts one after the
            // other.
            Some(_) => return None,
        }
    }
    Some(value)
}
