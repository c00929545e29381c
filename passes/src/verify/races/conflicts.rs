//! The conflicting accesses of a run that happens-before leaves unordered,
//! found as a vector-clock race detector finds them (FastTrack, Flanagan and
//! Freund, PLDI 2009): the events in an order that extends happens-before,
//! and per stretch of memory only the last write and each thread's last
//! read since it. That finds a race wherever one exists (at least one pair
//! per stretch of memory) in time near-linear in the accesses, where
//! comparing every pair of overlapping accesses is quadratic in the phases
//! of a protocol that reuses one window.

use super::order::Order;
use super::run::{EventId, EventKind, OpPair, Place, Run};
use pld_dialect::interfaces::AccessKind;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use smallvec::SmallVec;

/// How an event touches memory: a payload access, or a signal op or atomic
/// add (atomic: it conflicts only with plain accesses).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Touch {
    write: bool,
    atomic: bool,
}

/// An event's memory: its place, its byte intervals, how it touches them.
type Touched = (Place, Vec<(i64, i64)>, Touch);

fn touch(kind: &EventKind) -> Option<(Place, Touch)> {
    match kind {
        EventKind::Access { place, kind, .. } => Some((
            *place,
            Touch {
                write: *kind != AccessKind::Read,
                atomic: *kind == AccessKind::AtomicAdd,
            },
        )),
        EventKind::Notify { cell, .. } | EventKind::Wait { cell, .. } => Some((
            cell.place,
            Touch {
                write: matches!(kind, EventKind::Notify { .. }),
                atomic: true,
            },
        )),
        _ => None,
    }
}

/// The byte intervals an event touches.
fn bytes(kind: &EventKind) -> Vec<(i64, i64)> {
    match kind {
        EventKind::Access { footprint, .. } => footprint.bytes(),
        EventKind::Notify { cell, .. } | EventKind::Wait { cell, .. } => {
            vec![(cell.byte, cell.byte + 4)]
        }
        _ => Vec::new(),
    }
}

/// Per thread, one event: a short list (few threads touch one stretch), kept
/// inline so that the many stretches a strided access cuts allocate nothing.
#[derive(Default, Clone)]
struct PerThread(SmallVec<[(usize, EventId); 2]>);

impl PerThread {
    fn set(&mut self, thread: usize, event: EventId) {
        match self.0.iter_mut().find(|(t, _)| *t == thread) {
            Some(slot) => slot.1 = event,
            None => self.0.push((thread, event)),
        }
    }

    fn events(&self) -> impl Iterator<Item = EventId> + '_ {
        self.0.iter().map(|(_, event)| *event)
    }
}

/// What one stretch of memory has seen: the last plain write, and per
/// thread the last plain read, atomic write and atomic read since it.
#[derive(Default, Clone)]
struct Shadow {
    write: Option<EventId>,
    reads: PerThread,
    atomic_writes: PerThread,
    atomic_reads: PerThread,
}

/// The most byte intervals the accesses to written memory of one run may
/// make: a strided access (a column of a window) is one interval per row,
/// and the search keeps a shadow per stretch between interval bounds, so a
/// run of many strided accesses would take memory quadratic in them (a
/// 3000 x 3000 window read by columns and written by rows took 8 GB, a
/// 1000 x 1000 one 780 MB).
pub const MAX_INTERVALS: usize = 1 << 19;

