//! One-shot allreduce: every rank pulls every chunk from every peer at once
//! and combines all n contributions itself, in the order of the ranks.
//!
//! After the entry barrier (every rank's data is in its window), for chunk
//! c every rank loads its own chunk and issues the pulls of the same chunk
//! from all peers, combines them in rank order (bit-identical results on
//! every rank), then announces "read chunk c" to every peer (+1 into its
//! cell). It may overwrite its own chunk c only once every peer has
//! announced chunk c, so the result of chunk c is held in the unified
//! buffer and stored one chunk later, after the pulls of chunk c + 1 are in
//! flight and the announcements of chunk c have (most likely) arrived: the
//! wait is off the critical path. The last result is stored after the last
//! wait. A one-chunk stream runs exactly two barriers: entry and
//! read-complete. Cells: `[src, 0]` counts 1 + C; epilogue -(1 + C). On a
//! signal with counters the barriers are counted phases
//! ([`Credits::phase`]) and `[src, 0]` counts the C flags alone (none for
//! one chunk).

use super::{credits::Credits, pull::Peers, stream::Stream};
use melior::dialect::arith::CmpiPredicate;
use pld_dialect::enums::ReduceOp;
use pld_ir::{Builder, Ix, Val};

pub fn allreduce<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    op: ReduceOp,
    width: i64,
) {
    let tile = stream.tile(builder, width);
    let chunks = stream.chunks(builder, width);
    let region = |builder: &Builder<'c>, chunk: Ix<'c>| stream.chunk(builder, chunk, width);
    // Chunk `c`: this rank's chunk and every peer's, combined; `between`
    // runs while the pulls are in flight.
    let reduced = |builder: &Builder<'c>, chunk: Ix<'c>, between: &dyn Fn(&Builder<'c>)| {
        let (at, valid) = region(builder, chunk);
        let own = builder.load(stream.view, &at, tile, Some(&valid));
        let pull = |builder: &Builder<'c>, peer: Ix<'c>| {
            builder.remote_load(stream.view, peer, &at, tile, Some(&valid))
        };
        peers.reduce(builder, tile, op, own, &pull, between)
    };
    // The entry barrier counts on `[src, 0]` too, unless it is a phase.
    let entry = i64::from(!credits.counters);
    // Stores the result of `chunk` once every peer has announced it.
    let store = |builder: &Builder<'c>, result: Val<'c>, chunk: Ix<'c>| {
        credits.await_all(builder, builder.add(chunk, Ix::Const(entry + 1)));
        let (at, valid) = region(builder, chunk);
        builder.store(result, stream.view, &at, Some(&valid));
    };

    if peers.one_round(chunks) {
        // One chunk, every pull issued at once: the own chunk is loaded
        // while the entry barrier's announcements travel (only this rank
        // writes it), and "read" is announced as soon as the pulls have
        // landed, so that the combination runs during that hop.
        let (at, valid) = region(builder, Ix::Const(0));
        let own = credits.phase_with(builder, 1, |builder| {
            builder.load(stream.view, &at, tile, Some(&valid))
        });
        let pull = |builder: &Builder<'c>, peer: Ix<'c>| {
            builder.remote_load(stream.view, peer, &at, tile, Some(&valid))
        };
        let result = peers.reduce(builder, tile, op, own, &pull, &|builder| {
            credits.announce_phase(builder, 2)
        });
        credits.await_phase(builder, 2);
        builder.store(result, stream.view, &at, Some(&valid));
        credits.finish(builder, 2);
        return;
    }
    credits.phase(builder, 1);
    let last = if chunks.constant() == Some(1) {
        let result = reduced(builder, Ix::Const(0), &|_| {});
        credits.announce(builder);
        result
    } else {
        // A tile for the loop to carry into its first iteration, which has
        // no result to store yet: nothing is read.
        let (at, _) = region(builder, Ix::Const(0));
        let nothing = builder.load(stream.view, &at, tile, Some(&[Ix::Const(1), Ix::Const(0)]));
        builder.for_loop(
            Ix::Const(0),
            chunks,
            Ix::Const(1),
            &[nothing],
            |builder, chunk, previous| {
                let result = reduced(builder, chunk, &|builder| {
                    let later = builder.cmp(CmpiPredicate::Ne, chunk, Ix::Const(0));
                    builder.if_then(later, |builder| {
                        store(builder, previous[0], builder.sub(chunk, Ix::Const(1)))
                    });
                });
                credits.announce(builder);
                vec![result]
            },
        )[0]
    };
    store(builder, last, builder.sub(chunks, Ix::Const(1)));
    credits.epilogue(builder, builder.add(chunks, Ix::Const(entry)));
}
