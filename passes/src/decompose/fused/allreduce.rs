//! `pld.tensor.matmul_allreduce` as tasks of the host orchestrator that
//! calls it.
//!
//! `fused` (pto-isa's gemm_ar, kernels/manual/a2a3/gemm_ar/README.md, as
//! two tasks instead of two streams): the product is cut into tiles of
//! [`super::TILE_ROWS`] x [`super::TILE_COLS`]; tile t is owned by rank t mod n.
//!
//! - The GEMM task runs on C blocks (cube cores): block b computes tiles
//!   b, b + C, ... into this rank's `c` and publishes each by adding 1 to
//!   its ready cell.
//! - The communication task runs on 2 C blocks (vector cores). Block b < C
//!   reduce-scatters the tiles of GEMM block b in their order: on the owner
//!   the stored tile is the base of the sum, and the owner tells every peer
//!   so; a peer waits for that, then adds its tile, subtile by subtile, into
//!   the owner's `c` by atomic-add stores and counts each subtile in the
//!   owner's cell of that subtile. Block C + b allgathers this rank's
//!   subtiles b, b + C, ...: once all n contributions are counted, it stores
//!   the subtile into every peer's `c` and counts it in the peer's final
//!   cell. Block C waits until this rank's final cell counts every subtile
//!   it does not own.
//! - A task with no work that depends on both is the op's id.
//!
//! Cells (the signal `[R, 2 C]` read as one row of cells): `S t + h` for
//! subtile h of tile t (on its owner: the contributions counted; on any
//! other rank: `S t` is the owner's "base stored"), `S T + b` GEMM block
//! b's ready count, `S T + C` the final count. Every count is cleared by
//! the block that waited for it, once it has (semantics §3: a signal is
//! self-clearing), by adding its negation; a rank's next call cannot touch
//! a cell before every wait of this call on it has returned, because the
//! call it is in needs this rank's own contributions first.
//!
//! `unfused`: the GEMM task, then `pld.tensor.allreduce ... core_num C` of
//! `c` in a task of C blocks that depends on it (decomposed next by this
//! pass).