/// Every unordered conflicting pair found, once per pair of ops, in event
/// order; `Err` with the count when the accesses to written memory make more
/// than [`MAX_INTERVALS`] byte intervals.
pub fn races(run: &Run, order: &Order) -> Result<Vec<(EventId, EventId)>, usize> {
    let touches: Vec<(EventId, Place, Touch)> = run
        .events
        .iter()
        .enumerate()
        .filter_map(|(id, event)| touch(&event.kind).map(|(place, touch)| (id, place, touch)))
        .collect();
    // Memory nobody writes cannot race: dropping it before its intervals
    // are made keeps a GEMM's operands (every block of B read once per
    // tile, on every rank) out of the search, which they would dominate.
    let written: HashSet<Place> = touches
        .iter()
        .filter(|(_, _, touch)| touch.write)
        .map(|(_, place, _)| *place)
        .collect();
    let touches: Vec<(EventId, Place, Touch)> = touches
        .into_iter()
        .filter(|(_, place, _)| written.contains(place))
        .collect();
    let intervals = touches
        .iter()
        .map(|(id, _, _)| match &run.events[*id].kind {
            EventKind::Access { footprint, .. } => footprint.runs(),
            _ => 1,
        })
        .fold(0usize, usize::saturating_add);
    if intervals > MAX_INTERVALS {
        return Err(intervals);
    }
    let touches: Vec<(EventId, Touched)> = touches
        .into_iter()
        .map(|(id, place, touch)| (id, (place, bytes(&run.events[id].kind), touch)))
        .collect();
    // Each place cut into the stretches between all its interval bounds.
    let mut bounds: HashMap<Place, Vec<i64>> = HashMap::default();
    for (_, (place, bytes, _)) in &touches {
        let list = bounds.entry(*place).or_default();
        for (start, end) in bytes {
            list.extend([*start, *end]);
        }
    }
    for list in bounds.values_mut() {
        list.sort_unstable();
        list.dedup();
    }
    let mut shadows: HashMap<Place, Vec<Shadow>> = bounds
        .iter()
        .map(|(place, list)| (*place, vec![Shadow::default(); list.len()]))
        .collect();
    // An order that extends happens-before: a clock's total grows along it.
    let mut sequence: Vec<usize> = (0..touches.len()).collect();
    sequence.sort_by_key(|i| (order.weight(touches[*i].0), touches[*i].0));

    // Per pair of ops, the instance on the lowest ranks (then the first
    // events): what a diagnostic names does not depend on the order found.
    let mut found: HashMap<OpPair, (EventId, EventId)> = HashMap::default();
    let thread = |e: EventId| run.events[e].thread;
    let rank = |e: EventId| run.threads[thread(e)].rank;
    let rank_key = |(a, b): (EventId, EventId)| (rank(a).min(rank(b)), rank(a).max(rank(b)), a, b);
    let race =
        |earlier: EventId, later: EventId, found: &mut HashMap<OpPair, (EventId, EventId)>| {
            if thread(earlier) == thread(later) || order.ordered(earlier, later) {
                return;
            }
            let pair = (earlier.min(later), earlier.max(later));
            let slot = found.entry(run.op_pair(earlier, later)).or_insert(pair);
            if rank_key(pair) < rank_key(*slot) {
                *slot = pair;
            }
        };
    for index in sequence {
        let (event, (place, bytes, touch)) = &touches[index];
        let (event, touch) = (*event, *touch);
        let list = &bounds[place];
        let stretches = shadows.get_mut(place).expect("a shadow per place");
        for (start, end) in bytes {
            let first = list.partition_point(|b| b < start);
            let last = list.partition_point(|b| b < end);
            for shadow in &mut stretches[first..last] {
                // Plain accesses conflict with everything but plain reads
                // with plain reads; atomics only with plain accesses.
                if let Some(write) = shadow.write {
                    race(write, event, &mut found);
                }
                if touch.write {
                    for read in shadow.reads.events() {
                        race(read, event, &mut found);
                    }
                }
                if !touch.atomic {
                    for write in shadow.atomic_writes.events() {
                        race(write, event, &mut found);
                    }
                    if touch.write {
                        for read in shadow.atomic_reads.events() {
                            race(read, event, &mut found);
                        }
                    }
                }
                let t = thread(event);
                match (touch.atomic, touch.write) {
                    (false, true) => {
                        *shadow = Shadow {
                            write: Some(event),
                            ..Shadow::default()
                        };
                    }
                    (false, false) => shadow.reads.set(t, event),
                    (true, true) => shadow.atomic_writes.set(t, event),
                    (true, false) => shadow.atomic_reads.set(t, event),
                }
            }
        }
    }
    let mut found: Vec<(EventId, EventId)> = found.into_values().collect();
    found.sort();
    Ok(found)
}
