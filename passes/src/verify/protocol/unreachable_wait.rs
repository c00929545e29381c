//! A wait whose expected value no reaching notify can produce (the seed's
//! "tag = 0 hangs forever"), including a signal nothing in the module ever
//! notifies, and (a warning) the single-rank case where every writer runs
//! only for a peer other than this rank.

use super::signals::{Mode, NotifyIndex, SignalAccess, SignalGroups, accesses, collective_signals};
use melior::dialect::arith::CmpiPredicate;
use melior::ir::{TypeLike, ValueLike, operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::WaitCmp;
use pld_dialect::ops::{pld, scf};
use pld_ir::ValueKey;
use pld_ir::analysis::fold::cmpi_predicate;
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use std::collections::{HashMap, HashSet};

/// What the writers of one cell can leave in it.
enum Reachable {
    /// Anything (a dynamic value, an unbounded sum, or mixed modes).
    Unknown,
    /// Exactly these values (Set writers, plus the initial 0), sorted and
    /// deduplicated (so that each wait is judged without a scan).
    Values(Vec<i64>),
    /// Values in `[min, max]` (Set writers whose values are only bounded,
    /// e.g. by the rank; the initial 0 included).
    Between(i64, i64),
    /// At most this value (AtomicAdd writers that never add a positive amount).
    AtMost(i64),
}

fn reachable(writers: &[&SignalAccess]) -> Reachable {
    let ranges: Option<Vec<(i64, i64)>> = writers
        .iter()
        .map(|writer| pld_ir::analysis::facts::int_range(writer.scalar))
        .collect();
    let Some(ranges) = ranges else {
        return Reachable::Unknown;
    };
    if writers.iter().all(|writer| writer.mode == Mode::SET) {
        if ranges.iter().all(|(min, max)| min == max) {
            let mut values: Vec<i64> = ranges.iter().map(|(value, _)| *value).collect();
            values.push(0);
            values.sort_unstable();
            values.dedup();
            return Reachable::Values(values);
        }
        let min = ranges.iter().map(|(min, _)| *min).min().unwrap_or(0).min(0);
        let max = ranges.iter().map(|(_, max)| *max).max().unwrap_or(0).max(0);
        Reachable::Between(min, max)
    } else if writers.iter().all(|writer| writer.mode == Mode::ATOMIC_ADD)
        && ranges.iter().all(|(_, max)| *max <= 0)
    {
        Reachable::AtMost(0)
    } else {
        Reachable::Unknown
    }
}

fn never_satisfied(cmp: WaitCmp, expected: i64, reachable: &Reachable) -> bool {
    match (cmp, reachable) {
        (_, Reachable::Unknown) => false,
        (WaitCmp::Ge, Reachable::Values(values)) => values.last().is_none_or(|max| *max < expected),
        (WaitCmp::Eq, Reachable::Values(values)) => values.binary_search(&expected).is_err(),
        (WaitCmp::Ge, Reachable::Between(_, max)) => *max < expected,
        (WaitCmp::Eq, Reachable::Between(min, max)) => expected < *min || *max < expected,
        (WaitCmp::Ge | WaitCmp::Eq, Reachable::AtMost(max)) => *max < expected,
    }
}

/// What a writer puts into the cell, for a note: its value, or its range.
fn written_text(writer: &SignalAccess) -> String {
    match pld_ir::analysis::facts::int_range(writer.scalar) {
        Some((min, max)) if min == max => min.to_string(),
        Some((min, max)) => format!("a value in [{min}, {max}]"),
        None => "a value".to_owned(),
    }
}

/// Whether `op` runs only for a peer other than this rank: it sits in an
/// `scf.if` on `x != y` where one side is derived from `pld.system.rank`.
fn only_for_other_ranks(op: &OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if ir::is_function(&ancestor) {
            return false;
        }
        let condition = scf::IfOp::operands(&ancestor)
            .map(|branch| branch.condition)
            .and_then(ir::defining_op);
        if let Some(compare) = condition
            && cmpi_predicate(&compare) == Some(CmpiPredicate::Ne)
            && ir::operands(&compare)
                .into_iter()
                .any(|side| ir::depends_on_op(side, pld::SystemRankOp::NAME))
        {
            return true;
        }
        current = ancestor.parent_operation();
    }
    false
}

/// How the single-rank warning starts: a tool that knows the rank count
/// (pld-run) shows it only for a run on one rank.
pub const SINGLE_RANK_WARNING: &str = "with a single rank this ";

