//! The cube: a GEMM as the AIC runs it.
//!
//! A `pl.matmul` whose operands are tiles loaded from global memory for it
//! alone (`pl.load`, `pld.tile.remote_load`) and whose product one
//! `pl.store` writes back (`handoff.rs` makes that store for a product that
//! vector work uses) is a GEMM of three regions of global memory. At
//! the store it becomes, per `Mt x Nt` block of the product:
//!
//! ```text
//! acc <- TMATMUL of the first Kl-deep step, TMATMUL_ACC of every later one:
//!   per pair of K1-deep panels: TLOAD the A and B blocks of both into L1
//!   (`mat` tiles, ping and pong), then per step TEXTRACT its part of them
//!   into L0A and L0B (`left`, `right` tiles, two steps in flight),
//! TSTORE acc (L0C) into the product's block through the fixpipe
//! ```
//!
//! The blocks are the largest multiples of the fractals up to 128 x 256
//! whose accumulator fits L0C, whose steps fit half of L0A and L0B and
//! whose panels fit half of L1 (double buffering, [`tiling`]); ragged edges
//! are blocks with a smaller valid shape, whose padding TMATMUL never reads
//! (it takes `m`, `k` and `n` from the valid shapes). The store may convert
//! an f32 product to f16 or bf16 (the fixpipe's cast).
//! The loads, the product and the store move to the store: nothing between
//! the first load and the store may touch memory or synchronise. In a
//! kernel that also does vector work, the GEMM is bracketed by the block's
//! cross-core flags (the vector core hands over, the cube takes back), and
//! `mixed.rs` splits the kernel into its two halves.

use super::ConvertError;
use super::ops::{TileAccess, region_extent};
use super::signature::FunctionConverter;
use melior::dialect::arith::CmpiPredicate;
use melior::ir::{Location, Type, ValueLike, operation::OperationLike};
use pld_dialect::enums::ascend::{Core, TileKind};
use pld_dialect::ops::{pl, pld};
use pld_dialect::target::cube;
use pld_dialect::types::ascend as ascend_types;
use pld_ir::build::ascend::{AscendBuilder, Site};
use pld_ir::{
    Builder, Ix, OpKey, OpRef, PtrMap, PtrSet, Val,
    analysis::place::mixed_work,
    build::{erase_op, mixed_list},
    read::{self, name},
    types, uses,
};

/// A GEMM: the two loads, the product and the store.
#[derive(Clone, Copy)]
pub struct Gemm<'c> {
    lhs: OpRef<'c>,
    rhs: OpRef<'c>,
    matmul: OpRef<'c>,
    store: OpRef<'c>,
}

/// The cube work of a function: its GEMMs by their store, and the ops the
/// GEMMs absorb (the loads and products, converted at the store).
#[derive(Default)]
pub struct CubeWork<'c> {
    pub absorbed: PtrSet<OpKey>,
    pub gemms: PtrMap<OpKey, Gemm<'c>>,
    /// The function does vector work too: it is split into a cube and a
    /// vector half (`mixed.rs`), which meet around each GEMM.
    pub mixed: bool,
}

/// Why a function's cube work cannot be lowered: an error at `op`.
pub struct Rejection<'c> {
    pub op: OpRef<'c>,
    pub message: String,
    pub notes: Vec<(Location<'c>, String)>,
}

impl<'c> Rejection<'c> {
    fn at(op: OpRef<'c>, message: String) -> Self {
        Self {
            op,
            message,
            notes: Vec::new(),
        }
    }

    fn note(mut self, op: OpRef<'c>, text: &str) -> Self {
        self.notes.push((op.location(), text.to_owned()));
        self
    }
}

/// Ops that may stand between a GEMM's loads and its store: they neither
/// touch memory nor synchronise.
fn is_inert(op: OpRef) -> bool {
    let op_name = name(op);
    op_name.starts_with("arith.")
        || matches!(
            op_name,
            pld::SystemRankOp::NAME
                | pld::SystemNranksOp::NAME
                | pld::SystemGetCommCtxOp::NAME
                | pld::TensorDimOp::NAME
                | pld::TensorReshapeOp::NAME
                | pl::GetBlockIdxOp::NAME
                | pl::GetAivIdOp::NAME
                | "memref.dim"
        )
}

