//! The defer_wait contract (semantics §3): a dedicated top-level `pl.at` task at
//! level `core_group`, pure AIV, single block, no dispatch predicate, no early
//! resolve; the signal a direct `!pld.dtensor` function argument; at most 64
//! registrations per waiter; only scalar bookkeeping and control flow after
//! the first registration; continuation work depends on the waiter's task id.

use super::ops::{REMOTE_WRITES, WINDOW_READS, table_operand};
use melior::ir::{operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::Level;
use pld_dialect::ops::{pl, pld, scf};
use pld_ir::analysis::place::{TASK_SCOPES, cube_work};
use pld_ir::pass::report::{Note, Report};
use pld_ir::read as ir;
use pld_ir::{OpKey, ValueKey};
use std::collections::{HashMap, HashSet};

/// The most conditions one waiter task may register.
pub const MAX_REGISTRATIONS: i64 = 64;

/// Ops that may follow the first registration: scalar bookkeeping and control
/// flow. Everything else (tensor reads, payload or cache ops, communication)
/// may not.
fn is_bookkeeping(name: &str) -> bool {
    const DIALECTS: &[&str] = &["arith.", "scf.", "cf.", "index.", "math."];
    const OPS: &[&str] = &[
        pld::SystemDeferWaitOp::NAME,
        pld::SystemGetCommCtxOp::NAME,
        pld::SystemRankOp::NAME,
        pld::SystemNranksOp::NAME,
        pl::GetBlockIdxOp::NAME,
        pl::GetAivIdOp::NAME,
    ];
    DIALECTS.iter().any(|prefix| name.starts_with(prefix)) || OPS.contains(&name)
}

fn note<'c>(op: &OperationRef<'c, '_>, text: &str) -> Note<'c> {
    (op.location(), text.to_owned())
}

/// Checks the task a defer_wait stands in; returns the task when it is a
/// `pl.at` (the checks on its whole body run once per task).
fn check_placement<'c, 'a>(
    wait: &OperationRef<'c, 'a>,
    report: &mut Report,
) -> Option<OperationRef<'c, 'a>> {
    let Some(task) = ir::enclosing(wait, TASK_SCOPES) else {
        let notes: Vec<Note> = ir::enclosing_function(wait)
            .map(|function| note(&function, "the enclosing function"))
            .into_iter()
            .collect();
        report.error(
            wait,
            "defer_wait must sit in a dedicated top-level pl.at task at level core_group, \
             found it outside any task",
            &notes,
        );
        return None;
    };
    if ir::name(task) == pl::SpmdOp::NAME {
        report.error(
            wait,
            "defer_wait needs a single-block task, but it stands in a pl.spmd task that \
             launches several blocks",
            &[note(&task, "the multi-block task")],
        );
        return None;
    }
    Some(task)
}

fn check_task(task: &OperationRef, first: &OperationRef, report: &mut Report) {
    let level = pl::AtOp::get_level(task);
    if level != Some(Level::CoreGroup) {
        let level = level.map_or("?", Level::keyword);
        report.error(
            first,
            &format!("defer_wait needs its task at level core_group, found level {level}"),
            &[note(task, "the waiter task")],
        );
    }
    if let Some(outer) = ir::enclosing(task, TASK_SCOPES) {
        report.error(
            first,
            "defer_wait needs a top-level task, but its task is nested in another task",
            &[
                note(task, "the waiter task"),
                note(&outer, "the enclosing task"),
            ],
        );
    }
    let has_predicate = pl::AtOp::operands(task).is_some_and(|at| at.dispatch_if.is_some());
    if has_predicate {
        report.error(
            first,
            "defer_wait needs a task without a dispatch predicate, but its task has one",
            &[note(task, "the waiter task")],
        );
    }
    if pl::AtOp::get_allow_early_resolve(task) == Some(true) {
        report.error(
            first,
            "defer_wait needs a task with allow_early_resolve false, so that its consumers \
             are never pre-staged before the counter is ready",
            &[note(task, "the waiter task")],
        );
    }
    let body = pld_ir::nested_ops(*task);
    if let Some(cube) = cube_work(&body) {
        report.error(
            first,
            "defer_wait needs a pure AIV task, but its task does cube work",
            &[note(&cube, "cube work here"), note(task, "the waiter task")],
        );
    }
    check_registration_count(task, &body, report);
    check_after_registration(task, &body, first, report);
}

/// At most 64 registrations per waiter: every defer_wait counts once per
/// iteration of the loops around it inside the task.
fn check_registration_count(task: &OperationRef, body: &[OperationRef], report: &mut Report) {
    // Each registration counts once per run of every loop around it; a loop
    // whose trip count is not a constant counts at its bound.
    let mut total: i64 = 0;
    let mut exact = true;
    let mut notes = Vec::new();
    for wait in body
        .iter()
        .filter(|op| ir::name(op) == pld::SystemDeferWaitOp::NAME)
    {
        let mut count: i64 = 1;
        let mut loops = Vec::new();
        let mut current = wait.parent_operation();
        while let Some(ancestor) = current {
            if ancestor == *task {
                break;
            }
            let trips = match ir::name(ancestor) {
                scf::ForOp::NAME => pld_ir::analysis::facts::constant_trip_count(&ancestor)
                    .map(|n| (n, true))
                    .or_else(|| {
                        pld_ir::analysis::facts::trip_count_bound(&ancestor).map(|n| (n, false))
                    }),
                scf::WhileOp::NAME => None,
                _ => Some((1, true)),
            };
            let Some((trips, known)) = trips else {
                report.warning(
                    wait,
                    &format!(
                        "the number of defer_wait registrations cannot be bounded at compile \
                         time; the runtime rejects a waiter with more than {MAX_REGISTRATIONS}"
                    ),
                    &[note(&ancestor, "a loop without a bounded trip count")],
                );
                return;
            };
            exact &= known;
            if trips != 1 {
                let runs = if known { "runs" } else { "runs up to" };
                loops.push(note(&ancestor, &format!("this loop {runs} {trips} times")));
            }
            count = count.saturating_mul(trips);
            current = ancestor.parent_operation();
        }
        if count > 1 {
            notes.push(note(wait, &format!("registers {count} conditions")));
            notes.extend(loops);
        }
        total = total.saturating_add(count);
    }
    if total <= MAX_REGISTRATIONS {
        return;
    }
    if exact {
        report.error(
            task,
            &format!(
                "a waiter task may register at most {MAX_REGISTRATIONS} defer_wait conditions, \
                 found {total}"
            ),
            &notes,
        );
    } else {
        report.warning(
            task,
            &format!(
                "a waiter task may register at most {MAX_REGISTRATIONS} defer_wait conditions; \
                 this one registers up to {total}, and the runtime rejects it if it does"
            ),
            &notes,
        );
    }
}

/// After the first registration only scalar bookkeeping and control flow may
/// run. A loop around the first registration runs its whole body again after
/// it, so that body counts as "after" too.
fn check_after_registration(
    task: &OperationRef,
    body: &[OperationRef],
    first: &OperationRef,
    report: &mut Report,
) {
    let Some(first_index) = body.iter().position(|op| op == first) else {
        return;
    };
    // The outermost loop around the first registration inside the task: the
    // ops inside any loop around it are those inside this one, which (in
    // pre-order) directly follow it in `body`. Asking every op whether it is
    // inside every such loop is cubic in a registration hundreds of loops
    // deep.
    let mut outermost = None;
    let mut current = first.parent_operation();
    while let Some(ancestor) = current {
        if ancestor == *task {
            break;
        }
        if matches!(ir::name(ancestor), scf::ForOp::NAME | scf::WhileOp::NAME) {
            outermost = Some(ancestor);
        }
        current = ancestor.parent_operation();
    }
    let in_loop = outermost
        .and_then(|loop_op| {
            let at = body.iter().position(|op| *op == loop_op)?;
            Some(at + 1..at + 1 + pld_ir::nested_ops(loop_op).len())
        })
        .unwrap_or_default();
    for (index, op) in body.iter().enumerate() {
        let after = index > first_index || in_loop.contains(&index);
        let name = ir::name(op);
        if after && !is_bookkeeping(name) {
            report.error(
                op,
                &format!(
                    "after the first defer_wait registration only scalar bookkeeping and control \
                     flow may run, found '{name}'"
                ),
                &[note(first, "registration begins here")],
            );
        }
    }
}

/// The signal is a direct `!pld.dtensor` argument of the enclosing function:
/// no slice, view or alias.
fn check_signal(wait: &OperationRef, report: &mut Report) {
    let Some(pld::SystemDeferWaitOpOperands { signal, .. }) =
        pld::SystemDeferWaitOp::operands(wait)
    else {
        return;
    };
    if let Some(owner) = ir::argument_owner(signal)
        && ir::is_function(&owner)
    {
        return;
    }
    let (found, notes) = match ir::defining_op(signal) {
        Some(definition) => (
            format!("a value defined by '{}'", ir::name(definition)),
            vec![note(&definition, "the signal is defined here")],
        ),
        None => ("a block argument of a nested region".to_owned(), vec![]),
    };
    report.error(
        wait,
        &format!(
            "defer_wait needs its signal to be a window-bound i32 !pld.dtensor argument of the \
             function (no slice, view or alias), found {found}"
        ),
        &notes,
    );
}

/// The tasks that depend on each task (by key), directly: the deps edges of
/// every task among `ops`, reversed.
fn direct_dependents<'c, 'a>(ops: &[OperationRef<'c, 'a>]) -> HashMap<OpKey, Vec<OpKey>> {
    let mut dependents: HashMap<OpKey, Vec<OpKey>> = HashMap::new();
    for task in ops.iter().filter(|op| TASK_SCOPES.contains(&ir::name(op))) {
        for dependency in ir::operands(task).into_iter().filter_map(ir::defining_op) {
            if TASK_SCOPES.contains(&ir::name(dependency)) {
                dependents
                    .entry(ir::op_key(dependency))
                    .or_default()
                    .push(ir::op_key(task));
            }
        }
    }
    dependents
}

/// The tasks that depend on `task`, directly or through other tasks (by key).
fn transitive_dependents(task: OpKey, dependents: &HashMap<OpKey, Vec<OpKey>>) -> HashSet<OpKey> {
    let mut found = HashSet::new();
    let mut work = vec![task];
    while let Some(current) = work.pop() {
        for dependent in dependents.get(&current).into_iter().flatten() {
            if found.insert(*dependent) {
                work.push(*dependent);
            }
        }
    }
    found
}

/// The payload windows published (written, then signalled) through a
/// signal, by key, sorted, and the tasks that publish them (by key).
fn published(notifies: &[OperationRef]) -> (Vec<ValueKey>, HashSet<OpKey>) {
    let mut windows = Vec::new();
    let mut publishers = HashSet::new();
    // A publisher's payloads are its remote writes before one of its
    // notifies of the signal: those before the last one. Its body is walked
    // once, not once per notify (a publisher may notify thousands of cells).
    let by_publisher = ir::group_in_order(notifies.iter().copied(), |notify| {
        ir::enclosing(&notify, TASK_SCOPES).map(ir::op_key)
    });
    for group in &by_publisher {
        let Some(publisher) = ir::enclosing(&group[0], TASK_SCOPES) else {
            continue;
        };
        let ends: HashSet<OpKey> = group.iter().map(ir::op_key).collect();
        let mut pending = Vec::new();
        for op in pld_ir::nested_ops(publisher) {
            if ends.contains(&ir::op_key(op)) {
                if !pending.is_empty() {
                    publishers.insert(ir::op_key(publisher));
                }
                windows.append(&mut pending);
            } else if let Some(payload) = table_operand(&op, REMOTE_WRITES) {
                pending.push(ir::value_key(payload));
            }
        }
    }
    windows.sort_unstable();
    windows.dedup();
    (windows, publishers)
}

fn task_name(task: &OperationRef) -> String {
    pld_ir::attributes::task_name(task)
        .unwrap_or_default()
        .to_owned()
}

/// What a defer_wait waits for: the cell (signal, dynamic and static
/// offsets), the expected value and the comparison. Waiters of one
/// condition are interchangeable: each completes when the same event has
/// happened.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Condition {
    signal: ValueKey,
    offsets: Vec<ValueKey>,
    static_offsets: Vec<i64>,
    expected: ValueKey,
    cmp: i64,
}

