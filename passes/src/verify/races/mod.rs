//! The race rule (docs/design/races.md, docs/pld-verify.md "data race"):
//! for each entry function and each rank count the program may run on, run
//! every rank through the IR ([`interpret`]), order the run's events by
//! pld's happens-before ([`order`]) and report every pair of conflicting
//! accesses that it leaves unordered ([`conflicts`]).
//!
//! Sound where it decides: a run follows each rank's control flow exactly
//! (the rank and the rank count are known, everything computed from them is
//! evaluated), so a reported pair is two accesses that the program makes
//! and that no order of pld's relation puts one before the other: some
//! schedule runs them concurrently. An entry's integer arguments are run
//! with the values a host passes ([`arguments`]); where the IR leaves a
//! value unknown otherwise (data read from memory, a dynamic shape), the run
//! stops and the rule says so in a remark rather than guess. Kernels run
//! with one block. A rank count on which the program traps or hangs is
//! diagnosed as [`failures`] says. Entries of one structure are decided
//! once ([`shared`]).

mod arguments;
mod conflicts;
mod failures;
mod footprint;
mod hangs;
mod inputs;
mod interpret;
mod lines;
mod lost;
mod mixing;
mod order;
mod run;
mod shared;
mod window_values;

use crate::verify::declarations::{Declaration, Declarations};
use arguments::Binding;
use failures::Failure;
use interpret::{Stop, region_text};
use melior::ir::{
    BlockLike, Location, RegionLike, TypeLike, ValueLike, operation::OperationLike,
    operation::OperationRef,
};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::func;
use pld_dialect::{
    diagnostics::{Severity, emit},
    enums::NotifyOp,
    interfaces::{self, AccessKind},
};
use pld_ir::OpKey;
use pld_ir::pass::report::{Note, Report};
use pld_ir::read::{self as ir, callee_name, symbol_name};
use run::{EventId, EventKind, Run};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use window_values::{Assumed, Judged};

/// How the rule launches each entry (pld-verify's `launches`, `blocks` and
/// `entry`, as pld-run's `--launches`, `--blocks` and `--entry` launch it).
#[derive(Clone, Debug)]
pub struct Launch {
    /// Launches in sequence: every rank finishes one before any starts the
    /// next, and the windows keep what it left.
    pub count: usize,
    /// Blocks an entry kernel runs on, each with its `pl.get_block_idx`
    /// (host code runs once per rank whatever it is).
    pub blocks: usize,
    /// The entry `count` and `blocks` apply to; the others run once, on one
    /// block. `None`: every entry.
    pub entry: Option<String>,
}

impl Launch {
    /// The launches and blocks of the entry `name`.
    fn of(&self, name: &str) -> (usize, usize) {
        match &self.entry {
            Some(entry) if entry != name => (1, 1),
            _ => (self.count, self.blocks),
        }
    }
}

/// How many entries the rule ran, and how many it judged by another's
/// verdict (pld-verify's statistics).
#[derive(Default)]
pub struct Entries {
    pub run: u64,
    pub shared: u64,
    /// Runs of the program, over every rank count and binding.
    pub runs: u64,
}

