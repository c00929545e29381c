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
//!
//! Counted phases ([`Credits::phase`]): on a mesh signal of shape `[N, 2]`
//! the faster algorithms run their barriers on counters instead. Phase `g`
//! (1, 2 or 3) of a call has its own counter in every rank's signal, which
//! all peers add to: `[d, 0]`, `[d, 1]` and `[(d + 1) % N, 1]` of rank d's
//! signal, none of them a cell `[src, 0]` of a peer (so the per-source
//! counting of the seed's algorithms and of oneshot's flags on the same
//! signal never meets them). Rank d announces the phase to every peer,
//! subtracts n - 1 from its own counter and waits until it is back at 0:
//! one self-notify and one wait instead of n - 1 waits and an epilogue of
//! n - 1 self-notifies, and the self-notify is issued while the peers'
//! announcements are in flight. No peer can announce the same phase of the
//! next call before this rank has passed it (it would first need this
//! rank's announcement of a later phase, or of oneshot's last flag), so a
//! counter only ever holds the announcements of one phase of one call.
//!
//! A counter cannot say which peer has announced, so where each pull needs
//! only its own peer's announcement, the entry counts per source instead,
//! announced in a fixed rotation and awaited one peer at a time
//! ([`Credits::announce_in_turn`], [`Credits::await_from`]).

use super::pull::Peers;
use melior::dialect::arith::CmpiPredicate;
use pld_dialect::enums::{NotifyOp, WaitCmp};
use pld_ir::{Builder, Ix, Val};

/// Which cell of the signal counts the barriers from rank `src`.
#[derive(Clone, Copy)]
pub enum Cells<'c> {
    /// `[src, column]` of an `[N, C]` signal (`[src, 0]` of `[N, 1]`).
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
    /// The signal is a mesh signal `[N, 2]`: [`Credits::phase`] counts on
    /// the counters of its second column.
    pub counters: bool,
    /// The first column of the signal these credits count on: 0, or for
    /// block b of a collective on several cores, b (or 2b on counters).
    pub column: Ix<'c>,
}

impl<'c> Credits<'c> {
    /// The same ranks and signal, counting in `cells`.
    pub fn with_cells(self, cells: Cells<'c>) -> Self {
        Self { cells, ..self }
    }

