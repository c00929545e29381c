//! Two-shot allreduce: a reduce-scatter by parallel pulls, then an
//! allgather, by parallel pulls (`twoshot`) or by parallel pushes
//! (`twoshot_push`).
//!
//! Segment r of the stream ([`Segments`]: 32-byte aligned, S elements
//! each) belongs to rank r. After the entry barrier, rank r pulls chunk c of
//! segment r from every peer at once, combines the n contributions in rank
//! order and stores the result into segment r of its own window.
//!
//! `twoshot`: the middle barrier says both "my segment is reduced" and "I
//! have read your copy of my segment": after it, every rank pulls every
//! chunk of segment q from q, all peers at once, into its own copy of
//! segment q, which no peer reads any more. The exit barrier keeps
//! everybody until nobody pulls from it; the cells count 3, epilogue -3.
//!
//! `twoshot_push`: rank r also stores each reduced chunk straight into
//! segment r of every peer's window, the copy it has just read there, which
//! nobody else reads. The second barrier says "your copy of my segment is
//! up to date, and I read nothing of yours any more": after it a rank's
//! window holds the result and no peer touches it, so no third barrier. A
//! push goes at the link's write rate, a pull at its read rate
//! (docs/performance.md): one hop fewer for slower transfers, which pays
//! where hops dominate (`auto` decides by the model). Cells count 2.
//!
//! The reduce-scatter raises no flag per chunk: a notify must follow every
//! transfer before it (the release drains the pipes), so a flag per chunk
//! would stop the pipeline once a chunk, while without it the pulls of
//! chunk c + 1 start as soon as the combination of chunk c frees their
//! tiles. The middle barrier costs one signal hop per call instead.

use super::{credits::Credits, pull::Peers, segments::Segments, stream::Stream};
use pld_dialect::enums::{AtomicType, ReduceOp};
use pld_ir::{Builder, Ix, types};

/// How the allgather half moves the reduced segments.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Allgather {
    /// Every rank pulls every segment from its owner (`twoshot`).
    Pull,
    /// Every owner pushes its segment into every peer (`twoshot_push`).
    Push,
}

pub fn allreduce<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    op: ReduceOp,
    width: i64,
    allgather: Allgather,
) {
    let element_bytes = types::byte_width(stream.element).expect("a combinable element type");
    let tile = stream.tile(builder, width);
    let segments = Segments::new(builder, stream, credits.ranks, element_bytes);
    let chunks = builder.ceil_div(segments.size, Ix::Const(width));
    let region = |builder: &Builder<'c>, segment: Ix<'c>, chunk: Ix<'c>| {
        segments.chunk(builder, segment, chunk, width)
    };

    // One chunk with every pull issued at once: the own chunk is loaded
    // while the entry barrier's announcements travel (only this rank
    // writes its segment).
    let single = peers.one_round(chunks);
    let early_own = credits.phase_with(builder, 1, |builder| {
        single.then(|| {
            let (at, valid) = region(builder, credits.me, Ix::Const(0));
            builder.load(stream.view, &at, tile, Some(&valid))
        })
    });
    // Reduce-scatter: this rank's segment from everybody.
    builder.for_each_or_once(chunks, |builder, chunk| {
        let (at, valid) = region(builder, credits.me, chunk);
        let own = early_own.unwrap_or_else(|| builder.load(stream.view, &at, tile, Some(&valid)));
        let pull = |builder: &Builder<'c>, peer: Ix<'c>| {
            builder.remote_load(stream.view, peer, &at, tile, Some(&valid))
        };
        let reduced = peers.reduce(builder, tile, op, own, &pull, &|_| {});
        builder.store(reduced, stream.view, &at, Some(&valid));
        if allgather == Allgather::Push {
            credits.for_each_peer(builder, |builder, peer| {
                builder.remote_store(
                    reduced,
                    stream.view,
                    peer,
                    &at,
                    Some(&valid),
                    AtomicType::None,
                );
            });
        }
    });
    credits.phase(builder, 2);
    if allgather == Allgather::Push {
        credits.finish(builder, 2);
        return;
    }
    // Allgather: every peer's segment from its owner.
    let (at, _) = region(builder, credits.me, Ix::Const(0));
    let nothing = builder.load(stream.view, &at, tile, Some(&[Ix::Const(1), Ix::Const(0)]));
    builder.for_each_or_once(chunks, |builder, chunk| {
        let fetch = |builder: &Builder<'c>, owner: Ix<'c>| {
            let (at, valid) = region(builder, owner, chunk);
            builder.remote_load(stream.view, owner, &at, tile, Some(&valid))
        };
        let keep = |builder: &Builder<'c>, owner: Ix<'c>, reduced| {
            let (at, valid) = region(builder, owner, chunk);
            builder.store(reduced, stream.view, &at, Some(&valid));
        };
        peers.gather(builder, tile, nothing, &fetch, &|_| {}, &keep);
    });
    credits.phase(builder, 3);
    credits.finish(builder, 3);
}
