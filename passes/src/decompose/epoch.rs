//! One synchronisation per call: the allreduce algorithms that take the
//! call's epoch and a workspace of two rows (`epoch %e workspace %w`), as
//! HCCL's small-message allreduce takes a tag and alternates its buffer by
//! the tag's parity.
//!
//! A flag is the epoch itself, written with `Set` into the writer's cell of
//! every peer's signal and awaited with `Ge`: it is never cleared, so no
//! epilogue and no barrier that only restores the signal. What the other
//! algorithms' exit barrier guards (no peer reads this rank's data any
//! more) is guarded by parity instead: the data peers read is row
//! `epoch mod 2` of the workspace, which this rank writes again only two
//! calls later, after it has seen every peer's flag of the call in
//! between, which each peer raises after its reads of this call.
//!
//! `oneshot_epoch`: copy the target into the workspace row, raise the
//! flag, wait for every peer's, pull every peer's row and combine in rank
//! order into the target: one signal hop.
//!
//! `twoshot_epoch`: raise the flag of the target (peers pull their segment
//! from it where it is), reduce this rank's segment from every peer into
//! the target and the workspace row, raise the second flag, pull every
//! other segment from its owner's workspace row: two hops where `twoshot`
//! takes three. A peer reads segment q of this rank's target only before it
//! raises its second flag, and this rank overwrites that segment only after
//! seeing that flag, so the target needs no copy.

use super::{credits::Credits, pull::Peers, stream::Stream, twoshot::Halves};
use pld_dialect::enums::ReduceOp;
use pld_ir::{Builder, Ix, Val};

/// The call's epoch and workspace.
#[derive(Clone, Copy)]
pub struct Epoch<'c> {
    pub epoch: Ix<'c>,
    pub workspace: Val<'c>,
}

impl<'c> Epoch<'c> {
    /// The workspace row of this call, and the flag value as `i32`.
    fn row_and_flag(&self, builder: &Builder<'c>) -> (Ix<'c>, Val<'c>) {
        (
            builder.rem(self.epoch, Ix::Const(2)),
            builder.to_i32(self.epoch),
        )
    }
}

/// Where `at` (a `[0, column]` of the stream's view) is in workspace row
/// `row`.
fn in_row<'c>(row: Ix<'c>, at: [Ix<'c>; 2]) -> [Ix<'c>; 2] {
    [row, at[1]]
}

pub fn oneshot<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    op: ReduceOp,
    width: i64,
    epoch: Epoch<'c>,
) {
    let tile = stream.tile(builder, width);
    let chunks = stream.chunks(builder, width);
    let (row, flag) = epoch.row_and_flag(builder);
    let region = |builder: &Builder<'c>, chunk: Ix<'c>| stream.chunk(builder, chunk, width);
    let reduce = |builder: &Builder<'c>, own: Val<'c>, chunk: Ix<'c>| {
        let (at, valid) = region(builder, chunk);
        let pull = |builder: &Builder<'c>, peer: Ix<'c>| {
            builder.remote_load(epoch.workspace, peer, &in_row(row, at), tile, Some(&valid))
        };
        let reduced = peers.reduce(builder, tile, op, own, &pull, &|_| {});
        builder.store(reduced, stream.view, &at, Some(&valid));
    };
    if chunks.constant() == Some(1) {
        // One chunk: the own tile published is the one combined.
        let (at, valid) = region(builder, Ix::Const(0));
        let own = builder.load(stream.view, &at, tile, Some(&valid));
        builder.store(own, epoch.workspace, &in_row(row, at), Some(&valid));
        credits.announce_epoch(builder, flag, 0);
        credits.await_epoch(builder, flag, 0);
        reduce(builder, own, Ix::Const(0));
        return;
    }
    builder.for_each_or_once(chunks, |builder, chunk| {
        let (at, valid) = region(builder, chunk);
        let own = builder.load(stream.view, &at, tile, Some(&valid));
        builder.store(own, epoch.workspace, &in_row(row, at), Some(&valid));
    });
    credits.announce_epoch(builder, flag, 0);
    credits.await_epoch(builder, flag, 0);
    builder.for_each_or_once(chunks, |builder, chunk| {
        let (at, valid) = region(builder, chunk);
        let own = builder.load(stream.view, &at, tile, Some(&valid));
        reduce(builder, own, chunk);
    });
}

pub fn twoshot<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    op: ReduceOp,
    width: i64,
    epoch: Epoch<'c>,
) {
    let halves = Halves::new(builder, stream, peers, width);
    let (row, flag) = epoch.row_and_flag(builder);
    // The target is published where it is; with one chunk the own chunk
    // loads while the flags travel (only this rank writes its segment).
    credits.announce_epoch(builder, flag, 0);
    let early_own =
        (halves.chunks.constant() == Some(1)).then(|| halves.own(builder, Ix::Const(0)));
    credits.await_epoch(builder, flag, 0);
    // Reduce-scatter: this rank's segment from every peer's target, each
    // reduced chunk also into the workspace row the allgather reads.
    halves.reduce_scatter(builder, op, early_own, &|builder, reduced, at, valid| {
        builder.store(reduced, epoch.workspace, &in_row(row, at), Some(&valid));
    });
    credits.announce_epoch(builder, flag, 1);
    credits.await_epoch(builder, flag, 1);
    // Allgather: every other segment from its owner's workspace row.
    halves.allgather(builder, epoch.workspace, Some(row));
}
