//! Happens-before over a [`Run`] (docs/design/races.md): program order,
//! thread starts, joins and task dependencies, collectives, and a notify ->
//! the waits that must count it. The last is a fixpoint: which notifies a
//! wait must count depends on which are already ordered before or after it.

use super::run::{Cell, EventId, EventKind, Run};
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;

/// Vector clocks over the run's threads, one per event, in one buffer
/// (`width` clocks per event, in the order they were computed; `slot[e]` is
/// event `e`'s): a run has tens of thousands of events, and a vector each
/// made allocation most of the order's cost.
pub struct Order {
    clocks: Vec<u32>,
    slot: Vec<usize>,
    width: usize,
    local: Vec<u32>,
    threads: Vec<usize>,
    /// The notifies of every cell ([`notifies_by_cell`]), which the
    /// counting rules after the order read too.
    notifies: HashMap<Cell, Vec<Vec<EventId>>>,
}

impl Order {
    /// The clock of `event`.
    fn clock(&self, event: EventId) -> &[u32] {
        let start = self.slot[event] * self.width;
        &self.clocks[start..start + self.width]
    }

    /// Whether `a` happens before `b` (or is `b`).
    pub fn before(&self, a: EventId, b: EventId) -> bool {
        self.clocks[self.slot[b] * self.width + self.threads[a]] >= self.local[a]
    }

    pub fn ordered(&self, a: EventId, b: EventId) -> bool {
        self.before(a, b) || self.before(b, a)
    }

    /// The notifies of every cell, by thread, each thread's in program
    /// order.
    pub fn notifies(&self) -> &HashMap<Cell, Vec<Vec<EventId>>> {
        &self.notifies
    }

    /// The total of `event`'s clock: it grows along happens-before, so
    /// sorting by it extends the order to a sequence.
    pub fn weight(&self, event: EventId) -> u64 {
        self.clock(event).iter().map(|c| u64::from(*c)).sum()
    }
}

/// Why no order could be computed.
pub enum Unordered {
    /// The waits and notifies order each other in a cycle.
    Cyclic,
    /// The clocks would take more than [`MAX_CLOCK_ENTRIES`] entries (events
    /// times threads): this many.
    TooLarge(usize),
}

/// The most vector clock entries a run may take (256 MiB of `u32`): a clock
/// has an entry per thread for every event, so a run of many tasks (each a
/// thread) takes memory quadratic in them.
pub const MAX_CLOCK_ENTRIES: usize = 1 << 26;

/// The happens-before of `run`, with the edges from notifies to the waits
/// that must count them.
pub fn compute(run: &Run) -> Result<(Order, Vec<(EventId, EventId)>), Unordered> {
    let nodes = run.events.len() + run.collectives.len();
    let entries = nodes.saturating_mul(run.threads.len());
    if entries > MAX_CLOCK_ENTRIES {
        return Err(Unordered::TooLarge(entries));
    }
    // Edges (before, after).
    let mut edges: Vec<(usize, usize)> = Vec::with_capacity(nodes * 2);
    let end_of = |thread: usize| *run.threads[thread].events.last().expect("a thread ends");
    for thread in &run.threads {
        edges.extend(thread.events.windows(2).map(|pair| (pair[0], pair[1])));
    }
    for (id, event) in run.events.iter().enumerate() {
        match &event.kind {
            EventKind::Start { spawned_by, deps } => {
                edges.extend(spawned_by.iter().map(|by| (*by, id)));
                edges.extend(deps.iter().map(|dep| (end_of(*dep), id)));
            }
            EventKind::Join(threads) => edges.extend(threads.iter().map(|t| (end_of(*t), id))),
            _ => {}
        }
    }
    // A collective: every call before the instance's node, the node before
    // every caller's next event.
    for (instance, calls) in run.collectives.iter().enumerate() {
        let node = run.events.len() + instance;
        for &call in calls {
            edges.push((call, node));
            let thread = &run.threads[run.events[call].thread].events;
            let position = thread.binary_search(&call).expect("its thread's event");
            if let Some(&next) = thread.get(position + 1) {
                edges.push((node, next));
            }
        }
    }
    let threads: Vec<usize> = run.events.iter().map(|e| e.thread).collect();
    let local: Vec<u32> = (0..run.events.len()).map(|e| run.local(e) as u32).collect();
    let notifies = notifies_by_cell(run);
    let prefix = prefix_sums(run, &notifies);
    let mut counted: Vec<(EventId, EventId)> = Vec::new();
    loop {
        let mut order = clocks(run, nodes, &edges, &threads, &local)?;
        let new = counted_notifies(run, &order, &notifies, &prefix);
        if new.is_empty() {
            order.notifies = notifies;
            return Ok((order, counted));
        }
        edges.extend_from_slice(&new);
        counted.extend(new);
    }
}

