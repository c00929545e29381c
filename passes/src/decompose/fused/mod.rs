//! GEMMs fused with communication: `pld.tensor.matmul_allreduce`,
//! `pld.tensor.matmul_reduce_scatter` and `pld.tensor.allgather_matmul`
//! become tasks of the host orchestrator that calls them
//! (docs/pld-decompose-collectives.md, "GEMMs fused with communication").
//!
//! What the three share is here: how the product is cut into tiles of
//! [`TILE_ROWS`] x [`TILE_COLS`] ([`Tiling`]) and subtiles the vector cores
//! move, the cube's GEMM of one tile ([`gemm_tile`]), and the signal read as
//! one row of cells that every count is added to and cleared from
//! ([`Cells`]). Each op's forms are in its own file; `cost.rs` models them
//! for `auto`.

mod allgather;
mod allreduce;
pub mod cost;
mod reduce_scatter;

pub use allgather::AllgatherMatmul;
pub use allreduce::MatmulAllreduce;
pub use reduce_scatter::MatmulReduceScatter;

use melior::ir::{Type, ValueLike};
use pld_dialect::enums::{CollectiveAlgorithm, NotifyOp, WaitCmp};
use pld_ir::{Builder, Ix, OpRef, Val, ceil_div, types};

/// The rows of a tile of the product (a cube block's).
pub const TILE_ROWS: i64 = 128;
/// The columns of a tile of the product.
pub const TILE_COLS: i64 = 256;
/// The bytes of a subtile, the unit the vector cores move: two fit the
/// unified buffer with room for the chunk tiles of a neighbour.
const SUBTILE_BYTES: i64 = 32768;

/// How a product is cut: static, as the ops' shapes are. For the ops that
/// cut their rows by rank (reduce_scatter, allgather) this is one rank's
/// block of rows; every block is tiled alike.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tiling {
    pub m: i64,
    pub k: i64,
    pub n: i64,
    /// Bytes of an element of `a` and `b`, and of the product as stored.
    pub input_bytes: i64,
    pub output_bytes: i64,
    /// The tile's rows and columns, at most TILE_ROWS x TILE_COLS.
    pub tile_rows: i64,
    pub tile_cols: i64,
    /// Tiles along N, and in all.
    pub tiles_across: i64,
    pub tiles: i64,
    /// Rows of a subtile, and subtiles per tile.
    pub subtile_rows: i64,
    pub subtiles: i64,
}

impl Tiling {
    pub fn new(m: i64, k: i64, n: i64, input_bytes: i64, output_bytes: i64) -> Self {
        let tile_rows = m.min(TILE_ROWS);
        let tile_cols = n.min(TILE_COLS);
        let tiles_across = ceil_div(n, TILE_COLS);
        let tiles = ceil_div(m, TILE_ROWS) * tiles_across;
        // Whole rows of the widest tile, at most the tile's rows.
        let subtile_rows = (SUBTILE_BYTES / (TILE_COLS * output_bytes)).min(tile_rows);
        Self {
            m,
            k,
            n,
            input_bytes,
            output_bytes,
            tile_rows,
            tile_cols,
            tiles_across,
            tiles,
            subtile_rows,
            subtiles: ceil_div(tile_rows, subtile_rows),
        }
    }

    /// The rows of tiles (a tile row is 128 rows of the product).
    pub fn tile_row_count(&self) -> i64 {
        self.tiles / self.tiles_across
    }

