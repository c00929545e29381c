//! Mesh allreduce (semantics §4): stage-in -> barrier -> remote-accumulate ->
//! stage-out, chunk by chunk.
//!
//! After the ready barrier (g = 1) every rank's data is in its window. For
//! chunk c each rank loads its own chunk, reads the same chunk from every
//! peer and combines, then waits at barrier g = 2 + c, so that nobody
//! overwrites a chunk a peer is still reading, and stores the result. The
//! epilogue subtracts 1 + chunks.

use super::{
    credits::Credits,
    stream::{Stream, chunk_width},
};
use melior::dialect::arith::CmpiPredicate;
use pld_dialect::enums::ReduceOp;
use pld_ir::{Builder, Ix, types};

pub fn allreduce<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    credits: Credits<'c>,
    op: ReduceOp,
    chunk_bytes: i64,
) {
    let element_bytes = types::byte_width(stream.element).expect("a combinable element type");
    let width = chunk_width(stream.len.constant(), element_bytes, chunk_bytes);
    let tile = stream.tile(builder, width);
    let chunks = builder.ceil_div(stream.len, Ix::Const(width));
    credits.barrier(builder, Ix::Const(1));
    builder.for_each_or_once(chunks, |builder, chunk| {
        let offset = builder.mul(chunk, Ix::Const(width));
        let valid = [Ix::Const(1), stream.valid(builder, offset, width)];
        let at = stream.at(builder, offset);
        let local = builder.load(stream.view, &at, tile, Some(&valid));
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
                        let remote =
                            builder.remote_load(stream.view, peer, &at, tile, Some(&valid));
                        vec![builder.combine(op, acc[0], remote)]
                    },
                    |_| vec![acc[0]],
                )
            },
        );
        credits.barrier(builder, builder.add(chunk, Ix::Const(2)));
        builder.store(combined[0], stream.view, &at, Some(&valid));
    });
    credits.epilogue(builder, builder.add(chunks, Ix::Const(1)));
}