use super::{Cells, GemmTile, Tiling, gemm_tile};
use melior::ir::{Type, ValueLike};
use pld_dialect::enums::{AtomicType, CollectiveAlgorithm, ReduceOp, WaitCmp};
use pld_dialect::ops::pld;
use pld_ir::{Builder, Ix, OpRef, Val, types};

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
            Ix::Const(2 * self.cores),
            "matmul_allreduce.communicate",
            &self.deps,
            |kernel| self.communicate(kernel),
        );
        builder.core_group_task("matmul_allreduce", &[gemm, comm], |_| {})
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

    /// The GEMM task: block b computes tiles b, b + C, ... into `c`; in the
    /// fused form it publishes each in its ready cell.
    fn gemm(&self, builder: &Builder<'c>, publish: bool) {
        let t = &self.tiling;
        let block = builder.pl_block_idx();
        let me = publish.then(|| builder.rank_index(builder.comm_ctx(self.signal)));
        builder.for_each_step(
            block,
            Ix::Const(t.tiles),
            Ix::Const(self.cores),
            |builder, tile| {
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
            },
        );
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

    /// The fused form's communication task: blocks below C reduce-scatter,
    /// the others allgather.
    fn communicate(&self, builder: &Builder<'c>) {
        let ctx = builder.comm_ctx(self.signal);
        let me = builder.rank_index(ctx);
        let n = builder.nranks_index(ctx);
        let block = builder.pl_block_idx();
        let scatters = builder.cmp(
            melior::dialect::arith::CmpiPredicate::Ult,
            block,
            Ix::Const(self.cores),
        );
        builder.if_else(
            scatters,
            &[],
            |builder| {
                self.reduce_scatter(builder, block, me, n);
                vec![]
            },
            |builder| {
                self.allgather(builder, builder.sub(block, Ix::Const(self.cores)), me, n);
                vec![]
            },
        );
    }

    fn subtile_type(&self, builder: &Builder<'c>) -> Type<'c> {
        let element = types::element_type(self.c.r#type()).expect("a typed window");
        self.tiling.subtile_type(builder, element)
    }

    /// Reduce-scatter block b: GEMM block b's tiles, in its order.
    fn reduce_scatter(&self, builder: &Builder<'c>, block: Ix<'c>, me: Ix<'c>, n: Ix<'c>) {
        let t = &self.tiling;
        let subtiles = Ix::Const(t.subtiles);
        let cores = Ix::Const(self.cores);
        builder.for_each_step(block, Ix::Const(t.tiles), cores, |builder, tile| {
            let published = builder.add(builder.div(builder.sub(tile, block), cores), Ix::Const(1));
            builder.wait(
                self.signal,
                &self.ready_cell(builder, block),
                builder.to_i32(published),
                WaitCmp::Ge,
            );
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
                        let other =
                            builder.cmp(melior::dialect::arith::CmpiPredicate::Ne, peer, me);
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
        });
        // Clear the ready count: the tiles of GEMM block b.
        let remaining = builder.max(Ix::Const(0), builder.sub(Ix::Const(t.tiles), block));
        let published = builder.ceil_div(remaining, cores);
        self.add_to(
            builder,
            me,
            self.ready_cell(builder, block),
            builder.sub(Ix::Const(0), published),
        );
    }

    /// Allgather block b: this rank's subtiles b, b + C, ... (of its tiles
    /// me, me + n, ...), each stored into every peer once complete; block 0
    /// then waits for every subtile the peers own.
    fn allgather(&self, builder: &Builder<'c>, block: Ix<'c>, me: Ix<'c>, n: Ix<'c>) {
        let t = &self.tiling;
        let subtiles = Ix::Const(t.subtiles);
        let owned = builder.ceil_div(
            builder.max(Ix::Const(0), builder.sub(Ix::Const(t.tiles), me)),
            n,
        );
        let mine = builder.mul(owned, subtiles);
        let peers = builder.sub(n, Ix::Const(1));
        builder.for_each_step(block, mine, Ix::Const(self.cores), |builder, q| {
            let tile = builder.add(me, builder.mul(builder.div(q, subtiles), n));
            let h = builder.rem(q, subtiles);
            let cell = self.cell(builder, builder.add(builder.mul(tile, subtiles), h));
            self.await_and_clear(builder, me, cell, n);
            let (at, valid) = self.tiling.subtile_region(builder, tile, h);
            let some = builder.cmp(
                melior::dialect::arith::CmpiPredicate::Sgt,
                valid[0],
                Ix::Const(0),
            );
            builder.if_then(some, |builder| {
                let part = builder.load(self.c, &at, self.subtile_type(builder), Some(&valid));
                // The first peer turns with the subtile, so that the blocks
                // do not all start on one link.
                builder.for_each(Ix::Const(0), peers, |builder, k| {
                    let step = builder.rem(builder.add(q, k), peers);
                    let peer = builder.rem(builder.add(me, builder.add(step, Ix::Const(1))), n);
                    builder.remote_store(part, self.c, peer, &at, Some(&valid), AtomicType::None);
                });
            });
            builder.for_each(Ix::Const(1), n, |builder, k| {
                let peer = builder.rem(builder.add(me, k), n);
                self.add_to(builder, peer, self.final_cell(builder), Ix::Const(1));
            });
        });
        let first = builder.cmp(
            melior::dialect::arith::CmpiPredicate::Eq,
            block,
            Ix::Const(0),
        );
        builder.if_then(first, |builder| {
            let others = builder.mul(builder.sub(Ix::Const(t.tiles), owned), subtiles);
            self.await_and_clear(builder, me, self.final_cell(builder), others);
        });
    }
}