pub fn check<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
    default_kind: KernelKind,
    given: Option<&[usize]>,
    remarks: bool,
    launch: &Launch,
    declared: &mut Declarations<'c, 'a>,
    report: &mut Report,
) -> Entries {
    let functions: HashMap<String, OperationRef> = ops
        .iter()
        .filter(|op| ir::is_function(op))
        .filter_map(|op| Some((symbol_name(op)?, *op)))
        .collect();
    let called: HashSet<String> = ops
        .iter()
        .filter(|op| ir::name(op) == func::CallOp::NAME)
        .filter_map(callee_name)
        .collect();
    let reach = reach_of_functions(&functions, declared);
    let mut program = interpret::Program {
        functions: &functions,
        default_kind,
        declared,
    };
    let mut reported: HashSet<run::OpPair> = HashSet::default();
    let mut mixed: HashSet<(Option<OpKey>, Option<OpKey>)> = HashSet::default();
    let text_order: HashMap<OpKey, usize> = ops
        .iter()
        .enumerate()
        .map(|(position, op)| (ir::op_key(op), position))
        .collect();
    // Whether an entry other than `name` notifies (counted once: asking
    // each entry about every other was quadratic in the module).
    let notifies = |name: &String| !called.contains(name) && (reach[name].sets || reach[name].adds);
    let notifying_entries = functions.keys().filter(|name| notifies(name)).count();
    let others_notify = |name: &String| notifying_entries > usize::from(notifies(name));
    // Entries with one structure and one launch are decided once
    // (shared.rs).
    let mut classes = pld_ir::analysis::structure::Classes::new(functions.values().copied());
    let mut verdicts = shared::Verdicts::default();
    let mut entries = Entries::default();
    for (name, entry) in &functions {
        let has_body = entry.region(0).ok().and_then(|r| r.first_block()).is_some();
        if called.contains(name) || !has_body || !reach[name].worth_running() {
            continue;
        }
        // A wait another entry of the module may satisfy (its kernels are
        // launches of their own) is not judged a hang.
        let judge_hangs = !others_notify(name);
        let launched = launch.of(name);
        let key: Option<shared::Key> = classes
            .of(entry)
            .map(|class| (class, launched, judge_hangs));
        let replaying = key.and_then(|key| verdicts.get(&key).cloned());
        match &replaying {
            Some(verdict) if verdict.is_clean() => {
                entries.shared += 1;
                continue;
            }
            Some(_) => entries.shared += 1,
            None => entries.run += 1,
        }
        // What this entry's decision finds, for its twins; none when a
        // finding is not one run's.
        let mut verdict = Some(shared::Verdict::default());
        let reported_before = (report.errors(), report.warnings());
        let mut undecided: Option<(usize, String, Location)> = None;
        let ranks = given.map_or_else(|| default_ranks(entry), <[usize]>::to_vec);
        let mut failures: Vec<Failure> = Vec::new();
        let signal_values = arguments::signal_values(entry);
        let labels = interpret::argument_labels(entry, name);
        let (launches, blocks) = launched;
        let argument_count = entry
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .map_or(0, |body| body.argument_count());
        let mut inputs = inputs::Inputs::new(argument_count);
        'counts: for &n in &ranks {
            // Assignments of the entry's integer arguments still to run:
            // a run that needs one's value splits into its candidates.
            // Each with the values its window reads assume and how many
            // runs those took (window_values.rs).
            // A twin runs only what its class's verdict found.
            let mut pending: Vec<shared::State> = match &replaying {
                Some(found) => found.states(n),
                None => vec![(vec![None; argument_count], Assumed::default(), 0)],
            };
            let mut made = 0;
            let mut completed = false;
            let mut failed: Option<(Failure, shared::State)> = None;
            while let Some((bindings, assumed, round)) = pending.pop() {
                let state = || (bindings.clone(), assumed.clone(), round);
                // What this run finds as undecided, for the verdict.
                let note_undecided = |verdict: &mut Option<shared::Verdict>| {
                    if let Some(verdict) = verdict {
                        verdict.undecided = Some((n, state()));
                    }
                };
                made += usize::from(round == 0);
                if made > arguments::MAX_ASSIGNMENTS {
                    verdict = None;
                    undecided = Some((
                        n,
                        format!(
                            "its arguments need more than {} assignments",
                            arguments::MAX_ASSIGNMENTS
                        ),
                        entry.location(),
                    ));
                    break 'counts;
                }
                entries.runs += 1;
                let mut run = match interpret::run(
                    *entry,
                    &mut program,
                    n,
                    &interpret::Launches {
                        count: launches,
                        blocks,
                        rising: &signal_values,
                        labels: &labels,
                    },
                    &bindings,
                    &mut inputs,
                    &assumed,
                ) {
                    Ok(run) => run,
                    Err(Stop::Argument(index, role)) => {
                        let role = if signal_values.contains(&index) {
                            arguments::Role::Value
                        } else {
                            role
                        };
                        // The elements a loop reads as indices (routes,
                        // buckets) spread; every other value is one.
                        let candidates = if role == arguments::Role::Index && inputs.is_array(index)
                        {
                            arguments::spreads(n)
                        } else {
                            arguments::candidates(role, n)
                        };
                        for binding in candidates.into_iter().rev() {
                            let mut next = bindings.clone();
                            if next.len() <= index {
                                next.resize(index + 1, None);
                            }
                            next[index] = Some(binding);
                            pending.push((next, Assumed::default(), 0));
                        }
                        continue;
                    }
                    Err(Stop::Trap(reason, location, op)) => {
                        // Worded for the first trap of the count only.
                        failed.get_or_insert_with(|| {
                            let reason = reason + &bound_text(&labels, name, &bindings, &inputs);
                            (Failure::trap(n, reason, location, op), state())
                        });
                        continue;
                    }
                    Err(Stop::Undecided(reason, location)) => {
                        // What stops one rank count (an unknown entry
                        // argument, mostly) stops the others: not worth
                        // the runs.
                        note_undecided(&mut verdict);
                        undecided = Some((n, reason, location));
                        break 'counts;
                    }
                };
                // What the run bound, for its diagnostics: made only when
                // there is one (most runs have none).
                let bound = || bound_text(&labels, name, &bindings, &inputs);
                if let Some((reason, location)) = inputs::written(&run, &bindings) {
                    note_undecided(&mut verdict);
                    undecided = Some((n, reason, location));
                    break 'counts;
                }
                // Integers read from windows: the run is judged once what
                // they read is what its order makes them see. Its order is
                // computed once, for them and for the rest.
                let mut computed = None;
                if !run.window_reads.is_empty()
                    && let Ok((order, counted)) =
                        computed.get_or_insert_with(|| order::compute(&run))
                {
                    match window_values::judge(&run, order, round) {
                        Judged::Settled => {}
                        Judged::Races(races) => {
                            completed = true;
                            run.bound = bound_text(&labels, name, &bindings, &inputs);
                            for (a, b) in races {
                                if reported.insert(run.op_pair(a, b)) {
                                    diagnose(&run, a, b, counted, report);
                                }
                            }
                            continue;
                        }
                        Judged::Again(seen) => {
                            pending.push((bindings, seen, round + 1));
                            continue;
                        }
                        Judged::Unsettled(read) => {
                            note_undecided(&mut verdict);
                            undecided = Some((
                                n,
                                format!(
                                    "the integers it reads from windows do not settle in {} runs",
                                    window_values::MAX_ROUNDS
                                ),
                                location_of(&run, read, entry),
                            ));
                            break 'counts;
                        }
                    }
                }
                // A trap in a run whose window reads settled is the program's.
                if let Some((reason, location, op)) = run.trapped.take() {
                    failed.get_or_insert_with(|| {
                        let reason = reason + &bound_text(&labels, name, &bindings, &inputs);
                        (Failure::trap(n, reason, location, op), state())
                    });
                    continue;
                }
                let position = |e: EventId| {
                    run.events[e]
                        .op
                        .and_then(|op| text_order.get(&ir::op_key(op)).copied())
                        .unwrap_or(usize::MAX)
                };
                let key = |run: &Run, e: EventId| run.events[e].op.map(ir::op_key);
                let new_mixes: Vec<(EventId, EventId)> = mixing::mixed(&run, position)
                    .into_iter()
                    .filter(|(later, earlier)| {
                        mixed.insert((key(&run, *later), key(&run, *earlier)))
                    })
                    .collect();
                if !new_mixes.is_empty() {
                    run.bound = bound();
                }
                for (later, earlier) in new_mixes {
                    diagnose_mixing(&run, later, earlier, report);
                }
                if let Some((reason, location)) = run.undecided_value() {
                    note_undecided(&mut verdict);
                    undecided = Some((n, reason, location));
                    break 'counts;
                }
                let (order, counted) = match computed.unwrap_or_else(|| order::compute(&run)) {
                    Ok(computed) => computed,
                    Err(order::Unordered::Cyclic) => {
                        if undecided.is_none() {
                            note_undecided(&mut verdict);
                        }
                        undecided.get_or_insert((
                            n,
                            "its waits and notifies order each other in a cycle".to_owned(),
                            entry.location(),
                        ));
                        continue;
                    }
                    Err(order::Unordered::TooLarge(entries)) => {
                        note_undecided(&mut verdict);
                        undecided = Some((
                            n,
                            format!(
                                "its {} threads and {} events need {entries} vector clock \
                                 entries, more than the {} the rule keeps",
                                run.threads.len(),
                                run.events.len(),
                                order::MAX_CLOCK_ENTRIES
                            ),
                            entry.location(),
                        ));
                        break 'counts;
                    }
                };
                // A run that hangs stops there: what its threads would do
                // after the wait does not happen, and races with it are not
                // real.
                if judge_hangs && let Some(hang) = hangs::hangs(&run, &order).first() {
                    run.bound = bound();
                    failed.get_or_insert_with(|| (Failure::hang(&run, hang), state()));
                    continue;
                }
                let races = match conflicts::races(&run, &order) {
                    Ok(races) => races,
                    Err(intervals) => {
                        note_undecided(&mut verdict);
                        undecided = Some((
                            n,
                            format!(
                                "its accesses cut the memory they share into {intervals} \
                                 separate intervals, more than the {} the rule compares",
                                conflicts::MAX_INTERVALS
                            ),
                            entry.location(),
                        ));
                        break 'counts;
                    }
                };
                completed = true;
                let on_core = |op: &OperationRef| {
                    pld_ir::analysis::place::scope_of(op, default_kind)
                        .is_some_and(|scope| scope.place.is_core())
                };
                let shared = lines::shared_lines(&run, &order, on_core);
                let losts = lost::lost(&run, &order);
                if !(races.is_empty() && shared.is_empty() && losts.is_empty()) {
                    run.bound = bound();
                }
                for (a, b) in races {
                    if reported.insert(run.op_pair(a, b)) {
                        diagnose(&run, a, b, &counted, report);
                    }
                }
                for (a, b) in shared {
                    if reported.insert(run.op_pair(a, b)) {
                        diagnose_line(&run, a, b, report);
                    }
                }
                for lost in losts {
                    if reported.insert(run.op_pair(lost.wait, lost.spoiler)) {
                        diagnose_lost(&run, &lost, report);
                    }
                }
            }
            if !completed && let Some((failure, state)) = failed {
                failures.push(failure);
                if let Some(verdict) = &mut verdict {
                    verdict.failures.push((n, state));
                }
            }
        }
        // A verdict is shared when all it found is failing and undecided
        // rank counts, which a twin re-runs (an undecided entry says so
        // only in a remark). Host values are numbered in the order the
        // runs met them, so a run that needs one is not re-run alone.
        if let (None, Some(key), Some(mut verdict)) = (&replaying, key, verdict)
            && (report.errors(), report.warnings()) == reported_before
        {
            if !remarks {
                verdict.undecided = None;
            }
            if verdict.is_clean() || inputs.is_empty() {
                verdicts.insert(key, verdict);
            }
        }
        failures::report(name, &ranks, given.is_some(), remarks, &failures, report);
        if let Some((n, reason, location)) = undecided.filter(|_| remarks) {
            emit(
                Severity::Remark,
                entry.location(),
                &format!("the race rule cannot decide @{name} on {n} ranks: {reason}"),
                &[(location, "here")],
            );
        }
    }
    entries
}

