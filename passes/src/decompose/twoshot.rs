//! Two-shot allreduce: a reduce-scatter by parallel pulls, then an
//! allgather by parallel pulls paced by per-chunk flags.
//!
//! Segment r of the stream ([`Segments`]: 32-byte aligned, S elements
//! each) belongs to rank r. After the entry barrier, rank r pulls chunk c of segment r from every
//! peer at once, combines the n contributions in rank order, stores the
//! result into segment r of its own window and announces it (+1 into its
//! cell of every peer: the flag of chunk c). Then, for every chunk c, it
//! waits for each peer q's flag c (its cell has counted 2 + c) and pulls
//! chunk c of segment q from q, all peers at once. No rank writes a segment
//! a peer still reads: peers read segment q of rank q only after its flag,
//! and rank q's copy of segment r only before rank r's flag, which rank q
//! waits for before overwriting it. The exit barrier (nobody leaves while
//! a peer still pulls from it) makes the count 1 + C + 1 per cell, C the
//! chunks of a segment; epilogue -(C + 2).

use super::{credits::Credits, pull::Peers, segments::Segments, stream::Stream};
use crate::ir::{Builder, Ix, types};
use pld_dialect::enums::ReduceOp;

pub fn allreduce<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    op: ReduceOp,
    width: i64,
) {
    let element_bytes = types::byte_width(stream.element).expect("a combinable element type");
    let tile = stream.tile(builder, width);
    let segments = Segments::new(builder, stream.len, credits.ranks, element_bytes);
    let chunks = builder.ceil_div(segments.size, Ix::Const(width));
    // Chunk `c` of segment `s`: where it starts and how much of it is there.
    let region = |builder: &Builder<'c>, segment: Ix<'c>, chunk: Ix<'c>| {
        let (start, length) = segments.segment(builder, segment);
        let into = builder.mul(chunk, Ix::Const(width));
        (
            [Ix::Const(0), builder.add(start, into)],
            [
                Ix::Const(1),
                builder.clamp_to(builder.sub(length, into), Ix::Const(width)),
            ],
        )
    };

    credits.barrier(builder, Ix::Const(1));
    // Reduce-scatter: this rank's segment from everybody.
    builder.for_each_or_once(chunks, |builder, chunk| {
        let (at, valid) = region(builder, credits.me, chunk);
        let own = builder.load(stream.view, &at, tile, Some(&valid));
        let pull = |builder: &Builder<'c>, peer: Ix<'c>| {
            builder.remote_load(stream.view, peer, &at, tile, Some(&valid))
        };
        let reduced = peers.reduce(builder, tile, op, own, &pull, &|_| {});
        builder.store(reduced, stream.view, &at, Some(&valid));
        credits.announce(builder);
    });
    // Allgather: every peer's segment from its owner, once it is flagged.
    let (at, _) = region(builder, credits.me, Ix::Const(0));
    let nothing = builder.load(stream.view, &at, tile, Some(&[Ix::Const(1), Ix::Const(0)]));
    builder.for_each_or_once(chunks, |builder, chunk| {
        let fetch = |builder: &Builder<'c>, owner: Ix<'c>| {
            credits.await_peer(builder, owner, builder.add(chunk, Ix::Const(2)));
            let (at, valid) = region(builder, owner, chunk);
            builder.remote_load(stream.view, owner, &at, tile, Some(&valid))
        };
        let keep = |builder: &Builder<'c>, owner: Ix<'c>, reduced| {
            let (at, valid) = region(builder, owner, chunk);
            builder.store(reduced, stream.view, &at, Some(&valid));
        };
        peers.gather(builder, tile, nothing, &fetch, &keep);
    });
    let count = builder.add(chunks, Ix::Const(2));
    credits.barrier(builder, count);
    credits.epilogue(builder, count);
}
