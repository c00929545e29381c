//! The signal cells that notify, wait and defer_wait address.

use crate::verify::{
    ir,
    ops::{COLLECTIVE_SIGNALS, DEFER_WAIT, NOTIFY, WAIT, resolved_index_list, table_operand},
};
use melior::ir::{Value, operation::OperationLike, operation::OperationRef};
use std::collections::HashMap;

/// One signal access: the signal tensor, the cell (static offsets, `None`
/// where dynamic) and the last operand (value for notify, expected for waits).
pub struct SignalAccess<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub signal: Value<'c, 'a>,
    pub cell: Vec<Option<i64>>,
    pub scalar: Value<'c, 'a>,
    /// `set`/`atomic_add` for a notify, `eq`/`ge` for a wait.
    pub mode: &'static str,
}

impl<'c, 'a> SignalAccess<'c, 'a> {
    /// The access `op` makes, if it is a notify, wait or defer_wait.
    pub fn of(op: OperationRef<'c, 'a>) -> Option<Self> {
        if ![NOTIFY, WAIT, DEFER_WAIT].contains(&ir::name(&op)) {
            return None;
        }
        let cell = resolved_index_list(&op, "static_offsets")?;
        let mode_attribute = if ir::name(&op) == NOTIFY { "op" } else { "cmp" };
        Some(Self {
            op,
            signal: ir::operand(&op, 0)?,
            cell,
            scalar: ir::operand(&op, op.operand_count().checked_sub(1)?)?,
            mode: ir::enum_keyword(&op, mode_attribute).unwrap_or_default(),
        })
    }

    /// Whether two accesses may touch the same cell: they differ for sure
    /// only where both offsets are static and unequal.
    pub fn may_overlap(&self, other: &SignalAccess) -> bool {
        self.signal == other.signal
            && self
                .cell
                .iter()
                .zip(&other.cell)
                .all(|(a, b)| a.is_none() || b.is_none() || a == b)
    }

    pub fn is_notify(&self) -> bool {
        ir::name(&self.op) == NOTIFY
    }

    pub fn is_wait(&self) -> bool {
        !self.is_notify()
    }

    pub fn cell_text(&self) -> String {
        ir::format_list(&self.cell)
    }
}

/// The accesses of each signal, in program order; the groups come in order
/// of first appearance, so diagnostics come out in a stable order.
pub struct SignalGroups<'s, 'c, 'a> {
    index: HashMap<usize, usize>,
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
