//! The row collectives by parallel pulls (`direct`): each rank reads what
//! it needs straight from every peer, all peers in flight together, between
//! an entry barrier (every rank's data is in its window, and every rank's
//! accesses before the call are done) and an exit barrier (nobody
//! overwrites a row a peer still reads).

use super::{
    credits::Credits,
    pull::{self, Peers},
    stream::Stream,
};
use pld_dialect::enums::ReduceOp;
use pld_ir::{Builder, Ix, Val};

/// The `[1, width]` chunks of the rows of an `[N, SIZE]` target: of all
/// SIZE columns, or of one core's part of them.
pub struct Row<'c> {
    stream: Stream<'c>,
    width: i64,
}

impl<'c> Row<'c> {
    /// The rows of `target` in chunks of `width`: on one core whole, on
    /// several (`part`, block and cores) part `block` of their columns.
    pub fn of(
        builder: &Builder<'c>,
        target: Val<'c>,
        width: i64,
        part: Option<(Ix<'c>, i64)>,
    ) -> Self {
        let whole = Stream::row(builder, target);
        Self {
            stream: match part {
                Some((block, cores)) => whole.part(builder, block, cores),
                None => whole,
            },
            width,
        }
    }

    /// The row is one chunk and every pull of it is issued at once
    /// ([`Peers::one_round`]). Read off a static bound, so that asking
    /// builds no IR.
    fn single(&self, peers: Peers<'c>) -> bool {
        let chunks = match self.stream.bound {
            Some(bound) => Ix::Const(pld_ir::ceil_div(bound, self.width)),
            None => self.stream.len,
        };
        peers.one_round(chunks)
    }

    /// The first chunk of row `row` of `source`, loaded.
    fn load_first(&self, builder: &Builder<'c>, source: Val<'c>, row: Ix<'c>) -> Val<'c> {
        let tile = self.stream.tile(builder, self.width);
        let valid = [
            Ix::Const(1),
            self.stream.valid(builder, Ix::Const(0), self.width),
        ];
        builder.load(source, &[row, self.stream.base], tile, Some(&valid))
    }

    /// Runs `body(at column, valid)` for every chunk of the row (the column
    /// of the target, from the start of the part).
    fn chunks(&self, builder: &Builder<'c>, body: impl FnOnce(&Builder<'c>, Ix<'c>, [Ix<'c>; 2])) {
        let chunks = self.stream.chunks(builder, self.width);
        builder.for_each_or_once(chunks, |builder, chunk| {
            let offset = builder.mul(chunk, Ix::Const(self.width));
            let valid = [Ix::Const(1), self.stream.valid(builder, offset, self.width)];
            body(builder, self.stream.at(builder, offset)[1], valid);
        });
    }

    /// Copies row `from_row` of `from` into row `to_row` of the target,
    /// both local, two chunks at a time through two tiles (ping/pong): the
    /// load of one chunk overlaps the store of the other, so the copy runs
    /// at the slower engine's rate rather than at the sum of both.
    fn copy(&self, builder: &Builder<'c>, from: Val<'c>, from_row: Ix<'c>, to_row: Ix<'c>) {
        let tile = self.stream.tile(builder, self.width);
        let chunks = self.stream.chunks(builder, self.width);
        let copy_chunks = |builder: &Builder<'c>, first: Ix<'c>, count: i64| {
            let moved: Vec<_> = (0..count)
                .map(|k| {
                    let chunk = builder.add(first, Ix::Const(k));
                    let offset = builder.mul(chunk, Ix::Const(self.width));
                    let valid = [Ix::Const(1), self.stream.valid(builder, offset, self.width)];
                    let column = self.stream.at(builder, offset)[1];
                    let part = builder.load(from, &[from_row, column], tile, Some(&valid));
                    (column, valid, part)
                })
                .collect();
            for (column, valid, part) in moved {
                builder.store(part, self.stream.view, &[to_row, column], Some(&valid));
            }
        };
        if chunks.constant() == Some(1) {
            copy_chunks(builder, Ix::Const(0), 1);
        } else {
            // An odd count's last pair has a second chunk of nothing
            // (`valid` 0 past the row's end).
            let pairs = builder.ceil_div(chunks, Ix::Const(2));
            builder.for_each_or_once(pairs, |builder, pair| {
                copy_chunks(builder, builder.mul(pair, Ix::Const(2)), 2)
            });
        }
    }
}

