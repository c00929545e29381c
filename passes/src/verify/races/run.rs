//! One run of an entry function on every rank of a rank count, as the race
//! rule sees it: threads of execution and, in each, the events that order
//! or conflict (docs/design/races.md).

use super::footprint::Footprint;
use melior::ir::{Location, operation::OperationRef};
use pld_dialect::interfaces::AccessKind;
use pld_ir::OpKey;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;

pub type ThreadId = usize;
pub type EventId = usize;
pub type BufferId = usize;

/// One rank's copy of a buffer: an entry argument or a window buffer the
/// program allocates (the same offset on every rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    pub owner: usize,
    pub buffer: BufferId,
}

/// A signal cell: its buffer and its byte offset in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub place: Place,
    pub byte: i64,
}

#[derive(Clone, Debug)]
pub enum EventKind {
    /// A thread's first event: after its spawn point and its dependencies'
    /// completions.
    Start {
        spawned_by: Option<EventId>,
        deps: Vec<ThreadId>,
    },
    /// A thread's last event (a task's completion, after its deferred
    /// conditions).
    End,
    /// A point where a thread starts others (their `Start` follows it).
    Spawn,
    /// A point where a thread waits for other threads to complete.
    Join(Vec<ThreadId>),
    /// A payload access of `footprint` in `place`.
    Access {
        place: Place,
        footprint: Footprint,
        kind: AccessKind,
    },
    Notify {
        cell: Cell,
        value: i64,
        set: bool,
        /// The cell's indices as the op names them, for diagnostics.
        index: Vec<i64>,
    },
    /// A wait, test or `defer_wait` condition (then at its task's end).
    Wait {
        cell: Cell,
        expected: i64,
        eq: bool,
        index: Vec<i64>,
    },
    /// A call of a collective: instance `instance` across the ranks.
    Collective { instance: usize },
}

#[derive(Clone, Debug)]
pub struct Event<'c, 'a> {
    pub thread: ThreadId,
    /// The op the user wrote (none for starts, ends and joins).
    pub op: Option<OperationRef<'c, 'a>>,
    pub kind: EventKind,
}

#[derive(Clone, Debug)]
pub struct Thread {
    pub rank: usize,
    /// "rank 0", "rank 1 task \"consume\" block 2", "rank 0 lane 1".
    pub label: String,
    pub events: Vec<EventId>,
}