    /// The offsets and valid extents of tile `t` of the product.
    fn tile_region<'c>(&self, builder: &Builder<'c>, tile: Ix<'c>) -> ([Ix<'c>; 2], [Ix<'c>; 2]) {
        let row = builder.mul(
            builder.div(tile, Ix::Const(self.tiles_across)),
            Ix::Const(TILE_ROWS),
        );
        let col = builder.mul(
            builder.rem(tile, Ix::Const(self.tiles_across)),
            Ix::Const(TILE_COLS),
        );
        let rows = builder.min(
            Ix::Const(self.tile_rows),
            builder.sub(Ix::Const(self.m), row),
        );
        let cols = builder.min(
            Ix::Const(self.tile_cols),
            builder.sub(Ix::Const(self.n), col),
        );
        ([row, col], [rows, cols])
    }

    /// The offsets and valid extents of subtile `h` of tile `t`; its rows
    /// may be 0 at the product's ragged bottom.
    fn subtile_region<'c>(
        &self,
        builder: &Builder<'c>,
        tile: Ix<'c>,
        subtile: Ix<'c>,
    ) -> ([Ix<'c>; 2], [Ix<'c>; 2]) {
        let ([row, col], [rows, cols]) = self.tile_region(builder, tile);
        let skip = builder.mul(subtile, Ix::Const(self.subtile_rows));
        let left = builder.max(Ix::Const(0), builder.sub(rows, skip));
        let sub_rows = builder.min(Ix::Const(self.subtile_rows), left);
        ([builder.add(row, skip), col], [sub_rows, cols])
    }

    /// The type of a subtile of a product stored as `element`.
    fn subtile_type<'c>(&self, builder: &Builder<'c>, element: Type<'c>) -> Type<'c> {
        tile_type(builder, self.subtile_rows, self.tile_cols, element)
    }
}

fn tile_type<'c>(builder: &Builder<'c>, rows: i64, cols: i64, element: Type<'c>) -> Type<'c> {
    pld_dialect::types::tile(builder.context, &[rows, cols], element).expect("a tile type")
}

/// Where one tile's GEMM reads and writes: `rows` rows of `lhs` from row
/// `lhs_row` (all K columns), `cols` columns of `rhs` from column `col`, the
/// product stored into `dest` at `at`.
struct GemmTile<'c> {
    lhs: Val<'c>,
    lhs_row: Ix<'c>,
    rhs: Val<'c>,
    dest: Val<'c>,
    at: [Ix<'c>; 2],
    valid: [Ix<'c>; 2],
}

/// One tile of the product on the cube: the loads of its rows of the left
/// operand and its columns of the right one, `pl.matmul` accumulating in
/// f32, and `pl.store` (the fixpipe casting to the destination's type).
fn gemm_tile<'c>(builder: &Builder<'c>, tiling: &Tiling, input: Type<'c>, tile: GemmTile<'c>) {
    let [rows, cols] = tile.valid;
    let lhs = builder.load(
        tile.lhs,
        &[tile.lhs_row, Ix::Const(0)],
        tile_type(builder, tiling.tile_rows, tiling.k, input),
        Some(&[rows, Ix::Const(tiling.k)]),
    );
    let rhs = builder.load(
        tile.rhs,
        &[Ix::Const(0), tile.at[1]],
        tile_type(builder, tiling.k, tiling.tile_cols, input),
        Some(&[Ix::Const(tiling.k), cols]),
    );
    let f32 = Type::float32(builder.context);
    let product = builder.matmul(
        lhs,
        rhs,
        tile_type(builder, tiling.tile_rows, tiling.tile_cols, f32),
    );
    builder.store(product, tile.dest, &tile.at, Some(&[rows, cols]));
}

/// The signal of a fused op, read as one row of cells: cell `i` is
/// `[i / W, i % W]` of a signal `[R, W]`.
#[derive(Clone, Copy)]
struct Cells<'c> {
    signal: Val<'c>,
}