/// Finds the GEMMs of a function's ops (`ops`, in program order).
pub fn find<'c>(ops: &[OpRef<'c>]) -> Result<CubeWork<'c>, Rejection<'c>> {
    let mut work = CubeWork::default();
    let matmuls: Vec<OpRef<'c>> = ops
        .iter()
        .copied()
        .filter(|op| name(*op) == pl::MatmulOp::NAME)
        .collect();
    if matmuls.is_empty() {
        return Ok(work);
    }
    work.mixed = mixed_work(ops).is_some();
    for matmul in matmuls {
        let gemm = gemm_of(matmul)?;
        for op in [gemm.lhs, gemm.rhs, gemm.matmul] {
            work.absorbed.insert(OpKey::of(op));
        }
        work.gemms.insert(OpKey::of(gemm.store), gemm);
    }
    Ok(work)
}

/// The GEMM around `matmul`, or why it is not one.
fn gemm_of<'c>(matmul: OpRef<'c>) -> Result<Gemm<'c>, Rejection<'c>> {
    let operands = pl::MatmulOp::operands(&matmul).expect("a pl.matmul");
    let load = |operand: Val<'c>, which: &str| -> Result<OpRef<'c>, Rejection<'c>> {
        let producer = read::defining_op(operand);
        let loaded = producer.filter(|producer| {
            matches!(
                name(*producer),
                pl::LoadOp::NAME | pld::TileRemoteLoadOp::NAME
            ) && producer.block() == matmul.block()
                && uses(Builder::result(*producer))
                    .iter()
                    .all(|(user, _)| *user == matmul)
        });
        loaded.ok_or_else(|| {
            let found = producer.map_or("a block argument".to_owned(), |producer| {
                format!("'{}'", name(producer))
            });
            let rejection = Rejection::at(
                matmul,
                format!(
                    "the {which} operand of {} comes from {found}: the cube multiplies tiles \
                     it loads from global memory itself, so each operand must be a pl.load \
                     (or pld.tile.remote_load) in the same block that only this pl.matmul uses",
                    pl::MatmulOp::NAME
                ),
            );
            match producer {
                Some(producer) => rejection.note(producer, "the operand is made here"),
                None => rejection,
            }
        })
    };
    let lhs = load(operands.lhs, "left")?;
    let rhs = load(operands.rhs, "right")?;
    // `handoff.rs` gave every other product a store of its own.
    let store = match uses(Builder::result(matmul)).as_slice() {
        [(store, _)] => *store,
        _ => unreachable!("a product without a hand-off has one store"),
    };
    // The loads, the product and the store all happen at the store.
    let first = if is_before(lhs, rhs) { lhs } else { rhs };
    let mut current = first.next_in_block();
    while let Some(op) = current {
        // SAFETY: see the documentation of `pld_ir`.
        let op: OpRef = unsafe { OpRef::from_raw(op.to_raw()) };
        if op == store {
            break;
        }
        if ![lhs, rhs, matmul].contains(&op) && !is_inert(op) {
            return Err(Rejection::at(
                op,
                format!(
                    "'{}' stands between the loads of a {}'s operands and the store of its \
                     product: the cube reads the operands and writes the product together, at \
                     the store, so move it before the loads or after the store",
                    name(op),
                    pl::MatmulOp::NAME
                ),
            )
            .note(matmul, "the pl.matmul")
            .note(store, "its store"));
        }
        current = op.next_in_block();
    }
    Ok(Gemm {
        lhs,
        rhs,
        matmul,
        store,
    })
}

/// Whether `a` comes before `b` in their block.
fn is_before(a: OpRef, b: OpRef) -> bool {
    let mut current = a.next_in_block();
    while let Some(op) = current {
        if op == b {
            return true;
        }
        current = op.next_in_block();
    }
    false
}

/// `offsets` moved `rows` down and `cols` right in the last two
/// dimensions.
fn shifted<'c>(
    builder: &Builder<'c>,
    offsets: &[Ix<'c>],
    rows: Ix<'c>,
    cols: Ix<'c>,
) -> Vec<Ix<'c>> {
    let mut moved = offsets.to_vec();
    let rank = moved.len();
    if let Some(last) = moved.last_mut() {
        *last = builder.add(*last, cols);
    }
    if rank >= 2 {
        moved[rank - 2] = builder.add(moved[rank - 2], rows);
    }
    moved
}

