//! Pulls from every peer with all of them in flight before any is used:
//! loads are asynchronous and transfers over different links overlap, so a
//! chunk from n - 1 peers costs about one link's time (or the rank's ingress
//! cap), not n - 1 of them.
//!
//! Every pull needs a tile of its own, so the loop over the ranks is
//! unrolled over the signal's static row count N (a rank count the program
//! runs with is at most N; each rank `p` is guarded by `p < n`). With a
//! dynamic N, or more than [`MAX_UNROLLED`] ranks, the loop stays rolled and
//! pulls [`ROLLED_GROUP`] ranks per iteration, all in flight.
//!
//! A reduction combines the chunks in the fixed order of the ranks, `0`
//! first, this rank's own chunk at its position, so that every rank
//! computes a bit-identical result. On several cores the order starts at
//! rank `b mod n` for block b ([`Peers::rotation`]): the cores of a rank
//! then pull from different peers first instead of all from rank 0 over
//! one link, and every rank's block b still combines its part in the same
//! order.

use melior::{dialect::arith::CmpiPredicate, ir::Type};
use pld_dialect::enums::ReduceOp;
use pld_ir::{Builder, Ix, Val};

/// The most ranks a pull phase unrolls (one node of eight NPUs); beyond it
/// the tiles of one chunk per rank would leave chunks too small to pay.
pub const MAX_UNROLLED: i64 = 8;

/// Ranks pulled per iteration of a rolled loop: as many as an unrolled
/// phase of [`MAX_UNROLLED`] ranks pulls, in as many tiles. Seven pulls in
/// flight cover a rank's ingress (seven links of the 910b model carry more
/// than its cap, docs/performance.md); two, as this once was, left a
/// 16-rank allreduce at 3.17x the reference at 16 MiB.
const ROLLED_GROUP: i64 = MAX_UNROLLED - 1;

/// The ranks of a pull phase and how the code goes over them.
#[derive(Clone, Copy)]
pub struct Peers<'c> {
    pub me: Ix<'c>,
    pub ranks: Ix<'c>,
    /// `Some(N)`: unrolled over the ranks `0..N`; `None`: rolled.
    pub unrolled: Option<i64>,
    /// Where the order of the ranks starts: 0, or the block on several
    /// cores (the k-th rank visited is `(k + rotation) mod n`).
    pub rotation: Ix<'c>,
}

/// Whether a signal of `static_ranks` rows unrolls its pull phases.
pub fn unrolled(static_ranks: Option<i64>) -> Option<i64> {
    static_ranks.filter(|ranks| *ranks <= MAX_UNROLLED)
}

/// The chunk tiles a reduction keeps live at once: this rank's chunk, rank
/// 0's, and a pulled chunk and a running combination per rank of a group.
pub fn reduce_tiles(unrolled: Option<i64>) -> i64 {
    match unrolled {
        Some(ranks) => 2 * ranks.max(1),
        None => 2 + 2 * ROLLED_GROUP,
    }
}

/// The chunk tiles a gather keeps live at once: one per rank of a group and
/// the placeholder that stands for no rank.
pub fn gather_tiles(unrolled: Option<i64>) -> i64 {
    unrolled.unwrap_or(ROLLED_GROUP) + 1
}

