//! Attributes that several ops carry under one ODS name, read through each
//! op's generated accessors (`<Op>::attributes`): a new op with such an
//! attribute is one more arm here, and a renamed attribute a compile error.

use melior::ir::operation::OperationLike;
use pld_dialect::enums::{AtomicType, ReduceOp};
use pld_dialect::ops::{pl, pld};

/// How a remote write combines with what it lands on (`atomic`): a tensor
/// put or remote_store, or a tile remote_store; `None` for any other op.
pub fn atomic<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<AtomicType> {
    pld::TensorPutOp::get_atomic(op)
        .or_else(|| pld::TensorRemoteStoreOp::get_atomic(op))
        .or_else(|| pld::TileRemoteStoreOp::get_atomic(op))
}

/// The reduction of an allreduce or a reduce_scatter (`op`).
pub fn reduction<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<ReduceOp> {
    pld::TensorAllreduceOp::get_op(op).or_else(|| pld::TensorReduceScatterOp::get_op(op))
}

/// The name a task scope (`pl.at`, `pl.spmd`) gives its task (`name_hint`).
pub fn task_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<&'c str> {
    pl::AtOp::get_name_hint(op).or_else(|| pl::SpmdOp::get_name_hint(op))
}