impl Condition {
    fn of(wait: &OperationRef) -> Option<Self> {
        let operands = pld::SystemDeferWaitOp::operands(wait)?;
        let attributes = pld::SystemDeferWaitOp::attributes(wait)?;
        Some(Self {
            signal: ir::value_key(operands.signal),
            offsets: operands.offsets.into_iter().map(ir::value_key).collect(),
            static_offsets: attributes.static_offsets,
            expected: ir::value_key(operands.expected),
            cmp: attributes.cmp as i64,
        })
    }
}

/// Continuation work depends on the waiter's task id: a task that reads a
/// payload published (written, then signalled) through the signal a waiter
/// defers on must list among its (transitive) deps that waiter or another
/// of the same condition (PyPTO's deferred-completion test pairs each of
/// 16 or 48 waiters of one event with its own consumer).
fn check_consumers(ops: &[OperationRef], report: &mut Report) {
    let mut notifies_of_signal: HashMap<ValueKey, Vec<OperationRef>> = HashMap::new();
    let mut readers_of_window: HashMap<ValueKey, Vec<OperationRef>> = HashMap::new();
    for op in ops {
        if let Some(pld::SystemNotifyOpOperands { target: signal, .. }) =
            pld::SystemNotifyOp::operands(op)
        {
            notifies_of_signal
                .entry(ir::value_key(signal))
                .or_default()
                .push(*op);
        }
        if let Some(window) = table_operand(op, WINDOW_READS) {
            readers_of_window
                .entry(ir::value_key(window))
                .or_default()
                .push(*op);
        }
    }
    // What each signal publishes and what depends on each condition's
    // waiters, found once (made on first need) and not once per defer_wait
    // and reader: thousands of waiters may defer on one signal, and a chain
    // of thousands of tasks may consume what one publishes.
    let dependents = direct_dependents(ops);
    let mut waiters_of: HashMap<Condition, Vec<OperationRef>> = HashMap::new();
    for wait in ops
        .iter()
        .filter(|op| ir::name(op) == pld::SystemDeferWaitOp::NAME)
    {
        if let (Some(condition), Some(waiter)) =
            (Condition::of(wait), ir::enclosing(wait, &[pl::AtOp::NAME]))
        {
            waiters_of.entry(condition).or_default().push(waiter);
        }
    }
    let mut published_by_signal: HashMap<ValueKey, (Vec<ValueKey>, HashSet<OpKey>)> =
        HashMap::new();
    let mut checked: HashSet<Condition> = HashSet::new();
    for wait in ops
        .iter()
        .filter(|op| ir::name(op) == pld::SystemDeferWaitOp::NAME)
    {
        let Some(waiter) = ir::enclosing(wait, &[pl::AtOp::NAME]) else {
            continue;
        };
        // Each condition once, for its first waiter: what depends on any of
        // its waiters, directly or through other tasks.
        let Some(condition) = Condition::of(wait) else {
            continue;
        };
        if !checked.insert(condition.clone()) {
            continue;
        }
        let equivalent = waiters_of.get(&condition).map_or(&[][..], Vec::as_slice);
        let waiters: HashSet<OpKey> = equivalent.iter().map(ir::op_key).collect();
        // Made on first need: a condition no task reads after costs nothing.
        let mut released: Option<HashSet<OpKey>> = None;
        let mut reported: HashSet<OpKey> = HashSet::new();
        // Publishers: tasks that write a payload and then notify the signal.
        let (windows, publishers) =
            published_by_signal
                .entry(condition.signal)
                .or_insert_with(|| {
                    published(
                        notifies_of_signal
                            .get(&condition.signal)
                            .map_or(&[], Vec::as_slice),
                    )
                });
        let readers = windows
            .iter()
            .filter_map(|window| readers_of_window.get(window))
            .flatten();
        for reader in readers {
            let Some(consumer) = ir::enclosing(reader, TASK_SCOPES) else {
                continue;
            };
            let key = ir::op_key(consumer);
            if waiters.contains(&key) || publishers.contains(&key) {
                continue;
            }
            let released = released.get_or_insert_with(|| {
                equivalent
                    .iter()
                    .flat_map(|waiter| transitive_dependents(ir::op_key(waiter), &dependents))
                    .collect()
            });
            if released.contains(&key) || !reported.insert(key) {
                continue;
            }
            report.error(
                &consumer,
                &format!(
                    "task '{}' reads a payload published through the signal that waiter '{}' \
                     defers on, but does not depend on the waiter's task id; list it in deps",
                    task_name(&consumer),
                    task_name(&waiter)
                ),
                &[
                    note(reader, "the payload is read here"),
                    note(&waiter, "the waiter task"),
                ],
            );
        }
    }
}