impl<'c> Peers<'c> {
    /// The k-th rank visited (`k < n`).
    fn rank_at(&self, builder: &Builder<'c>, k: Ix<'c>) -> Ix<'c> {
        match self.rotation.constant() {
            Some(0) => k,
            _ => builder.rem(builder.add(k, self.rotation), self.ranks),
        }
    }

    /// The combination, in rank order, of every rank's chunk: `own` is this
    /// rank's, `pull(p)` loads rank p's. `between` runs once the pulls are
    /// issued (all of them when unrolled, rank 0's when rolled), before the
    /// first combination: work that overlaps the transfers.
    pub fn reduce(
        &self,
        builder: &Builder<'c>,
        tile: Type<'c>,
        op: ReduceOp,
        own: Val<'c>,
        pull: &dyn Fn(&Builder<'c>, Ix<'c>) -> Val<'c>,
        between: &dyn Fn(&Builder<'c>),
    ) -> Val<'c> {
        // The first rank visited always exists.
        let first_rank = self.rank_at(builder, Ix::Const(0));
        let first = self.chunk_of(builder, tile, first_rank, None, own, pull);
        match self.unrolled {
            Some(ranks) => {
                let pulled: Vec<(Val, Val)> = (1..ranks)
                    .map(|k| {
                        let k = Ix::Const(k);
                        let is_rank = builder.cmp(CmpiPredicate::Ult, k, self.ranks);
                        let p = self.rank_at(builder, k);
                        (
                            is_rank,
                            self.chunk_of(builder, tile, p, Some(is_rank), own, pull),
                        )
                    })
                    .collect();
                between(builder);
                pulled.into_iter().fold(first, |acc, (is_rank, chunk)| {
                    combine_if(builder, tile, op, is_rank, acc, chunk)
                })
            }
            None => {
                between(builder);
                builder.for_loop(
                    Ix::Const(1),
                    self.ranks,
                    Ix::Const(ROLLED_GROUP),
                    &[first],
                    |builder, base, acc| {
                        let group: Vec<(Option<Val>, Val)> = (0..ROLLED_GROUP)
                            .map(|j| {
                                let k = builder.add(base, Ix::Const(j));
                                // The loop's bound covers the group's first rank.
                                let is_rank =
                                    (j > 0).then(|| builder.cmp(CmpiPredicate::Ult, k, self.ranks));
                                let p = self.rank_at(builder, k);
                                (is_rank, self.chunk_of(builder, tile, p, is_rank, own, pull))
                            })
                            .collect();
                        let combined =
                            group
                                .into_iter()
                                .fold(acc[0], |acc, (is_rank, chunk)| match is_rank {
                                    Some(is_rank) => {
                                        combine_if(builder, tile, op, is_rank, acc, chunk)
                                    }
                                    None => builder.combine(op, acc, chunk),
                                });
                        vec![combined]
                    },
                )[0]
            }
        }
    }

    /// Rank `p`'s chunk: pulled from `p`, or `own` where `p` is this rank or
    /// (`is_rank` false) not a rank of this run.
    fn chunk_of(
        &self,
        builder: &Builder<'c>,
        tile: Type<'c>,
        p: Ix<'c>,
        is_rank: Option<Val<'c>>,
        own: Val<'c>,
        pull: &dyn Fn(&Builder<'c>, Ix<'c>) -> Val<'c>,
    ) -> Val<'c> {
        let other = builder.cmp(CmpiPredicate::Ne, p, self.me);
        let condition = match is_rank {
            Some(is_rank) => builder.and(is_rank, other),
            None => other,
        };
        builder.if_else(
            condition,
            &[tile],
            |builder| vec![pull(builder, p)],
            |_| vec![own],
        )[0]
    }

    /// Whether a chunk loop of `chunks` is one chunk whose pulls all go out
    /// at once (unrolled): the one-chunk forms can load the own chunk
    /// during the entry barrier and announce the exit as the pulls land.
    pub fn one_round(&self, chunks: Ix<'c>) -> bool {
        chunks.constant() == Some(1) && self.unrolled.is_some()
    }

    /// The distance `1 <= d < n` of the k-th peer (`1 <= k < n`) in turn:
    /// k, or on several cores `1 + (k - 1 + rotation) mod (n - 1)`.
    pub fn turn(&self, builder: &Builder<'c>, k: Ix<'c>) -> Ix<'c> {
        match self.rotation.constant() {
            Some(0) => k,
            _ => {
                // At least 1, so that the remainder is defined with one rank
                // (which visits no peer).
                let others = builder.max(builder.sub(self.ranks, Ix::Const(1)), Ix::Const(1));
                let shifted = builder.add(builder.sub(k, Ix::Const(1)), self.rotation);
                builder.add(Ix::Const(1), builder.rem(shifted, others))
            }
        }
    }

    /// Unrolled: for k = 1..N-1, the peer `(me - turn(k)) mod n` where k < n,
    /// `arrived(peer)` (its wait), then `fetch(peer)`: each pull goes out
    /// as soon as its peer's announcement of
    /// [`super::credits::Credits::announce_in_turn`] is in, the order they
    /// arrive in. Returns, per k, whether it is a rank of the run, the peer
    /// and its chunk (`placeholder` where it is not).
    pub fn in_arrival_order(
        &self,
        builder: &Builder<'c>,
        tile: Type<'c>,
        placeholder: Val<'c>,
        arrived: &dyn Fn(&Builder<'c>, Ix<'c>),
        fetch: &dyn Fn(&Builder<'c>, Ix<'c>) -> Val<'c>,
    ) -> Vec<(Val<'c>, Ix<'c>, Val<'c>)> {
        let ranks = self.unrolled.expect("pulls in arrival order are unrolled");
        (1..ranks)
            .map(|k| {
                let is_rank = builder.cmp(CmpiPredicate::Ult, Ix::Const(k), self.ranks);
                let step = self.turn(builder, Ix::Const(k));
                let back = builder.sub(builder.add(self.me, self.ranks), step);
                let peer = builder.rem(back, self.ranks);
                let chunk = builder.if_else(
                    is_rank,
                    &[tile],
                    |builder| {
                        arrived(builder, peer);
                        vec![fetch(builder, peer)]
                    },
                    |_| vec![placeholder],
                )[0];
                (is_rank, peer, chunk)
            })
            .collect()
    }

    /// For every rank `q` but this one: `fetch(q)` (the waits it needs and
    /// the pull), all in flight together; then `keep(q, chunk)` for each.
    /// `placeholder` stands for the chunk of a rank that is not fetched.
    /// `between` runs once every pull is issued, before the first `keep`
    /// when unrolled, after the last when rolled.
    pub fn gather(
        &self,
        builder: &Builder<'c>,
        tile: Type<'c>,
        placeholder: Val<'c>,
        fetch: &dyn Fn(&Builder<'c>, Ix<'c>) -> Val<'c>,
        between: &dyn Fn(&Builder<'c>),
        keep: &dyn Fn(&Builder<'c>, Ix<'c>, Val<'c>),
    ) {
        let group = |builder: &Builder<'c>, ranks: Vec<Ix<'c>>, between: &dyn Fn(&Builder<'c>)| {
            let fetched: Vec<(Ix, Val, Val)> = ranks
                .into_iter()
                .map(|k| {
                    let is_rank = builder.cmp(CmpiPredicate::Ult, k, self.ranks);
                    let q = self.rank_at(builder, k);
                    let other = builder.cmp(CmpiPredicate::Ne, q, self.me);
                    let wanted = builder.and(is_rank, other);
                    let chunk = builder.if_else(
                        wanted,
                        &[tile],
                        |builder| vec![fetch(builder, q)],
                        |_| vec![placeholder],
                    )[0];
                    (q, wanted, chunk)
                })
                .collect();
            between(builder);
            for (q, wanted, chunk) in fetched {
                builder.if_then(wanted, |builder| keep(builder, q, chunk));
            }
        };
        match self.unrolled {
            Some(ranks) => group(builder, (0..ranks).map(Ix::Const).collect(), between),
            None => {
                builder.for_each_step(
                    Ix::Const(0),
                    self.ranks,
                    Ix::Const(ROLLED_GROUP),
                    |builder, base| {
                        let ranks = (0..ROLLED_GROUP)
                            .map(|j| builder.add(base, Ix::Const(j)))
                            .collect();
                        group(builder, ranks, &|_| {})
                    },
                );
                between(builder);
            }
        }
    }
}

/// `combine(acc, chunk)` where `is_rank` holds, else `acc`.
pub fn combine_if<'c>(
    builder: &Builder<'c>,
    tile: Type<'c>,
    op: ReduceOp,
    is_rank: Val<'c>,
    acc: Val<'c>,
    chunk: Val<'c>,
) -> Val<'c> {
    builder.if_else(
        is_rank,
        &[tile],
        |builder| vec![builder.combine(op, acc, chunk)],
        |_| vec![acc],
    )[0]
}
