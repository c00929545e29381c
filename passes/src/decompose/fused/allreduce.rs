//! `pld.tensor.matmul_allreduce` as tasks of the host orchestrator that
//! calls it.
//!
//! `fused` (pto-isa's gemm_ar, kernels/manual/a2a3/gemm_ar/README.md, as
//! two tasks instead of two streams): the product is cut into tiles of
//! [`super::TILE_ROWS`] x [`super::TILE_COLS`]; tile t is owned by rank t mod n.
//!
//! - The GEMM task runs on C blocks (cube cores), in rounds of C tiles:
//!   block b computes tile `r C + (b + r) mod C` of round r into this
//!   rank's `c` and publishes it by adding 1 to its ready cell.
//! - The communication task runs on C blocks (vector cores), each mixing
//!   gemm_ar's two roles in one loop. In round r block b reduce-scatters
//!   GEMM block b's tile of the round, once it is published: on the owner
//!   the stored tile is the base of the sum, and the owner tells every
//!   peer so; a peer waits for that, then adds its tile, subtile by
//!   subtile, into the owner's `c` by atomic-add stores and counts each
//!   subtile in the owner's cell of that subtile. Then the block moves its allgather items of this rank's
//!   tiles of round r - 1 (gemm_ar's reversed stripes, see [`Assigned`]):
//!   once all n contributions to a subtile are counted, it stores the
//!   subtile into one peer's `c` and counts it in the peer's final cell.
//!   A round's lag leaves the peers time to add; a last round moves the
//!   last tiles' items. Block 0 ends by waiting until this rank's final
//!   cell counts every subtile it does not own. Every wait is for work of
//!   an earlier round or of the same round's reduce-scatter, on some rank,
//!   so the loop cannot deadlock.
//! - A task that depends on both is the op's id: it clears the counts of
//!   this rank's subtiles, which several blocks wait for.
//!
//! Cells (the signal `[R, 2 C]` read as one row of cells): `S t + h` for
//! subtile h of tile t (on its owner: the contributions counted; on any
//! other rank: `S t` is the owner's "base stored"), `S T + b` GEMM block
//! b's ready count (taken 1 at a time), `S T + C` the final count. Every
//! count is cleared by the block that waited for it, once it has
//! (semantics §3: a signal is self-clearing), by adding its negation, and
//! the subtiles' counts by the op's last task; a rank's next call cannot
//! touch a cell before every wait of this call on it has returned, because
//! the call it is in needs this rank's own contributions first.
//!
//! `unfused`: the GEMM task, then `pld.tensor.allreduce ... core_num C` of
//! `c` in a task of C blocks that depends on it (decomposed next by this
//! pass).

use super::{Cells, GemmTile, Tiling, gemm_tile};
use melior::ir::{Type, ValueLike};
use pld_dialect::enums::{AtomicType, CollectiveAlgorithm, ReduceOp};
use pld_dialect::ops::pld;
use pld_ir::{Builder, Ix, OpRef, Val, ceil_div, types};

/// A `pld.tensor.matmul_allreduce`, read through its ODS accessors.
pub struct MatmulAllreduce<'c> {
    pub a: Val<'c>,
    pub b: Val<'c>,
    pub c: Val<'c>,
    pub signal: Val<'c>,
    pub deps: Vec<Val<'c>>,
    pub algorithm: Option<CollectiveAlgorithm>,
    pub cores: i64,
    pub tiling: Tiling,
    /// The inputs' element type (f16 or bf16) and the product's (f32).
    pub input: Type<'c>,
}

/// The cells the fused form counts on with `cores` cube cores: a cell per
/// subtile, a ready cell per cube core and a final cell.
pub fn cells(tiling: &Tiling, cores: i64) -> i64 {
    tiling.subtiles * tiling.tiles + cores + 1
}