    fn cell(&self, src: Ix<'c>) -> Vec<Ix<'c>> {
        match self.cells {
            Cells::Column => vec![src, self.column],
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

    /// The counter cell of phase `g` (1-based) in rank `rank`'s signal.
    fn counter(&self, builder: &Builder<'c>, g: i64, rank: Ix<'c>) -> Vec<Ix<'c>> {
        let second = builder.add(self.column, Ix::Const(1));
        match g {
            1 => vec![rank, self.column],
            2 => vec![rank, second],
            3 => {
                let next = builder.rem(builder.add(rank, Ix::Const(1)), self.ranks);
                vec![next, second]
            }
            _ => unreachable!("at most three counted phases per call, found {g}"),
        }
    }

    /// Barrier `g` of a call of one of the faster algorithms.
    pub fn phase(&self, builder: &Builder<'c>, g: i64) {
        self.phase_with(builder, g, |_| ());
    }

    /// [`Self::phase`], with `during` issued between its notifies and its
    /// wait: work that needs nothing from the peers runs while the
    /// announcements travel.
    pub fn phase_with<T>(
        &self,
        builder: &Builder<'c>,
        g: i64,
        during: impl FnOnce(&Builder<'c>) -> T,
    ) -> T {
        self.announce_phase(builder, g);
        let done = during(builder);
        self.await_phase(builder, g);
        done
    }

    /// The notify half of [`Self::phase`]: on counters, +1 into phase `g`'s
    /// counter of every peer and -(n - 1) into this rank's own.
    pub fn announce_phase(&self, builder: &Builder<'c>, g: i64) {
        if !self.counters {
            return self.announce(builder);
        }
        let one = builder.i32(1);
        self.for_each_peer(builder, |builder, peer| {
            let cell = self.counter(builder, g, peer);
            builder.notify(self.signal, peer, &cell, one, NotifyOp::AtomicAdd);
        });
        let minus = builder.to_i32(builder.sub(Ix::Const(1), self.ranks));
        let own = self.counter(builder, g, self.me);
        builder.notify(self.signal, self.me, &own, minus, NotifyOp::AtomicAdd);
    }

    /// The wait half of [`Self::phase`]: every peer announced phase `g`.
    pub fn await_phase(&self, builder: &Builder<'c>, g: i64) {
        if !self.counters {
            return self.await_all(builder, Ix::Const(g));
        }
        let zero = builder.i32(0);
        builder.wait(
            self.signal,
            &self.counter(builder, g, self.me),
            zero,
            WaitCmp::Ge,
        );
    }

    /// The end of a call that ran phases `1..=phases`: the epilogue of the
    /// per-source cells; counters need none.
    pub fn finish(&self, builder: &Builder<'c>, phases: i64) {
        if !self.counters {
            self.epilogue(builder, Ix::Const(phases));
        }
    }

    /// The notify half of an entry barrier whose waits go one peer at a
    /// time ([`Self::await_from`]): +1 into this rank's cell of every peer,
    /// in the order `me + 1, me + 2, ...` (mod n), so that rank d hears
    /// from `d - 1` first, then `d - 2`, and so on; on several cores
    /// rotated as `peers` rotates its pulls ([`Peers::turn`]), so that block
    /// b of rank d hears first from the peer it pulls from first.
    pub fn announce_in_turn(&self, builder: &Builder<'c>, peers: Peers<'c>) {
        let one = builder.i32(1);
        let mine = self.cell(self.me);
        builder.for_each(Ix::Const(1), self.ranks, |builder, k| {
            let step = peers.turn(builder, k);
            let peer = builder.rem(builder.add(self.me, step), self.ranks);
            builder.notify(self.signal, peer, &mine, one, NotifyOp::AtomicAdd);
        });
    }

    /// Waits for `src`'s announcement of [`Self::announce_in_turn`].
    pub fn await_from(&self, builder: &Builder<'c>, src: Ix<'c>) {
        let one = builder.i32(1);
        builder.wait(self.signal, &self.cell(src), one, WaitCmp::Ge);
    }

    /// The cell of an epoch flag from `src`: the first cell of the
    /// credits (phase 0) or the one after it (phase 1, on `[N, 2]`).
    fn epoch_cell(&self, builder: &Builder<'c>, src: Ix<'c>, phase: i64) -> Vec<Ix<'c>> {
        match self.cells {
            Cells::Column => vec![src, builder.add(self.column, Ix::Const(phase))],
            Cells::Vector if phase == 0 => vec![src],
            _ => unreachable!("epoch flags are columns of a mesh signal"),
        }
    }

    /// An epoch flag (`super::epoch`): `Set` the call's `epoch` into this
    /// rank's cell of phase `phase` in every peer's signal.
    pub fn announce_epoch(&self, builder: &Builder<'c>, epoch: Val<'c>, phase: i64) {
        let mine = self.epoch_cell(builder, self.me, phase);
        self.for_each_peer(builder, |builder, peer| {
            builder.notify(self.signal, peer, &mine, epoch, NotifyOp::Set);
        });
    }

    /// Waits until every peer's flag of phase `phase` has reached `epoch`
    /// (`Ge`: a peer may already have announced the next call).
    pub fn await_epoch(&self, builder: &Builder<'c>, epoch: Val<'c>, phase: i64) {
        self.for_each_peer(builder, |builder, src| {
            let cell = self.epoch_cell(builder, src, phase);
            builder.wait(self.signal, &cell, epoch, WaitCmp::Ge);
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
