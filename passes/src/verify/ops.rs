//! The pld ops the rules look for, and which operand is the window they
//! write or read: one table for every rule.

use super::ir;
use melior::ir::{Value, operation::OperationRef};

pub const NOTIFY: &str = "pld.system.notify";
pub const WAIT: &str = "pld.system.wait";
pub const DEFER_WAIT: &str = "pld.system.defer_wait";

/// Collectives and the index of their signal operand.
pub const COLLECTIVE_SIGNALS: &[(&str, usize)] = &[
    ("pld.tensor.allreduce", 1),
    ("pld.tensor.reduce_scatter", 1),
    ("pld.tensor.allgather", 2),
    ("pld.tensor.broadcast", 1),
    ("pld.tensor.barrier", 0),
    ("pld.tensor.all_to_all", 2),
];

/// Ops that push a payload into a peer's window (and may accumulate into it
/// atomically), with the index of the window operand.
pub const REMOTE_WRITES: &[(&str, usize)] = &[
    ("pld.tile.remote_store", 1),
    ("pld.tensor.remote_store", 1),
    ("pld.tensor.put", 0),
];

/// Ops that write local memory, with the index of the memory operand.
pub const LOCAL_WRITES: &[(&str, usize)] = &[("pl.store", 1), ("pl.write", 1)];

/// Ops that read a window, with the index of the window operand.
pub const WINDOW_READS: &[(&str, usize)] = &[
    ("pl.load", 0),
    ("pl.read", 0),
    ("pld.tile.remote_load", 0),
    ("pld.tensor.get", 2),
];

/// The operand `table` names for `op`, if `op` is in the table.
pub fn table_operand<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    table: &[(&str, usize)],
) -> Option<Value<'c, 'a>> {
    let name = ir::name(op);
    let (_, index) = table.iter().find(|(entry, _)| *entry == name)?;
    ir::operand(op, *index)
}
