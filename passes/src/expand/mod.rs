//! `pld-expand-transfers`: every `pld.tensor.put`, `pld.tensor.get` and
//! `pld.tensor.remote_store` becomes a staged chunk loop (pipeline §3),
//! except a put or get with `engine sdma`, which the SDMA engine moves
//! whole (`convert-pld-to-ascend` lowers it).
//!
//! A transfer moves its region through a staging tile `[min(rows,
//! chunk_rows), min(cols, chunk_cols)]` over its two innermost dimensions
//! (outer dimensions are looped over; a 1-D transfer is seen as `[1, L]`):
//! a put loads a chunk of the local source with `pl.load` and pushes it with
//! `pld.tile.remote_store` (atomically for an atomic put), a get reads it
//! with `pld.tile.remote_load` and stores it with `pl.store`. Ragged edges
//! use `valid`. `pipeline` moves chunks in pairs through two distinct
//! tiles, both loaded before either is stored, so that the load of chunk
//! k + 1 overlaps the store of chunk k.
//!
//! A put or get without a region moves the whole tensor, and its verifier
//! requires the two shapes equal where both are static. Where either side's
//! extent is dynamic, a `cf.assert` before the op (SDMA ones included)
//! checks it at run time; the simulator traps where it fails.

pub mod staging;

use melior::{
    dialect::arith::CmpiPredicate,
    ir::{
        Type, ValueLike,
        attribute::StringAttribute,
        operation::{OperationLike, OperationRef},
    },
};
use pld_dialect::ops::{cf, pld};
use pld_dialect::{
    diagnostics::{Severity, emit},
    enums::{AtomicType, TransferEngine},
};
use pld_ir::pass::bridge::OptionError;
use pld_ir::pass::bridge::{Pass, PassFailed, PassOption, PassStatistic, Statistics};
use pld_ir::pass::declared::pld_expand_transfers as declared;
use pld_ir::{
    Builder, Ix, OpRef, Val, build::erase_op, build::mixed_list, location::implementing,
    nested_ops, read::name, types,
};
use staging::Stage;

/// The `pld-expand-transfers` pass.
pub struct ExpandTransfers {
    ub_bytes: i64,
}

impl Pass for ExpandTransfers {
    const ARGUMENT: &'static str = declared::ARGUMENT;
    const DESCRIPTION: &'static str = declared::SUMMARY;
    const OPTIONS: &'static [PassOption] = declared::OPTIONS;
    const STATISTICS: &'static [PassStatistic] = declared::STATISTICS;

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        let ub_bytes = declared::Options::parse(values)?.ub_bytes;
        if ub_bytes < 32 {
            return Err(
                format!("expected ub-bytes to be an integer >= 32, found '{ub_bytes}'").into(),
            );
        }
        Ok(Self { ub_bytes })
    }

    fn run(&self, root: OperationRef, statistics: &Statistics) -> Result<(), PassFailed> {
        // SAFETY: see the documentation of `pld_ir`.
        let root: OpRef = unsafe { OpRef::from_raw(root.to_raw()) };
        let mut plans = Vec::new();
        let mut failed = false;
        let mut checks = 0;
        for op in nested_ops(root) {
            checks += check_whole_shapes(op);
            let Some(kind) = Kind::of(op) else { continue };
            match self.plan(op, kind) {
                Ok(plan) => plans.push(plan),
                Err(message) => {
                    emit(Severity::Error, op.location(), &message, &[]);
                    failed = true;
                }
            }
        }
        if failed {
            return Err(PassFailed);
        }
        statistics.add(&declared::TRANSFERS, plans.len() as u64);
        statistics.add(&declared::SHAPE_CHECKS, checks);
        for plan in plans {
            if let Some(message) = &plan.remark {
                emit(Severity::Remark, plan.op.location(), message, &[]);
            }
            expand(&plan);
            erase_op(plan.op);
        }
        Ok(())
    }
}