/// A computed `expected` that is negative: the op verifier rejects a
/// literal one, and canonicalization would fold this one into it.
fn check_expected(wait: &OperationRef, report: &mut Report) {
    let Some(pld::SystemDeferWaitOpOperands { expected, .. }) =
        pld::SystemDeferWaitOp::operands(wait)
    else {
        return;
    };
    if let Some(value) = pld_ir::analysis::facts::constant_int(expected).filter(|value| *value < 0)
    {
        let notes: Vec<Note> = ir::defining_op(expected)
            .map(|op| note(&op, "the value is computed here"))
            .into_iter()
            .collect();
        report.error(
            wait,
            &format!(
                "expected 'expected' in [0, 2147483647], found {value} (counters are polled as \
                 uint32, so a negative threshold is never a valid one)"
            ),
            &notes,
        );
    }
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    // By key: a list would be searched once per defer_wait (quadratic with
    // thousands of waiter tasks).
    let mut checked_tasks: HashSet<OpKey> = HashSet::new();
    for wait in ops
        .iter()
        .filter(|op| ir::name(op) == pld::SystemDeferWaitOp::NAME)
    {
        check_signal(wait, report);
        check_expected(wait, report);
        let Some(task) = check_placement(wait, report) else {
            continue;
        };
        if checked_tasks.insert(ir::op_key(task)) {
            check_task(&task, wait, report);
        }
    }
    check_consumers(ops, report);
}
