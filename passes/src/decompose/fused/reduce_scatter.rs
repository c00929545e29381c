//! `pld.tensor.matmul_reduce_scatter` as tasks of the host orchestrator that
//! calls it: every rank's `a x b` summed over ranks, rank r's `out` getting
//! rows `[r Mo, (r + 1) Mo)` of the sum (`Mo` the rows of `out`).
//!
//! The product is cut into the ranks' blocks of Mo rows, each tiled alike
//! ([`Tiling`] of one block: T tiles of at most 128 x 256). Rank `me`
//! computes the blocks in the order of their owners `me, me + 1, ..., me -
//! 1` (mod n): its own first, because its own product is the base of its
//! `out`. pl has no fill to zero `out` with, so every sum starts from a
//! stored product, and the owner's is the one that needs no push: its cube
//! stores it into `out` itself, and every peer can add to a tile as soon
//! as it has computed its own contribution (the owner's block came first
//! everywhere). Taking the next ranks' blocks first instead would make
//! the pushes start a block earlier, but the peers would then have to wait
//! for the owner's product at the very end, or for a base pushed by a peer,
//! a whole remote store later.
//!
//! `fused`:
//!
//! - The GEMM task runs on C blocks (cube cores): item j (block `j / T` of
//!   the order, tile `j % T`) by cube core `j mod C`. An own tile goes
//!   straight into `out`, and the cube tells every peer that its base is
//!   there; another block's goes into this rank's `partial` and is
//!   published by adding 1 to the ready cell of the vector lane that moves
//!   it, lanes b and C + b taking turns over cube core b's items.
//! - The communication task runs on 2 C blocks (vector cores): lane L waits
//!   for each of its items and for the owner's base of the tile, adds the
//!   tile into the owner's `out` by atomic-add stores, subtile by subtile,
//!   and counts it in the owner's cell of the tile. Then it waits until
//!   this rank's tiles L, L + 2 C, ... count the n - 1 peers' additions.
//! - A task with no work that depends on both is the op's id.
//!
//! Cells (the signal `[R, 2 C m]` read as one row): `o T + t` for tile t of
//! owner o: on the owner the peers' additions counted, on any other rank
//! "the base of (o, t) is stored"; `R T + L` lane L's ready count. Every
//! count is cleared by the block that waited for it, by adding its
//! negation. Calls of the same shapes (the same cells) may follow one
//! another on one signal (`deps [%previous]`): every write of a call into a
//! rank's `out` or cells follows that rank's base of the same call, so the
//! rank is past its previous call, which cleared them; and the peers'
//! cells it flags were cleared before they added to its previous call.
//!
//! `unfused`: the same GEMM task without the ready cells, then
//! `pld.tensor.reduce_scatter` of `partial` seen as `[R, Mo N]` on the
//! signal as it is (on `W / 2` vector cores for W columns), then a task
//! that copies this rank's rows of `partial` into `out`.

use super::{Cells, GemmTile, Tiling, collective_cores, gemm_tile};
use melior::dialect::arith::CmpiPredicate;
use melior::ir::{Type, ValueLike};
use pld_dialect::enums::{AtomicType, CollectiveAlgorithm, ReduceOp};
use pld_dialect::ops::pld;
use pld_ir::{Builder, Ix, OpRef, Val, types};

/// A `pld.tensor.matmul_reduce_scatter`, read through its ODS accessors.
pub struct MatmulReduceScatter<'c> {
    pub a: Val<'c>,
    pub b: Val<'c>,
    pub partial: Val<'c>,
    pub out: Val<'c>,
    pub signal: Val<'c>,
    pub deps: Vec<Val<'c>>,
    pub algorithm: Option<CollectiveAlgorithm>,
    pub cores: i64,
    /// The rank count R the shapes are cut for (the signal's rows).
    pub ranks: i64,
    /// One rank's block: `out`'s rows, K, and the columns.
    pub tiling: Tiling,
    /// The inputs' element type (f16 or bf16).
    pub input: Type<'c>,
}

/// The cells the fused form counts on: a cell per tile of every rank's
/// block, and a ready cell per vector lane.
pub fn cells(tiling: &Tiling, ranks: i64, cores: i64) -> i64 {
    ranks * tiling.tiles + 2 * cores
}