/// Before a put or get without a region, a `cf.assert` per dimension that
/// is dynamic on either side: the whole tensor moves, so the two extents
/// must be equal (the verifier checks the static ones). Returns how many.
fn check_whole_shapes(op: OpRef) -> u64 {
    let Some(transfer) = pld_ir::attributes::put_or_get(&op) else {
        return 0;
    };
    if transfer.region.is_some() {
        return 0;
    }
    let (dst, src) = (transfer.dst, transfer.src);
    let dst_shape = types::shape(dst.r#type()).expect("a shaped dst");
    let src_shape = types::shape(src.r#type()).expect("a shaped src");
    let builder = Builder::before(op).at(implementing(&op));
    let context = pld_ir::build::context_of(op);
    let mut checks = 0;
    for (dim, (d, s)) in dst_shape.iter().zip(&src_shape).enumerate() {
        if *d != types::DYNAMIC && *s != types::DYNAMIC {
            continue;
        }
        let same = builder.cmp(
            CmpiPredicate::Eq,
            builder.dim(dst, dim),
            builder.dim(src, dim),
        );
        let message = format!(
            "dimension {dim} of the destination differs from the source's: a {} without a \
             region moves the whole tensor, so the two shapes must be equal",
            name(op)
        );
        let assert = cf::AssertOp {
            arg: same,
            msg: StringAttribute::new(context, &message).into(),
        };
        builder.insert(assert.build(context, implementing(&op)));
        checks += 1;
    }
    checks
}

/// The three transfer ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Put,
    Get,
    RemoteStore,
}

impl Kind {
    /// The transfer `op` is, when this pass stages it: a put or get with
    /// `engine sdma` is left for `convert-pld-to-ascend`, which hands it to
    /// the SDMA engine whole.
    fn of(op: OpRef) -> Option<Self> {
        let engine =
            pld::TensorPutOp::get_engine(&op).or_else(|| pld::TensorGetOp::get_engine(&op));
        if engine == Some(TransferEngine::Sdma) {
            return None;
        }
        Some(match name(op) {
            pld::TensorPutOp::NAME => Self::Put,
            pld::TensorGetOp::NAME => Self::Get,
            pld::TensorRemoteStoreOp::NAME => Self::RemoteStore,
            _ => return None,
        })
    }

    /// Whether the chunks are loaded locally and pushed to the peer.
    fn pushes(self) -> bool {
        self != Self::Get
    }
}

/// One side of a transfer: a window tensor or memref and where the region
/// starts in it.
#[derive(Clone)]
struct Side<'c> {
    value: Val<'c>,
    offsets: Vec<Ix<'c>>,
}

/// Everything a transfer's expansion needs, decided before any rewriting.
struct Plan<'c> {
    op: OpRef<'c>,
    kind: Kind,
    peer: Ix<'c>,
    atomic: AtomicType,
    dst: Side<'c>,
    src: Side<'c>,
    /// The region's extent on every dimension of the source side; `None`
    /// where it is the source's dynamic size, read when expanding.
    extent: Vec<Option<Ix<'c>>>,
    stage: Stage,
    pipeline: bool,
    remark: Option<String>,
}

/// What a transfer op asks for, read from its operands and attributes.
struct Request<'c> {
    dst: Side<'c>,
    src: Side<'c>,
    peer: Ix<'c>,
    /// As [`Plan::extent`].
    extent: Vec<Option<Ix<'c>>>,
    /// The written chunk extents; 0 where the op leaves them to the pass.
    chunk_rows: i64,
    chunk_cols: i64,
    pipeline: bool,
    atomic: AtomicType,
}

impl<'c> Request<'c> {
    fn of(op: OpRef<'c>, kind: Kind) -> Self {
        match kind {
            Kind::Put | Kind::Get => Self::of_put_or_get(op),
            Kind::RemoteStore => Self::of_remote_store(op),
        }
    }

