//! The collectives over one row per rank, broadcast and barrier (semantics §4).

use super::{
    credits::Credits,
    stream::{Stream, chunk_width},
};
use melior::{dialect::arith::CmpiPredicate, ir::ValueLike};
use pld_dialect::enums::{NotifyOp, ReduceOp};
use pld_ir::{Builder, Ix, Val, build::pld::Transfer, types};

/// reduce_scatter: barrier, then chunk by chunk: load row `me`, combine the
/// same row of every peer, barrier (g = 2 + c, nobody leaves while a peer
/// still reads), store. Epilogue: 1 + chunks.
pub fn reduce_scatter<'c>(
    builder: &Builder<'c>,
    target: Val<'c>,
    credits: Credits<'c>,
    op: ReduceOp,
    chunk_bytes: i64,
) {
    let row = Stream::row(builder, target);
    let element_bytes = types::byte_width(row.element).expect("a combinable element type");
    let size = row.len;
    let width = chunk_width(size.constant(), element_bytes, chunk_bytes);
    let tile = row.tile(builder, width);
    let chunks = builder.ceil_div(size, Ix::Const(width));
    credits.barrier(builder, Ix::Const(1));
    builder.for_each_or_once(chunks, |builder, chunk| {
        let offset = builder.mul(chunk, Ix::Const(width));
        let valid = [Ix::Const(1), row.valid(builder, offset, width)];
        let at = [credits.me, offset];
        let local = builder.load(target, &at, tile, Some(&valid));
        let combined = builder.for_loop(
            Ix::Const(0),
            credits.ranks,
            Ix::Const(1),
            &[local],
            |builder, peer, acc| {
                let other = builder.cmp(CmpiPredicate::Ne, peer, credits.me);
                builder.if_else(
                    other,
                    &[tile],
                    |builder| {
                        let remote = builder.remote_load(target, peer, &at, tile, Some(&valid));
                        vec![builder.combine(op, acc[0], remote)]
                    },
                    |_| vec![acc[0]],
                )
            },
        );
        credits.barrier(builder, builder.add(chunk, Ix::Const(2)));
        builder.store(combined[0], target, &at, Some(&valid));
    });
    credits.epilogue(builder, builder.add(chunks, Ix::Const(1)));
}

/// The row-sized chunk a collective's puts and gets stage through.
fn row_chunk(source: Val, chunk_bytes: i64) -> i64 {
    let element = types::element_type(source.r#type()).expect("a shaped operand");
    chunk_bytes / types::byte_width(element).expect("an integer or float element")
}

/// allgather: barrier (every rank has finished with the previous result),
/// put the local row into row `me` of every rank (self included), barrier.
/// Epilogue: 2.
pub fn allgather<'c>(
    builder: &Builder<'c>,
    local: Val<'c>,
    target: Val<'c>,
    credits: Credits<'c>,
    chunk_bytes: i64,
) {
    let size = builder.dim(target, 1);
    credits.barrier(builder, Ix::Const(1));
    builder.for_each(Ix::Const(0), credits.ranks, |builder, peer| {
        builder.transfer(&Transfer {
            is_put: true,
            dst: target,
            peer,
            src: local,
            dst_offsets: vec![credits.me, Ix::Const(0)],
            src_offsets: vec![Ix::Const(0), Ix::Const(0)],
            shape: vec![Ix::Const(1), size],
            chunk_rows: 0,
            chunk_cols: row_chunk(target, chunk_bytes),
            pipeline: false,
        });
    });
    credits.barrier(builder, Ix::Const(2));
    credits.epilogue(builder, Ix::Const(2));
}

/// all_to_all: barrier, put row `d` of the input into row `me` of rank `d`'s
/// target for every d, barrier. Epilogue: 2.
pub fn all_to_all<'c>(
    builder: &Builder<'c>,
    input: Val<'c>,
    target: Val<'c>,
    credits: Credits<'c>,
    chunk_bytes: i64,
) {
    all_to_all_with(builder, input, target, credits, chunk_bytes, &|_, _| {});
}

