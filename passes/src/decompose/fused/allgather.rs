//! `pld.tensor.allgather_matmul` as tasks of the host orchestrator that
//! calls it: every rank's `a` (`[Ms, K]`) lands at rows `[r Ms, (r + 1)
//! Ms)` of every rank's `gathered`, and `c = gathered x b`.
//!
//! `fused` (pto-isa's allgather_gemm, kernels/manual/a2a3/allgather_gemm:
//! its communication and compute kernels as two tasks): `a` is cut into
//! chunks of [`super::TILE_ROWS`] rows, one tile row of the product each.
//!
//! - The communication task runs on 2 C blocks (vector cores). Item j of
//!   `(n - 1) Q` (Q chunks per rank) is chunk `q = j / (n - 1)` for the
//!   peer `me - (j mod (n - 1)) - 1`: every chunk goes to all peers before
//!   the next one (all links busy at once), and to each peer in the order it
//!   consumes the sources. Lane L puts items L, L + 2 C, ... (`pld.tensor.put`)
//!   into the peer's `gathered` and adds A (the tiles across the product)
//!   to the peer's cell of (this rank, q); then it copies this rank's own
//!   chunks into its own `gathered`. Before each put to peer p it takes one
//!   of the Q units p granted in its cell here when p's communication task
//!   started: p's earlier tasks, and its previous call, are done with
//!   `gathered`.
//! - The GEMM task runs on C blocks (cube cores): first this rank's own
//!   rows, read from `a` with no wait (item w of the T tiles of a block, by
//!   cube core w mod C), then the peers' rows, chunk by chunk over the
//!   sources `me + 1, me + 2, ...` (the order they are sent in), each tile
//!   once the cell of its (source, chunk) holds a unit, which it takes.
//! - A task with no work that depends on both is the op's id.
//!
//! Cells (the signal `[R, 2 C m]` read as one row): `s Q + q` for chunk q
//! of source s (A units, one per tile of its tile row, each taken by the
//! cube core that computes that tile); `R Q + p` the units peer p granted
//! this rank. Every unit is taken by one waiter, by adding -1, so the cells
//! are zero when the call is done; every write of a call into a rank's
//! `gathered` or cells follows that rank's grant of the same call, so calls
//! of the same shapes (the same cells) may follow one another on one signal
//! (`deps [%previous]`).
//!
//! `unfused`: `pld.tensor.allgather` of `a` seen as `[1, Ms K]` into
//! `gathered` seen as `[R, Ms K]`, on the signal as it is (on `W / 2` vector
//! cores for W columns), then the GEMM task without waits.

use super::{Cells, GemmTile, TILE_ROWS, Tiling, collective_cores, gemm_tile};
use melior::dialect::arith::CmpiPredicate;
use melior::ir::{Attribute, Type, ValueLike, attribute::ArrayAttribute};
use pld_dialect::enums::CollectiveAlgorithm;
use pld_dialect::ops::{memref, pld};
use pld_ir::{Builder, Ix, OpRef, Val, build::pld::Transfer, types};

/// The bytes of the staging tile of a chunk's put (ping/pong: two of them).
const STAGE_BYTES: i64 = 32768;

/// A `pld.tensor.allgather_matmul`, read through its ODS accessors.
pub struct AllgatherMatmul<'c> {
    pub a: Val<'c>,
    pub gathered: Val<'c>,
    pub b: Val<'c>,
    pub c: Val<'c>,
    pub signal: Val<'c>,
    pub deps: Vec<Val<'c>>,
    pub algorithm: Option<CollectiveAlgorithm>,
    pub cores: i64,
    /// The rank count R the shapes are cut for (the signal's rows).
    pub ranks: i64,
    /// One rank's block: `a`'s rows, K, and the columns of `b`.
    pub tiling: Tiling,
    /// The inputs' element type (f16 or bf16).
    pub input: Type<'c>,
}

/// The cells the fused form counts on: a cell per chunk of every rank, and
/// one per peer for its grant.
pub fn cells(tiling: &Tiling, ranks: i64) -> i64 {
    ranks * tiling.tile_row_count() + ranks
}