#[derive(Default)]
pub struct Run<'c, 'a> {
    pub ranks: usize,
    pub threads: Vec<Thread>,
    pub events: Vec<Event<'c, 'a>>,
    /// How each buffer is named in a diagnostic.
    pub buffers: Vec<String>,
    /// The calls of each collective instance, one per rank that made it.
    pub collectives: Vec<Vec<EventId>>,
    /// The signal ops whose value the run does not know (an epoch passed
    /// in, a count read from memory), in run order: their cells are known,
    /// how they order is not, where a wait meets them.
    pub unknown_values: Vec<UnknownValue<'c>>,
    /// ` with argument 2 of @f = ...`: the values the run gave the entry's
    /// integer arguments, for its diagnostics.
    pub bound: String,
    /// The elements of the entry's memory the run read as arguments, by
    /// place and byte.
    pub input_reads: BTreeMap<(Place, i64), super::inputs::InputRead<'c>>,
    /// The integers the run read from windows, with the values it assumed
    /// (window_values.rs).
    pub window_reads: Vec<super::window_values::WindowRead>,
    /// The first trap of a run that read integers from windows (its
    /// message, where, the op): the run went on with the other ranks so
    /// that the reads can be checked, and it is the program's only if they
    /// settled (window_values.rs).
    pub trapped: Option<(String, Location<'c>, OpKey)>,
    /// How many times the run read each window element as an integer.
    pub window_occurrences: HashMap<(Place, i64), usize>,
    /// The integers the writes the run follows wrote, by the write and the
    /// byte (interpret.rs, `remember_writes`).
    pub written: HashMap<(EventId, i64), i64>,
}

/// A cell's indices as a diagnostic names them: `[1, 0]`.
pub fn cell_text(index: &[i64]) -> String {
    let parts: Vec<String> = index.iter().map(i64::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// A notify or wait whose value the run does not know.
#[derive(Clone, Debug)]
pub struct UnknownValue<'c> {
    pub cell: Cell,
    /// A wait's expected value always decides how it orders; a notify's
    /// only where some wait waits on its cell.
    pub is_wait: bool,
    pub reason: String,
    pub location: Location<'c>,
}

/// Two ops, the lower key first (an event of no op has none): what a
/// diagnostic is given once for.
pub type OpPair = (Option<OpKey>, Option<OpKey>);

impl<'c, 'a> Run<'c, 'a> {
    /// The ops of events `a` and `b`, as an unordered pair.
    pub fn op_pair(&self, a: EventId, b: EventId) -> OpPair {
        let key = |e: EventId| self.events[e].op.map(OpKey::of);
        (key(a).min(key(b)), key(a).max(key(b)))
    }

    /// Every wait of the run (waits, tests, deferred conditions): its event,
    /// the event id, its cell, the value it expects and whether it
    /// compares `==` (else `>=`).
    pub fn waits(&self) -> impl Iterator<Item = (EventId, &Event<'c, 'a>, Cell, i64, bool)> + '_ {
        self.events
            .iter()
            .enumerate()
            .filter_map(|(id, event)| match event.kind {
                EventKind::Wait {
                    cell, expected, eq, ..
                } => Some((id, event, cell, expected, eq)),
                _ => None,
            })
    }

    /// The buffers some plain store or atomic add of the run writes: a
    /// signal cell there may be written other than by notifies, so the
    /// rules on what a wait can see do not judge it.
    pub fn stored_places(&self) -> HashSet<Place> {
        self.events
            .iter()
            .filter_map(|event| match &event.kind {
                EventKind::Access { place, kind, .. } if *kind != AccessKind::Read => Some(*place),
                _ => None,
            })
            .collect()
    }

    /// Why the run cannot say how its signals order, if it cannot: a wait
    /// whose expected value it does not know, or a notify whose value it
    /// does not know into a cell that a wait of the run waits on. A notify
    /// into a cell no one waits on (all_to_all_v's receive counts, read as
    /// data) orders nothing, whatever its value.
    pub fn undecided_value(&self) -> Option<(String, Location<'c>)> {
        let waited: HashSet<Cell> = self
            .events
            .iter()
            .filter_map(|event| match &event.kind {
                EventKind::Wait { cell, .. } => Some(*cell),
                _ => None,
            })
            .collect();
        self.unknown_values
            .iter()
            .find(|unknown| unknown.is_wait || waited.contains(&unknown.cell))
            .map(|unknown| (unknown.reason.clone(), unknown.location))
    }

    pub fn new(ranks: usize) -> Self {
        Run {
            ranks,
            ..Run::default()
        }
    }

    pub fn thread(&mut self, rank: usize, label: String) -> ThreadId {
        // Most threads make a handful of events: room for them up front
        // spares regrowing each list from empty.
        self.threads.push(Thread {
            rank,
            label,
            events: Vec::with_capacity(8),
        });
        self.threads.len() - 1
    }

    pub fn push(
        &mut self,
        thread: ThreadId,
        op: Option<OperationRef<'c, 'a>>,
        kind: EventKind,
    ) -> EventId {
        let id = self.events.len();
        if let EventKind::Collective { instance } = kind {
            if self.collectives.len() <= instance {
                // An instance has a call per rank.
                let ranks = self.ranks;
                self.collectives
                    .resize_with(instance + 1, || Vec::with_capacity(ranks));
            }
            self.collectives[instance].push(id);
        }
        self.events.push(Event { thread, op, kind });
        self.threads[thread].events.push(id);
        id
    }

    /// The value notify `event` writes or adds, and whether it sets.
    pub fn notify(&self, event: EventId) -> (i64, bool) {
        match self.events[event].kind {
            EventKind::Notify { value, set, .. } => (value, set),
            _ => unreachable!("notifies only"),
        }
    }

    /// The position of `event` among its thread's events, from 1.
    pub fn local(&self, event: EventId) -> usize {
        let thread = &self.threads[self.events[event].thread];
        thread
            .events
            .binary_search(&event)
            .map(|i| i + 1)
            .unwrap_or(0)
    }
}
