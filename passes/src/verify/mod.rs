//! `pld-verify`: the rules of pld programs that no single op can check.
//!
//! - placement (semantics §1, §3): host-only and InCore-only ops;
//! - target (semantics §3): the module's chip profile (`pld.target`, default
//!   Ascend910B) and the HOST rail's collective limits;
//! - collective operands judged by value (semantics §3): a broadcast's root;
//! - the defer_wait contract (semantics §3);
//! - protocol analysis (semantics §6).
//!
//! Code is InCore inside a function marked `pl.kernel = #pl.kernel<incore>`
//! and inside the body of a task (`pl.at`, `pl.spmd`), wherever that task
//! stands; it is host code in a function marked `#pl.kernel<host>`. A
//! function without the attribute is of the kind the `default-kind` option
//! names (`host` unless told otherwise).

mod bounds;
mod collectives;
mod declarations;
mod defer_wait;
mod lowerable;
mod ops;
pub mod placement;
mod protocol;
mod races;

mod target;
mod valid_shapes;

use melior::ir::operation::OperationRef;
use pld_dialect::enums::KernelKind;
use pld_ir::pass::bridge::OptionError;
use pld_ir::pass::bridge::{Pass, PassFailed, PassOption, PassStatistic, Statistics};
use pld_ir::pass::declared::pld_verify as declared;
use pld_ir::pass::report::Report;
pub use protocol::SINGLE_RANK_WARNING;

/// The `pld-verify` pass.
pub struct PldVerify {
    default_kind: KernelKind,
    /// The rank counts the program must run on, if the user named them.
    ranks: Option<Vec<usize>>,
    /// Whether the race rule says where it cannot decide.
    remarks: bool,
    /// How the race rule launches each entry: how often, on how many
    /// blocks.
    launch: races::Launch,
}

/// The most launches the race rule runs in sequence.
const MAX_LAUNCHES: i64 = 16;

/// The most blocks the race rule launches an entry kernel on.
const MAX_BLOCKS: i64 = 64;

/// An integer option `name` in `1..=max`.
fn in_range(name: &str, value: i64, max: i64) -> Result<usize, OptionError> {
    usize::try_from(value)
        .ok()
        .filter(|value| (1..=max as usize).contains(value))
        .ok_or_else(|| OptionError(format!("expected {name} to be in 1..={max}, found {value}")))
}

/// The `ranks` option: rank counts in 1..=64, comma-separated.
fn parse_ranks(text: &str) -> Result<Vec<usize>, OptionError> {
    text.split(',')
        .map(|item| {
            item.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=64).contains(n))
                .ok_or_else(|| OptionError(format!("expected ranks to be rank counts in 1..=64 separated by commas, found '{text}'")))
        })
        .collect()
}

impl Pass for PldVerify {
    const ARGUMENT: &'static str = declared::ARGUMENT;
    const DESCRIPTION: &'static str = declared::SUMMARY;
    const OPTIONS: &'static [PassOption] = declared::OPTIONS;
    const STATISTICS: &'static [PassStatistic] = declared::STATISTICS;
    // The checks only read the IR (the value analysis restores the
    // visibility it changes while it runs).
    const LEAVES_IR_UNCHANGED: bool = true;

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        let options = declared::Options::parse(values)?;
        Ok(Self {
            default_kind: pld_ir::analysis::place::parse_default_kind(&options.default_kind)?,
            ranks: if options.ranks.is_empty() {
                None
            } else {
                Some(parse_ranks(&options.ranks)?)
            },
            remarks: options.remarks,
            launch: races::Launch {
                count: in_range("launches", options.launches, MAX_LAUNCHES)?,
                blocks: in_range("blocks", options.blocks, MAX_BLOCKS)?,
                entry: Some(options.entry.trim_start_matches('@').to_owned())
                    .filter(|entry| !entry.is_empty()),
            },
        })
    }

    fn run(&self, op: OperationRef, statistics: &Statistics) -> Result<(), PassFailed> {
        // The rules judge values, not spellings: what the dataflow analyses
        // know of every integer (constants however computed, ranges).
        // SAFETY: `_facts` drops at the end of this call, while `op` (the op
        // the pass runs on, alive for the run) still exists.
        let _facts = unsafe { pld_ir::analysis::facts::FactsScope::enter(op) };
        let ops = pld_ir::nested_ops(op);
        let mut report = Report::default();
        let mut declared = declarations::Declarations::default();
        placement::check(&ops, self.default_kind, &mut report);
        target::check(&ops, self.default_kind, &mut report);
        collectives::check(&ops, &mut report);
        bounds::check(&ops, &mut declared, &mut report);
        valid_shapes::check(&ops, &mut report);
        lowerable::check(&ops, &mut report);
        defer_wait::check(&ops, &mut report);
        protocol::check(&op, &ops, &mut declared, &mut report);
        let entries = races::check(
            &ops,
            self.default_kind,
            self.ranks.as_deref(),
            self.remarks,
            &self.launch,
            &mut declared,
            &mut report,
        );
        statistics.add(&declared::ERRORS, report.errors());
        statistics.add(&declared::WARNINGS, report.warnings());
        statistics.add(&declared::RACE_ENTRIES_RUN, entries.run);
        statistics.add(&declared::RACE_ENTRIES_SHARED, entries.shared);
        statistics.add(&declared::RACE_RUNS, entries.runs);
        if report.failed() {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}
