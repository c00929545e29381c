//! The signal cells that notify, wait and defer_wait address.

use crate::verify::ops::{COLLECTIVE_SIGNALS, resolved_index_list, table_operand};
use melior::dialect::arith::CmpiPredicate;
use melior::ir::{RegionLike, Value, operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::{NotifyOp, WaitCmp};
use pld_dialect::ops::{arith, pld, scf};
use pld_ir::ValueKey;
use pld_ir::analysis::{facts, fold::cmpi_predicate};
use pld_ir::read as ir;
use std::{collections::HashMap, fmt};

/// What a signal access does to its cell: a notify's operation or a wait's
/// comparison, read from the op's own enum attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Notify(NotifyOp),
    Wait(WaitCmp),
}

impl Mode {
    pub const SET: Mode = Mode::Notify(NotifyOp::Set);
    pub const ATOMIC_ADD: Mode = Mode::Notify(NotifyOp::AtomicAdd);
}

/// The keyword the op's assembly writes (`set`, `atomic_add`, `eq`, `ge`).
impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Mode::Notify(op) => op.keyword(),
            Mode::Wait(cmp) => cmp.keyword(),
        })
    }
}

/// One signal access: the signal tensor, the cell (static offsets, `None`
/// where dynamic) and the last operand (value for notify, expected for waits).
pub struct SignalAccess<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub signal: Value<'c, 'a>,
    pub cell: Vec<Option<i64>>,
    pub scalar: Value<'c, 'a>,
    pub mode: Mode,
}

impl<'c, 'a> SignalAccess<'c, 'a> {
    /// The access `op` makes, if it is a notify, wait or defer_wait.
    pub fn of(op: OperationRef<'c, 'a>) -> Option<Self> {
        if ![
            pld::SystemNotifyOp::NAME,
            pld::SystemWaitOp::NAME,
            pld::SystemDeferWaitOp::NAME,
        ]
        .contains(&ir::name(op))
        {
            return None;
        }
        let cell = resolved_index_list(&op, "static_offsets")?;
        // A notify writes `value` into its `target`; a wait or defer_wait
        // compares its `signal` with `expected`.
        let (signal, scalar, mode) = if let Some(notify) = pld::SystemNotifyOp::operands(&op) {
            let mode = Mode::Notify(pld::SystemNotifyOp::get_op(&op)?);
            (notify.target, notify.value, mode)
        } else if let Some(wait) = pld::SystemWaitOp::operands(&op) {
            (
                wait.signal,
                wait.expected,
                Mode::Wait(pld::SystemWaitOp::get_cmp(&op)?),
            )
        } else {
            let wait = pld::SystemDeferWaitOp::operands(&op)?;
            (
                wait.signal,
                wait.expected,
                Mode::Wait(pld::SystemDeferWaitOp::get_cmp(&op)?),
            )
        };
        Some(Self {
            op,
            signal,
            cell,
            scalar,
            mode,
        })
    }

    /// Whether two accesses may touch the same cell: they differ for sure
    /// only where both offsets are static and unequal.
    pub fn may_overlap(&self, other: &SignalAccess) -> bool {
        self.signal == other.signal && cells_may_overlap(&self.cell, &other.cell)
    }

    pub fn is_notify(&self) -> bool {
        matches!(self.mode, Mode::Notify(_))
    }

    pub fn is_wait(&self) -> bool {
        !self.is_notify()
    }

    pub fn cell_text(&self) -> String {
        ir::format_list(&self.cell)
    }

    /// The peer a notify writes (`None` for a wait).
    pub fn peer(&self) -> Option<Value<'c, 'a>> {
        notify_peer(&self.op)
    }

    /// Whether this is semantics §4's epilogue: a self-notify (`peer` = this
    /// rank) that atomically adds a negative amount, bringing this rank's
    /// own counter back down. It publishes nothing (a counter that falls
    /// releases no waiter for it to rise) and makes the signal reusable with
    /// the same expected values.
    pub fn is_epilogue(&self) -> bool {
        self.is_notify()
            && self.mode == Mode::ATOMIC_ADD
            && self
                .peer()
                .is_some_and(|peer| is_own_rank(peer) || is_guarded_own_rank(&self.op, peer))
            && is_negative_amount(self.scalar)
    }
}