/// Adjacency lists of `nodes` nodes in one buffer: `targets[offsets[n]..
/// offsets[n + 1]]` are the neighbours of `n`.
struct Adjacency {
    offsets: Vec<usize>,
    targets: Vec<usize>,
}

impl Adjacency {
    /// The lists of `(from, to)` edges, by `from`.
    fn of(nodes: usize, edges: impl Iterator<Item = (usize, usize)> + Clone) -> Self {
        let mut offsets = vec![0; nodes + 1];
        for (from, _) in edges.clone() {
            offsets[from + 1] += 1;
        }
        for node in 0..nodes {
            offsets[node + 1] += offsets[node];
        }
        let mut next = offsets.clone();
        let mut targets = vec![0; offsets[nodes]];
        for (from, to) in edges {
            targets[next[from]] = to;
            next[from] += 1;
        }
        Self { offsets, targets }
    }

    fn of_node(&self, node: usize) -> &[usize] {
        &self.targets[self.offsets[node]..self.offsets[node + 1]]
    }
}

fn clocks(
    run: &Run,
    nodes: usize,
    edges: &[(usize, usize)],
    threads: &[usize],
    local: &[u32],
) -> Result<Order, Unordered> {
    let events = run.events.len();
    let width = run.threads.len();
    let preds = Adjacency::of(nodes, edges.iter().map(|(before, after)| (*after, *before)));
    let succs = Adjacency::of(nodes, edges.iter().copied());
    let mut pending: Vec<usize> = (0..nodes).map(|n| preds.of_node(n).len()).collect();
    // Each node's clock is appended as it is computed, after those of its
    // predecessors: the buffer is never zeroed first (zeroing it was a
    // quarter of `bench/verify-cost.py`'s `chain` at 300 tasks, whose
    // clocks are wide).
    let mut clocks: Vec<u32> = Vec::with_capacity(nodes * width);
    let mut slot = vec![0; nodes];
    let mut clock = vec![0u32; width];
    let mut ready: VecDeque<usize> = (0..nodes).filter(|n| pending[*n] == 0).collect();
    let mut done = 0;
    while let Some(node) = ready.pop_front() {
        slot[node] = done;
        done += 1;
        clock.fill(0);
        for &pred in preds.of_node(node) {
            let start = slot[pred] * width;
            let theirs = &clocks[start..start + width];
            for (mine, theirs) in clock.iter_mut().zip(theirs) {
                *mine = (*mine).max(*theirs);
            }
        }
        if node < events {
            clock[threads[node]] = local[node];
        }
        clocks.extend_from_slice(&clock);
        for &succ in succs.of_node(node) {
            pending[succ] -= 1;
            if pending[succ] == 0 {
                ready.push_back(succ);
            }
        }
    }
    if done < nodes {
        return Err(Unordered::Cyclic);
    }
    slot.truncate(events);
    Ok(Order {
        clocks,
        slot,
        width,
        local: local.to_vec(),
        threads: threads.to_vec(),
        notifies: HashMap::default(),
    })
}

/// The notifies of every cell, by thread, each thread's in program order.
fn notifies_by_cell(run: &Run) -> HashMap<Cell, Vec<Vec<EventId>>> {
    let mut cells: HashMap<Cell, HashMap<usize, Vec<EventId>>> = HashMap::default();
    for (id, event) in run.events.iter().enumerate() {
        if let EventKind::Notify { cell, .. } = event.kind {
            cells
                .entry(cell)
                .or_default()
                .entry(event.thread)
                .or_default()
                .push(id);
        }
    }
    cells
        .into_iter()
        .map(|(cell, threads)| {
            let mut lists: Vec<Vec<EventId>> = threads.into_values().collect();
            lists.sort();
            (cell, lists)
        })
        .collect()
}

/// Per thread of a cell: prefix sums of the notifies' amounts and of their
/// positive amounts; and how many of the cell's notifies are sets.
type Sums = (Vec<Vec<i64>>, Vec<Vec<i64>>, usize);

/// The first position in `list` where `holds` stops being true (it holds
/// on a prefix).
fn prefix_end(list: &[EventId], holds: impl Fn(EventId) -> bool) -> usize {
    list.partition_point(|e| holds(*e))
}

