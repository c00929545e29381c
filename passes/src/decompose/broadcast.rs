//! Broadcast by scatter and allgather: each rank but the root pulls its
//! own segment of the stream from the root, then every rank pulls every
//! other segment from its owner, all owners at once. The root's link
//! carries about 2 L / n per receiver instead of L.
//!
//! Entry barrier; a rank r other than the root pulls every chunk of
//! segment r from the root and stores it; a second barrier (every segment
//! has arrived at its owner); every rank but the root pulls every chunk of
//! every other segment q from q, all owners at once; the exit barrier keeps
//! every rank's window until the last pull from it. Every cell counts 3;
//! the epilogue subtracts 3. The root writes nothing. As in `twoshot`, a
//! barrier between the phases rather than a flag per chunk keeps the
//! scatter's pulls flowing (a notify drains every transfer before it).

use super::{credits::Credits, pull::Peers, segments::Segments, stream::Stream};
use melior::dialect::arith::CmpiPredicate;
use pld_ir::{Builder, Ix, Val, types};

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
    let segments = Segments::new(builder, stream, credits.ranks, element_bytes);
    let chunks = builder.ceil_div(segments.size, Ix::Const(width));
    let region = |builder: &Builder<'c>, segment: Ix<'c>, chunk: Ix<'c>| {
        segments.chunk(builder, segment, chunk, width)
    };
    let root = Ix::Dyn(root);

    credits.phase(builder, 1);
    let is_receiver = builder.cmp(CmpiPredicate::Ne, credits.me, root);
    // Scatter: this rank's segment from the root.
    builder.if_then(is_receiver, |builder| {
        builder.for_each_or_once(chunks, |builder, chunk| {
            let (at, valid) = region(builder, credits.me, chunk);
            let part = builder.remote_load(stream.view, root, &at, tile, Some(&valid));
            builder.store(part, stream.view, &at, Some(&valid));
        });
    });
    credits.phase(builder, 2);
    // Allgather: every other segment from its owner.
    builder.if_then(is_receiver, |builder| {
        let (at, _) = region(builder, credits.me, Ix::Const(0));
        let nothing = builder.load(stream.view, &at, tile, Some(&[Ix::Const(1), Ix::Const(0)]));
        builder.for_each_or_once(chunks, |builder, chunk| {
            let fetch = |builder: &Builder<'c>, owner: Ix<'c>| {
                let (at, valid) = region(builder, owner, chunk);
                builder.remote_load(stream.view, owner, &at, tile, Some(&valid))
            };
            let keep = |builder: &Builder<'c>, owner: Ix<'c>, part: Val<'c>| {
                let (at, valid) = region(builder, owner, chunk);
                builder.store(part, stream.view, &at, Some(&valid));
            };
            peers.gather(builder, tile, nothing, &fetch, &|_| {}, &keep);
        });
    });
    credits.phase(builder, 3);
    credits.finish(builder, 3);
}