impl<'c> Cells<'c> {
    /// The signal's rows (the rank count it is shaped for) and columns.
    fn shape(&self) -> (i64, i64) {
        let shape = types::shape(self.signal.r#type()).expect("a verified signal");
        (shape[0], shape[1])
    }

    /// The signal's cell `index`.
    fn cell(&self, builder: &Builder<'c>, index: Ix<'c>) -> [Ix<'c>; 2] {
        let width = Ix::Const(self.shape().1);
        [builder.div(index, width), builder.rem(index, width)]
    }

    /// Adds `value` to `cell` of rank `peer`.
    fn add_to(&self, builder: &Builder<'c>, peer: Ix<'c>, cell: [Ix<'c>; 2], value: Ix<'c>) {
        let value = builder.to_i32(value);
        builder.notify(self.signal, peer, &cell, value, NotifyOp::AtomicAdd);
    }

    /// Waits until this rank's `cell` counts `count`, without clearing it.
    fn await_count(&self, builder: &Builder<'c>, cell: [Ix<'c>; 2], count: Ix<'c>) {
        builder.wait(self.signal, &cell, builder.to_i32(count), WaitCmp::Ge);
    }

    /// Waits until this rank's `cell` counts `count`, then clears it.
    fn await_and_clear(&self, builder: &Builder<'c>, me: Ix<'c>, cell: [Ix<'c>; 2], count: Ix<'c>) {
        self.await_count(builder, cell, count);
        self.add_to(builder, me, cell, builder.sub(Ix::Const(0), count));
    }

    /// Why a signal of `needed` cells cannot host the fused form, if it
    /// cannot: the message names what the cells are for (`purpose`) and
    /// the shape that holds them, `[R, a multiple of width]`.
    fn problem(&self, needed: i64, width: i64, purpose: &str) -> Option<String> {
        let (rows, columns) = self.shape();
        if rows == types::DYNAMIC || rows * columns >= needed {
            return None;
        }
        Some(format!(
            "the fused form needs a signal of at least {needed} cells ({purpose}), found \
             [{rows}, {columns}]: use [{rows}, {}]",
            width * ceil_div(needed, rows * width)
        ))
    }
}

/// The signal of an unfused form's collective: the op's own, on as many
/// vector cores as its columns count pairs (`[R, 2 C']` is a collective's
/// signal on C' cores: counts on columns 2b and 2b + 1 of block b).
pub fn collective_cores(signal: Val) -> i64 {
    let shape = types::shape(signal.r#type()).expect("a verified signal");
    shape[1] / 2
}

/// A GEMM fused with communication, read through its ODS accessors.
pub enum Fused<'c> {
    Allreduce(MatmulAllreduce<'c>),
    ReduceScatter(MatmulReduceScatter<'c>),
    Allgather(AllgatherMatmul<'c>),
}

impl<'c> Fused<'c> {
    /// `op`'s operands and facts, if it is one of the verified fused ops.
    pub fn of(op: OpRef<'c>) -> Option<Self> {
        MatmulAllreduce::of(op)
            .map(Self::Allreduce)
            .or_else(|| MatmulReduceScatter::of(op).map(Self::ReduceScatter))
            .or_else(|| AllgatherMatmul::of(op).map(Self::Allgather))
    }

    /// The algorithm the op asks for.
    pub fn algorithm(&self) -> Option<CollectiveAlgorithm> {
        match self {
            Self::Allreduce(op) => op.algorithm,
            Self::ReduceScatter(op) => op.algorithm,
            Self::Allgather(op) => op.algorithm,
        }
    }

    /// Why the op's signal cannot host its fused form, if it cannot: an
    /// error whatever the algorithm, so that `auto` and the option can
    /// always choose either form (an op whose operands rule the fused form
    /// out asks for no fused cells).
    pub fn signal_problem(&self) -> Option<String> {
        match self {
            Self::Allreduce(op) => op.signal_problem(),
            Self::ReduceScatter(op) => op.signal_problem(),
            Self::Allgather(op) => op.signal_problem(),
        }
    }

    /// Why the op's operands rule the fused form out, if they do
    /// (matmul_reduce_scatter's `out` outside the window): `auto` runs the
    /// unfused form then, and asking for `fused` is an error.
    pub fn why_not_fused(&self) -> Option<String> {
        match self {
            Self::ReduceScatter(op) => op.why_not_fused(),
            Self::Allreduce(_) | Self::Allgather(_) => None,
        }
    }

    /// Emits the chosen form before `builder`'s insertion point; returns
    /// the id of the task that completes with the op.
    pub fn emit(&self, builder: &Builder<'c>, fused: bool) -> Val<'c> {
        match self {
            Self::Allreduce(op) => op.emit(builder, fused),
            Self::ReduceScatter(op) => op.emit(builder, fused),
            Self::Allgather(op) => op.emit(builder, fused),
        }
    }
}