impl<'c> MatmulAllreduce<'c> {
    /// `op`'s operands and facts, if it is a verified matmul_allreduce.
    pub fn of(op: OpRef<'c>) -> Option<Self> {
        let operands = pld::TensorMatmulAllreduceOp::operands(&op)?;
        let attributes = pld::TensorMatmulAllreduceOp::attributes(&op)?;
        let a = types::shape(operands.a.r#type())?;
        let b = types::shape(operands.b.r#type())?;
        let input = types::element_type(operands.a.r#type())?;
        let output = types::element_type(operands.c.r#type())?;
        Some(Self {
            a: operands.a,
            b: operands.b,
            c: operands.c,
            signal: operands.signal,
            deps: operands.deps,
            algorithm: attributes.algorithm,
            cores: attributes.core_num.unwrap_or(1),
            tiling: Tiling::new(
                a[0],
                a[1],
                b[1],
                types::byte_width(input)?,
                types::byte_width(output)?,
            ),
            input,
        })
    }

    fn cells(&self) -> Cells<'c> {
        Cells {
            signal: self.signal,
        }
    }

    /// The signal's rows (the rank count it is shaped for) and columns.
    pub fn signal_shape(&self) -> (i64, i64) {
        self.cells().shape()
    }

    /// Why the signal cannot host the fused form, if it cannot.
    pub fn signal_problem(&self) -> Option<String> {
        let t = &self.tiling;
        self.cells().problem(
            cells(t, self.cores),
            2 * self.cores,
            &format!(
                "{} tiles of {} x {} in {} subtiles each, a ready cell per cube core and a final \
                 cell",
                t.tiles, t.tile_rows, t.tile_cols, t.subtiles
            ),
        )
    }

    /// Emits the chosen form before `builder`'s insertion point; returns
    /// the id of the task that completes with the op.
    pub fn emit(&self, builder: &Builder<'c>, fused: bool) -> Val<'c> {
        let blocks = Ix::Const(self.cores);
        let gemm = builder.spmd_task(blocks, "matmul_allreduce.matmul", &self.deps, |kernel| {
            self.gemm(kernel, fused)
        });
        if !fused {
            return builder.spmd_task(blocks, "matmul_allreduce.allreduce", &[gemm], |kernel| {
                self.allreduce(kernel)
            });
        }
        let comm = builder.spmd_task(
            blocks,
            "matmul_allreduce.communicate",
            &self.deps,
            |kernel| self.communicate(kernel),
        );
        builder.core_group_task("matmul_allreduce", &[gemm, comm], |builder| {
            self.clear_counts(builder)
        })
    }

    /// The signal's cell `index` (the signal read as one row of cells).
    fn cell(&self, builder: &Builder<'c>, index: Ix<'c>) -> [Ix<'c>; 2] {
        self.cells().cell(builder, index)
    }

    fn ready_cell(&self, builder: &Builder<'c>, block: Ix<'c>) -> [Ix<'c>; 2] {
        let first = self.tiling.subtiles * self.tiling.tiles;
        self.cell(builder, builder.add(Ix::Const(first), block))
    }

    fn final_cell(&self, builder: &Builder<'c>) -> [Ix<'c>; 2] {
        let index = self.tiling.subtiles * self.tiling.tiles + self.cores;
        self.cell(builder, Ix::Const(index))
    }

    fn add_to(&self, builder: &Builder<'c>, peer: Ix<'c>, cell: [Ix<'c>; 2], value: Ix<'c>) {
        self.cells().add_to(builder, peer, cell, value);
    }

    fn await_and_clear(&self, builder: &Builder<'c>, me: Ix<'c>, cell: [Ix<'c>; 2], count: Ix<'c>) {
        self.cells().await_and_clear(builder, me, cell, count);
    }

    /// The GEMM task: block b computes its tile of each round into `c`; in
    /// the fused form it publishes each in its ready cell.
    fn gemm(&self, builder: &Builder<'c>, publish: bool) {
        let t = &self.tiling;
        let block = builder.pl_block_idx();
        let me = publish.then(|| builder.rank_index(builder.comm_ctx(self.signal)));
        let rounds = ceil_div(t.tiles, self.cores);
        builder.for_each(Ix::Const(0), Ix::Const(rounds), |builder, round| {
            self.with_tile_of(builder, block, round, |builder, tile| {
                let (at, valid) = t.tile_region(builder, tile);
                let (lhs, lhs_row, rhs, dest) = (self.a, at[0], self.b, self.c);
                gemm_tile(
                    builder,
                    t,
                    self.input,
                    GemmTile {
                        lhs,
                        lhs_row,
                        rhs,
                        dest,
                        at,
                        valid,
                    },
                );
                if let Some(me) = me {
                    self.add_to(builder, me, self.ready_cell(builder, block), Ix::Const(1));
                }
            });
        });
    }

    /// Runs `body` with GEMM block b's tile of round r, if the round has
    /// one for it (the last round may not).
    fn with_tile_of(
        &self,
        builder: &Builder<'c>,
        block: Ix<'c>,
        round: Ix<'c>,
        body: impl FnOnce(&Builder<'c>, Ix<'c>),
    ) {
        let tile = self.tile_of(builder, block, round);
        let computed = builder.cmp(
            melior::dialect::arith::CmpiPredicate::Ult,
            tile,
            Ix::Const(self.tiling.tiles),
        );
        builder.if_then(computed, |builder| body(builder, tile));
    }

    /// GEMM block b's tile of round r, `r C + (b + r) mod C`: round r
    /// computes tiles `[r C, (r + 1) C)`, turned by r so that a block's
    /// tiles have every owner in turn (with `b + r C`, and C a multiple of
    /// n, block b's tiles would all be rank b mod n's, and its vector core
    /// would push all of them or none).
    fn tile_of(&self, builder: &Builder<'c>, block: Ix<'c>, round: Ix<'c>) -> Ix<'c> {
        let cores = Ix::Const(self.cores);
        builder.add(
            builder.mul(round, cores),
            builder.rem(builder.add(block, round), cores),
        )
    }

    /// The unfused form's second task: `c` allreduced on C vector cores,
    /// on the signal seen as `[N * m, 2 C]`.
    fn allreduce(&self, builder: &Builder<'c>) {
        let (rows, columns) = self.signal_shape();
        let width = 2 * self.cores;
        let signal = if columns == width {
            self.signal
        } else {
            let element = types::element_type(self.signal.r#type()).expect("an i32 signal");
            let shape = [rows * (columns / width), width];
            let view = pld_dialect::types::distributed_tensor(builder.context, &shape, element)
                .expect("a signal type");
            builder.reshape(self.signal, view, &[])
        };
        let allreduce = pld::TensorAllreduceOp {
            target: self.c,
            signal,
            epoch: None,
            workspace: None,
            op: ReduceOp::Sum.attribute(builder.context),
            mode: None,
            algorithm: None,
            core_num: (self.cores > 1).then(|| builder.i64_attribute(self.cores)),
            result: self.c.r#type(),
        };
        builder.insert(allreduce.build(builder.context, builder.location));
    }

    /// The fused form's communication task, C blocks (vector cores) as
    /// gemm_ar's: block b reduce-scatters the tiles of GEMM block b in their
    /// rounds, and after round r moves its allgather items of this rank's
    /// tiles of round r - 1 (a round later, so that their sums are likely
    /// complete), then the rest after the last round; block 0 ends by
    /// waiting for every subtile the peers own.
    fn communicate(&self, builder: &Builder<'c>) {
        let t = &self.tiling;
        let ctx = builder.comm_ctx(self.signal);
        let me = builder.rank_index(ctx);
        let n = builder.nranks_index(ctx);
        let block = builder.pl_block_idx();
        let rounds = ceil_div(t.tiles, self.cores);
        let assigned = Assigned::new(builder, t, self.cores, block, me, n);
        builder.for_each(Ix::Const(0), Ix::Const(rounds + 1), |builder, round| {
            self.with_tile_of(builder, block, round, |builder, tile| {
                self.reduce_scatter(builder, block, tile, me, n);
            });
            let previous = builder.max(Ix::Const(0), builder.sub(round, Ix::Const(1)));
            let from = assigned.before_round(builder, previous);
            let to = assigned.before_round(builder, round);
            builder.for_each(from, to, |builder, k| {
                self.allgather(builder, &assigned, assigned.item(builder, k));
            });
        });
        let first = builder.cmp(
            melior::dialect::arith::CmpiPredicate::Eq,
            block,
            Ix::Const(0),
        );
        builder.if_then(first, |builder| {
            let others = builder.mul(
                builder.sub(Ix::Const(t.tiles), assigned.owned_tiles),
                Ix::Const(t.subtiles),
            );
            self.await_and_clear(builder, me, self.final_cell(builder), others);
        });
    }

    /// The op's last task, once both others are done: clears the counts
    /// of this rank's subtiles, which every rank's contribution raised to
    /// n and the allgather's steps waited for.
    fn clear_counts(&self, builder: &Builder<'c>) {
        let t = &self.tiling;
        let ctx = builder.comm_ctx(self.signal);
        let me = builder.rank_index(ctx);
        let n = builder.nranks_index(ctx);
        let subtiles = Ix::Const(t.subtiles);
        builder.for_each_step(me, Ix::Const(t.tiles), n, |builder, tile| {
            builder.for_each(Ix::Const(0), subtiles, |builder, h| {
                let cell = self.cell(builder, builder.add(builder.mul(tile, subtiles), h));
                self.add_to(builder, me, cell, builder.sub(Ix::Const(0), n));
            });
        });
    }

    fn subtile_type(&self, builder: &Builder<'c>) -> Type<'c> {
        let element = types::element_type(self.c.r#type()).expect("a typed window");
        self.tiling.subtile_type(builder, element)
    }

    /// Reduce-scatters `tile`, the next of GEMM block `block`'s, once the
    /// block has published it.
    fn reduce_scatter(
        &self,
        builder: &Builder<'c>,
        block: Ix<'c>,
        tile: Ix<'c>,
        me: Ix<'c>,
        n: Ix<'c>,
    ) {
        let subtiles = Ix::Const(self.tiling.subtiles);
        // One published tile taken from the count (the block publishes its
        // tiles in the order they are moved).
        self.await_and_clear(builder, me, self.ready_cell(builder, block), Ix::Const(1));
        let owner = builder.rem(tile, n);
        let first = builder.mul(tile, subtiles);
        let owns = builder.cmp(melior::dialect::arith::CmpiPredicate::Eq, owner, me);
        builder.if_else(
            owns,
            &[],
            |builder| {
                // The stored tile is the base of the sum: every peer may
                // add to it now, and this rank's share is counted.
                builder.for_each(Ix::Const(0), n, |builder, peer| {
                    let other = builder.cmp(melior::dialect::arith::CmpiPredicate::Ne, peer, me);
                    builder.if_then(other, |builder| {
                        self.add_to(builder, peer, self.cell(builder, first), Ix::Const(1));
                    });
                });
                builder.for_each(Ix::Const(0), subtiles, |builder, h| {
                    let cell = self.cell(builder, builder.add(first, h));
                    self.add_to(builder, me, cell, Ix::Const(1));
                });
                vec![]
            },
            |builder| {
                self.await_and_clear(builder, me, self.cell(builder, first), Ix::Const(1));
                builder.for_each(Ix::Const(0), subtiles, |builder, h| {
                    let (at, valid) = self.tiling.subtile_region(builder, tile, h);
                    let some = builder.cmp(
                        melior::dialect::arith::CmpiPredicate::Sgt,
                        valid[0],
                        Ix::Const(0),
                    );
                    builder.if_then(some, |builder| {
                        let part =
                            builder.load(self.c, &at, self.subtile_type(builder), Some(&valid));
                        builder.remote_store(
                            part,
                            self.c,
                            owner,
                            &at,
                            Some(&valid),
                            AtomicType::Add,
                        );
                    });
                    let cell = self.cell(builder, builder.add(first, h));
                    self.add_to(builder, owner, cell, Ix::Const(1));
                });
                vec![]
            },
        );
    }

    /// Allgather item j (`Assigned`): subtile q = j / P of this rank's
    /// (subtile q mod S of its tile me + (q / S) n), stored into the peer of
    /// step k = j mod P (the P = max(n - 1, 1) steps turn with the subtile,
    /// so that the blocks do not all start on one link) once every rank
    /// has added into it, and counted in that peer's final cell. The P
    /// steps of a subtile wait for one count, so none of them clears it:
    /// the op's last task does ([`Self::clear_counts`]).
    fn allgather(&self, builder: &Builder<'c>, assigned: &Assigned<'c>, item: Ix<'c>) {
        let subtiles = Ix::Const(self.tiling.subtiles);
        let (me, n, per) = (assigned.me, assigned.n, assigned.per);
        let q = builder.div(item, per);
        let step = builder.rem(item, per);
        let tile = builder.add(me, builder.mul(builder.div(q, subtiles), n));
        let h = builder.rem(q, subtiles);
        let cell = self.cell(builder, builder.add(builder.mul(tile, subtiles), h));
        self.cells().await_count(builder, cell, n);
        let peer = builder.rem(
            builder.add(
                me,
                builder.add(builder.rem(builder.add(q, step), per), Ix::Const(1)),
            ),
            n,
        );
        let (at, valid) = self.tiling.subtile_region(builder, tile, h);
        let some = builder.cmp(
            melior::dialect::arith::CmpiPredicate::Sgt,
            valid[0],
            Ix::Const(0),
        );
        let other = builder.cmp(melior::dialect::arith::CmpiPredicate::Ne, peer, me);
        builder.if_then(other, |builder| {
            builder.if_then(some, |builder| {
                let part = builder.load(self.c, &at, self.subtile_type(builder), Some(&valid));
                builder.remote_store(part, self.c, peer, &at, Some(&valid), AtomicType::None);
            });
            self.add_to(builder, peer, self.final_cell(builder), Ix::Const(1));
        });
    }
}

/// The allgather items of this rank's tiles that one communication block
/// moves: item j stores subtile j / P of the rank's S x (owned tiles), in
/// tile order, into one of P = max(n - 1, 1) peers. Item j goes to block
/// C - 1 - (j mod C): gemm_ar's reversed stripes (its README, "AG
/// summary"), which give the first items to the blocks whose GEMM blocks
/// have the fewest tiles. A store into one peer is the unit, not a
/// subtile's stores into all of them, so that a round's few subtiles spread
/// over the blocks. Block b's k-th item is j = C - 1 - b + k C.
struct Assigned<'c> {
    first: Ix<'c>,
    count: Ix<'c>,
    owned_tiles: Ix<'c>,
    per: Ix<'c>,
    me: Ix<'c>,
    n: Ix<'c>,
    cores: i64,
    subtiles: i64,
}

impl<'c> Assigned<'c> {
    fn new(
        builder: &Builder<'c>,
        tiling: &Tiling,
        cores: i64,
        block: Ix<'c>,
        me: Ix<'c>,
        n: Ix<'c>,
    ) -> Self {
        let owned_tiles = builder.ceil_div(
            builder.max(Ix::Const(0), builder.sub(Ix::Const(tiling.tiles), me)),
            n,
        );
        let per = builder.max(builder.sub(n, Ix::Const(1)), Ix::Const(1));
        let items = builder.mul(builder.mul(owned_tiles, Ix::Const(tiling.subtiles)), per);
        let first = builder.sub(Ix::Const(cores - 1), block);
        let count = builder.ceil_div(
            builder.max(Ix::Const(0), builder.sub(items, first)),
            Ix::Const(cores),
        );
        Self {
            first,
            count,
            owned_tiles,
            per,
            me,
            n,
            cores,
            subtiles: tiling.subtiles,
        }
    }

    /// The item index j of the block's `k`-th item.
    fn item(&self, builder: &Builder<'c>, k: Ix<'c>) -> Ix<'c> {
        builder.add(self.first, builder.mul(k, Ix::Const(self.cores)))
    }

    /// How many of the block's items are of tiles the GEMM computes before
    /// round `round` (rounds of C tiles): this rank's tile me + i n is in
    /// round (me + i n) / C, so its items come before round x exactly when
    /// i < ceil((x C - me) / n).
    fn before_round(&self, builder: &Builder<'c>, round: Ix<'c>) -> Ix<'c> {
        let start = builder.mul(round, Ix::Const(self.cores));
        let tiles = builder.ceil_div(
            builder.max(Ix::Const(0), builder.sub(start, self.me)),
            self.n,
        );
        let items = builder.mul(builder.mul(tiles, Ix::Const(self.subtiles)), self.per);
        let blocks = builder.ceil_div(
            builder.max(Ix::Const(0), builder.sub(items, self.first)),
            Ix::Const(self.cores),
        );
        builder.min(blocks, self.count)
    }
}