/// The largest multiple of `unit` that is at most `cap` (at least `unit`).
fn fitting(cap: i64, unit: i64) -> i64 {
    (cap / unit).max(1) * unit
}

/// `value` rounded up to a multiple of `unit`.
fn round_up(value: i64, unit: i64) -> i64 {
    pld_ir::ceil_div(value, unit) * unit
}

/// Least common multiple.
fn lcm(a: i64, b: i64) -> i64 {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    a / gcd(a, b) * b
}

/// How a GEMM is tiled: `mt x nt` blocks of the product, each accumulated
/// over K in panels of `k1` that TLOAD brings into L1, which TEXTRACT takes
/// into L0A and L0B in steps of `kl` (`k1` is a whole number of steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tiling {
    mt: i64,
    nt: i64,
    kl: i64,
    k1: i64,
}

/// The most rows and columns of a block of the product (pto-isa's a2a3
/// GEMMs use 128 x 256, `kernels/manual/a2a3/gemm_ar`), and the most L0
/// steps an L1 panel holds (its `stepK`).
const MAX_BLOCK_ROWS: i64 = 128;
const MAX_BLOCK_COLS: i64 = 256;
const MAX_PANEL_STEPS: i64 = 4;

/// The tiling of a GEMM of `m x k` by `k x n` of `element` (the static tile
/// shapes) into `acc` elements, from the chip's buffers: the accumulator
/// has L0C to itself; two L0 steps are in flight (ping and pong), each in
/// half of L0A and L0B; two panels of A and of B are in flight in L1.
fn tiling(
    profile: pld_dialect::enums::TargetProfile,
    (m, k, n): (i64, i64, i64),
    element: Type,
    acc: Type,
) -> Tiling {
    let bytes = types::byte_width(element).unwrap_or(1);
    let acc_bytes = types::byte_width(acc).unwrap_or(4);
    // A block of A is a mat and a left tile, one of B a mat and a right
    // tile: each dimension must suit every fractal it is laid out in.
    let (left_rows, left_cols) = cube::tile_box(TileKind::Left, element);
    let (right_rows, right_cols) = cube::tile_box(TileKind::Right, element);
    let (mat_rows, mat_cols) = cube::tile_box(TileKind::Mat, element);
    let (acc_rows, acc_cols) = cube::tile_box(TileKind::Acc, acc);
    let m_unit = lcm(lcm(left_rows, mat_rows), acc_rows);
    let k_unit = lcm(lcm(left_cols, mat_cols), lcm(right_rows, mat_rows));
    let n_unit = lcm(lcm(right_cols, mat_cols), acc_cols);
    let capacity = |kind| cube::buffer_bytes(profile, kind);
    let mt = round_up(m, m_unit).min(fitting(MAX_BLOCK_ROWS, m_unit));
    let nt = round_up(n, n_unit)
        .min(fitting(MAX_BLOCK_COLS, n_unit))
        .min(fitting(capacity(TileKind::Acc) / (mt * acc_bytes), n_unit));
    let kl = round_up(k, k_unit)
        .min(fitting(capacity(TileKind::Left) / 2 / (mt * bytes), k_unit))
        .min(fitting(
            capacity(TileKind::Right) / 2 / (nt * bytes),
            k_unit,
        ));
    let steps = (capacity(TileKind::Mat) / 2 / ((mt + nt) * kl * bytes))
        .clamp(1, MAX_PANEL_STEPS)
        .min(pld_ir::ceil_div(k, kl).max(1));
    Tiling {
        mt,
        nt,
        kl,
        k1: kl * steps,
    }
}

/// Whether the first product of a run of K steps sets the accumulator
/// (TMATMUL) or adds to it (TMATMUL_ACC): known, or when a flag is set.
#[derive(Clone, Copy)]
enum First<'c> {
    Sets,
    Adds,
    SetsWhen(Val<'c>),
}

/// An L1 panel of K: how deep it is (at least 1 where it exists), whether
/// it exists (`None`: always), and the most it can be deep.
#[derive(Clone, Copy)]
struct Panel<'c> {
    depth: Ix<'c>,
    exists: Option<Val<'c>>,
    bound: i64,
}

