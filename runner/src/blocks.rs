//! Collectives run on one core (block) per rank, or on the `core_num` C of
//! an allreduce: `pld-decompose-collectives` turns each into the whole
//! algorithm over its signal, for one block of every rank, or into C
//! parts, one per block. A kernel launched with several blocks runs a
//! one-core algorithm once per block on the same signal (a deadlock, wrong
//! sums or a race), and one launched with fewer than C blocks never runs
//! the last parts (a deadlock), so pld-run refuses, before the module is
//! lowered and at the collective the user wrote, to launch either: the
//! entry kernel with `--blocks` ([`entry_collectives`]), a `pl.spmd` task
//! whose block count is a constant ([`spmd_collectives`]). A collective under an `scf.if`
//! whose condition depends on `pl.get_block_idx` is taken to be guarded to
//! one block (as pld-verify takes a notify guarded by `pl.get_aiv_id` to
//! fire on one lane) and is accepted.

use melior::ir::{Location, operation::OperationLike, operation::OperationRef};
use pld_dialect::{
    diagnostics::{Severity, emit},
    interfaces,
    ops::{pl, scf},
};
use pld_ir::{location_text, nested_ops, read};
use std::collections::{HashMap, HashSet};

/// A collective that every block of a launch runs, and the calls that
/// lead to it from the launched code (outermost first).
pub(crate) struct Found<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub calls: Vec<OperationRef<'c, 'a>>,
}

/// The cores (blocks) of every rank collective `op` runs on: its
/// `core_num`, or 1.
fn cores_of(op: OperationRef) -> i64 {
    interfaces::collective_cores(&op).unwrap_or(1)
}

impl<'c> Found<'c, '_> {
    /// The op and where it stands, for a message that outlives the module.
    pub fn site(&self) -> CollectiveSite {
        CollectiveSite {
            op: read::name(self.op).to_owned(),
            location: location_text(self.op.location()),
            cores: cores_of(self.op),
        }
    }

    /// The notes that show how the launched code reaches the collective.
    fn call_notes(&self) -> Vec<(Location<'c>, String)> {
        self.calls
            .iter()
            .map(|call| {
                let callee = read::callee_name(call).unwrap_or_default();
                (
                    call.location(),
                    format!("every block runs this call of @{callee}, which runs the collective"),
                )
            })
            .collect()
    }
}

/// A collective's name, location (`file:line:col`) and cores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectiveSite {
    pub op: String,
    pub location: String,
    pub cores: i64,
}

impl CollectiveSite {
    /// Whether a launch of `blocks` blocks cannot run the collective: one
    /// that runs on one core launched on several, or one on C cores on
    /// fewer than C.
    pub fn conflicts(&self, blocks: i64) -> bool {
        if self.cores == 1 {
            blocks > 1
        } else {
            blocks < self.cores
        }
    }

    /// What the collective runs on, for a message.
    fn runs_on(&self) -> String {
        match self.cores {
            1 => "runs on one core (block) per rank".to_owned(),
            cores => format!("runs on core_num {cores} cores (blocks) per rank"),
        }
    }

    /// What a launch of `blocks` blocks would do with it, and what to do.
    fn consequence(&self, blocks: i64) -> String {
        match self.cores {
            1 => "each block would run the whole algorithm on the same signal".to_owned(),
            cores => format!(
                "the parts of blocks {blocks} to {} would never run, and every rank would wait \
                 for them",
                cores - 1
            ),
        }
    }
}

/// The functions of `module` by symbol.
fn functions<'c, 'a>(module: OperationRef<'c, 'a>) -> HashMap<String, OperationRef<'c, 'a>> {
    nested_ops(module)
        .into_iter()
        .filter(|op| read::is_function(op))
        .filter_map(|op| Some((read::symbol_name(&op)?, op)))
        .collect()
}

/// Whether some `scf.if` between `op` and `scope` branches on the block
/// index (then only the blocks it picks run `op`).
fn guarded_by_block(op: &OperationRef, scope: &OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if ancestor == *scope {
            return false;
        }
        if scf::IfOp::operands(&ancestor)
            .is_some_and(|branch| read::depends_on_op(branch.condition, pl::GetBlockIdxOp::NAME))
        {
            return true;
        }
        current = ancestor.parent_operation();
    }
    false
}

/// The collectives that every block running `scope` (a function or a
/// `pl.spmd` task) runs: in its body and in the functions it calls, not
/// guarded to one block. `seen` holds the functions already walked.
fn on_every_block<'c, 'a>(
    scope: OperationRef<'c, 'a>,
    functions: &HashMap<String, OperationRef<'c, 'a>>,
    calls: &[OperationRef<'c, 'a>],
    seen: &mut HashSet<String>,
    found: &mut Vec<Found<'c, 'a>>,
) {
    for op in nested_ops(scope) {
        if guarded_by_block(&op, &scope) {
            continue;
        }
        if interfaces::collective(&op).is_some() {
            found.push(Found {
                op,
                calls: calls.to_vec(),
            });
            continue;
        }
        let Some(callee) = read::callee_name(&op) else {
            continue;
        };
        let Some(function) = functions.get(&callee) else {
            continue;
        };
        if seen.insert(callee) {
            let mut through = calls.to_vec();
            through.push(op);
            on_every_block(*function, functions, &through, seen, found);
        }
    }
}