impl<'c> AllgatherMatmul<'c> {
    /// `op`'s operands and facts, if it is a verified allgather_matmul.
    pub fn of(op: OpRef<'c>) -> Option<Self> {
        let operands = pld::TensorAllgatherMatmulOp::operands(&op)?;
        let attributes = pld::TensorAllgatherMatmulOp::attributes(&op)?;
        let a = types::shape(operands.a.r#type())?;
        let b = types::shape(operands.b.r#type())?;
        let ranks = types::shape(operands.signal.r#type())?[0];
        let input = types::element_type(operands.a.r#type())?;
        let output = types::element_type(operands.c.r#type())?;
        Some(Self {
            a: operands.a,
            gathered: operands.gathered,
            b: operands.b,
            c: operands.c,
            signal: operands.signal,
            deps: operands.deps,
            algorithm: attributes.algorithm,
            cores: attributes.core_num.unwrap_or(1),
            ranks,
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

    /// Why the signal cannot host the fused form, if it cannot.
    pub fn signal_problem(&self) -> Option<String> {
        let t = &self.tiling;
        self.cells().problem(
            cells(t, self.ranks),
            2 * self.cores,
            &format!(
                "a cell per chunk of {} rows of each of the {} ranks, {} chunks each, and one \
                 per rank",
                t.tile_rows,
                self.ranks,
                t.tile_row_count()
            ),
        )
    }

    /// Emits the chosen form before `builder`'s insertion point; returns
    /// the id of the task that completes with the op.
    pub fn emit(&self, builder: &Builder<'c>, fused: bool) -> Val<'c> {
        let blocks = Ix::Const(self.cores);
        if !fused {
            let cores = collective_cores(self.signal);
            let gathered = builder.spmd_task(
                Ix::Const(cores),
                "allgather_matmul.allgather",
                &self.deps,
                |kernel| self.allgather(kernel, cores),
            );
            return builder.spmd_task(blocks, "allgather_matmul.matmul", &[gathered], |kernel| {
                self.gemm(kernel, false)
            });
        }
        // The communication first, as the data flows (and so that a variant
        // that runs it before the GEMM, bench/fusion.py's "sequential", can
        // make the GEMM depend on it).
        let comm = builder.spmd_task(
            Ix::Const(2 * self.cores),
            "allgather_matmul.communicate",
            &self.deps,
            |kernel| self.communicate(kernel),
        );
        let gemm = builder.spmd_task(blocks, "allgather_matmul.matmul", &self.deps, |kernel| {
            self.gemm(kernel, true)
        });
        builder.core_group_task("allgather_matmul", &[comm, gemm], |_| {})
    }

    /// The chunks of a rank's rows (Q).
    fn chunks(&self) -> i64 {
        self.tiling.tile_row_count()
    }

    fn chunk_cell(&self, builder: &Builder<'c>, source: Ix<'c>, chunk: Ix<'c>) -> [Ix<'c>; 2] {
        let index = builder.add(builder.mul(source, Ix::Const(self.chunks())), chunk);
        self.cells().cell(builder, index)
    }

    fn grant_cell(&self, builder: &Builder<'c>, peer: Ix<'c>) -> [Ix<'c>; 2] {
        let first = self.ranks * self.chunks();
        self.cells()
            .cell(builder, builder.add(Ix::Const(first), peer))
    }

    /// Tile `t` of source `s`'s rows: its GEMM into `c`, the rows read from
    /// `lhs`, this rank's `a` when `own`, else `gathered` at `s Ms`.
    fn tile(&self, builder: &Builder<'c>, source: Ix<'c>, tile: Ix<'c>, lhs: Val<'c>, own: bool) {
        let t = &self.tiling;
        let (at, valid) = t.tile_region(builder, tile);
        let first = builder.mul(source, Ix::Const(t.m));
        let lhs_row = if own {
            at[0]
        } else {
            builder.add(first, at[0])
        };
        let dest_at = [builder.add(first, at[0]), at[1]];
        let (rhs, dest) = (self.b, self.c);
        gemm_tile(
            builder,
            t,
            self.input,
            GemmTile {
                lhs,
                lhs_row,
                rhs,
                dest,
                at: dest_at,
                valid,
            },
        );
    }

    /// The GEMM task: cube core b computes tiles b, b + C, ... of this
    /// rank's rows from `a`, then, continuing the turn, the peers' tiles in
    /// the order they are sent, each (in the fused form) once its chunk is
    /// there.
    fn gemm(&self, builder: &Builder<'c>, wait: bool) {
        let t = &self.tiling;
        let cells = self.cells();
        let block = builder.pl_block_idx();
        let ctx = builder.comm_ctx(self.signal);
        let me = builder.rank_index(ctx);
        let n = builder.nranks_index(ctx);
        let cores = Ix::Const(self.cores);
        builder.for_each_step(block, Ix::Const(t.tiles), cores, |builder, tile| {
            self.tile(builder, me, tile, self.a, true);
        });
        // The turn goes on where the own tiles left it.
        let skip = (self.cores - t.tiles % self.cores) % self.cores;
        let start = builder.rem(builder.add(block, Ix::Const(skip)), cores);
        let peers = builder.sub(n, Ix::Const(1));
        let remote = builder.mul(peers, Ix::Const(t.tiles));
        let across = Ix::Const(t.tiles_across);
        builder.for_each_step(start, remote, cores, |builder, w| {
            // Tile w: tile row r = w / A of the sends, which is chunk r / (n
            // - 1) of source me + r mod (n - 1) + 1.
            let row = builder.div(w, across);
            let chunk = builder.div(row, peers);
            let k = builder.add(builder.rem(row, peers), Ix::Const(1));
            let source = builder.rem(builder.add(me, k), n);
            if wait {
                cells.await_and_clear(
                    builder,
                    me,
                    self.chunk_cell(builder, source, chunk),
                    Ix::Const(1),
                );
            }
            let tile = builder.add(builder.mul(chunk, across), builder.rem(w, across));
            self.tile(builder, source, tile, self.gathered, false);
        });
    }

    /// The unfused form's first task: `a` allgathered into `gathered` on
    /// `cores` vector cores, each seen as rows of one rank's elements.
    fn allgather(&self, builder: &Builder<'c>, cores: i64) {
        let t = &self.tiling;
        let len = t.m * t.k;
        let row = |rows: i64| {
            pld_dialect::types::distributed_tensor(builder.context, &[rows, len], self.input)
                .expect("a window type")
        };
        let local = if types::is_memref(self.a.r#type()) {
            self.memref_row(builder, len)
        } else {
            builder.reshape(self.a, row(1), &[])
        };
        let target = builder.reshape(self.gathered, row(self.ranks), &[]);
        let allgather = pld::TensorAllgatherOp {
            local,
            target,
            signal: self.signal,
            algorithm: None,
            core_num: (cores > 1).then(|| builder.i64_attribute(cores)),
            result: target.r#type(),
        };
        builder.insert(allgather.build(builder.context, builder.location));
    }

    /// A memref `a` as one row `[1, Ms K]`: collapsed to one dimension,
    /// then expanded (the two reshapes the lowering keeps as views).
    fn memref_row(&self, builder: &Builder<'c>, len: i64) -> Val<'c> {
        let group = ArrayAttribute::new(
            builder.context,
            &[builder.i64_attribute(0), builder.i64_attribute(1)],
        );
        let reassociation: Attribute = ArrayAttribute::new(builder.context, &[group.into()]).into();
        let flat = melior::ir::r#type::MemRefType::new(self.input, &[len], None, None);
        let collapse = memref::CollapseShapeOp {
            src: self.a,
            reassociation,
            result: flat.into(),
        };
        let flat = builder.build_one(collapse.build(builder.context, builder.location));
        let row = melior::ir::r#type::MemRefType::new(self.input, &[1, len], None, None);
        builder.expand_to_row(flat, row.into(), len, &[])
    }

    /// The fused form's communication task: lane L grants its share of the
    /// peers their units, then puts items L, L + 2 C, ... and, after them,
    /// this rank's own chunks into its own `gathered`.
    fn communicate(&self, builder: &Builder<'c>) {
        let t = &self.tiling;
        let cells = self.cells();
        let ctx = builder.comm_ctx(self.signal);
        let me = builder.rank_index(ctx);
        let n = builder.nranks_index(ctx);
        let lane = builder.pl_block_idx();
        let lanes = Ix::Const(2 * self.cores);
        let chunks = Ix::Const(self.chunks());
        // This rank has started: every peer may put its Q chunks here.
        builder.for_each_step(builder.add(lane, Ix::Const(1)), n, lanes, |builder, k| {
            let source = builder.rem(builder.add(me, k), n);
            cells.add_to(builder, source, self.grant_cell(builder, me), chunks);
        });
        let peers = builder.sub(n, Ix::Const(1));
        let remote = builder.mul(peers, chunks);
        let items = builder.add(remote, chunks);
        builder.for_each_step(lane, items, lanes, |builder, j| {
            let sends = builder.cmp(CmpiPredicate::Ult, j, remote);
            builder.if_else(
                sends,
                &[],
                |builder| {
                    let chunk = builder.div(j, peers);
                    let k = builder.add(builder.rem(j, peers), Ix::Const(1));
                    let peer = builder.rem(builder.sub(builder.add(me, n), k), n);
                    cells.await_and_clear(
                        builder,
                        me,
                        self.grant_cell(builder, peer),
                        Ix::Const(1),
                    );
                    self.put(builder, peer, me, chunk);
                    let cell = self.chunk_cell(builder, me, chunk);
                    cells.add_to(builder, peer, cell, Ix::Const(t.tiles_across));
                    vec![]
                },
                |builder| {
                    self.put(builder, me, me, builder.sub(j, remote));
                    vec![]
                },
            );
        });
    }

    /// Puts chunk `q` of `a` into rank `peer`'s `gathered`, at rows
    /// `me Ms + 128 q`, staged through two tiles of up to 32 KiB.
    fn put(&self, builder: &Builder<'c>, peer: Ix<'c>, me: Ix<'c>, chunk: Ix<'c>) {
        let t = &self.tiling;
        let row = builder.mul(chunk, Ix::Const(TILE_ROWS));
        let rows = builder.min(Ix::Const(t.tile_rows), builder.sub(Ix::Const(t.m), row));
        let chunk_cols = t.k.min(STAGE_BYTES / t.input_bytes);
        let chunk_rows = (STAGE_BYTES / (chunk_cols * t.input_bytes)).clamp(1, t.tile_rows);
        builder.transfer(&Transfer {
            is_put: true,
            dst: self.gathered,
            peer,
            src: self.a,
            dst_offsets: vec![
                builder.add(builder.mul(me, Ix::Const(t.m)), row),
                Ix::Const(0),
            ],
            src_offsets: vec![row, Ix::Const(0)],
            shape: vec![rows, Ix::Const(t.k)],
            chunk_rows,
            chunk_cols,
            pipeline: true,
        });
    }
}