/// all_to_all_v (MPI_Alltoallv, PyPTO's all_to_all_v): all_to_all's
/// blocks, and with each, `send_counts[d]` clamped to `[0, MAX]` set into
/// `recv_counts[me]` of rank d. Between the barriers: after the first, no
/// peer still reads the counts of the call before; before the second,
/// which the receiver passes only once every count has landed.
pub fn all_to_all_v<'c>(
    builder: &Builder<'c>,
    input: Val<'c>,
    target: Val<'c>,
    counts: (Val<'c>, Val<'c>),
    credits: Credits<'c>,
    chunk_bytes: i64,
) {
    let (send_counts, recv_counts) = counts;
    let size = builder.dim(target, 1);
    all_to_all_with(
        builder,
        input,
        target,
        credits,
        chunk_bytes,
        &|builder, dest| {
            let count = builder.i32_to_index(builder.pl_read(send_counts, &[dest]));
            let clamped = builder.min(builder.max(count, Ix::Const(0)), size);
            let value = builder.to_i32(clamped);
            builder.notify(recv_counts, dest, &[credits.me], value, NotifyOp::Set);
        },
    );
}

/// all_to_all, with `also(dest)` after the put to each rank.
fn all_to_all_with<'c>(
    builder: &Builder<'c>,
    input: Val<'c>,
    target: Val<'c>,
    credits: Credits<'c>,
    chunk_bytes: i64,
    also: &dyn Fn(&Builder<'c>, Ix<'c>),
) {
    let size = builder.dim(target, 1);
    credits.barrier(builder, Ix::Const(1));
    builder.for_each(Ix::Const(0), credits.ranks, |builder, dest| {
        builder.transfer(&Transfer {
            is_put: true,
            dst: target,
            peer: dest,
            src: input,
            dst_offsets: vec![credits.me, Ix::Const(0)],
            src_offsets: vec![dest, Ix::Const(0)],
            shape: vec![Ix::Const(1), size],
            chunk_rows: 0,
            chunk_cols: row_chunk(target, chunk_bytes),
            pipeline: false,
        });
        also(builder, dest);
    });
    credits.barrier(builder, Ix::Const(2));
    credits.epilogue(builder, Ix::Const(2));
}

/// broadcast: barrier, every rank but the root gets the root's target,
/// barrier (the root keeps its data until everybody has it). Epilogue: 2.
/// `pipelined` (the `star` algorithm) stages the get through two tiles, so
/// that the pull of one chunk overlaps the store of the last. `stream` is
/// the target's, or on several cores this block's part of it (`star`).
pub fn broadcast<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    target: Val<'c>,
    root: Val<'c>,
    credits: Credits<'c>,
    chunk_bytes: i64,
    pipelined: bool,
) {
    // `star` is one of the faster algorithms: its barriers are phases.
    let barrier = |g: i64| {
        if pipelined {
            credits.phase(builder, g)
        } else {
            credits.barrier(builder, Ix::Const(g))
        }
    };
    barrier(1);
    let root = Ix::Dyn(root);
    let receiver = builder.cmp(CmpiPredicate::Ne, credits.me, root);
    builder.if_then(receiver, |builder| {
        builder.transfer(&Transfer {
            is_put: false,
            dst: stream.view,
            peer: root,
            src: stream.view,
            dst_offsets: stream.at(builder, Ix::Const(0)).to_vec(),
            src_offsets: stream.at(builder, Ix::Const(0)).to_vec(),
            shape: vec![Ix::Const(1), stream.len],
            // A pipelined transfer names both chunk sizes (op verifier).
            chunk_rows: i64::from(pipelined),
            chunk_cols: row_chunk(target, chunk_bytes),
            pipeline: pipelined,
        });
    });
    barrier(2);
    if pipelined {
        credits.finish(builder, 2);
    } else {
        credits.epilogue(builder, Ix::Const(2));
    }
}

/// barrier: one credit barrier. Epilogue: 1.
pub fn barrier<'c>(builder: &Builder<'c>, credits: Credits<'c>) {
    credits.barrier(builder, Ix::Const(1));
    credits.epilogue(builder, Ix::Const(1));
}
