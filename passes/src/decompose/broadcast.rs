//! Broadcast by scatter and allgather: each rank but the root pulls its
//! own segment of the stream from the root, then every rank pulls every
//! other segment from its owner, all owners at once, paced by per-chunk
//! flags. The root's link carries about 2 L / n per receiver instead of L.
//!
//! After the entry barrier, the root announces all C chunks of its own
//! segment at once (+C into its cell of every peer: it has them). A rank r
//! other than the root pulls chunk c of segment r from the root, stores it
//! and announces it (+1, the flag of chunk c); then, for every chunk c, it
//! waits for each owner q's flag c (q's cell has counted 2 + c) and pulls
//! chunk c of segment q from q. The exit barrier keeps every rank's window
//! until the last pull from it; every cell counts 1 + C + 1 and the
//! epilogue subtracts C + 2. The root writes nothing.

use super::{credits::Credits, pull::Peers, segments::Segments, stream::Stream};
use crate::ir::{Builder, Ix, Val, types};
use melior::dialect::arith::CmpiPredicate;

pub fn scatter_allgather<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    root: Val<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    width: i64,
) {
    let element_bytes = types::byte_width(stream.element).expect("a sized element type");
    let tile = stream.tile(builder, width);
    let segments = Segments::new(builder, stream.len, credits.ranks, element_bytes);
    let chunks = builder.ceil_div(segments.size, Ix::Const(width));
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
    let root = Ix::Dyn(root);

    credits.barrier(builder, Ix::Const(1));
    let is_root = builder.cmp(CmpiPredicate::Eq, credits.me, root);
    builder.if_else(
        is_root,
        &[],
        |builder| {
            credits.announce_by(builder, builder.to_i32(chunks));
            vec![]
        },
        |builder| {
            // Scatter: this rank's segment from the root.
            builder.for_each_or_once(chunks, |builder, chunk| {
                let (at, valid) = region(builder, credits.me, chunk);
                let part = builder.remote_load(stream.view, root, &at, tile, Some(&valid));
                builder.store(part, stream.view, &at, Some(&valid));
                credits.announce(builder);
            });
            // Allgather: every other segment from its owner.
            let (at, _) = region(builder, credits.me, Ix::Const(0));
            let nothing = builder.load(stream.view, &at, tile, Some(&[Ix::Const(1), Ix::Const(0)]));
            builder.for_each_or_once(chunks, |builder, chunk| {
                let fetch = |builder: &Builder<'c>, owner: Ix<'c>| {
                    credits.await_peer(builder, owner, builder.add(chunk, Ix::Const(2)));
                    let (at, valid) = region(builder, owner, chunk);
                    builder.remote_load(stream.view, owner, &at, tile, Some(&valid))
                };
                let keep = |builder: &Builder<'c>, owner: Ix<'c>, part: Val<'c>| {
                    let (at, valid) = region(builder, owner, chunk);
                    builder.store(part, stream.view, &at, Some(&valid));
                };
                peers.gather(builder, tile, nothing, &fetch, &keep);
            });
            vec![]
        },
    );
    let count = builder.add(chunks, Ix::Const(2));
    credits.barrier(builder, count);
    credits.epilogue(builder, count);
}