/// reduce_scatter: barrier; per chunk of row `me`: this rank's chunk and
/// every peer's pulled at once, combined in rank order, stored; barrier.
/// Nobody else writes row `me` of this rank, and this rank writes no row a
/// peer reads, so the chunks need no synchronization. Epilogue: 2.
pub fn reduce_scatter<'c>(
    builder: &Builder<'c>,
    row: Row<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    op: ReduceOp,
) {
    let target = row.stream.view;
    let tile = row.stream.tile(builder, row.width);
    // Row `me` is this rank's alone.
    let early_own = match entry(builder, &row, credits, peers, target, credits.me) {
        Own::InTurn(own) => return reduce_scatter_in_turn(builder, &row, credits, peers, op, own),
        Own::Loaded(own) => Some(own),
        Own::None | Own::Load => None,
    };
    let single = early_own.is_some();
    row.chunks(builder, |builder, column, valid| {
        let at = [credits.me, column];
        let own = early_own.unwrap_or_else(|| builder.load(target, &at, tile, Some(&valid)));
        let pull = |builder: &Builder<'c>, peer: Ix<'c>| {
            builder.remote_load(target, peer, &at, tile, Some(&valid))
        };
        let exit = |builder: &Builder<'c>| {
            if single {
                credits.announce_phase(builder, 2)
            }
        };
        let reduced = peers.reduce(builder, tile, op, own, &pull, &exit);
        // Announced early, the exit is awaited before the store: no window
        // write between a notify and the wait of its phase (pld-verify's
        // publish order); the combination still runs during the hop.
        if single {
            credits.await_phase(builder, 2);
        }
        builder.store(reduced, target, &at, Some(&valid));
    });
    if !single {
        credits.announce_phase(builder, 2);
        credits.await_phase(builder, 2);
    }
    credits.finish(builder, 2);
}

/// reduce_scatter of one unrolled chunk on a signal with counters: the
/// entry barrier counts per source and each peer's pull goes out as soon as
/// its announcement is in ([`Peers::in_arrival_order`]), so the pulls are
/// issued while the later announcements still travel; the own chunk is
/// combined first, then the peers' in the order they arrived (fixed for
/// each rank, and only this rank reduces row `me`). The exit is counted,
/// announced once the pulls have landed; the entry's cells are brought back
/// to 0 during its hop. `own` is the own chunk [`entry`] loaded.
fn reduce_scatter_in_turn<'c>(
    builder: &Builder<'c>,
    row: &Row<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    op: ReduceOp,
    own: Val<'c>,
) {
    let target = row.stream.view;
    let tile = row.stream.tile(builder, row.width);
    let at = [credits.me, row.stream.base];
    let valid = [
        Ix::Const(1),
        row.stream.valid(builder, Ix::Const(0), row.width),
    ];
    let pulled = peers.in_arrival_order(
        builder,
        tile,
        own,
        &|builder, peer| credits.await_from(builder, peer),
        &|builder, peer| builder.remote_load(target, peer, &at, tile, Some(&valid)),
    );
    credits.announce_phase(builder, 2);
    credits.epilogue(builder, Ix::Const(1));
    let reduced = pulled.into_iter().fold(own, |acc, (is_rank, _, chunk)| {
        pull::combine_if(builder, tile, op, is_rank, acc, chunk)
    });
    credits.await_phase(builder, 2);
    builder.store(reduced, target, &at, Some(&valid));
}

