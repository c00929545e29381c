//! Waits that no execution of a run satisfies (a hang on that rank count):
//! the cell can never reach the expected value from the notifies that may
//! come before the wait. Only signals the run notifies somewhere are
//! judged: one it never notifies is driven from outside it. Judged with the counting semantics of
//! [`super::order`]: cells start at 0, and a notify ordered after the wait
//! (by program order, a task dependency or a collective) cannot help it.

use super::order::Order;
use super::run::{Cell, EventId, Run};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// A wait that never returns, and why.
pub struct Hang {
    pub wait: EventId,
    /// The notifies of its cell that may come before it.
    pub notifies: Vec<EventId>,
    pub reason: String,
}

/// One thread's notifies of a cell, in program order, with what the rule
/// asks of each prefix: the notifies that may come before a wait are a
/// prefix of every thread's (one after the wait has the rest after it too).
struct Notifies<'l> {
    list: &'l [EventId],
    /// Per prefix length: the sum of the positive amounts, the sets, the
    /// largest value set.
    positive: Vec<i64>,
    sets: Vec<usize>,
    largest_set: Vec<i64>,
    /// Each value set, at the first position that sets it.
    first_set: HashMap<i64, usize>,
}

impl<'l> Notifies<'l> {
    fn of(run: &Run, list: &'l [EventId]) -> Self {
        let mut positive = vec![0];
        let mut sets = vec![0];
        let mut largest_set = vec![i64::MIN];
        let mut first_set = HashMap::default();
        for (position, n) in list.iter().enumerate() {
            let (value, set) = run.notify(*n);
            positive.push(positive[position] + value.max(0));
            sets.push(sets[position] + usize::from(set));
            largest_set.push(if set {
                largest_set[position].max(value)
            } else {
                largest_set[position]
            });
            if set {
                first_set.entry(value).or_insert(position);
            }
        }
        Self {
            list,
            positive,
            sets,
            largest_set,
            first_set,
        }
    }
}

pub fn hangs(run: &Run, order: &Order) -> Vec<Hang> {
    // A plain store may write a cell of its memory: such cells are not
    // judged here.
    let stored = run.stored_places();
    let notifies: HashMap<Cell, Vec<Notifies>> = order
        .notifies()
        .iter()
        .map(|(cell, threads)| {
            let lists = threads.iter().map(|list| Notifies::of(run, list)).collect();
            (*cell, lists)
        })
        .collect();
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
        let threads: &[Notifies] = notifies.get(&cell).map_or(&[], Vec::as_slice);
        // Per thread, how many of its notifies may come before the wait.
        let possible: Vec<usize> = threads
            .iter()
            .map(|thread| thread.list.partition_point(|n| !order.before(wait, *n)))
            .collect();
        let count: usize = possible.iter().sum();
        // The notifies that may come before the wait, thread after thread.
        let before = || {
            threads
                .iter()
                .zip(&possible)
                .flat_map(|(t, k)| t.list[..*k].iter().copied())
        };
        let sets: usize = threads.iter().zip(&possible).map(|(t, k)| t.sets[*k]).sum();
        let predicate = if eq { "==" } else { ">=" };
        let reason = if sets == 0 {
            // Atomic adds (or none): the most the cell can hold bounds what
            // a wait can see, for `eq` as for `ge`.
            let most: i64 = threads
                .iter()
                .zip(&possible)
                .map(|(t, k)| t.positive[*k])
                .sum();
            (most < expected).then(|| {
                if count == 0 {
                    format!("no notify that may come before it reaches the cell, which stays 0, short of {predicate} {expected}")
                } else {
                    format!(
                        "the notifies that may come before it add at most {most}, short of {predicate} {expected}"
                    )
                }
            })
        } else if sets == count {
            let holds_one = threads.iter().zip(&possible).any(|(t, k)| {
                if eq {
                    t.first_set.get(&expected).is_some_and(|first| first < k)
                } else {
                    t.largest_set[*k] >= expected
                }
            });
            let holds_zero = if eq { expected == 0 } else { expected <= 0 };
            (!holds_zero && !holds_one).then(|| {
                let mut values: Vec<i64> = before().map(|n| run.notify(n).0).collect();
                values.sort_unstable();
                values.dedup();
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
                notifies: before().collect(),
                reason,
            });
        }
    }
    found
}