/// Where `event`'s op is, or `entry` for an event of no op.
fn location_of<'c>(
    run: &Run<'c, '_>,
    event: EventId,
    entry: &OperationRef<'c, '_>,
) -> Location<'c> {
    run.events[event]
        .op
        .map_or_else(|| entry.location(), |op| op.location())
}

/// ` with argument 2 of @f = 1, 0 on ranks 0, 1`: the values a run gave
/// the arguments of `entry` (named @`name`), each named as the source names
/// it where it does (empty when the run gave none).
fn bound_text(
    labels: &[String],
    name: &str,
    bindings: &[Option<Binding>],
    inputs: &inputs::Inputs,
) -> String {
    let argument_label = |index: usize| {
        labels
            .get(index)
            .cloned()
            .unwrap_or_else(|| format!("argument {index} of @{name}"))
    };
    let bound: Vec<String> = bindings
        .iter()
        .enumerate()
        .filter_map(|(index, binding)| {
            let label = inputs
                .label(index, argument_label)
                .unwrap_or_else(|| argument_label(index));
            Some(format!("{label} = {}", binding.as_ref()?.text()))
        })
        .collect();
    if bound.is_empty() {
        String::new()
    } else {
        format!(" with {}", bound.join(" and "))
    }
}

/// The largest signal row count run by default: a run on 64 ranks of a
/// barrier in a loop costs a hundred times one on 4, and would take
/// pld-verify past its budget on programs that name no rank count.
const MAX_DEFAULT_RANKS: i64 = 16;