    /// A put or get: a region (the whole tensor without one) between its
    /// `dst` and `src`, with the chunking and pipelining it writes.
    fn of_put_or_get(op: OpRef<'c>) -> Self {
        let transfer = pld_ir::attributes::put_or_get(&op).expect("a put or a get");
        let (dst, src) = (transfer.dst, transfer.src);
        let (dst_offsets, src_offsets, extent) = match transfer.region {
            Some(region) => (
                region.dst_offsets,
                region.src_offsets,
                region.sizes.into_iter().map(Some).collect(),
            ),
            None => {
                let rank = types::shape(dst.r#type()).expect("a shaped dst").len();
                (
                    vec![Ix::Const(0); rank],
                    vec![Ix::Const(0); rank],
                    whole_extent(dst, src),
                )
            }
        };
        // A put and a get name their chunk options alike.
        let chunk_rows =
            pld::TensorPutOp::get_chunk_rows(&op).or_else(|| pld::TensorGetOp::get_chunk_rows(&op));
        let chunk_cols =
            pld::TensorPutOp::get_chunk_cols(&op).or_else(|| pld::TensorGetOp::get_chunk_cols(&op));
        let pipeline =
            pld::TensorPutOp::get_pipeline(&op).or_else(|| pld::TensorGetOp::get_pipeline(&op));
        Self {
            dst: Side {
                value: dst,
                offsets: dst_offsets,
            },
            src: Side {
                value: src,
                offsets: src_offsets,
            },
            peer: Ix::Dyn(transfer.peer),
            extent,
            chunk_rows: chunk_rows.expect("a verified transfer"),
            chunk_cols: chunk_cols.expect("a verified transfer"),
            pipeline: pipeline.expect("a verified transfer"),
            // A get pulls: it never accumulates.
            atomic: pld_ir::attributes::atomic(&op).unwrap_or(AtomicType::None),
        }
    }

    /// A tensor remote_store: all of its `source` into the region of the
    /// peer's `target` at `offsets`; it has no chunk options.
    fn of_remote_store(op: OpRef<'c>) -> Self {
        let store = pld::TensorRemoteStoreOp::operands(&op).expect("a tensor remote_store");
        let attributes =
            pld::TensorRemoteStoreOp::attributes(&op).expect("a verified tensor remote_store");
        let shape = types::shape(store.source.r#type()).expect("a shaped source");
        let offsets = mixed_list(&attributes.static_offsets, &store.offsets);
        Self {
            dst: Side {
                value: store.target,
                offsets,
            },
            src: Side {
                value: store.source,
                offsets: vec![Ix::Const(0); shape.len()],
            },
            peer: Ix::Dyn(store.peer),
            extent: shape.iter().map(|dim| known(*dim)).collect(),
            chunk_rows: 0,
            chunk_cols: 0,
            pipeline: false,
            atomic: attributes.atomic,
        }
    }

    /// An error when a side is a memref the staging cannot address by rows.
    fn check_contiguous(&self, op: OpRef<'c>) -> Result<(), String> {
        for side in [&self.dst, &self.src] {
            let r#type = side.value.r#type();
            if types::is_memref(r#type) && !types::is_identity_memref(r#type) {
                return Err(format!(
                    "{} cannot be staged: '{type}' is not a contiguous row-major memref (the \
                     staging loads and stores address rows by offset)",
                    name(op),
                    type = r#type
                ));
            }
        }
        Ok(())
    }
}

impl ExpandTransfers {
    fn plan<'c>(&self, op: OpRef<'c>, kind: Kind) -> Result<Plan<'c>, String> {
        let request = Request::of(op, kind);
        request.check_contiguous(op)?;
        let (stage, remark) = self.stage(op, &request)?;
        let Request {
            dst,
            src,
            peer,
            extent,
            pipeline,
            atomic,
            ..
        } = request;
        Ok(Plan {
            op,
            kind,
            peer,
            atomic,
            dst,
            src,
            extent,
            stage,
            pipeline,
            remark,
        })
    }