/// The `peer` operand of a notify.
pub fn notify_peer<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    Some(pld::SystemNotifyOp::operands(op)?.peer)
}

/// Whether `value` is this rank's own index: `pld.system.rank`, or an
/// argument of a function, which for a self-notify's peer is the `my_rank`
/// a host computes per rank and passes in (PyPTO's credit reset notifies
/// `-N` to the rank its host loop names); directly or through integer
/// casts. The race rule runs such an argument with the values a host
/// passes, so a peer that is not the rank is still judged there.
fn is_own_rank(value: Value) -> bool {
    is_system_value(value, pld::SystemRankOp::NAME) || is_function_argument(value)
}

/// Whether the notify `op` runs only on the rank its constant `peer`
/// names: it sits in the `then` region of an `scf.if` on `rank == peer`
/// (either side, through casts), as a root's take-back does
/// (`scf.if %me == 0 { wait; notify ..., peer %c0, value -k }`).
fn is_guarded_own_rank(op: &OperationRef, peer: Value) -> bool {
    let Some(target) = facts::constant_int(peer) else {
        return false;
    };
    let mut child = *op;
    while let Some(parent) = child.parent_operation() {
        if ir::is_function(&parent) {
            return false;
        }
        let then_block = parent
            .region(0)
            .ok()
            .and_then(|region| region.first_block());
        if let Some(branch) = scf::IfOp::operands(&parent)
            && then_block.is_some()
            && then_block == child.block()
            && is_rank_equal_to(branch.condition, target)
        {
            return true;
        }
        child = parent;
    }
    false
}

/// Whether `condition` is `rank == target`: an `arith.cmpi eq` of a value
/// derived from `pld.system.rank` and the constant `target`.
fn is_rank_equal_to(condition: Value, target: i64) -> bool {
    let Some(compare) = ir::defining_op(condition) else {
        return false;
    };
    let sides = ir::operands(&compare);
    cmpi_predicate(&compare) == Some(CmpiPredicate::Eq)
        && sides.len() == 2
        && (0..2).any(|i| {
            is_system_value(sides[i], pld::SystemRankOp::NAME)
                && facts::constant_int(sides[1 - i]) == Some(target)
        })
}

/// Whether `value` is an argument of a function, directly or through
/// integer casts.
fn is_function_argument(value: Value) -> bool {
    let mut current = value;
    loop {
        if let Some(owner) = ir::argument_owner(current) {
            return ir::is_function(&owner);
        }
        let Some(source) = ir::defining_op(current).and_then(|op| cast_source(&op, true)) else {
            return false;
        };
        current = source;
    }
}

/// Whether `value` is the result of op `name` (`pld.system.rank` or
/// `nranks`), directly or through integer casts.
fn is_system_value(value: Value, name: &str) -> bool {
    let mut current = value;
    loop {
        let Some(op) = ir::defining_op(current) else {
            return false;
        };
        if ir::name(op) == name {
            return true;
        }
        match cast_source(&op, true) {
            Some(source) => current = source,
            None => return false,
        }
    }
}