/// The rank counts an entry is run on when the user names none: 2, 3 and
/// 4, and the leading dimension of each of its signal-shaped arguments (an
/// `i32` distributed tensor with a static first dimension up to
/// [`MAX_DEFAULT_RANKS`]), the per-rank rows a program written for that
/// many ranks gives its signals.
fn default_ranks(entry: &OperationRef) -> Vec<usize> {
    let mut ranks = vec![2, 3, 4];
    if let Some(body) = entry.region(0).ok().and_then(|region| region.first_block()) {
        for index in 0..body.argument_count() {
            let argument = body.argument(index).expect("in range");
            let r#type = argument.r#type();
            let is_signal = pld_dialect::types::is_distributed_tensor(r#type)
                && pld_ir::types::element_type(r#type)
                    .is_some_and(|e| e.is_integer() && pld_ir::types::byte_width(e) == Some(4));
            let rows = pld_ir::types::shape(r#type).and_then(|shape| shape.first().copied());
            if let Some(rows) =
                rows.filter(|rows| is_signal && (2..=MAX_DEFAULT_RANKS).contains(rows))
            {
                ranks.push(rows as usize);
            }
        }
    }
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

/// What a function's run (with what it calls) can do that a race needs.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Reach {
    /// Remote accesses, signal ops or collectives: ranks meet.
    ranks_meet: bool,
    /// Tasks or split lanes: threads of one rank run side by side.
    threads_meet: bool,
    /// A write into a window (a collective writes its target).
    writes_window: bool,
    /// A write into a memref (a rank's own global memory).
    writes_memref: bool,
    /// A plain access of an i32 window, which may be a signal's cells.
    touches_cells: bool,
    /// Notifies that set, and notifies that add: they may meet on a cell.
    sets: bool,
    adds: bool,
    /// Waits, which may never return.
    waits: bool,
}

impl Reach {
    fn union(self, other: Reach) -> Reach {
        Reach {
            ranks_meet: self.ranks_meet || other.ranks_meet,
            threads_meet: self.threads_meet || other.threads_meet,
            writes_window: self.writes_window || other.writes_window,
            writes_memref: self.writes_memref || other.writes_memref,
            touches_cells: self.touches_cells || other.touches_cells,
            sets: self.sets || other.sets,
            adds: self.adds || other.adds,
            waits: self.waits || other.waits,
        }
    }

    /// Whether a race is possible at all: two threads that meet, and a
    /// write (or a plain access of signal cells) where they do. A run that
    /// cannot race is not worth making.
    fn may_race(self) -> bool {
        let meet = self.ranks_meet || self.threads_meet;
        let writes =
            self.writes_window || self.touches_cells || (self.threads_meet && self.writes_memref);
        meet && writes
    }

    /// Whether a run may find anything: a race, a Set and an atomic add on
    /// one cell, or a wait that never returns.
    fn worth_running(self) -> bool {
        self.may_race() || (self.sets && self.adds) || (self.ranks_meet && self.waits)
    }
}

/// [`Reach`] of every function, through what it calls.
fn reach_of_functions<'c, 'a>(
    functions: &HashMap<String, OperationRef<'c, 'a>>,
    declared: &mut Declarations<'c, 'a>,
) -> HashMap<String, Reach> {
    let mut direct: HashMap<String, Reach> = HashMap::default();
    let mut calls: HashMap<String, Vec<String>> = HashMap::default();
    for (function, op) in functions {
        let mut reach = Reach::default();
        for op in pld_ir::nested_ops(*op) {
            let declaration = declared.of(&op);
            if let Declaration::Accesses(accesses) = &declaration {
                for access in accesses.iter() {
                    let r#type = access.memory.r#type();
                    let window = pld_dialect::types::is_distributed_tensor(r#type);
                    reach.ranks_meet |= access.peer.is_some();
                    reach.writes_window |= window && access.kind.writes();
                    reach.writes_memref |= !window && access.kind.writes();
                    reach.touches_cells |= window
                        && access.kind != AccessKind::AtomicAdd
                        && pld_ir::types::element_type(r#type).is_some_and(|e| {
                            e.is_integer() && pld_ir::types::byte_width(e) == Some(4)
                        });
                }
            } else if let Declaration::Signal(access) = &declaration {
                reach.ranks_meet = true;
                reach.sets |= access.effect == interfaces::SignalEffect::NotifySet;
                reach.adds |= access.effect == interfaces::SignalEffect::NotifyAtomicAdd;
                reach.waits |= matches!(
                    access.effect,
                    interfaces::SignalEffect::WaitEq | interfaces::SignalEffect::WaitGe
                );
            } else if let Declaration::Collective(_) = declaration {
                reach.ranks_meet = true;
                reach.writes_window = true;
            } else if pld_ir::analysis::place::TASK_SCOPES.contains(&ir::name(op))
                || ir::name(op) == pld_dialect::ops::pl::SplitAivOp::NAME
            {
                reach.threads_meet = true;
            } else if ir::name(op) == func::CallOp::NAME
                && let Some(callee) = callee_name(&op)
            {
                calls.entry(function.clone()).or_default().push(callee);
            }
        }
        direct.insert(function.clone(), reach);
    }
    let mut result = direct;
    let mut changed = true;
    while changed {
        changed = false;
        for name in functions.keys() {
            let reached = calls
                .get(name)
                .into_iter()
                .flatten()
                .filter_map(|callee| result.get(callee).copied())
                .fold(result[name], Reach::union);
            if reached != result[name] {
                result.insert(name.clone(), reached);
                changed = true;
            }
        }
    }
    result
}

/// How an event touches memory, as a verb phrase.
fn verb(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::Access {
            kind: AccessKind::Read,
            ..
        } => "reads",
        EventKind::Access {
            kind: AccessKind::Write,
            ..
        } => "writes",
        EventKind::Access {
            kind: AccessKind::AtomicAdd,
            ..
        } => "atomically adds to",
        EventKind::Notify { .. } => "notifies",
        _ => "waits on",
    }
}

fn region(kind: &EventKind) -> String {
    match kind {
        EventKind::Access { footprint, .. } => region_text(&footprint.offsets, &footprint.sizes),
        EventKind::Notify { index, .. } | EventKind::Wait { index, .. } => {
            format!("cell {}", run::cell_text(index))
        }
        _ => String::new(),
    }
}

fn is_write(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Access {
            kind: AccessKind::Write | AccessKind::AtomicAdd,
            ..
        } | EventKind::Notify { .. }
    )
}

fn place_text(run: &Run, event: EventId) -> String {
    let place = match &run.events[event].kind {
        EventKind::Access { place, .. } => *place,
        EventKind::Notify { cell, .. } | EventKind::Wait { cell, .. } => cell.place,
        _ => unreachable!("a race is between accesses"),
    };
    format!("rank {}'s {}", place.owner, run.buffers[place.buffer])
}

fn op_name(run: &Run, event: EventId) -> String {
    run.events[event]
        .op
        .map_or_else(|| "?".to_owned(), |op| ir::name(op).to_owned())
}

/// An error at the later of two notifies that reach one cell, one a Set and
/// the other an atomic add, with a note at the earlier.
fn diagnose_mixing(run: &Run, later: EventId, earlier: EventId, report: &mut Report) {
    let mode = |e: EventId| match run.events[e].kind {
        EventKind::Notify { set: true, .. } => NotifyOp::Set.keyword(),
        _ => NotifyOp::AtomicAdd.keyword(),
    };
    let thread = |e: EventId| &run.threads[run.events[e].thread].label;
    let (Some(op), Some(other)) = (run.events[later].op, run.events[earlier].op) else {
        return;
    };
    report.error(
        &op,
        &format!(
            "notify with op {} on {} reaches {} of {} on {} ranks{}, which a notify with op {} \
             also reaches: Set and AtomicAdd are mixed on the same cell",
            mode(later),
            thread(later),
            region(&run.events[later].kind),
            place_text(run, later),
            run.ranks,
            run.bound,
            mode(earlier),
        ),
        &[(
            other.location(),
            format!("op {} on {} here", mode(earlier), thread(earlier)),
        )],
    );
}

/// An error at one access of a race, a note at the other, and what order
/// is missing.
fn diagnose(
    run: &Run,
    a: EventId,
    b: EventId,
    counted: &[(EventId, EventId)],
    report: &mut Report,
) {
    // Report at the reader (the op that would see the wrong data), or at
    // the later of two writers.
    let (at, other) = if !is_write(&run.events[b].kind) || is_write(&run.events[a].kind) {
        (b, a)
    } else {
        (a, b)
    };
    let thread = |e: EventId| &run.threads[run.events[e].thread].label;
    let (at_kind, other_kind) = (&run.events[at].kind, &run.events[other].kind);
    let message = format!(
        "data race on {} ranks{}: this {} on {} {} {} of {}, which {} on {} {} ({}), and no happens-before order puts one before the other",
        run.ranks,
        run.bound,
        op_name(run, at),
        thread(at),
        verb(at_kind),
        region(at_kind),
        place_text(run, at),
        op_name(run, other),
        thread(other),
        verb(other_kind),
        region(other_kind),
    );
    let mut notes: Vec<Note> = Vec::new();
    if let Some(op) = run.events[other].op {
        notes.push((
            op.location(),
            format!(
                "the conflicting {} on {}",
                op_name(run, other),
                thread(other)
            ),
        ));
    }
    let writer = if is_write(other_kind) { other } else { at };
    let reader = if writer == other { at } else { other };
    // The order the program meant is either way round: publish the write
    // before the read, or finish the read before the overwrite.
    let hint = too_weak(run, writer, reader, counted)
        .or_else(|| too_weak(run, reader, writer, counted))
        .or_else(|| unawaited(run, writer, reader))
        .unwrap_or_default();
    notes.extend(hint);
    let Some(op) = run.events[at].op else {
        return;
    };
    report.error(&op, &message, &notes);
}

/// An error at a wait an order can starve (lost.rs), with notes at the Set
/// that can spoil it and the one it waits for.
fn diagnose_lost(run: &Run, lost: &lost::Lost, report: &mut Report) {
    let thread = |e: EventId| &run.threads[run.events[e].thread].label;
    let value = |e: EventId| run.notify(e).0;
    let EventKind::Wait { expected, eq, .. } = run.events[lost.wait].kind else {
        unreachable!("a wait")
    };
    let Some(op) = run.events[lost.wait].op else {
        return;
    };
    let awaited = lost.accepted[0];
    let message = format!(
        "this wait ({} {expected}) on {} can miss what it waits for on {} ranks{}: the notify of \
         {} (set {}) may land after the one it waits for ({}, set {}) and before it reads {} of \
         {}, and no notify sets it again; order that set after this wait (an acknowledgement), \
         or have it write a value the wait still accepts",
        if eq { "==" } else { ">=" },
        thread(lost.wait),
        run.ranks,
        run.bound,
        thread(lost.spoiler),
        value(lost.spoiler),
        thread(awaited),
        value(awaited),
        region(&run.events[lost.wait].kind),
        place_text(run, lost.wait),
    );
    let mut notes: Vec<Note> = Vec::new();
    if let Some(spoiler) = run.events[lost.spoiler].op {
        notes.push((
            spoiler.location(),
            format!("the set that can come between, on {}", thread(lost.spoiler)),
        ));
    }
    if let Some(notify) = run.events[awaited].op {
        notes.push((
            notify.location(),
            format!("the notify it waits for, on {}", thread(awaited)),
        ));
    }
    report.error(&op, &message, &notes);
}

/// An error at the later of two scalar writes of different cores into one
/// cache line, unordered (lines.rs), with a note at the earlier.
fn diagnose_line(run: &Run, earlier: EventId, later: EventId, report: &mut Report) {
    let thread = |e: EventId| &run.threads[run.events[e].thread].label;
    let message = format!(
        "scalar writes share a cache line on {} ranks{}: this pl.write on {} writes {} of {}, in \
         the {}-byte line that pl.write on {} writes ({}), and no happens-before order puts one \
         before the other: each core's data cache writes the whole line back, so the core that \
         flushes last overwrites the other's value; give each core its own {}-byte line, or order \
         the writes with a notify and a wait",
        run.ranks,
        run.bound,
        thread(later),
        region(&run.events[later].kind),
        place_text(run, later),
        lines::LINE_BYTES,
        thread(earlier),
        region(&run.events[earlier].kind),
        lines::LINE_BYTES,
    );
    let notes: Vec<Note> = run.events[earlier]
        .op
        .map(|op| {
            (
                op.location(),
                format!("the other pl.write, on {}", thread(earlier)),
            )
        })
        .into_iter()
        .collect();
    if let Some(op) = run.events[later].op {
        report.error(&op, &message, &notes);
    }
}

/// The notifies `first`'s thread makes after it into the rank of
/// `second`'s thread: what would publish `first` to it.
fn publishing(run: &Run, first: EventId, second: EventId) -> Vec<EventId> {
    let owner = run.threads[run.events[second].thread].rank;
    run.threads[run.events[first].thread]
        .events
        .iter()
        .copied()
        .filter(|e| *e > first)
        .filter(|e| matches!(run.events[*e].kind, EventKind::Notify { cell, .. } if cell.place.owner == owner))
        .collect()
}

/// A wait before `second` on a cell that `first`'s thread notifies after
/// `first`, which does not count that notify.
fn too_weak<'c>(
    run: &Run<'c, '_>,
    first: EventId,
    second: EventId,
    counted: &[(EventId, EventId)],
) -> Option<Vec<Note<'c>>> {
    let first_thread = &run.threads[run.events[first].thread];
    let second_thread = &run.threads[run.events[second].thread];
    for notify in publishing(run, first, second) {
        let EventKind::Notify { cell, .. } = run.events[notify].kind else {
            continue;
        };
        let wait = second_thread.events.iter().copied().rev().find(|w| {
            *w < second
                && matches!(run.events[*w].kind, EventKind::Wait { cell: c, .. } if c == cell)
                && !counted.contains(&(notify, *w))
        });
        let (Some(wait), Some(notify_op)) = (wait, run.events[notify].op) else {
            continue;
        };
        let (Some(wait_op), EventKind::Wait { expected, eq, .. }) =
            (run.events[wait].op, &run.events[wait].kind)
        else {
            continue;
        };
        return Some(vec![
            (
                wait_op.location(),
                format!(
                    "this wait ({} {expected}) is too weak to order them: it can hold before {}'s notify of the same cell",
                    if *eq { "==" } else { ">=" },
                    first_thread.label
                ),
            ),
            (
                notify_op.location(),
                format!(
                    "the notify on {} that it does not count",
                    first_thread.label
                ),
            ),
        ]);
    }
    None
}

/// The notify that would publish `writer` to `reader`'s thread, which
/// nothing before `reader` waits for.
fn unawaited<'c>(run: &Run<'c, '_>, writer: EventId, reader: EventId) -> Option<Vec<Note<'c>>> {
    let notify = *publishing(run, writer, reader).first()?;
    let (Some(op), EventKind::Notify { index, .. }) =
        (run.events[notify].op, &run.events[notify].kind)
    else {
        return None;
    };
    let writer_label = &run.threads[run.events[writer].thread].label;
    let reader_thread = &run.threads[run.events[reader].thread];
    Some(vec![(
        op.location(),
        format!(
            "{writer_label} notifies cell {} of rank {} after the write; a wait on that cell before the {} on {} would order them",
            run::cell_text(index),
            reader_thread.rank,
            op_name(run, reader),
            reader_thread.label
        ),
    )])
}