    /// The staging tile for `request`: the written chunk, or a default for
    /// each dynamic extent, shrunk (with a remark saying so) until its tiles
    /// fit the unified buffer.
    fn stage(&self, op: OpRef, request: &Request) -> Result<(Stage, Option<String>), String> {
        let Request {
            extent,
            chunk_rows,
            chunk_cols,
            pipeline,
            ..
        } = request;
        let (chunk_rows, chunk_cols, pipeline) = (*chunk_rows, *chunk_cols, *pipeline);
        let element = types::element_type(request.src.value.r#type()).expect("a shaped source");
        let element_bytes = types::byte_width(element).expect("an integer or float element");
        let rank = extent.len();
        let static_extent = |dim: usize| extent[dim].and_then(|ix: Ix| ix.constant());
        let (rows, cols) = if rank == 1 {
            (Some(1), static_extent(0))
        } else {
            (static_extent(rank - 2), static_extent(rank - 1))
        };
        let tiles = if pipeline { 2 } else { 1 };
        // A remote_store has no chunk options: a dynamic extent is staged one
        // row at a time, as wide as the unified buffer allows.
        let auto_rows = if rows.is_none() && chunk_rows == 0 {
            1
        } else {
            chunk_rows
        };
        let auto_cols = if cols.is_none() && chunk_cols == 0 {
            self.ub_bytes / tiles / element_bytes
        } else {
            chunk_cols
        };
        let written = staging::written(rows, cols, auto_rows, auto_cols)
            .expect("the verifier requires a chunk for every dynamic extent");
        let stage =
            staging::fit(written, element_bytes, tiles, self.ub_bytes).ok_or_else(|| {
                format!(
                    "{} cannot be staged: not even one 32-byte row of {element} fits {} of a \
                 {}-byte unified buffer (pld-expand-transfers ub-bytes)",
                    name(op),
                    if pipeline {
                        "each of the two pipeline tiles"
                    } else {
                        "the staging tile"
                    },
                    self.ub_bytes
                )
            })?;
        let remark = (stage != written).then(|| {
            format!(
                "pld-expand-transfers: a [{}, {}] x {element} staging tile{} needs {} bytes, more \
                 than the {}-byte unified buffer (ub-bytes); staging through [{}, {}] instead",
                written.rows,
                written.cols,
                if pipeline {
                    " (two for the pipeline)"
                } else {
                    ""
                },
                staging::bytes(written, element_bytes) * tiles,
                self.ub_bytes,
                stage.rows,
                stage.cols
            )
        });
        Ok((stage, remark))
    }
}

/// A static dimension, or `None` for a dynamic one.
fn known<'c>(dim: i64) -> Option<Ix<'c>> {
    (dim != types::DYNAMIC).then_some(Ix::Const(dim))
}

/// The extent of a whole-slice transfer: the static size where either side
/// has one, else the source's dynamic size.
fn whole_extent<'c>(dst: Val<'c>, src: Val<'c>) -> Vec<Option<Ix<'c>>> {
    let dst_shape = types::shape(dst.r#type()).expect("a shaped dst");
    let src_shape = types::shape(src.r#type()).expect("a shaped src");
    dst_shape
        .iter()
        .zip(&src_shape)
        .map(|(d, s)| known(*d).or(known(*s)))
        .collect()
}

/// Expands `plan` in front of its op.
fn expand(plan: &Plan) {
    // Located as the transfer the user wrote, which the simulator's reports
    // and counters name (pld_ir::location).
    let builder = Builder::before(plan.op).at(implementing(&plan.op));
    // Dynamic whole-slice extents are read from the source side.
    let mut extent: Vec<Ix> = plan
        .extent
        .iter()
        .enumerate()
        .map(|(dim, ix)| ix.unwrap_or_else(|| builder.dim(plan.src.value, dim)))
        .collect();
    let (mut dst, mut src) = (plan.dst.clone(), plan.src.clone());
    if extent.len() == 1 {
        // A 1-D transfer moves through [1, L] views.
        dst = as_row(&builder, &dst);
        src = as_row(&builder, &src);
        extent.insert(0, Ix::Const(1));
    }
    let rank = extent.len();
    let (outer, rows, cols) = match plan.kind {
        // A remote_store's source has leading 1s: only the innermost two
        // dimensions move.
        Kind::RemoteStore => (vec![], extent[rank - 2], extent[rank - 1]),
        Kind::Put | Kind::Get => (
            extent[..rank - 2].to_vec(),
            extent[rank - 2],
            extent[rank - 1],
        ),
    };
    let element = types::element_type(src.value.r#type()).expect("a shaped source");
    let loaded_rank = types::shape(src.value.r#type())
        .expect("a shaped source")
        .len();
    let mut tile_shape = vec![1; loaded_rank];
    tile_shape[loaded_rank - 2] = plan.stage.rows;
    tile_shape[loaded_rank - 1] = plan.stage.cols;
    let tile = pld_dialect::types::tile(builder.context, &tile_shape, element)
        .expect("a positive stage makes a valid tile");
    let chunks = Chunks {
        plan,
        dst,
        src,
        rows,
        cols,
        tile,
        loaded_rank,
    };
    chunks.over_outer(&builder, &outer, &mut Vec::new());
}

/// A 2-D `[1, L]` view of a 1-D side.
fn as_row<'c>(builder: &Builder<'c>, side: &Side<'c>) -> Side<'c> {
    let r#type = side.value.r#type();
    let len = builder.dim(side.value, 0);
    let element = types::element_type(r#type).expect("a shaped side");
    let static_len = len.constant().unwrap_or(types::DYNAMIC);
    let dynamic: Vec<Val> = if len.constant().is_some() {
        vec![]
    } else {
        vec![builder.value(len)]
    };
    let value = if types::is_memref(r#type) {
        let row = melior::ir::r#type::MemRefType::new(element, &[1, static_len], None, None);
        builder.expand_to_row(side.value, row.into(), static_len, &dynamic)
    } else {
        let row =
            pld_dialect::types::distributed_tensor(builder.context, &[1, static_len], element)
                .expect("a [1, L] view of a valid tensor is valid");
        builder.reshape(side.value, row, &dynamic)
    };
    Side {
        value,
        offsets: vec![Ix::Const(0), side.offsets[0]],
    }
}

/// The chunk loops of one transfer.
struct Chunks<'p, 'c> {
    plan: &'p Plan<'c>,
    dst: Side<'c>,
    src: Side<'c>,
    rows: Ix<'c>,
    cols: Ix<'c>,
    tile: Type<'c>,
    loaded_rank: usize,
}

impl<'c> Chunks<'_, 'c> {
    /// Loops over the outer dimensions, then moves the 2-D region at `at`.
    fn over_outer(&self, builder: &Builder<'c>, outer: &[Ix<'c>], at: &mut Vec<Ix<'c>>) {
        let Some((first, rest)) = outer.split_first() else {
            self.region(builder, at);
            return;
        };
        builder.for_each_or_once(*first, |builder, index| {
            let mut at = at.clone();
            at.push(index);
            self.over_outer(builder, rest, &mut at);
        });
    }

    /// The chunks of the innermost two dimensions, at outer position `outer`.
    fn region(&self, builder: &Builder<'c>, outer: &[Ix<'c>]) {
        let stage = self.plan.stage;
        let row_chunks = builder.ceil_div(self.rows, Ix::Const(stage.rows));
        let col_chunks = builder.ceil_div(self.cols, Ix::Const(stage.cols));
        if !self.plan.pipeline {
            builder.for_each_or_once(row_chunks, |builder, r| {
                builder.for_each_or_once(col_chunks, |builder, c| {
                    let chunk = self.chunk(builder, outer, r, c);
                    let tile = self.load(builder, &chunk);
                    self.store(builder, &chunk, tile);
                });
            });
            return;
        }
        // Chunks in pairs, through two tiles: load k and k + 1, then store
        // both, so that the second load overlaps the first store.
        let count = builder.mul(row_chunks, col_chunks);
        let position = |builder: &Builder<'c>, k: Ix<'c>| {
            let r = builder.div(k, col_chunks);
            let c = builder.rem(k, col_chunks);
            self.chunk(builder, outer, r, c)
        };
        builder.for_loop(Ix::Const(0), count, Ix::Const(2), &[], |builder, k, _| {
            let ping_chunk = position(builder, k);
            let ping = self.load(builder, &ping_chunk);
            let next = builder.add(k, Ix::Const(1));
            let both = |builder: &Builder<'c>| {
                let pong_chunk = position(builder, next);
                let pong = self.load(builder, &pong_chunk);
                self.store(builder, &ping_chunk, ping);
                self.store(builder, &pong_chunk, pong);
            };
            if count.constant().is_some_and(|count| count % 2 == 0) {
                both(builder);
            } else {
                let has_pong = builder.cmp(CmpiPredicate::Slt, next, count);
                builder.if_else(
                    has_pong,
                    &[],
                    |builder| {
                        both(builder);
                        vec![]
                    },
                    |builder| {
                        self.store(builder, &ping_chunk, ping);
                        vec![]
                    },
                );
            }
            vec![]
        });
    }

    /// Where chunk (r, c) of the 2-D region sits on each side, and how much of
    /// the tile it fills.
    fn chunk(&self, builder: &Builder<'c>, outer: &[Ix<'c>], r: Ix<'c>, c: Ix<'c>) -> Chunk<'c> {
        let stage = self.plan.stage;
        let row = builder.mul(r, Ix::Const(stage.rows));
        let col = builder.mul(c, Ix::Const(stage.cols));
        let valid_rows = builder.chunk_extent(self.rows, row, stage.rows);
        let valid_cols = builder.chunk_extent(self.cols, col, stage.cols);
        let place = |side: &Side<'c>| -> Vec<Ix<'c>> {
            let rank = side.offsets.len();
            side.offsets
                .iter()
                .enumerate()
                .map(|(dim, offset)| {
                    let step = if dim == rank - 2 {
                        row
                    } else if dim == rank - 1 {
                        col
                    } else {
                        outer.get(dim).copied().unwrap_or(Ix::Const(0))
                    };
                    builder.add(*offset, step)
                })
                .collect()
        };
        let mut valid = vec![Ix::Const(1); self.loaded_rank];
        valid[self.loaded_rank - 2] = valid_rows;
        valid[self.loaded_rank - 1] = valid_cols;
        Chunk {
            dst: place(&self.dst),
            src: place(&self.src),
            valid,
        }
    }

    fn load(&self, builder: &Builder<'c>, chunk: &Chunk<'c>) -> Val<'c> {
        if self.plan.kind.pushes() {
            builder.load(self.src.value, &chunk.src, self.tile, Some(&chunk.valid))
        } else {
            builder.remote_load(
                self.src.value,
                self.plan.peer,
                &chunk.src,
                self.tile,
                Some(&chunk.valid),
            )
        }
    }

    fn store(&self, builder: &Builder<'c>, chunk: &Chunk<'c>, tile: Val<'c>) {
        if self.plan.kind.pushes() {
            builder.remote_store(
                tile,
                self.dst.value,
                self.plan.peer,
                &chunk.dst,
                Some(&chunk.valid),
                self.plan.atomic,
            );
        } else {
            builder.store(tile, self.dst.value, &chunk.dst, Some(&chunk.valid));
        }
    }
}

/// One chunk: its offsets on both sides and the valid part of the tile.
struct Chunk<'c> {
    dst: Vec<Ix<'c>>,
    src: Vec<Ix<'c>>,
    valid: Vec<Ix<'c>>,
}