impl<'c> MatmulReduceScatter<'c> {
    /// `op`'s operands and facts, if it is a verified matmul_reduce_scatter.
    pub fn of(op: OpRef<'c>) -> Option<Self> {
        let operands = pld::TensorMatmulReduceScatterOp::operands(&op)?;
        let attributes = pld::TensorMatmulReduceScatterOp::attributes(&op)?;
        let a = types::shape(operands.a.r#type())?;
        let b = types::shape(operands.b.r#type())?;
        let out = types::shape(operands.out.r#type())?;
        let ranks = types::shape(operands.signal.r#type())?[0];
        let input = types::element_type(operands.a.r#type())?;
        let output = types::element_type(operands.out.r#type())?;
        Some(Self {
            a: operands.a,
            b: operands.b,
            partial: operands.partial,
            out: operands.out,
            signal: operands.signal,
            deps: operands.deps,
            algorithm: attributes.algorithm,
            cores: attributes.core_num.unwrap_or(1),
            ranks,
            tiling: Tiling::new(
                out[0],
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

    /// Why the signal cannot host the fused form, if it cannot (never when
    /// `out` rules the fused form out anyway).
    pub fn signal_problem(&self) -> Option<String> {
        if self.why_not_fused().is_some() {
            return None;
        }
        let t = &self.tiling;
        self.cells().problem(
            cells(t, self.ranks, self.cores),
            2 * self.cores,
            &format!(
                "a cell per tile of each of the {} ranks' blocks, {} tiles of {} x {}, and one \
                 per vector core",
                self.ranks, t.tiles, t.tile_rows, t.tile_cols
            ),
        )
    }

    /// Why the fused form cannot run: the peers add into `out`, so it must
    /// be a window.
    pub fn why_not_fused(&self) -> Option<String> {
        (!pld_dialect::types::is_distributed_tensor(self.out.r#type())).then(|| {
            format!(
                "the fused form adds every rank's tiles into the owner's 'out', which is {} \
                 (not a window tensor)",
                self.out.r#type()
            )
        })
    }

    /// Emits the chosen form before `builder`'s insertion point; returns
    /// the id of the task that completes with the op.
    pub fn emit(&self, builder: &Builder<'c>, fused: bool) -> Val<'c> {
        let blocks = Ix::Const(self.cores);
        let gemm = builder.spmd_task(
            blocks,
            "matmul_reduce_scatter.matmul",
            &self.deps,
            |kernel| self.gemm(kernel, fused),
        );
        if !fused {
            let cores = collective_cores(self.signal);
            let reduced = builder.spmd_task(
                Ix::Const(cores),
                "matmul_reduce_scatter.reduce_scatter",
                &[gemm],
                |kernel| self.reduce_scatter(kernel, cores),
            );
            return builder.spmd_task(blocks, "matmul_reduce_scatter.copy", &[reduced], |kernel| {
                self.copy(kernel)
            });
        }
        let comm = builder.spmd_task(
            Ix::Const(2 * self.cores),
            "matmul_reduce_scatter.communicate",
            &self.deps,
            |kernel| self.communicate(kernel),
        );
        builder.core_group_task("matmul_reduce_scatter", &[gemm, comm], |_| {})
    }

    /// The cell of tile `t` of owner `o`'s block.
    fn tile_cell(&self, builder: &Builder<'c>, owner: Ix<'c>, tile: Ix<'c>) -> [Ix<'c>; 2] {
        let index = builder.add(builder.mul(owner, Ix::Const(self.tiling.tiles)), tile);
        self.cells().cell(builder, index)
    }

    fn ready_cell(&self, builder: &Builder<'c>, lane: Ix<'c>) -> [Ix<'c>; 2] {
        let first = self.ranks * self.tiling.tiles;
        self.cells()
            .cell(builder, builder.add(Ix::Const(first), lane))
    }

    /// Item `j` of this rank's order: the owner of its block, `(me + j /
    /// T) mod n`, and its tile, `j mod T`.
    fn item(&self, builder: &Builder<'c>, j: Ix<'c>, me: Ix<'c>, n: Ix<'c>) -> (Ix<'c>, Ix<'c>) {
        let tiles = Ix::Const(self.tiling.tiles);
        (
            builder.rem(builder.add(me, builder.div(j, tiles)), n),
            builder.rem(j, tiles),
        )
    }

    /// The vector lane that moves item `j`: cube core `j mod C`'s items go
    /// to lanes `j mod C` and `C + j mod C` in turn.
    fn lane_of(&self, builder: &Builder<'c>, j: Ix<'c>) -> Ix<'c> {
        let cores = Ix::Const(self.cores);
        let turn = builder.rem(builder.div(j, cores), Ix::Const(2));
        builder.add(builder.rem(j, cores), builder.mul(turn, cores))
    }

    /// The GEMM task: cube core b computes items b, b + C, ... of the n
    /// blocks: in the fused form its own block's into `out`, announcing
    /// each base to the peers, and the others' into `partial`, publishing
    /// each to the lane that moves it; in the unfused form all into
    /// `partial`.
    fn gemm(&self, builder: &Builder<'c>, fused: bool) {
        let t = &self.tiling;
        let cells = self.cells();
        let block = builder.pl_block_idx();
        let ctx = builder.comm_ctx(self.signal);
        let me = builder.rank_index(ctx);
        let n = builder.nranks_index(ctx);
        let cores = Ix::Const(self.cores);
        let tiles = Ix::Const(t.tiles);
        builder.for_each_step(block, tiles, cores, |builder, tile| {
            let (at, valid) = t.tile_region(builder, tile);
            let lhs_row = builder.add(builder.mul(me, Ix::Const(t.m)), at[0]);
            let (lhs, rhs) = (self.a, self.b);
            let (dest, at) = if fused {
                (self.out, at)
            } else {
                (self.partial, [lhs_row, at[1]])
            };
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
            if fused {
                builder.for_each(Ix::Const(1), n, |builder, k| {
                    let peer = builder.rem(builder.add(me, k), n);
                    cells.add_to(
                        builder,
                        peer,
                        self.tile_cell(builder, me, tile),
                        Ix::Const(1),
                    );
                });
            }
        });
        // The turn goes on where the own tiles left it.
        let skip = (self.cores - t.tiles % self.cores) % self.cores;
        let start = builder.add(
            tiles,
            builder.rem(builder.add(block, Ix::Const(skip)), cores),
        );
        let items = builder.mul(n, tiles);
        builder.for_each_step(start, items, cores, |builder, j| {
            let (owner, tile) = self.item(builder, j, me, n);
            let (at, valid) = t.tile_region(builder, tile);
            let lhs_row = builder.add(builder.mul(owner, Ix::Const(t.m)), at[0]);
            let (lhs, rhs, dest) = (self.a, self.b, self.partial);
            gemm_tile(
                builder,
                t,
                self.input,
                GemmTile {
                    lhs,
                    lhs_row,
                    rhs,
                    dest,
                    at: [lhs_row, at[1]],
                    valid,
                },
            );
            if fused {
                let lane = self.lane_of(builder, j);
                cells.add_to(builder, me, self.ready_cell(builder, lane), Ix::Const(1));
            }
        });
    }

    /// The unfused form's second task: `partial` seen as `[R, Mo N]`
    /// reduce-scattered on `cores` vector cores, on the signal as it is.
    fn reduce_scatter(&self, builder: &Builder<'c>, cores: i64) {
        let t = &self.tiling;
        let element = types::element_type(self.partial.r#type()).expect("a typed window");
        let rows = pld_dialect::types::distributed_tensor(
            builder.context,
            &[self.ranks, t.m * t.n],
            element,
        )
        .expect("a window type");
        let target = builder.reshape(self.partial, rows, &[]);
        let reduce_scatter = pld::TensorReduceScatterOp {
            target,
            signal: self.signal,
            op: ReduceOp::Sum.attribute(builder.context),
            algorithm: None,
            core_num: (cores > 1).then(|| builder.i64_attribute(cores)),
            result: rows,
        };
        builder.insert(reduce_scatter.build(builder.context, builder.location));
    }

    /// The unfused form's last task: block b copies subtiles b, b + C, ...
    /// of this rank's rows of `partial` into `out`.
    fn copy(&self, builder: &Builder<'c>) {
        let t = &self.tiling;
        let block = builder.pl_block_idx();
        let me = builder.rank_index(builder.comm_ctx(self.signal));
        let subtiles = Ix::Const(t.subtiles);
        let element = types::element_type(self.out.r#type()).expect("a typed out");
        let units = Ix::Const(t.tiles * t.subtiles);
        builder.for_each_step(block, units, Ix::Const(self.cores), |builder, unit| {
            let tile = builder.div(unit, subtiles);
            let (at, valid) = t.subtile_region(builder, tile, builder.rem(unit, subtiles));
            let some = builder.cmp(CmpiPredicate::Sgt, valid[0], Ix::Const(0));
            builder.if_then(some, |builder| {
                let row = builder.add(builder.mul(me, Ix::Const(t.m)), at[0]);
                let part = builder.load(
                    self.partial,
                    &[row, at[1]],
                    t.subtile_type(builder, element),
                    Some(&valid),
                );
                builder.store(part, self.out, &at, Some(&valid));
            });
        });
    }

    /// The fused form's communication task: lane L = b + h C moves the
    /// items of the other blocks among b + h C, b + (h + 2) C, ... (cube
    /// core b's, every other one), then waits for the peers' additions to
    /// this rank's tiles L, L + 2 C, ...
    fn communicate(&self, builder: &Builder<'c>) {
        let t = &self.tiling;
        let cells = self.cells();
        let ctx = builder.comm_ctx(self.signal);
        let me = builder.rank_index(ctx);
        let n = builder.nranks_index(ctx);
        let lane = builder.pl_block_idx();
        let tiles = Ix::Const(t.tiles);
        let items = builder.mul(n, tiles);
        let lanes = Ix::Const(2 * self.cores);
        let element = types::element_type(self.out.r#type()).expect("a typed window");
        // The lane's first item past the own block.
        let behind = builder.max(Ix::Const(0), builder.sub(tiles, lane));
        let first = builder.add(lane, builder.mul(builder.ceil_div(behind, lanes), lanes));
        builder.for_each_step(first, items, lanes, |builder, j| {
            let published = builder.add(builder.div(builder.sub(j, first), lanes), Ix::Const(1));
            cells.await_count(builder, self.ready_cell(builder, lane), published);
            let (owner, tile) = self.item(builder, j, me, n);
            let cell = self.tile_cell(builder, owner, tile);
            // The owner's product is there: add to it.
            cells.await_and_clear(builder, me, cell, Ix::Const(1));
            self.push(builder, tile, owner, element);
            cells.add_to(builder, owner, cell, Ix::Const(1));
        });
        let peers = builder.sub(n, Ix::Const(1));
        builder.for_each_step(lane, tiles, lanes, |builder, tile| {
            cells.await_and_clear(builder, me, self.tile_cell(builder, me, tile), peers);
        });
        // Clear the ready count: the items this lane moved.
        let left = builder.max(Ix::Const(0), builder.sub(items, first));
        let moved = builder.ceil_div(left, lanes);
        cells.add_to(
            builder,
            me,
            self.ready_cell(builder, lane),
            builder.sub(Ix::Const(0), moved),
        );
    }

    /// Adds tile `t` of this rank's `partial` block of `owner` into the
    /// owner's `out` by atomic-add stores, subtile by subtile.
    fn push(&self, builder: &Builder<'c>, tile: Ix<'c>, owner: Ix<'c>, element: Type<'c>) {
        let t = &self.tiling;
        builder.for_each(Ix::Const(0), Ix::Const(t.subtiles), |builder, h| {
            let (at, valid) = t.subtile_region(builder, tile, h);
            let some = builder.cmp(CmpiPredicate::Sgt, valid[0], Ix::Const(0));
            builder.if_then(some, |builder| {
                let row = builder.add(builder.mul(owner, Ix::Const(t.m)), at[0]);
                let part = builder.load(
                    self.partial,
                    &[row, at[1]],
                    t.subtile_type(builder, element),
                    Some(&valid),
                );
                builder.remote_store(part, self.out, owner, &at, Some(&valid), AtomicType::Add);
            });
        });
    }
}
