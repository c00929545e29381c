//! The credit barrier of semantics §4 and the epilogue that restores the signal.
//! Every algorithm but the ring counts on one cell per source rank: rank
//! `src` adds to its cell of every peer's signal, in its program order, so
//! that a peer waiting for the count `k` knows that `src` made its first `k`
//! announcements (the barriers' halves, and the per-chunk flags of the
//! faster algorithms).
//!
//! Barrier `g` of a call: every rank adds 1 to its own cell in every peer's
//! signal, then waits until each peer's cell in its own signal reached `g`
//! (`Ge`, since a fast peer may already be further). After the call's `G`
//! barriers, a self-notify of `-G` per peer cell brings the signal back to
//! zero, so the next call starts again at `g = 1`; an atomic add, not a
//! set, so that it commutes with a fast peer's next `+1`.

use crate::ir::{Builder, Ix, Val};
use melior::dialect::arith::CmpiPredicate;
use pld_dialect::enums::{NotifyOp, WaitCmp};

/// Which cell of the signal counts the barriers from rank `src`.
#[derive(Clone, Copy)]
pub enum Cells<'c> {
    /// `[src, 0]` of an `[N, 1]` signal.
    Column,
    /// `[src]` of an `[N]` signal.
    Vector,
    /// `[row, src]` of a ring signal (one row per ring step).
    Row(Ix<'c>),
}

/// The ranks taking part in a collective and the signal they count on.
#[derive(Clone, Copy)]
pub struct Credits<'c> {
    pub signal: Val<'c>,
    pub me: Ix<'c>,
    pub ranks: Ix<'c>,
    pub cells: Cells<'c>,
}

impl<'c> Credits<'c> {
    /// The same ranks and signal, counting in `cells`.
    pub fn with_cells(self, cells: Cells<'c>) -> Self {
        Self { cells, ..self }
    }

    fn cell(&self, src: Ix<'c>) -> Vec<Ix<'c>> {
        match self.cells {
            Cells::Column => vec![src, Ix::Const(0)],
            Cells::Vector => vec![src],
            Cells::Row(row) => vec![row, src],
        }
    }

    /// Runs `body` for every rank but this one.
    pub fn for_each_peer(&self, builder: &Builder<'c>, body: impl FnOnce(&Builder<'c>, Ix<'c>)) {
        let me = self.me;
        builder.for_each(Ix::Const(0), self.ranks, |builder, peer| {
            let other = builder.cmp(CmpiPredicate::Ne, peer, me);
            builder.if_then(other, |builder| body(builder, peer));
        });
    }

    /// Credit barrier number `g` of the call.
    pub fn barrier(&self, builder: &Builder<'c>, g: Ix<'c>) {
        self.announce(builder);
        self.await_all(builder, g);
    }

    /// The notify half of a barrier: +1 into this rank's cell of every
    /// peer's signal.
    pub fn announce(&self, builder: &Builder<'c>) {
        let one = builder.i32(1);
        let mine = self.cell(self.me);
        self.for_each_peer(builder, |builder, peer| {
            builder.notify(self.signal, peer, &mine, one, NotifyOp::AtomicAdd);
        });
    }

    /// The wait half of a barrier: every peer's cell of this rank's signal
    /// has counted `count` announcements.
    pub fn await_all(&self, builder: &Builder<'c>, count: Ix<'c>) {
        let expected = builder.to_i32(count);
        self.for_each_peer(builder, |builder, src| {
            builder.wait(self.signal, &self.cell(src), expected, WaitCmp::Ge);
        });
    }

    /// The epilogue of a call that ran `count` barriers on these cells.
    pub fn epilogue(&self, builder: &Builder<'c>, count: Ix<'c>) {
        let minus = builder.sub(Ix::Const(0), count);
        let minus = builder.to_i32(minus);
        self.for_each_peer(builder, |builder, src| {
            builder.notify(
                self.signal,
                self.me,
                &self.cell(src),
                minus,
                NotifyOp::AtomicAdd,
            );
        });
    }
}
