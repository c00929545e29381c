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
use melior::ir::Type;
use pld_dialect::enums::{AtomicType, ReduceOp};
use pld_ir::{Builder, Ix, Val, types};

/// How the allgather half moves the reduced segments.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Allgather {
    /// Every rank pulls every segment from its owner (`twoshot`).
    Pull,
    /// Every owner pushes its segment into every peer (`twoshot_push`).
    Push,
}

/// What runs after each reduced chunk is stored: the chunk, where it is in
/// the view and its valid extent.
pub type AfterStore<'c, 'f> = dyn Fn(&Builder<'c>, Val<'c>, [Ix<'c>; 2], [Ix<'c>; 2]) + 'f;

/// The halves every two-shot allreduce shares (`twoshot`, `twoshot_push`,
/// `twoshot_epoch`), over one stream split into a segment per rank.
pub struct Halves<'c, 'a> {
    stream: &'a Stream<'c>,
    segments: Segments<'c>,
    peers: Peers<'c>,
    tile: Type<'c>,
    width: i64,
    /// Chunks per segment.
    pub chunks: Ix<'c>,
}

impl<'c, 'a> Halves<'c, 'a> {
    pub fn new(
        builder: &Builder<'c>,
        stream: &'a Stream<'c>,
        peers: Peers<'c>,
        width: i64,
    ) -> Self {
        let element_bytes = types::byte_width(stream.element).expect("a combinable element type");
        let segments = Segments::new(builder, stream, peers.ranks, element_bytes);
        Self {
            stream,
            segments,
            peers,
            tile: stream.tile(builder, width),
            width,
            chunks: builder.ceil_div(segments.size, Ix::Const(width)),
        }
    }

    fn region(
        &self,
        builder: &Builder<'c>,
        segment: Ix<'c>,
        chunk: Ix<'c>,
    ) -> ([Ix<'c>; 2], [Ix<'c>; 2]) {
        self.segments.chunk(builder, segment, chunk, self.width)
    }

    /// Chunk `chunk` of this rank's own segment, loaded.
    pub fn own(&self, builder: &Builder<'c>, chunk: Ix<'c>) -> Val<'c> {
        let (at, valid) = self.region(builder, self.peers.me, chunk);
        builder.load(self.stream.view, &at, self.tile, Some(&valid))
    }

    /// The reduce-scatter: every chunk of this rank's segment pulled from
    /// every peer's window at once, combined in rank order and stored;
    /// `also(reduced, at, valid)` runs after each store. `early_own` is
    /// the own chunk where a one-chunk segment loaded it already.
    pub fn reduce_scatter(
        &self,
        builder: &Builder<'c>,
        op: ReduceOp,
        early_own: Option<Val<'c>>,
        also: &AfterStore<'c, '_>,
    ) {
        builder.for_each_or_once(self.chunks, |builder, chunk| {
            let (at, valid) = self.region(builder, self.peers.me, chunk);
            let own = early_own.unwrap_or_else(|| self.own(builder, chunk));
            let pull = |builder: &Builder<'c>, peer: Ix<'c>| {
                builder.remote_load(self.stream.view, peer, &at, self.tile, Some(&valid))
            };
            let reduced = self
                .peers
                .reduce(builder, self.tile, op, own, &pull, &|_| {});
            builder.store(reduced, self.stream.view, &at, Some(&valid));
            also(builder, reduced, at, valid);
        });
    }

    /// The allgather by pulls: every other segment from its owner's
    /// `source`, at the same columns (in row `row` of it, for a workspace),
    /// into this rank's window.
    pub fn allgather(&self, builder: &Builder<'c>, source: Val<'c>, row: Option<Ix<'c>>) {
        let (at, _) = self.region(builder, self.peers.me, Ix::Const(0));
        let nothing = builder.load(
            self.stream.view,
            &at,
            self.tile,
            Some(&[Ix::Const(1), Ix::Const(0)]),
        );
        builder.for_each_or_once(self.chunks, |builder, chunk| {
            let fetch = |builder: &Builder<'c>, owner: Ix<'c>| {
                let (at, valid) = self.region(builder, owner, chunk);
                let from = row.map_or(at, |row| [row, at[1]]);
                builder.remote_load(source, owner, &from, self.tile, Some(&valid))
            };
            let keep = |builder: &Builder<'c>, owner: Ix<'c>, reduced| {
                let (at, valid) = self.region(builder, owner, chunk);
                builder.store(reduced, self.stream.view, &at, Some(&valid));
            };
            self.peers
                .gather(builder, self.tile, nothing, &fetch, &|_| {}, &keep);
        });
    }
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
    let halves = Halves::new(builder, stream, peers, width);
    // One chunk with every pull issued at once: the own chunk is loaded
    // while the entry barrier's announcements travel (only this rank
    // writes its segment).
    let single = peers.one_round(halves.chunks);
    let early_own = credits.phase_with(builder, 1, |builder| {
        single.then(|| halves.own(builder, Ix::Const(0)))
    });
    // Reduce-scatter: this rank's segment from everybody; with `Push`, each
    // reduced chunk also into every peer's copy of the segment.
    halves.reduce_scatter(builder, op, early_own, &|builder, reduced, at, valid| {
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
    halves.allgather(builder, stream.view, None);
    credits.phase(builder, 3);
    credits.finish(builder, 3);
}