/// The prefix sums of every cell's notifies ([`Sums`]): they do not depend
/// on the order, so they are made once for all its fixpoint's rounds.
fn prefix_sums(run: &Run, notifies: &HashMap<Cell, Vec<Vec<EventId>>>) -> HashMap<Cell, Sums> {
    let value = |n: EventId| run.notify(n).0;
    let is_set = |n: EventId| run.notify(n).1;
    // Prefix sums per cell and thread: amounts, and positive amounts.
    let sums = |threads: &[Vec<EventId>], f: &dyn Fn(i64) -> i64| -> Vec<Vec<i64>> {
        threads
            .iter()
            .map(|list| {
                std::iter::once(0)
                    .chain(list.iter().scan(0, |sum, n| {
                        *sum += f(value(*n));
                        Some(*sum)
                    }))
                    .collect()
            })
            .collect()
    };
    // And how many of the cell's notifies are sets.
    notifies
        .iter()
        .map(|(cell, threads)| {
            let sets = threads.iter().flatten().filter(|n| is_set(**n)).count();
            (
                *cell,
                (sums(threads, &|v| v), sums(threads, &|v| v.max(0)), sets),
            )
        })
        .collect()
}

/// The notifies every execution must have made before each wait holds,
/// that the order does not yet put before it: at most the last one of each
/// thread (the earlier ones come before it in program order).
///
/// Cells start at 0. A wait holds once its cell reaches (or, for `eq`,
/// equals) its expected value. For atomic adds, a notify N must come first
/// when the most the cell can hold without it is below the expected value:
/// every notify ordered before the wait counts, and of the others (neither
/// before nor after the wait, and not after N, which cannot come without
/// N) at most their positive amounts. Along one thread that most only grows
/// (a later notify has more before it and fewer after it), so the notifies
/// that must come first are a prefix of the thread's, found by bisection.
/// For sets, N must come first when it writes a value that holds and no
/// other value the cell can hold at the wait without N does. A cell with
/// both kinds orders nothing here.
fn counted_notifies(
    run: &Run,
    order: &Order,
    notifies: &HashMap<Cell, Vec<Vec<EventId>>>,
    prefix: &HashMap<Cell, Sums>,
) -> Vec<(EventId, EventId)> {
    let mut found = Vec::new();
    for (wait, _, cell, expected, eq) in run.waits() {
        let Some(threads) = notifies.get(&cell) else {
            continue;
        };
        let (raw, positive, sets) = &prefix[&cell];
        let sets = *sets;
        let all = threads.iter().map(Vec::len).sum::<usize>();
        if sets != 0 && sets != all {
            continue;
        }
        // Per thread: the notifies before the wait (a prefix) and those
        // after it (a suffix); the open ones lie between.
        let before: Vec<usize> = threads
            .iter()
            .map(|list| prefix_end(list, |n| order.before(n, wait)))
            .collect();
        let after: Vec<usize> = threads
            .iter()
            .map(|list| prefix_end(list, |n| !order.before(wait, n)))
            .collect();
        if sets != 0 {
            counted_sets(
                run, order, threads, &before, &after, wait, expected, eq, &mut found,
            );
            continue;
        }
        let forced: i64 = raw.iter().zip(&before).map(|(sum, f)| sum[*f]).sum();
        // The most the cell holds without `n` (the k-th of thread u).
        let most_without = |u: usize, k: usize| -> i64 {
            let n = threads[u][k];
            let mut most = forced + positive[u][k] - positive[u][before[u]];
            for (t, list) in threads.iter().enumerate() {
                if t != u {
                    let cut =
                        before[t] + prefix_end(&list[before[t]..after[t]], |m| !order.before(n, m));
                    most += positive[t][cut] - positive[t][before[t]];
                }
            }
            most
        };
        for (u, list) in threads.iter().enumerate() {
            // Bisect the open notifies of u for the last that must come
            // first.
            let (mut low, mut high) = (before[u], after[u]);
            while low < high {
                let middle = low + (high - low) / 2;
                if most_without(u, middle) < expected {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            if low > before[u] {
                found.push((list[low - 1], wait));
            }
        }
    }
    found
}

/// [`counted_notifies`] for a cell of sets.
#[allow(clippy::too_many_arguments)]
fn counted_sets(
    run: &Run,
    order: &Order,
    threads: &[Vec<EventId>],
    before: &[usize],
    after: &[usize],
    wait: EventId,
    expected: i64,
    eq: bool,
    found: &mut Vec<(EventId, EventId)>,
) {
    let value = |n: EventId| run.notify(n).0;
    let holds = |v: i64| if eq { v == expected } else { v >= expected };
    let forced: Vec<i64> = threads
        .iter()
        .zip(before)
        .flat_map(|(list, f)| list[..*f].iter().map(|n| value(*n)))
        .collect();
    let open: Vec<EventId> = threads
        .iter()
        .enumerate()
        .flat_map(|(t, list)| list[before[t]..after[t]].iter().copied())
        .collect();
    for &candidate in &open {
        let mut without = if forced.is_empty() {
            vec![0]
        } else {
            forced.clone()
        };
        without.extend(
            open.iter()
                .copied()
                .filter(|m| *m != candidate && !order.before(candidate, *m))
                .map(value),
        );
        if holds(value(candidate)) && !without.into_iter().any(holds) {
            found.push((candidate, wait));
        }
    }
}