/// Whether `value` is a negative amount, as the epilogue of a collective
/// subtracts its barrier count: a negative constant (however computed), a
/// value whose range lies below zero, `c - x` with a constant `c <= 0` (a
/// count subtracted from zero, also after canonicalization folds
/// `0 - (x + 1)` into `-1 - x`), or `c * x` with a constant `c < 0` (`-1 * k`
/// as a front end writes a negated count), directly or through integer
/// casts. The count itself is taken to be positive (were both sides known,
/// the amount would fold to a constant and be judged as one). Also `1 - n`
/// with n the rank count, which a counted barrier adds to its own counter
/// (nothing with one rank, when no peer adds to it either).
fn is_negative_amount(value: Value) -> bool {
    if let Some(constant) = pld_ir::analysis::facts::constant_int(value) {
        return constant < 0;
    }
    let structural = ir::defining_op(value).is_some_and(|op| {
        if let Some(source) = cast_source(&op, false) {
            is_negative_amount(source)
        } else if let Some(sub) = arith::SubIOp::operands(&op) {
            pld_ir::analysis::facts::constant_int(sub.lhs).is_some_and(|minuend| {
                minuend <= 0
                    || (minuend == 1 && is_system_value(sub.rhs, pld::SystemNranksOp::NAME))
            })
        } else if let Some(mul) = arith::MulIOp::operands(&op) {
            [mul.lhs, mul.rhs].into_iter().any(|factor| {
                pld_ir::analysis::facts::constant_int(factor).is_some_and(|constant| constant < 0)
            })
        } else {
            false
        }
    });
    // The ranges last: they run the dataflow analysis, which the patterns
    // above (what the decomposition emits) never need.
    structural || pld_ir::analysis::facts::int_range(value).is_some_and(|(_, max)| max < 0)
}

/// Whether two cells of one signal may coincide: they differ for sure only
/// where both offsets are known and unequal.
pub fn cells_may_overlap(a: &[Option<i64>], b: &[Option<i64>]) -> bool {
    a.iter()
        .zip(b)
        .all(|(a, b)| a.is_none() || b.is_none() || a == b)
}

/// The notifies of one signal, indexed by cell. A kernel may notify one
/// signal thousands of times (`bench/verify-cost.py`), so "which notifies may
/// touch this cell" must not scan them all for every wait: a notify whose
/// offsets are all known touches exactly the cells equal to it, so those are
/// looked up by cell; only the notifies with an unknown offset are scanned.
pub struct NotifyIndex<'s, 'c, 'a> {
    /// The notifies, in program order (positions index this).
    pub notifies: Vec<&'s SignalAccess<'c, 'a>>,
    /// The number of offsets of a known cell (the signal's rank).
    rank: usize,
    /// The notifies on each known cell.
    exact: HashMap<Vec<i64>, Bucket>,
    /// Positions of the notifies with an unknown offset, ascending.
    partial: Vec<usize>,
}

/// The notifies on one known cell: their positions, ascending, and the
/// first position of each mode among them.
#[derive(Default)]
struct Bucket {
    positions: Vec<usize>,
    first_of_mode: Vec<(Mode, usize)>,
}