/// This rank's own row in a [`pull_rows`]: none, loaded beside the pulls,
/// or (one chunk) already loaded while the entry barrier's announcements
/// travel: after a counted entry, or after an entry awaited peer by peer,
/// whose pulls go in arrival order.
#[derive(Clone, Copy)]
enum Own<'c> {
    None,
    Load,
    Loaded(Val<'c>),
    InTurn(Val<'c>),
}

/// For every chunk of the row: row `row_of(q)` of `source` on every peer q,
/// pulled at once, stored into row q of the target; with `own`, also this
/// rank's own row `row_of(me)` of `source`, stored into row `me`. The call
/// ends with phase `exit` (nobody reads this rank's `source` any more),
/// announced as soon as the pulls have landed when the row is one chunk
/// and `source` is not the target.
#[allow(clippy::too_many_arguments)]
fn pull_rows<'c>(
    builder: &Builder<'c>,
    row: &Row<'c>,
    peers: Peers<'c>,
    credits: Credits<'c>,
    source: Val<'c>,
    row_of: &dyn Fn(Ix<'c>) -> Ix<'c>,
    own: Own<'c>,
    exit: i64,
) {
    let tile = row.stream.tile(builder, row.width);
    // The exit goes out before the stores only where peers never read the
    // rows stored (pld-verify's publish order: no window write between a
    // notify and the wait of its phase where peers read the window).
    let early = row.single(peers) && source != row.stream.view;
    let in_turn = matches!(own, Own::InTurn(_));
    assert!(
        !in_turn || early,
        "pulls in arrival order are one early chunk"
    );
    let nothing = builder.load(
        source,
        &[Ix::Const(0), Ix::Const(0)],
        tile,
        Some(&[Ix::Const(1), Ix::Const(0)]),
    );
    row.chunks(builder, |builder, column, valid| {
        let fetch = |builder: &Builder<'c>, peer: Ix<'c>| {
            builder.remote_load(source, peer, &[row_of(peer), column], tile, Some(&valid))
        };
        let keep = |builder: &Builder<'c>, peer: Ix<'c>, chunk: Val<'c>| {
            builder.store(chunk, row.stream.view, &[peer, column], Some(&valid));
        };
        // Loaded before the pulls go out, so that it travels beside them.
        let own_chunk = match own {
            Own::None => None,
            Own::Load => {
                Some(builder.load(source, &[row_of(peers.me), column], tile, Some(&valid)))
            }
            Own::Loaded(chunk) | Own::InTurn(chunk) => Some(chunk),
        };
        let announce = |builder: &Builder<'c>| {
            if early {
                credits.announce_phase(builder, exit)
            }
        };
        if in_turn {
            let arrived = |builder: &Builder<'c>, peer| credits.await_from(builder, peer);
            let pulled = peers.in_arrival_order(builder, tile, nothing, &arrived, &fetch);
            announce(builder);
            // The entry's cells back to 0, during the exit's hop.
            credits.epilogue(builder, Ix::Const(1));
            for (is_rank, peer, chunk) in pulled {
                builder.if_then(is_rank, |builder| keep(builder, peer, chunk));
            }
        } else {
            peers.gather(builder, tile, nothing, &fetch, &announce, &keep);
        }
        if let Some(chunk) = own_chunk {
            keep(builder, peers.me, chunk);
        }
    });
    if !early {
        credits.announce_phase(builder, exit);
    }
    credits.await_phase(builder, exit);
    credits.finish(builder, exit);
}

/// The entry barrier of a row collective that reads this rank's own row
/// `own_row` of `source` too. One unrolled chunk loads the own chunk while
/// the announcements travel; on a signal with counters its entry counts
/// per source, one peer at a time ([`Peers::in_arrival_order`]), else it is
/// counted phase 1.
fn entry<'c>(
    builder: &Builder<'c>,
    row: &Row<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
    source: Val<'c>,
    own_row: Ix<'c>,
) -> Own<'c> {
    let single = row.single(peers);
    if single && credits.counters {
        credits.announce_in_turn(builder, peers);
        return Own::InTurn(row.load_first(builder, source, own_row));
    }
    credits.phase_with(builder, 1, |builder| {
        if single {
            Own::Loaded(row.load_first(builder, source, own_row))
        } else {
            Own::Load
        }
    })
}

/// allgather: barrier (every rank's accesses before the call are done);
/// the local row into row `me` of the own target; then the peers' rows.
///
/// A `local` in the window (a distributed tensor) is read where it is: per
/// chunk, every peer q's `local` pulled at once into row q, with the own
/// chunk loaded beside them; a barrier ends the call (nobody changes
/// `local` while a peer reads it). Epilogue: 2. A `local` in private memory
/// (a memref) is out of the peers' reach: it is published first, in row
/// `me` of the own target; barrier; row q of every peer q's target pulled
/// at once into row q; barrier. Epilogue: 3. `local_in_window` is the
/// fact the chunk width was sized by (`Facts::local_in_window`), so that
/// the form built is the form costed.
pub fn allgather<'c>(
    builder: &Builder<'c>,
    local: Val<'c>,
    local_in_window: bool,
    row: Row<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
) {
    let target = row.stream.view;
    if local_in_window {
        // Only this rank writes its `local`.
        let own = entry(builder, &row, credits, peers, local, Ix::Const(0));
        pull_rows(
            builder,
            &row,
            peers,
            credits,
            local,
            &|_| Ix::Const(0),
            own,
            2,
        );
    } else {
        credits.phase(builder, 1);
        row.copy(builder, local, Ix::Const(0), credits.me);
        credits.phase(builder, 2);
        pull_rows(
            builder,
            &row,
            peers,
            credits,
            target,
            &|peer| peer,
            Own::None,
            3,
        );
    }
}

/// all_to_all: barrier; per chunk, row `me` of every peer q's input pulled
/// at once into row q, with the own input's row `me` loaded beside them
/// into row `me`; barrier. Epilogue: 2.
pub fn all_to_all<'c>(
    builder: &Builder<'c>,
    input: Val<'c>,
    row: Row<'c>,
    credits: Credits<'c>,
    peers: Peers<'c>,
) {
    let me = credits.me;
    // Only this rank writes its input.
    let own = entry(builder, &row, credits, peers, input, me);
    pull_rows(builder, &row, peers, credits, input, &|_| me, own, 2);
}