/// The collectives that every block of entry `symbol` runs when it is
/// launched as a kernel.
pub(crate) fn entry_collectives<'c, 'a>(
    module: OperationRef<'c, 'a>,
    symbol: &str,
) -> Vec<Found<'c, 'a>> {
    let functions = functions(module);
    let mut found = Vec::new();
    if let Some(entry) = functions.get(symbol) {
        let mut seen = HashSet::from([symbol.to_owned()]);
        on_every_block(*entry, &functions, &[], &mut seen, &mut found);
    }
    found
}

/// Those of `found` that a launch of `blocks` blocks cannot run.
pub(crate) fn conflicting<'c, 'a>(found: Vec<Found<'c, 'a>>, blocks: i64) -> Vec<Found<'c, 'a>> {
    found
        .into_iter()
        .filter(|found| found.site().conflicts(blocks))
        .collect()
}

/// A `pl.spmd` task of a constant number of blocks that runs a collective
/// on every block, which that many blocks cannot run.
pub(crate) struct SpmdCollective<'c, 'a> {
    pub task: OperationRef<'c, 'a>,
    pub blocks: i64,
    pub found: Found<'c, 'a>,
}

/// The `pl.spmd` tasks that entry `symbol` runs (in its body or a function
/// it calls) with a constant block count, and the collectives every block
/// of each runs that this many blocks cannot run.
pub(crate) fn spmd_collectives<'c, 'a>(
    module: OperationRef<'c, 'a>,
    symbol: &str,
) -> Vec<SpmdCollective<'c, 'a>> {
    let functions = functions(module);
    // The functions the entry runs: itself and those it calls.
    let mut reached = Vec::new();
    let mut seen = HashSet::new();
    let mut work: Vec<String> = vec![symbol.to_owned()];
    while let Some(name) = work.pop() {
        let Some(function) = functions.get(&name) else {
            continue;
        };
        if !seen.insert(name) {
            continue;
        }
        reached.push(*function);
        work.extend(nested_ops(*function).iter().filter_map(read::callee_name));
    }
    let mut tasks = Vec::new();
    let mut done = HashSet::new();
    for function in reached {
        for op in nested_ops(function) {
            let Some(spmd) = pl::SpmdOp::operands(&op) else {
                continue;
            };
            let Some(blocks) = pld_ir::analysis::facts::constant_int(spmd.num_blocks) else {
                continue;
            };
            if !done.insert(read::op_key(op)) {
                continue;
            }
            let mut found = Vec::new();
            on_every_block(op, &functions, &[], &mut HashSet::new(), &mut found);
            let found = conflicting(found, blocks);
            tasks.extend(found.into_iter().map(|found| SpmdCollective {
                task: op,
                blocks,
                found,
            }));
        }
    }
    tasks
}

/// Emits `message` at the collective of `found`, with `notes` and then the
/// calls that lead to it.
fn error_at<'c>(found: &Found<'c, '_>, message: &str, mut notes: Vec<(Location<'c>, String)>) {
    notes.extend(found.call_notes());
    let notes: Vec<(Location, &str)> = notes
        .iter()
        .map(|(location, text)| (*location, text.as_str()))
        .collect();
    emit(Severity::Error, found.op.location(), message, &notes);
}

/// Emits, at each of `found`, that entry kernel `symbol` launched on
/// `blocks` blocks cannot run it.
pub(crate) fn report_entry(found: &[Found], symbol: &str, blocks: u32) {
    for collective in found {
        let site = collective.site();
        error_at(
            collective,
            &format!(
                "'{}' {}, but the kernel @{symbol} was launched with {blocks} block{} \
                 (--blocks {blocks}): {}; run with --blocks {}",
                read::name(collective.op),
                site.runs_on(),
                if blocks == 1 { "" } else { "s" },
                site.consequence(i64::from(blocks)),
                match site.cores {
                    1 => "1 (or guard the collective to one block with an scf.if on \
                          pl.get_block_idx)"
                        .to_owned(),
                    cores => cores.to_string(),
                }
            ),
            Vec::new(),
        );
    }
}

/// Emits, at the collective of each of `tasks`, that its task's blocks
/// cannot run it.
pub(crate) fn report_spmd(tasks: &[SpmdCollective]) {
    for task in tasks {
        let site = task.found.site();
        let name = pl::SpmdOp::get_name_hint(&task.task).unwrap_or_default();
        let blocks = task.blocks;
        error_at(
            &task.found,
            &format!(
                "'{}' {}, but it stands in the pl.spmd task \"{name}\" of {blocks} blocks: {}; \
                 {}",
                read::name(task.found.op),
                site.runs_on(),
                site.consequence(blocks),
                match site.cores {
                    1 => "run it in a single-block task (pl.at) or guard it to one block with \
                          an scf.if on pl.get_block_idx"
                        .to_owned(),
                    cores => format!("launch the task with {cores} blocks"),
                }
            ),
            vec![(
                task.task.location(),
                format!("the pl.spmd task \"{name}\" launches {blocks} blocks"),
            )],
        );
    }
}
