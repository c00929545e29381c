//! Attributes that several ops carry under one ODS name, read through each
//! op's generated accessors (`<Op>::attributes`): a new op with such an
//! attribute is one more arm here, and a renamed attribute a compile error.

use melior::ir::operation::OperationLike;
use pld_dialect::enums::{AtomicType, ReduceOp, WaitCmp};
use pld_dialect::ops::{pl, pld};

/// How a remote write combines with what it lands on (`atomic`): a tensor
/// put or remote_store, or a tile remote_store; `None` for any other op.
pub fn atomic<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<AtomicType> {
    pld::TensorPutOp::attributes(op)
        .map(|put| put.atomic)
        .or_else(|| pld::TensorRemoteStoreOp::attributes(op).map(|store| store.atomic))
        .or_else(|| pld::TileRemoteStoreOp::attributes(op).map(|store| store.atomic))
}

/// The reduction of an allreduce or a reduce_scatter (`op`).
pub fn reduction<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<ReduceOp> {
    pld::TensorAllreduceOp::attributes(op)
        .map(|allreduce| allreduce.op)
        .or_else(|| pld::TensorReduceScatterOp::attributes(op).map(|scatter| scatter.op))
}

/// The comparison of a wait or a defer_wait (`cmp`).
pub fn wait_cmp<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<WaitCmp> {
    pld::SystemWaitOp::attributes(op)
        .map(|wait| wait.cmp)
        .or_else(|| pld::SystemDeferWaitOp::attributes(op).map(|wait| wait.cmp))
}

/// The name a task scope (`pl.at`, `pl.spmd`) gives its task (`name_hint`).
pub fn task_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<&'c str> {
    pl::AtOp::attributes(op)
        .map(|at| at.name_hint)
        .or_else(|| pl::SpmdOp::attributes(op).map(|spmd| spmd.name_hint))
}