impl<'s, 'c, 'a> NotifyIndex<'s, 'c, 'a> {
    /// The index of the notifies among `group` (the accesses of one signal).
    pub fn new(group: &[&'s SignalAccess<'c, 'a>]) -> Self {
        let notifies: Vec<_> = group
            .iter()
            .copied()
            .filter(|access| access.is_notify())
            .collect();
        let rank = notifies.first().map_or(0, |notify| notify.cell.len());
        let mut index = Self {
            notifies: Vec::new(),
            rank,
            exact: HashMap::new(),
            partial: Vec::new(),
        };
        for (position, notify) in notifies.iter().enumerate() {
            match index.known(&notify.cell) {
                Some(cell) => {
                    let bucket = index.exact.entry(cell).or_default();
                    bucket.positions.push(position);
                    if !bucket
                        .first_of_mode
                        .iter()
                        .any(|(mode, _)| *mode == notify.mode)
                    {
                        bucket.first_of_mode.push((notify.mode, position));
                    }
                }
                None => index.partial.push(position),
            }
        }
        index.notifies = notifies;
        index
    }

    /// `cell` as a lookup key: every offset known, one per dimension.
    fn known(&self, cell: &[Option<i64>]) -> Option<Vec<i64>> {
        if cell.len() != self.rank {
            return None;
        }
        cell.iter().copied().collect()
    }

    fn overlaps(&self, position: usize, cell: &[Option<i64>]) -> bool {
        cells_may_overlap(&self.notifies[position].cell, cell)
    }

    /// The positions of the notifies that may touch `cell`, ascending.
    pub fn overlapping(&self, cell: &[Option<i64>]) -> Vec<usize> {
        let Some(key) = self.known(cell) else {
            return (0..self.notifies.len())
                .filter(|position| self.overlaps(*position, cell))
                .collect();
        };
        let mut positions: Vec<usize> = self
            .partial
            .iter()
            .copied()
            .filter(|position| self.overlaps(*position, cell))
            .collect();
        if let Some(bucket) = self.exact.get(&key) {
            positions.extend(&bucket.positions);
        }
        positions.sort_unstable();
        positions
    }

    /// The first notify before position `before` whose mode is not `mode`
    /// and that touches `cell`, which is known, as every offset of that
    /// notify is. Where an offset is computed (`[%me, 0]`), the race rule
    /// decides from each rank's run which cells the notifies reach
    /// (`verify::races`), rather than this rule guessing that they meet.
    pub fn first_of_other_mode(
        &self,
        cell: &[Option<i64>],
        mode: Mode,
        before: usize,
    ) -> Option<usize> {
        let key = self.known(cell)?;
        self.exact
            .get(&key)?
            .first_of_mode
            .iter()
            .filter(|(other, position)| *other != mode && *position < before)
            .map(|(_, position)| *position)
            .min()
    }
}

/// The accesses of each signal, in program order; the groups come in order
/// of first appearance, so diagnostics come out in a stable order.
pub struct SignalGroups<'s, 'c, 'a> {
    index: HashMap<ValueKey, usize>,
    groups: Vec<Vec<&'s SignalAccess<'c, 'a>>>,
}

impl<'s, 'c, 'a> SignalGroups<'s, 'c, 'a> {
    pub fn new(accesses: &'s [SignalAccess<'c, 'a>]) -> Self {
        let groups = ir::group_in_order(accesses, |access| Some(ir::value_key(access.signal)));
        let index = groups
            .iter()
            .enumerate()
            .map(|(slot, group)| (ir::value_key(group[0].signal), slot))
            .collect();
        Self { index, groups }
    }

    /// Every access of `signal`.
    pub fn of(&self, signal: Value) -> &[&'s SignalAccess<'c, 'a>] {
        self.index
            .get(&ir::value_key(signal))
            .map_or(&[], |slot| &self.groups[*slot])
    }

    pub fn iter(&self) -> impl Iterator<Item = &Vec<&'s SignalAccess<'c, 'a>>> {
        self.groups.iter()
    }
}

/// Every signal access among `ops`.
pub fn accesses<'c, 'a>(ops: &[OperationRef<'c, 'a>]) -> Vec<SignalAccess<'c, 'a>> {
    ops.iter().filter_map(|op| SignalAccess::of(*op)).collect()
}

/// The signals collectives own, with the collective.
pub fn collective_signals<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
) -> Vec<(Value<'c, 'a>, OperationRef<'c, 'a>)> {
    ops.iter()
        .filter_map(|op| Some((table_operand(op, COLLECTIVE_SIGNALS)?, *op)))
        .collect()
}

/// The source of an integer cast that keeps a value's sign: index_cast,
/// index_castui, extsi, trunci, and extui when `zero_extension` (a rank is
/// never negative, so zero-extending it keeps it).
fn cast_source<'c, 'a>(op: &OperationRef<'c, 'a>, zero_extension: bool) -> Option<Value<'c, 'a>> {
    arith::IndexCastOp::operands(op)
        .map(|cast| cast.r#in)
        .or_else(|| arith::IndexCastUIOp::operands(op).map(|cast| cast.r#in))
        .or_else(|| arith::ExtSIOp::operands(op).map(|cast| cast.r#in))
        .or_else(|| arith::TruncIOp::operands(op).map(|cast| cast.r#in))
        .or_else(|| {
            zero_extension
                .then(|| arith::ExtUIOp::operands(op).map(|cast| cast.r#in))
                .flatten()
        })
}