/// With a single rank there is no other peer: a wait that runs even then,
/// on a cell only other ranks write, never returns.
fn check_single_rank(wait: &SignalAccess, expected: i64, writers: &Writers, report: &mut Report) {
    let reached_at_zero = match wait.mode {
        Mode::Wait(WaitCmp::Ge) => expected <= 0,
        _ => expected == 0,
    };
    if reached_at_zero
        || only_for_other_ranks(&wait.op)
        || !*writers.only_for_other_ranks.get_or_init(|| {
            writers
                .list
                .iter()
                .all(|writer| only_for_other_ranks(&writer.op))
        })
    {
        return;
    }
    let writers = &writers.list;
    let notes: Vec<_> = writers
        .iter()
        .map(|writer| {
            (
                writer.op.location(),
                "runs only for a peer other than this rank".to_owned(),
            )
        })
        .collect();
    report.warning(
        &wait.op,
        &format!(
            "{SINGLE_RANK_WARNING}{} never returns: every notify that writes signal{} runs only \
             for a peer other than this rank",
            ir::keyword(wait.op),
            wait.cell_text()
        ),
        &notes,
    );
}

/// The notifies that may write one cell, and what the rule derives from
/// them. Thousands of waits on one cell share them (`bench/verify-cost.py`),
/// so they are found and judged once per cell, not once per wait.
struct Writers<'s, 'c, 'a> {
    /// In program order.
    list: Vec<&'s SignalAccess<'c, 'a>>,
    reachable: Reachable,
    /// Whether every writer runs only for a peer other than this rank (made
    /// on first need).
    only_for_other_ranks: std::cell::OnceCell<bool>,
}

pub fn check(root: &OperationRef, ops: &[OperationRef], all: &[SignalAccess], report: &mut Report) {
    // The types of every signal some notify of the module writes (the
    // accesses at hand when the pass runs on the module itself).
    let module = ir::root(*root);
    let elsewhere;
    let everywhere = if module == *root {
        all
    } else {
        elsewhere = accesses(&pld_ir::nested_ops(module));
        &elsewhere
    };
    let notified_types: HashSet<usize> = everywhere
        .iter()
        .filter(|access| access.is_notify())
        .map(|access| access.signal.r#type().to_raw().ptr as usize)
        .collect();
    let owned: HashSet<ValueKey> = collective_signals(ops)
        .into_iter()
        .map(|(signal, _)| ir::value_key(signal))
        .collect();
    let groups = SignalGroups::new(all);
    // The notifies of each signal by cell, and the writers of each cell a
    // wait reads (by signal and cell), made on first need.
    let mut indexes: HashMap<ValueKey, NotifyIndex> = HashMap::new();
    let mut writers_of: HashMap<(ValueKey, Vec<Option<i64>>), Writers> = HashMap::new();
    for wait in all.iter().filter(|access| access.is_wait()) {
        let Some(expected) = pld_ir::analysis::facts::constant_int(wait.scalar) else {
            continue;
        };
        if owned.contains(&ir::value_key(wait.signal)) {
            continue;
        }
        let Mode::Wait(cmp) = wait.mode else {
            continue;
        };
        let signal = ir::value_key(wait.signal);
        let writers = writers_of
            .entry((signal, wait.cell.clone()))
            .or_insert_with(|| {
                let index = indexes
                    .entry(signal)
                    .or_insert_with(|| NotifyIndex::new(groups.of(wait.signal)));
                let list: Vec<&SignalAccess> = index
                    .overlapping(&wait.cell)
                    .into_iter()
                    .map(|position| index.notifies[position])
                    .collect();
                Writers {
                    reachable: reachable(&list),
                    list,
                    only_for_other_ranks: std::cell::OnceCell::new(),
                }
            });
        if writers.list.is_empty() {
            // The writer may live in another function of the module, on a
            // signal of the same type; only a module with no such notify at
            // all proves that nothing ever writes the cell.
            let any_writer = notified_types.contains(&(wait.signal.r#type().to_raw().ptr as usize));
            if !any_writer && never_satisfied(cmp, expected, &Reachable::Values(vec![0])) {
                report.error(
                    &wait.op,
                    &format!(
                        "{} for signal{} {} {expected} never returns: no notify in the module \
                         writes a {} signal, so the cell stays 0",
                        ir::keyword(wait.op),
                        wait.cell_text(),
                        cmp.keyword(),
                        wait.signal.r#type()
                    ),
                    &[],
                );
            }
            continue;
        }
        check_single_rank(wait, expected, writers, report);
        let reachable = &writers.reachable;
        if never_satisfied(cmp, expected, reachable) {
            let what = match reachable {
                Reachable::Values(values) => {
                    let values: Vec<String> = values.iter().map(i64::to_string).collect();
                    format!("can only hold {}", values.join(", "))
                }
                Reachable::Between(min, max) => format!("only holds values in [{min}, {max}]"),
                _ => "never rises above 0".to_owned(),
            };
            let notes: Vec<_> = writers
                .list
                .iter()
                .map(|writer| {
                    let verb = if writer.mode == Mode::SET {
                        "sets"
                    } else {
                        "adds"
                    };
                    (
                        writer.op.location(),
                        format!("{verb} {} here", written_text(writer)),
                    )
                })
                .collect();
            report.error(
                &wait.op,
                &format!(
                    "{} for signal{} {} {expected} never returns: the cell {what}",
                    ir::keyword(wait.op),
                    wait.cell_text(),
                    cmp.keyword(),
                ),
                &notes,
            );
        }
    }
}