impl<'c> Panel<'c> {
    fn always(depth: Ix<'c>, bound: i64) -> Self {
        Self {
            depth,
            exists: None,
            bound,
        }
    }
}

/// Runs `body` where `condition` holds (always when there is none).
fn guarded<'c>(builder: &Builder<'c>, condition: Option<Val<'c>>, body: impl FnOnce(&Builder<'c>)) {
    match condition {
        Some(condition) => builder.if_then(condition, body),
        None => body(builder),
    }
}

/// A valid extent that is at least 1: a tile made for a step that may not
/// run (`maybe`) still has a valid shape its kind accepts.
fn at_least_one<'c>(builder: &Builder<'c>, extent: Ix<'c>, maybe: bool) -> Ix<'c> {
    if maybe {
        builder.max(extent, Ix::Const(1))
    } else {
        extent
    }
}

/// Runs `body` for each `block`-wide window of `start..extent` with the
/// window's start and width: inline when `bound` (the largest the extent
/// can be: its tile's) leaves one window, else an `scf.for`.
fn for_blocks<'c>(
    builder: &Builder<'c>,
    (start, extent, bound): (i64, Ix<'c>, i64),
    block: i64,
    body: impl FnOnce(&Builder<'c>, Ix<'c>, Ix<'c>),
) {
    if bound - start <= block {
        let width = builder.sub(extent, Ix::Const(start));
        body(builder, Ix::Const(start), width);
        return;
    }
    builder.for_each_step(
        Ix::Const(start),
        extent,
        Ix::Const(block),
        |inner, offset| {
            let width = inner.min(Ix::Const(block), inner.sub(extent, offset));
            body(inner, offset, width);
        },
    );
}

impl<'c> FunctionConverter<'_, 'c> {
    /// A tile type of `kind`, or the located error why the target has none.
    fn cube_tile_type(
        &self,
        builder: &Builder<'c>,
        (rows, cols): (i64, i64),
        element: Type<'c>,
        kind: TileKind,
    ) -> Result<Type<'c>, ConvertError> {
        ascend_types::tile(builder.context, rows, cols, element, kind).ok_or_else(|| {
            format!(
                "{} of {element} cannot be lowered: the target has no {rows} x {cols} '{}' \
                 tile of it",
                pl::MatmulOp::NAME,
                kind.keyword()
            )
            .into()
        })
    }

    /// The GEMM whose product `store` writes: its tiled cube code, at the
    /// store; the loads, the product and the store are erased.
    pub(super) fn convert_gemm(
        &mut self,
        builder: &Builder<'c>,
        gemm: Gemm<'c>,
    ) -> Result<(), ConvertError> {
        let lhs_site = self.site_of(gemm.lhs);
        let rhs_site = self.site_of(gemm.rhs);
        let matmul_site = self.site_of(gemm.matmul);
        let store_site = self.site_of(gemm.store);
        let element = |value: Val<'c>| types::element_type(value.r#type()).expect("a tile");
        let operands = pl::MatmulOp::operands(&gemm.matmul).expect("a pl.matmul");
        let (a_element, b_element) = (element(operands.lhs), element(operands.rhs));
        let acc_element = element(Builder::result(gemm.matmul));
        if cube::matmul_accumulator(a_element, b_element) != Some(acc_element) {
            return Err(format!(
                "{} of {a_element} x {b_element} into {acc_element} cannot be lowered: TMATMUL's \
                 (accumulator, lhs, rhs) element types are {}",
                pl::MatmulOp::NAME,
                cube::matmul_element_names()
            )
            .into());
        }

        // The regions: A is m x k, B k x n, the product m x n.
        let a = Self::tile_load_parts(gemm.lhs);
        let b = Self::tile_load_parts(gemm.rhs);
        let store = pl::StoreOp::operands(&gemm.store).expect("a pl.store");
        let store_attributes = pl::StoreOp::attributes(&gemm.store).expect("a verified store");
        let c_offsets = mixed_list(&store_attributes.static_offsets, &store.offsets);
        let c_valid = Self::valid_list(gemm.store);
        let (m, k) = region_extent(
            builder,
            &Self::access_extents(operands.lhs.r#type(), a.valid.clone()),
        );
        let (k_b, n) = region_extent(
            builder,
            &Self::access_extents(operands.rhs.r#type(), b.valid.clone()),
        );
        let (store_m, store_n) = region_extent(
            builder,
            &Self::access_extents(Builder::result(gemm.matmul).r#type(), c_valid),
        );
        let disagree =
            |a: Ix, b: Ix| matches!((a.constant(), b.constant()), (Some(x), Some(y)) if x != y);
        if disagree(k, k_b) {
            return Err(format!(
                "{} multiplies a left operand of {} columns by a right operand of {} rows: the \
                 valid shapes of the loads must agree on K",
                pl::MatmulOp::NAME,
                k.constant().unwrap_or_default(),
                k_b.constant().unwrap_or_default()
            )
            .into());
        }
        if disagree(m, store_m) || disagree(n, store_n) {
            return Err(format!(
                "the store of a {}'s product writes {} x {}, but the product is {} x {} (the \
                 loads' valid shapes): store exactly the product",
                pl::MatmulOp::NAME,
                store_m.constant().unwrap_or_default(),
                store_n.constant().unwrap_or_default(),
                m.constant().unwrap_or_default(),
                n.constant().unwrap_or_default()
            )
            .into());
        }

        // The blocks, from the static tile shapes.
        let shape = |value: Val<'c>| {
            let shape = types::shape(value.r#type()).expect("a tile");
            (shape[shape.len() - 2], shape[shape.len() - 1])
        };
        let ((tile_m, tile_k), (_, tile_n)) = (shape(operands.lhs), shape(operands.rhs));
        let profile = pld_ir::read::target_profile(&gemm.matmul).0;
        let Tiling { mt, nt, kl, k1 } =
            tiling(profile, (tile_m, tile_k, tile_n), a_element, acc_element);
        let a_mat = self.cube_tile_type(builder, (mt, k1), a_element, TileKind::Mat)?;
        let b_mat = self.cube_tile_type(builder, (k1, nt), b_element, TileKind::Mat)?;
        let left = self.cube_tile_type(builder, (mt, kl), a_element, TileKind::Left)?;
        let right = self.cube_tile_type(builder, (kl, nt), b_element, TileKind::Right)?;
        let acc = self.cube_tile_type(builder, (mt, nt), acc_element, TileKind::Acc)?;
        let a_memory = self.buffer(a.memory)?;
        let b_memory = self.buffer(b.memory)?;
        let c_memory = self.buffer(store.dest)?;
        let c_element = types::element_type(store.dest.r#type()).expect("a verified store");
        if !cube::is_acc_store(acc_element, c_element) {
            return Err(format!(
                "the fixpipe cannot store the {acc_element} product of a {} as {c_element}: it \
                 stores f32 as f32, f16 or bf16 and i32 as i32",
                pl::MatmulOp::NAME
            )
            .into());
        }

        // A block of an operand or of the product: its region moved `row`
        // rows down and `col` columns right, `rows x cols` of it.
        let this = &*self;
        let view = |builder: &Builder<'c>,
                    access: &TileAccess<'c>,
                    memory: &super::buffer::Buffer<'c>,
                    (row, col): (Ix<'c>, Ix<'c>),
                    (rows, cols): (Ix<'c>, Ix<'c>),
                    site: Site| {
            let offsets = shifted(builder, &access.offsets, row, col);
            this.region_view(builder, memory, &offsets, &[rows, cols], access.peer, site)
        };
        let c_access = TileAccess {
            memory: store.dest,
            peer: None,
            offsets: c_offsets,
            valid: None,
        };
        let (lhs_site, rhs_site, matmul_site, store_site) = (
            Some(&*lhs_site),
            Some(&*rhs_site),
            Some(&*matmul_site),
            Some(&*store_site),
        );
        // One product into the accumulator, where its step runs.
        let multiply = |builder: &Builder<'c>,
                        acc_tile: Val<'c>,
                        (left_tile, right_tile): (Val<'c>, Val<'c>),
                        exists: Option<Val<'c>>,
                        first: First<'c>| {
            guarded(builder, exists, |builder| match first {
                First::Sets => builder.tmatmul(acc_tile, left_tile, right_tile, false, matmul_site),
                First::Adds => builder.tmatmul(acc_tile, left_tile, right_tile, true, matmul_site),
                First::SetsWhen(flag) => {
                    builder.if_else(
                        flag,
                        &[],
                        |builder| {
                            builder.tmatmul(acc_tile, left_tile, right_tile, false, matmul_site);
                            vec![]
                        },
                        |builder| {
                            builder.tmatmul(acc_tile, left_tile, right_tile, true, matmul_site);
                            vec![]
                        },
                    );
                }
            });
        };
        // A group of panels at `kp` (one, or a ping and a pong): every
        // panel's `mat` tiles first, so that they are live together and
        // ascend-plan-ub gives each its own bytes of L1, then their TLOADs,
        // then the L0 steps, software-pipelined: each step's `left` and
        // `right` tiles are made and extracted into before the previous
        // step's product, so two steps are live at a time and take turns in
        // two halves of L0A and L0B. The simulator's dataflow timing then
        // overlaps the load of one panel with the extractions and products
        // of the other, and the extraction of one step with the previous
        // product (on the device, `ascend-insert-sync`'s pipe syncs order
        // them; docs/lowering.md, "The cube").
        let group = |builder: &Builder<'c>,
                     (m0, rows): (Ix<'c>, Ix<'c>),
                     (n0, cols): (Ix<'c>, Ix<'c>),
                     acc_tile: Val<'c>,
                     kp: Ix<'c>,
                     panels: &[Panel<'c>],
                     first: First<'c>| {
            let mats: Vec<(Val<'c>, Val<'c>)> = panels
                .iter()
                .map(|panel| {
                    let depth = at_least_one(builder, panel.depth, panel.exists.is_some());
                    (
                        builder.tile(a_mat, Some((rows, depth))),
                        builder.tile(b_mat, Some((depth, cols))),
                    )
                })
                .collect();
            for (index, (panel, (a_block, b_block))) in panels.iter().zip(&mats).enumerate() {
                guarded(builder, panel.exists, |builder| {
                    let k0 = builder.add(kp, Ix::Const(index as i64 * k1));
                    let a_view = view(
                        builder,
                        &a,
                        &a_memory,
                        (m0, k0),
                        (rows, panel.depth),
                        lhs_site,
                    );
                    builder.tload(*a_block, a_view, lhs_site);
                    let b_view = view(
                        builder,
                        &b,
                        &b_memory,
                        (k0, n0),
                        (panel.depth, cols),
                        rhs_site,
                    );
                    builder.tload(*b_block, b_view, rhs_site);
                });
            }
            let mut previous: Option<((Val<'c>, Val<'c>), Option<Val<'c>>, First<'c>)> = None;
            for (panel, (a_block, b_block)) in panels.iter().zip(&mats) {
                for step in 0..pld_ir::ceil_div(panel.bound, kl) {
                    let col = step * kl;
                    // The last step the panel can hold is what is left of
                    // it; the others are `kl` deep where they run.
                    let depth = if panel.bound - col <= kl {
                        builder.sub(panel.depth, Ix::Const(col))
                    } else {
                        builder.chunk_extent(panel.depth, Ix::Const(col), kl)
                    };
                    let exists = if step == 0 || depth.constant().is_some_and(|depth| depth > 0) {
                        panel.exists
                    } else {
                        let more = builder.cmp(CmpiPredicate::Sgt, panel.depth, Ix::Const(col));
                        Some(
                            panel
                                .exists
                                .map_or(more, |exists| builder.and(exists, more)),
                        )
                    };
                    let valid = at_least_one(builder, depth, exists.is_some());
                    let left_tile = builder.tile(left, Some((rows, valid)));
                    let right_tile = builder.tile(right, Some((valid, cols)));
                    guarded(builder, exists, |builder| {
                        let (zero, at) = (Ix::Const(0), Ix::Const(col));
                        builder.textract(left_tile, *a_block, zero, at, matmul_site);
                        builder.textract(right_tile, *b_block, at, zero, matmul_site);
                    });
                    let this_first = if previous.is_none() {
                        first
                    } else {
                        First::Adds
                    };
                    if let Some((tiles, exists, first)) =
                        previous.replace(((left_tile, right_tile), exists, this_first))
                    {
                        multiply(builder, acc_tile, tiles, exists, first);
                    }
                }
            }
            if let Some((tiles, exists, first)) = previous {
                multiply(builder, acc_tile, tiles, exists, first);
            }
        };
        // Every K step of a block, the first setting the accumulator: one
        // panel when K fits one; else pairs of full panels (a loop when
        // there are several), then what is left; with K known only at run
        // time, a loop over pairs whose second panel and later steps are
        // guarded.
        let k_steps = |builder: &Builder<'c>,
                       m_block: (Ix<'c>, Ix<'c>),
                       n_block: (Ix<'c>, Ix<'c>),
                       acc_tile: Val<'c>| {
            let pair = 2 * k1;
            if tile_k <= k1 {
                let panels = [Panel::always(k, tile_k)];
                group(
                    builder,
                    m_block,
                    n_block,
                    acc_tile,
                    Ix::Const(0),
                    &panels,
                    First::Sets,
                );
                return;
            }
            if let Some(total) = k.constant() {
                let full = total / pair * pair;
                let both = [Panel::always(Ix::Const(k1), k1); 2];
                if full == pair {
                    group(
                        builder,
                        m_block,
                        n_block,
                        acc_tile,
                        Ix::Const(0),
                        &both,
                        First::Sets,
                    );
                } else if full > pair {
                    let (zero, end) = (Ix::Const(0), Ix::Const(full));
                    builder.for_each_step(zero, end, Ix::Const(pair), |builder, kp| {
                        let first = First::SetsWhen(builder.cmp(CmpiPredicate::Eq, kp, zero));
                        group(builder, m_block, n_block, acc_tile, kp, &both, first);
                    });
                }
                let rest = total - full;
                if rest > 0 {
                    let mut panels = vec![Panel::always(Ix::Const(rest.min(k1)), rest.min(k1))];
                    if rest > k1 {
                        panels.push(Panel::always(Ix::Const(rest - k1), rest - k1));
                    }
                    let first = if full > 0 { First::Adds } else { First::Sets };
                    group(
                        builder,
                        m_block,
                        n_block,
                        acc_tile,
                        Ix::Const(full),
                        &panels,
                        first,
                    );
                }
                return;
            }
            // The pair at `kp` < k: its first panel is at least 1 deep.
            let pair_at = |builder: &Builder<'c>, kp: Ix<'c>, bound: i64| {
                let beyond = builder.add(kp, Ix::Const(k1));
                [
                    Panel::always(builder.min(Ix::Const(k1), builder.sub(k, kp)), k1),
                    Panel {
                        depth: builder.clamp_to(builder.sub(k, beyond), Ix::Const(k1)),
                        exists: Some(builder.cmp(CmpiPredicate::Sgt, k, beyond)),
                        bound: bound.min(k1),
                    },
                ]
            };
            if tile_k <= pair {
                let panels = pair_at(builder, Ix::Const(0), tile_k - k1);
                group(
                    builder,
                    m_block,
                    n_block,
                    acc_tile,
                    Ix::Const(0),
                    &panels,
                    First::Sets,
                );
            } else {
                builder.for_each_step(Ix::Const(0), k, Ix::Const(pair), |builder, kp| {
                    let panels = pair_at(builder, kp, k1);
                    let first = First::SetsWhen(builder.cmp(CmpiPredicate::Eq, kp, Ix::Const(0)));
                    group(builder, m_block, n_block, acc_tile, kp, &panels, first);
                });
            }
        };
        if self.cube.mixed {
            builder.cross_core_signal(Core::Aiv, Core::Aic);
            builder.cross_core_wait(Core::Aiv, Core::Aic);
        }
        for_blocks(builder, (0, m, tile_m), mt, |builder, m0, rows| {
            for_blocks(builder, (0, n, tile_n), nt, |builder, n0, cols| {
                let acc_tile = builder.tile(acc, Some((rows, cols)));
                k_steps(builder, (m0, rows), (n0, cols), acc_tile);
                let c_view = view(
                    builder,
                    &c_access,
                    &c_memory,
                    (m0, n0),
                    (rows, cols),
                    store_site,
                );
                builder.tstore_acc(c_view, acc_tile, store_site);
            });
        });
        if self.cube.mixed {
            builder.cross_core_signal(Core::Aic, Core::Aiv);
            builder.cross_core_wait(Core::Aic, Core::Aiv);
        }
        erase_op(gemm.store);
        erase_op(gemm.matmul);
        erase_op(gemm.lhs);
        if gemm.rhs != gemm.lhs {
            erase_op(gemm.rhs);
        }
        Ok(())
    }
}
