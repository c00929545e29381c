//! The defer_wait contract (SPEC §3): a dedicated top-level `pl.at` task at
//! level `core_group`, pure AIV, single block, no dispatch predicate, no early
//! resolve; the signal a direct `!pld.dtensor` function argument; at most 64
//! registrations per waiter; only scalar bookkeeping and control flow after
//! the first registration; continuation work depends on the waiter's task id.

use super::{
    ir,
    ops::{DEFER_WAIT, NOTIFY, REMOTE_WRITES, WINDOW_READS, table_operand},
    placement::{TASK_SCOPES, cube_work},
};
use crate::report::{Note, Report};
use melior::ir::{ValueLike, operation::OperationLike, operation::OperationRef};
use std::collections::HashMap;

/// The most conditions one waiter task may register.
pub const MAX_REGISTRATIONS: i64 = 64;

/// Ops that may follow the first registration: scalar bookkeeping and control
/// flow. Everything else (tensor reads, payload or cache ops, communication)
/// may not.
fn is_bookkeeping(name: &str) -> bool {
    const DIALECTS: &[&str] = &["arith.", "scf.", "cf.", "index.", "math."];
    const OPS: &[&str] = &[
        DEFER_WAIT,
        "pld.system.get_comm_ctx",
        "pld.system.rank",
        "pld.system.nranks",
        "pl.get_block_idx",
        "pl.get_aiv_id",
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
    if ir::name(&task) == "pl.spmd" {
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
    let level = ir::enum_keyword(task, "level").unwrap_or_default();
    if level != "core_group" {
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
    // `pl.at` operands: deps..., then the optional dispatch predicate (i1).
    let has_predicate = ir::operands(task)
        .into_iter()
        .any(|operand| operand.r#type().to_string() == "i1");
    if has_predicate {
        report.error(
            first,
            "defer_wait needs a task without a dispatch predicate, but its task has one",
            &[note(task, "the waiter task")],
        );
    }
    if task.has_attribute("allow_early_resolve") {
        report.error(
            first,
            "defer_wait needs a task with allow_early_resolve false, so that its consumers \
             are never pre-staged before the counter is ready",
            &[note(task, "the waiter task")],
        );
    }
    let body = ir::nested_ops(*task);
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
    let mut total: i64 = 0;
    for wait in body.iter().filter(|op| ir::name(op) == DEFER_WAIT) {
        let mut count: i64 = 1;
        let mut current = wait.parent_operation();
        while let Some(ancestor) = current {
            if ancestor == *task {
                break;
            }
            let trips = match ir::name(&ancestor) {
                "scf.for" => ir::constant_trip_count(&ancestor),
                "scf.while" => None,
                _ => Some(1),
            };
            let Some(trips) = trips else {
                report.warning(
                    wait,
                    &format!(
                        "the number of defer_wait registrations cannot be bounded at compile \
                         time; the runtime rejects a waiter with more than {MAX_REGISTRATIONS}"
                    ),
                    &[note(&ancestor, "a loop without a constant trip count")],
                );
                return;
            };
            count = count.saturating_mul(trips);
            current = ancestor.parent_operation();
        }
        total = total.saturating_add(count);
    }
    if total > MAX_REGISTRATIONS {
        report.error(
            task,
            &format!(
                "a waiter task may register at most {MAX_REGISTRATIONS} defer_wait conditions, \
                 found {total}"
            ),
            &[],
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
    let mut loops = Vec::new();
    let mut current = first.parent_operation();
    while let Some(ancestor) = current {
        if ancestor == *task {
            break;
        }
        if matches!(ir::name(&ancestor), "scf.for" | "scf.while") {
            loops.push(ancestor);
        }
        current = ancestor.parent_operation();
    }
    for (index, op) in body.iter().enumerate() {
        let after = index > first_index || loops.iter().any(|loop_op| ir::is_inside(op, loop_op));
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
    let Some(signal) = ir::operand(wait, 0) else {
        return;
    };
    if let Some(owner) = ir::argument_owner(signal)
        && ir::is_function(&owner)
    {
        return;
    }
    let (found, notes) = match ir::defining_op(signal) {
        Some(definition) => (
            format!("a value defined by '{}'", ir::name(&definition)),
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

/// The tasks `task` depends on, directly or through other tasks.
fn transitive_deps<'c, 'a>(task: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut found: Vec<OperationRef> = Vec::new();
    let mut work = vec![*task];
    while let Some(current) = work.pop() {
        for dependency in ir::operands(&current)
            .into_iter()
            .filter_map(ir::defining_op)
        {
            if TASK_SCOPES.contains(&ir::name(&dependency)) && !found.contains(&dependency) {
                found.push(dependency);
                work.push(dependency);
            }
        }
    }
    found
}

fn task_name(task: &OperationRef) -> String {
    task.attribute("name_hint")
        .map(|name| name.to_string().trim_matches('"').to_owned())
        .unwrap_or_default()
}

/// Continuation work depends on the waiter's task id: a task that reads a
/// payload published (written, then signalled) through the signal a waiter
/// defers on must list the waiter among its (transitive) deps.
fn check_consumers(ops: &[OperationRef], report: &mut Report) {
    let mut notifies_of_signal: HashMap<usize, Vec<OperationRef>> = HashMap::new();
    let mut readers_of_window: HashMap<usize, Vec<OperationRef>> = HashMap::new();
    for op in ops {
        if ir::name(op) == NOTIFY
            && let Some(signal) = ir::operand(op, 0)
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
    for wait in ops.iter().filter(|op| ir::name(op) == DEFER_WAIT) {
        let Some(waiter) = ir::enclosing(wait, &["pl.at"]) else {
            continue;
        };
        let Some(signal) = ir::operand(wait, 0) else {
            continue;
        };
        // Publishers: tasks that write a payload and then notify the signal.
        let mut payloads = Vec::new();
        let mut publishers = Vec::new();
        let notifies = notifies_of_signal.get(&ir::value_key(signal));
        for notify in notifies.into_iter().flatten() {
            let Some(publisher) = ir::enclosing(notify, TASK_SCOPES) else {
                continue;
            };
            for write in ir::nested_ops(publisher)
                .iter()
                .take_while(|op| *op != notify)
            {
                if let Some(payload) = table_operand(write, REMOTE_WRITES) {
                    payloads.push(payload);
                    publishers.push(publisher);
                }
            }
        }
        let mut windows: Vec<usize> = payloads
            .iter()
            .map(|payload| ir::value_key(*payload))
            .collect();
        windows.sort_unstable();
        windows.dedup();
        let readers = windows
            .iter()
            .filter_map(|window| readers_of_window.get(window))
            .flatten();
        for reader in readers {
            let Some(consumer) = ir::enclosing(reader, TASK_SCOPES) else {
                continue;
            };
            if consumer == waiter || publishers.contains(&consumer) {
                continue;
            }
            if transitive_deps(&consumer).contains(&waiter) {
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

pub fn check(ops: &[OperationRef], report: &mut Report) {
    let mut checked_tasks: Vec<OperationRef> = Vec::new();
    for wait in ops.iter().filter(|op| ir::name(op) == DEFER_WAIT) {
        check_signal(wait, report);
        let Some(task) = check_placement(wait, report) else {
            continue;
        };
        if !checked_tasks.contains(&task) {
            checked_tasks.push(task);
            check_task(&task, wait, report);
        }
    }
    check_consumers(ops, report);
}
