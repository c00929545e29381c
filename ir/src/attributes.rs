//! Attributes that several ops carry under one ODS name, read through each
//! op's generated accessors (`<Op>::attributes`): a new op with such an
//! attribute is one more arm here, and a renamed attribute a compile error.

use crate::{Ix, OpRef, Val, build::mixed_list};
use melior::ir::{
    Value,
    operation::{OperationLike, OperationRef},
};
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

/// The `valid` list of a tile load or store (`pl.load`, `pl.store`,
/// `pld.tile.remote_load`, `pld.tile.remote_store`): its static sizes and
/// its dynamic ones (`build::mixed_list` joins them). `None` when `op` is
/// none of these ops, `Some(None)` when it has no list (the whole tile).
/// The operands are read only for a list.
#[allow(clippy::type_complexity)]
pub fn valid_sizes<'c, 'a>(
    op: &OperationRef<'c, 'a>,
) -> Option<Option<(Vec<i64>, Vec<Value<'c, 'a>>)>> {
    if let Some(statics) = pl::LoadOp::get_static_valid_sizes(op) {
        return Some(statics.map(|statics| {
            let dynamic = pl::LoadOp::operands(op).map(|load| load.valid_sizes);
            (statics, dynamic.unwrap_or_default())
        }));
    }
    if let Some(statics) = pl::StoreOp::get_static_valid_sizes(op) {
        return Some(statics.map(|statics| {
            let dynamic = pl::StoreOp::operands(op).map(|store| store.valid_sizes);
            (statics, dynamic.unwrap_or_default())
        }));
    }
    if let Some(statics) = pld::TileRemoteLoadOp::get_static_valid_sizes(op) {
        return Some(statics.map(|statics| {
            let dynamic = pld::TileRemoteLoadOp::operands(op).map(|load| load.valid_sizes);
            (statics, dynamic.unwrap_or_default())
        }));
    }
    let statics = pld::TileRemoteStoreOp::get_static_valid_sizes(op)?;
    Some(statics.map(|statics| {
        let dynamic = pld::TileRemoteStoreOp::operands(op).map(|store| store.valid_sizes);
        (statics, dynamic.unwrap_or_default())
    }))
}

/// A `pld.tensor.put` or `pld.tensor.get`, read alike (both name their
/// operands and region attributes the same): which it is, its `dst`, `src`
/// and `peer`, and its region when it has one.
pub struct PutOrGet<'c> {
    /// A put (this rank writes the peer), not a get.
    pub push: bool,
    pub dst: Val<'c>,
    pub src: Val<'c>,
    pub peer: Val<'c>,
    /// `dst_offsets`, `src_offsets` and `shape`, static and dynamic entries
    /// joined; `None` for a transfer of the whole tensor.
    pub region: Option<Region<'c>>,
}

/// The region of a [`PutOrGet`].
pub struct Region<'c> {
    pub dst_offsets: Vec<Ix<'c>>,
    pub src_offsets: Vec<Ix<'c>>,
    pub sizes: Vec<Ix<'c>>,
}

/// `op` as a [`PutOrGet`]; `None` when it is neither.
pub fn put_or_get<'c>(op: &OpRef<'c>) -> Option<PutOrGet<'c>> {
    const VERIFIED: &str = "a verified transfer";
    let (push, operands, statics) = match pld::TensorPutOp::operands(op) {
        Some(put) => {
            let attributes = pld::TensorPutOp::attributes(op).expect(VERIFIED);
            let statics = (
                attributes.static_dst_offsets,
                attributes.static_src_offsets,
                attributes.static_sizes,
            );
            let operands = (
                put.dst,
                put.src,
                put.peer,
                put.dst_offsets,
                put.src_offsets,
                put.sizes,
            );
            (true, operands, statics)
        }
        None => {
            let get = pld::TensorGetOp::operands(op)?;
            let attributes = pld::TensorGetOp::attributes(op).expect(VERIFIED);
            let statics = (
                attributes.static_dst_offsets,
                attributes.static_src_offsets,
                attributes.static_sizes,
            );
            let operands = (
                get.dst,
                get.src,
                get.peer,
                get.dst_offsets,
                get.src_offsets,
                get.sizes,
            );
            (false, operands, statics)
        }
    };
    let (dst, src, peer, dst_offsets, src_offsets, sizes) = operands;
    let (static_dst_offsets, static_src_offsets, static_sizes) = statics;
    let region = static_sizes.map(|static_sizes| Region {
        dst_offsets: mixed_list(&static_dst_offsets.unwrap_or_default(), &dst_offsets),
        src_offsets: mixed_list(&static_src_offsets.unwrap_or_default(), &src_offsets),
        sizes: mixed_list(&static_sizes, &sizes),
    });
    Some(PutOrGet {
        push,
        dst,
        src,
        peer,
        region,
    })
}
