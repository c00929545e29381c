//! Every pld and pl op of a function body as ascend ops.

use super::ConvertError;
use super::{
    Kind,
    buffer::{Buffer, Group, is_buffer, is_buffer_type},
    signature::{FunctionConverter, Lowered, is_incore},
};
use melior::ir::{
    BlockLike, RegionLike, Type, TypeLike, ValueLike,
    attribute::{FlatSymbolRefAttribute, StringAttribute},
    operation::OperationLike,
};
use pld_dialect::ops::{ascend, cf, func, memref, pl, pl::PlOp, pld, pld::PldOp, scf};
use pld_dialect::{
    enums,
    target::{self, Operands, TileMath},
    types::{self as pld_types, ascend as ascend_types},
};
use pld_ir::build::ascend::{AscendBuilder, Site};
use pld_ir::{
    Builder, Ix, OpKey, OpRef, Val, ValueKey,
    build::{context_of, erase_op, mixed_list, replace_uses},
    read::{callee_name, name, operand},
    types,
};

/// The ascend tile type for a pl tile type: leading 1s dropped, the row
/// padded to whole 32-byte blocks (PTO's row-major Vec tiles require it),
/// with the logical `(rows, cols)` beside it.
fn ascend_tile<'c>(
    context: &'c melior::Context,
    tile: Type<'c>,
) -> Result<(Type<'c>, (i64, i64)), ConvertError> {
    let shape = types::shape(tile).expect("a tile is shaped");
    let element = types::element_type(tile).expect("a tile is shaped");
    let (rows, cols) = match shape.as_slice() {
        [cols] => (1, *cols),
        [leading @ .., rows, cols] if leading.iter().all(|dim| *dim == 1) => (*rows, *cols),
        _ => {
            return Err(format!(
                "tile '{tile}' cannot be lowered: the target's tiles are 2-D (leading \
                 dimensions must be 1)"
            )
            .into());
        }
    };
    if !target::is_tile_element(element) {
        return Err(format!(
            "tile '{tile}' cannot be lowered: the target's TLOAD and TSTORE move {} tiles",
            target::tile_element_names()
        )
        .into());
    }
    let padded = target::padded_cols(cols, element);
    let lowered = ascend_types::tile(context, rows, padded, element, ascend_types::TileKind::Vec)
        .ok_or_else(|| format!("tile '{tile}' has no target tile type"))?;
    Ok((lowered, (rows, cols)))
}

/// The region of memory a tile load reads.
pub struct TileAccess<'c> {
    /// The tensor, window or memref read.
    pub memory: Val<'c>,
    /// The rank whose copy is read, for a remote load.
    pub peer: Option<Ix<'c>>,
    pub offsets: Vec<Ix<'c>>,
    /// The `valid` list, if the load has one.
    pub valid: Option<Vec<Ix<'c>>>,
}

/// What the converter knows of a lowered tile's valid shape.
#[derive(Clone, Copy)]
pub enum Valid<'c> {
    /// The whole tile.
    Full,
    /// `(rows, cols)`: a ragged tail or a padded row's logical width.
    Shape(Ix<'c>, Ix<'c>),
}

/// `(rows, cols)` of a tile-shaped region: the product of the leading
/// extents times the second-to-last, and the last.
pub(super) fn region_extent<'c>(builder: &Builder<'c>, extents: &[Ix<'c>]) -> (Ix<'c>, Ix<'c>) {
    match extents {
        [] => (Ix::Const(1), Ix::Const(1)),
        [cols] => (Ix::Const(1), *cols),
        [leading @ .., cols] => (
            leading
                .iter()
                .fold(Ix::Const(1), |rows, extent| builder.mul(rows, *extent)),
            *cols,
        ),
    }
}

impl<'c> FunctionConverter<'_, 'c> {
    fn ctx(&self) -> Val<'c> {
        self.ctx.expect("the signature is converted first")
    }

    /// The context through which `buffer`'s peers are reached: its comm
    /// group's, or the function's own.
    fn ctx_of(&self, buffer: &Buffer<'c>) -> Val<'c> {
        buffer
            .group
            .as_ref()
            .map_or_else(|| self.ctx(), |group| group.ctx)
    }

    /// The context a `!pld.comm_ctx` value stands for.
    fn lowered_ctx(&self, value: Val<'c>) -> Val<'c> {
        match self.lowered.get(&ValueKey::of(value)) {
            Some(Lowered::Ctx(Some(group))) => group.ctx,
            _ => self.ctx(),
        }
    }

    /// The context a launch, submission or call with `values` passes: the
    /// comm group of the windows among them, or the function's own. One
    /// kernel runs in one communicator, so windows of two groups, or of a
    /// group and the world, cannot meet in one call.
    fn call_ctx(&self, values: &[Val<'c>], what: &str) -> Result<Val<'c>, ConvertError> {
        let mut found: Option<Option<&Group<'c>>> = None;
        for value in values {
            let group = match self.lowered.get(&ValueKey::of(*value)) {
                Some(Lowered::Buffer(buffer))
                    if pld_types::is_distributed_tensor(value.r#type()) =>
                {
                    buffer.group.as_ref()
                }
                Some(Lowered::Ctx(group)) => group.as_ref(),
                _ => continue,
            };
            match found {
                None => found = Some(group),
                Some(seen) if seen.map(|g| &g.ranks) == group.map(|g| &g.ranks) => {}
                Some(seen) => {
                    let name = |group: Option<&Group<'c>>| match group {
                        Some(group) => format!("the comm group {:?}", group.ranks),
                        None => "the world".to_owned(),
                    };
                    return Err(format!(
                        "{what} takes windows of {} and of {}: a kernel runs in one \
                         communicator; pass windows of one group",
                        name(seen),
                        name(group)
                    )
                    .into());
                }
            }
        }
        Ok(found
            .flatten()
            .map_or_else(|| self.ctx(), |group| group.ctx))
    }

    pub(super) fn buffer(&self, value: Val<'c>) -> Result<Buffer<'c>, ConvertError> {
        match self.lowered.get(&ValueKey::of(value)) {
            Some(Lowered::Buffer(buffer)) => Ok(buffer.clone()),
            _ => Err(format!(
                "a window tensor or memref of type '{}' that does not come from an argument, \
                 a window, a reshape or a view cannot be lowered (for instance one chosen at \
                 run time by scf)",
                value.r#type()
            )
            .into()),
        }
    }

    /// The element offset and 2-D view of a tile-shaped region of `buffer`
    /// at `offsets` of `extents`, on `peer`'s copy when given.
    pub(super) fn region_view(
        &self,
        builder: &Builder<'c>,
        buffer: &Buffer<'c>,
        offsets: &[Ix<'c>],
        extents: &[Ix<'c>],
        peer: Option<Ix<'c>>,
        site: Site,
    ) -> Val<'c> {
        let start = buffer.linear(builder, offsets);
        let mut data = builder.offset(buffer.ptr, start);
        if let Some(peer) = peer {
            data = builder.peer_ptr(self.ctx_of(buffer), data, peer, site);
        }
        let (rows, cols) = region_extent(builder, extents);
        let strides = buffer.strides(builder);
        let stride = if strides.len() >= 2 {
            strides[strides.len() - 2]
        } else {
            buffer.dims[0]
        };
        builder.view(data, rows, cols, stride, Some(buffer.tensor(builder)))
    }

    /// The extents a tile access covers: its valid shape, else the tile's.
    pub(super) fn access_extents(tile: Type, valid: Option<Vec<Ix<'c>>>) -> Vec<Ix<'c>> {
        valid.unwrap_or_else(|| {
            types::shape(tile)
                .expect("a tile is shaped")
                .into_iter()
                .map(Ix::Const)
                .collect()
        })
    }

    /// The `valid` list of a tile load or store, if it has one.
    pub(super) fn valid_list(op: OpRef<'c>) -> Option<Vec<Ix<'c>>> {
        pld_ir::attributes::valid_sizes(&op)
            .flatten()
            .map(|(statics, dynamic)| mixed_list(&statics, &dynamic))
    }

    /// A new tile for `tile_type` (a pl tile type) whose valid shape is
    /// `extents`: given explicitly when the access is partial or the row is
    /// padded, else the whole tile.
    fn new_tile(
        &mut self,
        builder: &Builder<'c>,
        tile_type: Type<'c>,
        extents: &[Ix<'c>],
        partial: bool,
    ) -> Result<Val<'c>, ConvertError> {
        let (lowered, (_, cols)) = ascend_tile(builder.context, tile_type)?;
        let padded = ascend_types::tile_shape(lowered).is_some_and(|(_, padded, _)| padded != cols);
        let valid = (partial || padded).then(|| region_extent(builder, extents));
        let tile = builder.tile(lowered, valid);
        let known = valid.map_or(Valid::Full, |(rows, cols)| Valid::Shape(rows, cols));
        self.tiles.insert(ValueKey::of(tile), (tile_type, known));
        Ok(tile)
    }

    /// The valid shape of the lowered tile `tile`: what the converter made
    /// it with, else (a tile that came through a loop or branch) read at
    /// run time.
    fn valid_of(&self, builder: &Builder<'c>, tile: Val<'c>) -> Valid<'c> {
        match self.tiles.get(&ValueKey::of(tile)) {
            Some((_, known)) => *known,
            None => match builder.valid_shape_of(tile) {
                None => Valid::Full,
                Some((rows, cols)) => Valid::Shape(rows, cols),
            },
        }
    }

    /// The pl tile type a lowered tile stands for, accessed in memory of
    /// `rank` dimensions.
    fn logical_type(&self, rank: usize, tile: Val<'c>) -> Type<'c> {
        match self.tiles.get(&ValueKey::of(tile)) {
            Some((logical, _)) => *logical,
            None => self
                .carried
                .get(&ValueKey::of(tile))
                .copied()
                .unwrap_or_else(|| pld_tile_type(context_of(self.function.op), rank, tile)),
        }
    }

    /// Moves the uses of `op`'s results to `replacements` and erases `op`
    /// with the other replaced ops once the function is converted: the
    /// captures of a task region converted later still name the old results
    /// and find the new ones through `lowered` (erasing `op` now would leave
    /// them dangling).
    fn replace(&mut self, op: OpRef<'c>, replacements: &[Val<'c>]) {
        replace_uses(op, replacements);
        for (index, replacement) in replacements.iter().enumerate() {
            let old = Builder::result_at(op, index);
            self.lowered
                .insert(ValueKey::of(old), Lowered::Value(*replacement));
        }
        self.replaced.push(op);
    }

    /// Converts one op; `Err` is the message of a located error. One method
    /// per op family; the queries of the runtime are one line each.
    pub fn convert_op(&mut self, op: OpRef<'c>) -> Result<(), ConvertError> {
        // A GEMM's loads and product are converted with its store.
        if self.cube.absorbed.contains(&OpKey::of(op)) {
            return Ok(());
        }
        let builder = Builder::before(op);
        if let Some(gemm) = self.cube.gemms.get(&OpKey::of(op)).copied() {
            return self.convert_gemm(&builder, gemm);
        }
        let site = self.site_of(op);
        let site = Some(&*site);
        if let Some(pl_op) = PlOp::of(op) {
            return self.convert_pl(pl_op, &builder, op, site);
        }
        if let Some(pld_op) = PldOp::of(op) {
            return self.convert_pld(pld_op, &builder, op, site);
        }
        match name(op) {
            func::CallOp::NAME => self.convert_call(&builder, op)?,
            func::ReturnOp::NAME => self.convert_return(&builder, op)?,
            memref::ExpandShapeOp::NAME => self.convert_reshape(op)?,
            memref::CollapseShapeOp::NAME => self.convert_collapse(&builder, op)?,
            memref::DimOp::NAME => self.convert_dim(&builder, op)?,
            cf::AssertOp::NAME => convert_assert(&builder, op, site),
            scf::ForOp::NAME
            | scf::IfOp::NAME
            | scf::WhileOp::NAME
            | scf::ExecuteRegionOp::NAME
            | scf::IndexSwitchOp::NAME => self.convert_region_types(op)?,
            _ if super::handoff::is_placeholder(op) => self.convert_handoff(&builder, op),
            _ => self.convert_other(op)?,
        }
        Ok(())
    }

    /// A `pl` op: every one is listed, so that a new op of the dialect is a
    /// compile error here until the lowering decides what it becomes.
    fn convert_pl(
        &mut self,
        pl_op: PlOp<'c, 'c>,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        match pl_op {
            PlOp::GetBlockIdx(_) => self.replace(op, &[builder.block_idx(self.payload)]),
            PlOp::GetAivId(_) => self.replace(op, &[builder.subblock_idx(self.payload)]),
            PlOp::Load(_) => self.convert_tile_load(builder, op, site)?,
            PlOp::Store(_) => self.convert_tile_store(builder, op, site)?,
            PlOp::Add(_)
            | PlOp::Max(_)
            | PlOp::Min(_)
            | PlOp::Mul(_)
            | PlOp::Sub(_)
            | PlOp::AddS(_)
            | PlOp::MaxS(_)
            | PlOp::MinS(_)
            | PlOp::MulS(_)
            | PlOp::SubS(_) => self.convert_tile_math(builder, op, site)?,
            PlOp::Full(_) => self.convert_full(builder, op, site)?,
            PlOp::Cast(_) => self.convert_cast(builder, op, site)?,
            // Every pl.matmul is part of a GEMM (`cube::find` rejects the
            // function otherwise), converted at its store.
            PlOp::Matmul(_) => unreachable!("a pl.matmul outside a GEMM"),
            PlOp::Read(_) | PlOp::Write(_) => self.convert_scalar_access(builder, op, site)?,
            PlOp::At(_) | PlOp::Spmd(_) => self.convert_task(builder, op)?,
            PlOp::SplitAiv(_) => self.convert_split_aiv(builder, op)?,
        }
        Ok(())
    }

    /// A `pld` op that reaches the conversion ([`super::is_unexpanded`]
    /// lists those that do not, and the module was checked for them).
    fn convert_pld(
        &mut self,
        pld_op: PldOp<'c, 'c>,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        match pld_op {
            PldOp::SystemGetCommCtx(_) => {
                let get = pld::SystemGetCommCtxOp::operands(&op).expect("dispatched on contexts");
                let group = self.buffer(get.tensor).ok().and_then(|buffer| buffer.group);
                self.lowered
                    .insert(ValueKey::of(Builder::result(op)), Lowered::Ctx(group));
                self.replaced.push(op);
            }
            PldOp::SystemRank(_) => {
                let ctx = pld::SystemRankOp::operands(&op)
                    .expect("dispatched on ranks")
                    .ctx;
                let rank = builder.rank(self.lowered_ctx(ctx));
                self.replace(op, &[as_result_type(builder, rank, op)])
            }
            PldOp::SystemNranks(_) => {
                let ctx = pld::SystemNranksOp::operands(&op)
                    .expect("dispatched on nranks")
                    .ctx;
                let count = builder.nranks(self.lowered_ctx(ctx));
                self.replace(op, &[as_result_type(builder, count, op)])
            }
            PldOp::SystemWorldSize(_) => self.replace(op, &[builder.world_size(self.ctx())]),
            PldOp::SystemWorldRank(_) => {
                let rank = builder.rank(self.ctx());
                self.replace(op, &[as_result_type(builder, rank, op)])
            }
            PldOp::SystemNotify(_) => self.convert_notify(builder, op, site)?,
            PldOp::SystemWait(_) | PldOp::SystemDeferWait(_) => {
                self.convert_wait(builder, op, site)?
            }
            PldOp::TileRemoteLoad(_) => self.convert_tile_load(builder, op, site)?,
            PldOp::TileRemoteStore(_) => self.convert_tile_store(builder, op, site)?,
            PldOp::TensorAllocWindowBuffer(_) => self.convert_window_buffer(builder, op)?,
            PldOp::TensorWindow(_) => self.convert_window(builder, op)?,
            PldOp::TensorReshape(_) => self.convert_reshape(op)?,
            PldOp::TensorDim(_) => self.convert_dim(builder, op)?,
            PldOp::TensorPut(_) | PldOp::TensorGet(_) if super::is_sdma_transfer(op) => {
                self.convert_sdma_transfer(builder, op, site)?
            }
            unexpanded => {
                debug_assert!(super::is_unexpanded(unexpanded));
                return Err(cannot_lower(op));
            }
        }
        Ok(())
    }

    /// `notify`: a TNOTIFY of the peer's cell.
    fn convert_notify(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        let notify = pld::SystemNotifyOp::operands(&op).expect("dispatched on notify");
        let signal = self.buffer(notify.target)?;
        let peer = Ix::Dyn(notify.peer);
        let value = notify.value;
        let attributes = pld::SystemNotifyOp::attributes(&op).expect("a verified notify");
        let cell = self.cell(
            builder,
            &signal,
            &attributes.static_offsets,
            &notify.offsets,
        );
        let remote = builder.peer_ptr(self.ctx_of(&signal), cell, peer, site);
        let notify = match attributes.op {
            enums::NotifyOp::Set => enums::ascend::NotifyOp::Set,
            enums::NotifyOp::AtomicAdd => enums::ascend::NotifyOp::AtomicAdd,
        };
        builder.tnotify(remote, value, notify, signal.ptr, &signal.dims, site);
        erase_op(op);
        Ok(())
    }

    /// `wait` (a TWAIT) and `defer_wait` (a completion the running task defers).
    fn convert_wait(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        // A wait and a defer_wait name their operands and attributes alike.
        const VERIFIED: &str = "a verified wait";
        let (signal, offsets, expected, static_offsets, cmp) =
            match pld::SystemWaitOp::operands(&op) {
                Some(wait) => {
                    let attributes = pld::SystemWaitOp::attributes(&op).expect(VERIFIED);
                    let (static_offsets, cmp) = (attributes.static_offsets, attributes.cmp);
                    (
                        wait.signal,
                        wait.offsets,
                        wait.expected,
                        static_offsets,
                        cmp,
                    )
                }
                None => {
                    let wait = pld::SystemDeferWaitOp::operands(&op).expect("dispatched on waits");
                    let attributes = pld::SystemDeferWaitOp::attributes(&op).expect(VERIFIED);
                    let (static_offsets, cmp) = (attributes.static_offsets, attributes.cmp);
                    (
                        wait.signal,
                        wait.offsets,
                        wait.expected,
                        static_offsets,
                        cmp,
                    )
                }
            };
        let signal = self.buffer(signal)?;
        let cell = self.cell(builder, &signal, &static_offsets, &offsets);
        if name(op) == pld::SystemDeferWaitOp::NAME {
            let payload = self.payload.ok_or(
                "a defer_wait outside a task body cannot be lowered: it registers with \
                 the running task's completion (put it in a pl.at task of a host \
                 orchestrator)",
            )?;
            builder.defer_completion(payload, cell, expected, signal.ptr, &signal.dims, site);
        } else {
            // By name: pld's `ge` is 1, PTO's `GE` is 3.
            let cmp = match cmp {
                enums::WaitCmp::Eq => enums::ascend::WaitCmp::Eq,
                enums::WaitCmp::Ge => enums::ascend::WaitCmp::Ge,
            };
            builder.twait(cell, expected, cmp, signal.ptr, &signal.dims, site);
        }
        erase_op(op);
        Ok(())
    }

    /// What a tile load (local or remote) reads: its memory, the peer, the
    /// region's offsets and its `valid` list.
    pub(super) fn tile_load_parts(op: OpRef<'c>) -> TileAccess<'c> {
        // A remote and a local load name their operands and attributes alike.
        const VERIFIED: &str = "a verified tile load";
        match pld::TileRemoteLoadOp::operands(&op) {
            Some(load) => {
                let attributes = pld::TileRemoteLoadOp::attributes(&op).expect(VERIFIED);
                TileAccess {
                    memory: load.target,
                    peer: Some(Ix::Dyn(load.peer)),
                    offsets: mixed_list(&attributes.static_offsets, &load.offsets),
                    valid: Self::valid_list(op),
                }
            }
            None => {
                let load = pl::LoadOp::operands(&op).expect("dispatched on tile loads");
                let attributes = pl::LoadOp::attributes(&op).expect(VERIFIED);
                TileAccess {
                    memory: load.source,
                    peer: None,
                    offsets: mixed_list(&attributes.static_offsets, &load.offsets),
                    valid: Self::valid_list(op),
                }
            }
        }
    }

    /// A tile load, local or remote: a TLOAD from a view of the region.
    fn convert_tile_load(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        let load = Self::tile_load_parts(op);
        let source = self.buffer(load.memory)?;
        let partial = load.valid.is_some();
        let tile_type = Builder::result(op).r#type();
        let extents = Self::access_extents(tile_type, load.valid);
        let view = self.region_view(builder, &source, &load.offsets, &extents, load.peer, site);
        let tile = self.new_tile(builder, tile_type, &extents, partial)?;
        builder.tload(tile, view, site);
        self.replace(op, &[tile]);
        Ok(())
    }

    /// A tile store, local or remote: a TSTORE to a view of the region.
    fn convert_tile_store(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        // A remote and a local store name their operands and attributes
        // alike; only a remote store accumulates.
        const VERIFIED: &str = "a verified tile store";
        let (tile, dest, peer, offsets, static_offsets, atomic) =
            match pld::TileRemoteStoreOp::operands(&op) {
                Some(store) => {
                    let attributes = pld::TileRemoteStoreOp::attributes(&op).expect(VERIFIED);
                    (
                        store.source,
                        store.target,
                        Some(Ix::Dyn(store.peer)),
                        store.offsets,
                        attributes.static_offsets,
                        attributes.atomic,
                    )
                }
                None => {
                    let store = pl::StoreOp::operands(&op).expect("dispatched on tile stores");
                    let attributes = pl::StoreOp::attributes(&op).expect(VERIFIED);
                    (
                        store.value,
                        store.dest,
                        None,
                        store.offsets,
                        attributes.static_offsets,
                        enums::AtomicType::None,
                    )
                }
            };
        let dest = self.buffer(dest)?;
        let rank = static_offsets.len();
        let offsets = mixed_list(&static_offsets, &offsets);
        let valid = Self::valid_list(op);
        let pl_tile = self.logical_type(rank, tile);
        let extents = Self::access_extents(pl_tile, valid);
        let view = self.region_view(builder, &dest, &offsets, &extents, peer, site);
        let atomic = match atomic {
            enums::AtomicType::Add => enums::ascend::AtomicType::AtomicAdd,
            enums::AtomicType::None => enums::ascend::AtomicType::AtomicNone,
        };
        builder.tstore(view, tile, atomic, site);
        erase_op(op);
        Ok(())
    }

    /// Element-wise tile math: the vector instruction into a new tile.
    fn convert_tile_math(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        let (math, operands) = TileMath::of_op(name(op)).expect("dispatched on tile math");
        let (lhs, rhs) = pld_ir::read::elementwise_operands(&op).expect("TileMath named the op");
        // PTO computes over the destination's valid shape and
        // asserts that both operands share it: the result keeps the
        // left operand's.
        let valid = self.valid_of(builder, lhs);
        let shape = match valid {
            Valid::Full => None,
            Valid::Shape(rows, cols) => Some((rows, cols)),
        };
        let dst = builder.tile(lhs.r#type(), shape);
        // Tile math takes 2-D tiles.
        let logical = self.logical_type(2, lhs);
        self.tiles.insert(ValueKey::of(dst), (logical, valid));
        match operands {
            Operands::Tiles => builder.tile_math(math, dst, lhs, rhs, site),
            Operands::Scalar => builder.tile_math_scalar(math, dst, lhs, rhs, site),
        }
        self.replace(op, &[dst]);
        Ok(())
    }

    /// `pl.cast`: a new tile of the result type with the source's valid
    /// shape, TCVT of the source into it.
    fn convert_cast(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        let cast = pl::CastOp::operands(&op).expect("dispatched on pl.cast");
        let round = pl::CastOp::get_round(&op).expect("a verified pl.cast");
        let valid = self.valid_of(builder, cast.source);
        let tile_type = Builder::result(op).r#type();
        let (lowered, _) = ascend_tile(builder.context, tile_type)?;
        let shape = match valid {
            Valid::Full => None,
            Valid::Shape(rows, cols) => Some((rows, cols)),
        };
        // A narrower element pads its rows to fewer columns: the logical
        // width is the valid one whenever the padding differs.
        let padded = ascend_types::tile_shape(lowered)
            .zip(ascend_types::tile_shape(cast.source.r#type()))
            .is_some_and(|((_, to, _), (_, from, _))| to != from);
        let shape = match (shape, padded) {
            (None, true) => {
                let logical = self.logical_type(2, cast.source);
                let extents = Self::access_extents(logical, None);
                Some(region_extent(builder, &extents))
            }
            (shape, _) => shape,
        };
        let dst = builder.tile(lowered, shape);
        let known = shape.map_or(Valid::Full, |(rows, cols)| Valid::Shape(rows, cols));
        self.tiles.insert(ValueKey::of(dst), (tile_type, known));
        builder.tcvt(dst, cast.source, round, site);
        self.replace(op, &[dst]);
        Ok(())
    }

    /// `pl.full`: a new tile of the result type, TEXPANDS of the value.
    fn convert_full(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        let full = pl::FullOp::operands(&op).expect("dispatched on pl.full");
        let tile_type = Builder::result(op).r#type();
        let extents = Self::access_extents(tile_type, None);
        let tile = self.new_tile(builder, tile_type, &extents, false)?;
        builder.tile_math_scalar(TileMath::Expand, tile, tile, full.value, site);
        self.replace(op, &[tile]);
        Ok(())
    }

    /// A scalar `read` or `write` of local memory.
    fn convert_scalar_access(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        // A read's source or a write's destination, and what it writes.
        const VERIFIED: &str = "a verified scalar access";
        let (memory, offsets, static_offsets, written) = match pl::ReadOp::operands(&op) {
            Some(read) => {
                let attributes = pl::ReadOp::attributes(&op).expect(VERIFIED);
                (read.source, read.offsets, attributes.static_offsets, None)
            }
            None => {
                let write = pl::WriteOp::operands(&op).expect("dispatched on scalar access");
                let attributes = pl::WriteOp::attributes(&op).expect(VERIFIED);
                (
                    write.dest,
                    write.offsets,
                    attributes.static_offsets,
                    Some(write.value),
                )
            }
        };
        let memory = self.buffer(memory)?;
        let offsets = mixed_list(&static_offsets, &offsets);
        let start = memory.linear(builder, &offsets);
        let pointer = builder.offset(memory.ptr, start);
        let tensor = Some(memory.tensor(builder));
        match written {
            None => {
                let value = builder.read(pointer, memory.element, tensor, site);
                self.replace(op, &[value]);
            }
            Some(value) => {
                builder.write(value, pointer, tensor, site);
                erase_op(op);
            }
        }
        Ok(())
    }

    /// A split-AIV region: its outlined body run on both vector lanes.
    fn convert_split_aiv(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
    ) -> Result<(), ConvertError> {
        let outlined = self.outlined(op)?;
        let captures = self.call_operands(builder, &outlined.captures)?;
        let args = self.with_payload(builder, &outlined.symbol, captures);
        let run = ascend::RunOnLanesOp {
            body: FlatSymbolRefAttribute::new(builder.context, &outlined.symbol).into(),
            ctx: self.ctx(),
            args: &args,
        };
        builder.insert(run.build(builder.context, builder.location));
        erase_op(op);
        Ok(())
    }

    /// A return: kernels return nothing, host and device code their values.
    fn convert_return(&mut self, builder: &Builder<'c>, op: OpRef<'c>) -> Result<(), ConvertError> {
        let returned = if self.function.kind == Kind::Kernel {
            Vec::new()
        } else {
            func::ReturnOp::operands(&op)
                .expect("dispatched on func.return")
                .operands
        };
        let values = returned
            .into_iter()
            .map(|value| self.returned(value))
            .collect::<Result<Vec<_>, _>>()?;
        let r#return = func::ReturnOp { operands: &values };
        builder.insert(r#return.build(builder.context, builder.location));
        erase_op(op);
        Ok(())
    }

    /// A window buffer: the runtime's allocation of its bytes.
    fn convert_window_buffer(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
    ) -> Result<(), ConvertError> {
        let buffer = pld::TensorAllocWindowBufferOp::operands(&op).expect("dispatched on buffers");
        let attributes =
            pld::TensorAllocWindowBufferOp::attributes(&op).expect("a verified window buffer");
        let sizes = mixed_list(&attributes.static_sizes, &buffer.sizes);
        let element_bytes = attributes.dtype.and_then(types::byte_width).unwrap_or(1);
        let bytes = sizes.iter().fold(Ix::Const(element_bytes), |bytes, size| {
            builder.mul(bytes, *size)
        });
        let buffer = builder.alloc_window(self.ctx(), bytes, attributes.name);
        if let Some(ranks) = attributes.ranks {
            let ctx = builder.comm_group(self.ctx(), &ranks);
            let group = Group {
                ranks: ranks.into(),
                ctx,
            };
            self.groups.insert(ValueKey::of(Builder::result(op)), group);
        }
        self.lowered
            .insert(ValueKey::of(Builder::result(op)), Lowered::Value(buffer));
        self.replaced.push(op);
        Ok(())
    }

    /// A window over a buffer: the buffer as a pointer to its elements.
    fn convert_window(&mut self, builder: &Builder<'c>, op: OpRef<'c>) -> Result<(), ConvertError> {
        let window = pld::TensorWindowOp::operands(&op).expect("dispatched on windows");
        let buffer = match self.lowered.get(&ValueKey::of(window.buffer)) {
            Some(Lowered::Value(buffer)) => *buffer,
            _ => {
                return Err("a window over a buffer that is not a lowered window buffer".into());
            }
        };
        let result = Builder::result(op);
        let element = types::element_type(result.r#type()).expect("a shaped view");
        let ptr = builder.window_as(buffer, element);
        let dims = Buffer::dims_of(result.r#type(), &window.dynamic_sizes);
        let group = self.groups.get(&ValueKey::of(window.buffer)).cloned();
        self.lowered.insert(
            ValueKey::of(result),
            Lowered::Buffer(Buffer {
                ptr,
                dims,
                element,
                group,
            }),
        );
        self.replaced.push(op);
        Ok(())
    }

    /// A reshape (pld's or memref.expand_shape): the same pointer, new dimensions.
    fn convert_reshape(&mut self, op: OpRef<'c>) -> Result<(), ConvertError> {
        let (source, sizes) = if let Some(reshape) = pld::TensorReshapeOp::operands(&op) {
            (reshape.source, reshape.dynamic_sizes)
        } else {
            let expand = memref::ExpandShapeOp::operands(&op).expect("dispatched on reshapes");
            (expand.src, expand.output_shape)
        };
        let source = self.buffer(source)?;
        let result = Builder::result(op);
        let dims = Buffer::dims_of(result.r#type(), &sizes);
        self.lowered.insert(
            ValueKey::of(result),
            Lowered::Buffer(Buffer { dims, ..source }),
        );
        self.replaced.push(op);
        Ok(())
    }

    /// `memref.collapse_shape` to one dimension: the same pointer, one dimension.
    fn convert_collapse(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
    ) -> Result<(), ConvertError> {
        let collapse = memref::CollapseShapeOp::operands(&op).expect("dispatched on collapses");
        let source = self.buffer(collapse.src)?;
        let result = Builder::result(op);
        let len = source.len(builder);
        // Only a collapse to one dimension needs no reassociation.
        if types::shape(result.r#type()).is_some_and(|shape| shape.len() != 1) {
            return Err("only a memref.collapse_shape to one dimension can be lowered".into());
        }
        self.lowered.insert(
            ValueKey::of(result),
            Lowered::Buffer(Buffer {
                dims: vec![len],
                ..source
            }),
        );
        self.replaced.push(op);
        Ok(())
    }

    /// A dimension (`pld.tensor.dim` or `memref.dim`) of a lowered buffer.
    fn convert_dim(&mut self, builder: &Builder<'c>, op: OpRef<'c>) -> Result<(), ConvertError> {
        let (source, dim) = if let Some(dim) = pld::TensorDimOp::operands(&op) {
            (
                dim.source,
                pld::TensorDimOp::attributes(&op).map(|attributes| attributes.dim),
            )
        } else {
            let dim = memref::DimOp::operands(&op).expect("dispatched on dims");
            (dim.source, pld_ir::build::constant_of(dim.index))
        };
        let source = self.buffer(source)?;
        let dim = dim.ok_or("a dimension index that is not a constant cannot be lowered")?;
        let size = *source
            .dims
            .get(dim as usize)
            .ok_or("a dimension index out of range")?;
        self.replace(op, &[builder.value(size)]);
        Ok(())
    }

    /// A hand-off's memory (`handoff.rs`): this block's part of the hand-off
    /// space at the hand-off's offset, as a buffer of the product's shape.
    fn convert_handoff(&mut self, builder: &Builder<'c>, op: OpRef<'c>) {
        let space = self
            .handoff
            .expect("a kernel with hand-offs takes the space");
        let block = Ix::Dyn(builder.block_idx(self.payload));
        let start = builder.mul(block, Ix::Const(self.function.handoff_bytes));
        let start = builder.add(start, Ix::Const(super::handoff::offset_of(op)));
        let memref = Builder::result(op).r#type();
        let element = types::element_type(memref).expect("a memref");
        let ptr = builder.window_as(builder.offset(space, start), element);
        let dims = Buffer::dims_of(memref, &[]);
        self.lowered.insert(
            ValueKey::of(Builder::result(op)),
            Lowered::Buffer(Buffer {
                ptr,
                dims,
                element,
                group: None,
            }),
        );
        self.replaced.push(op);
    }

    /// Any other op: kept, unless it touches pl or pld, which nothing lowers.
    /// An op of neither pl nor pld (those are dispatched on their views):
    /// it stays as it is unless it touches a pld-level type.
    fn convert_other(&mut self, op: OpRef<'c>) -> Result<(), ConvertError> {
        let touches_pld = (0..op.operand_count())
            .map(|index| operand(op, index).r#type())
            .chain((0..op.result_count()).map(|index| Builder::result_at(op, index).r#type()))
            .any(is_pld_level_type);
        if touches_pld {
            return Err(cannot_lower(op));
        }
        Ok(())
    }

    /// The cell of `signal` at an op's `static_offsets` with its dynamic
    /// `offsets`.
    fn cell(
        &self,
        builder: &Builder<'c>,
        signal: &Buffer<'c>,
        static_offsets: &[i64],
        offsets: &[Val<'c>],
    ) -> Val<'c> {
        let offsets = mixed_list(static_offsets, offsets);
        let start = signal.linear(builder, &offsets);
        builder.offset(signal.ptr, start)
    }

    fn outlined(&self, op: OpRef<'c>) -> Result<super::Outlined<'c>, ConvertError> {
        self.functions
            .outlined
            .get(&OpKey::of(op))
            .cloned()
            .ok_or_else(|| ConvertError(format!("'{}' was not outlined", name(op))))
    }

    /// The lowered operands of a call: buffers as pointer and dynamic
    /// dimensions, the CommContext left out (callees take their own).
    fn call_operands(
        &self,
        builder: &Builder<'c>,
        values: &[Val<'c>],
    ) -> Result<Vec<Val<'c>>, ConvertError> {
        let mut operands = Vec::new();
        for value in values {
            match self.lowered.get(&ValueKey::of(*value)) {
                Some(Lowered::Buffer(buffer)) => {
                    operands.push(buffer.ptr);
                    let shape = types::shape(value.r#type()).expect("a shaped value");
                    for (dim, size) in shape.iter().zip(&buffer.dims) {
                        if *dim == types::DYNAMIC {
                            operands.push(match size {
                                Ix::Dyn(value) => *value,
                                Ix::Const(_) => builder.value(*size),
                            });
                        }
                    }
                }
                Some(Lowered::Ctx(_)) => {}
                Some(Lowered::Value(lowered)) => operands.push(*lowered),
                None if is_buffer(*value) => {
                    return Err(self
                        .buffer(*value)
                        .err()
                        .unwrap_or(ConvertError(String::new())));
                }
                None => operands.push(*value),
            }
        }
        Ok(operands)
    }

    /// The arguments of a launch or submission of the kernel `symbol` on
    /// `blocks` blocks: a kernel that moves data with SDMA takes the SDMA
    /// workspace the runtime set up and a sync id (0) first, a mixed kernel
    /// the runtime's FFTS base address, and one with hand-offs its blocks'
    /// hand-off space (the kernel ABI).
    fn with_runtime_arguments(
        &self,
        builder: &Builder<'c>,
        symbol: &str,
        blocks: Ix<'c>,
        arguments: Vec<Val<'c>>,
    ) -> Vec<Val<'c>> {
        let Some(callee) = self
            .functions
            .by_symbol
            .get(symbol)
            .filter(|callee| callee.kind == Kind::Kernel)
        else {
            return arguments;
        };
        if !callee.sdma && !callee.mixed && callee.handoff_bytes == 0 {
            return arguments;
        }
        let mut with = Vec::new();
        if callee.sdma {
            with.extend([builder.sdma_workspace(self.ctx()), builder.i32(0)]);
        }
        if callee.mixed {
            with.push(builder.ffts_addr(self.ctx()));
        }
        if callee.handoff_bytes > 0 {
            let bytes = builder.mul(blocks, Ix::Const(callee.handoff_bytes));
            with.push(builder.handoff_workspace(self.ctx(), bytes));
        }
        with.extend(arguments);
        with
    }

    /// The arguments of InCore code's call of the function `symbol`: one
    /// that takes the dispatch payload gets this function's, or a null
    /// payload where this is a kernel launched without one (the kernel
    /// ABI).
    fn with_payload(
        &self,
        builder: &Builder<'c>,
        symbol: &str,
        arguments: Vec<Val<'c>>,
    ) -> Vec<Val<'c>> {
        if !self
            .functions
            .by_symbol
            .get(symbol)
            .is_some_and(|callee| callee.payload)
        {
            return arguments;
        }
        let payload = self.payload.unwrap_or_else(|| builder.no_payload());
        std::iter::once(payload).chain(arguments).collect()
    }

    fn returned(&self, value: Val<'c>) -> Result<Val<'c>, ConvertError> {
        match self.lowered.get(&ValueKey::of(value)) {
            Some(Lowered::Buffer(buffer)) => Ok(buffer.ptr),
            Some(Lowered::Value(lowered)) => Ok(*lowered),
            Some(Lowered::Ctx(_)) => Err("a function cannot return its CommContext".into()),
            None => Ok(value),
        }
    }

    /// A task scope: `ascend.submit` of its outlined kernel with its deps,
    /// block count and dispatch predicate.
    fn convert_task(&mut self, builder: &Builder<'c>, op: OpRef<'c>) -> Result<(), ConvertError> {
        let outlined = self.outlined(op)?;
        let args = self.call_operands(builder, &outlined.captures)?;
        let (blocks, deps, dispatch) = match pl::SpmdOp::operands(&op) {
            Some(spmd) => (spmd.num_blocks, spmd.deps, vec![]),
            None => {
                let at = pl::AtOp::operands(&op).expect("dispatched on tasks");
                (
                    builder.index(1),
                    at.deps,
                    at.dispatch_if.into_iter().collect(),
                )
            }
        };
        let mut deps_lowered = Vec::new();
        for dep in deps {
            match self.lowered.get(&ValueKey::of(dep)) {
                Some(Lowered::Value(task)) => deps_lowered.push(*task),
                _ => deps_lowered.push(dep),
            }
        }
        let hint = pld_ir::attributes::task_name(&op).unwrap_or_default();
        let ctx = self.call_ctx(&outlined.captures, &format!("the task \"{hint}\""))?;
        let args = self.with_runtime_arguments(builder, &outlined.symbol, Ix::Dyn(blocks), args);
        let submit = ascend::SubmitOp {
            kernel: FlatSymbolRefAttribute::new(builder.context, &outlined.symbol).into(),
            ctx,
            args: &args,
            deps: &deps_lowered,
            blocks,
            dispatch: dispatch.first().copied(),
            name: StringAttribute::new(builder.context, hint).into(),
            task: ascend_types::task(builder.context),
        };
        let task = builder.build_one(submit.build(builder.context, builder.location));
        self.replace(op, &[task]);
        Ok(())
    }

    /// A call: a launch when host code calls a kernel, else a call with the
    /// CommContext and the lowered operands.
    fn convert_call(&mut self, builder: &Builder<'c>, op: OpRef<'c>) -> Result<(), ConvertError> {
        let callee_symbol = callee_name(&op).ok_or("a call without a callee")?;
        let Some(callee) = self.functions.by_symbol.get(&callee_symbol) else {
            return Err(
                format!("the callee @{callee_symbol} is not a function of this module").into(),
            );
        };
        let values: Vec<Val> = (0..op.operand_count())
            .map(|index| operand(op, index))
            .collect();
        let arguments = self.call_operands(builder, &values)?;
        let symbol = FlatSymbolRefAttribute::new(builder.context, &callee_symbol);
        let ctx = self.call_ctx(&values, &format!("the call of @{callee_symbol}"))?;
        if self.function.kind == Kind::Host && is_incore(callee.kind) {
            if op.result_count() > 0 {
                return Err(
                    format!("host code cannot use results of the kernel @{callee_symbol}").into(),
                );
            }
            let arguments =
                self.with_runtime_arguments(builder, &callee_symbol, Ix::Const(1), arguments);
            let launch = ascend::LaunchOp {
                kernel: symbol.into(),
                ctx,
                args: &arguments,
                blocks: builder.index(1),
            };
            builder.insert(launch.build(builder.context, builder.location));
            erase_op(op);
            return Ok(());
        }
        let mut results = Vec::new();
        for index in 0..op.result_count() {
            let r#type = Builder::result_at(op, index).r#type();
            results.push(match self.parameter_types(r#type)?.as_slice() {
                [single] => *single,
                _ => return Err(format!("a call returning '{type}' cannot be lowered").into()),
            });
        }
        // A function runs in its caller's communicator; only a kernel's
        // launch (or a task) enters a comm group's.
        if ctx != self.ctx() {
            return Err(format!(
                "the call of @{callee_symbol} passes windows of a comm group to a function that \
                 is not a kernel: launch a kernel (or submit a task) with them instead"
            )
            .into());
        }
        let mut operands = vec![self.ctx()];
        operands.extend(self.with_payload(builder, &callee_symbol, arguments));
        let call = func::CallOp {
            callee: symbol.into(),
            operands: &operands,
            arg_attrs: None,
            res_attrs: None,
            no_inline: false,
            results,
        };
        let call = builder.insert(call.build(builder.context, builder.location));
        for index in 0..op.result_count() {
            let old = Builder::result_at(op, index);
            let new = Builder::result_at(call, index);
            match self.lowered_parameter(old.r#type(), &[new]) {
                Some(lowered) => {
                    self.lowered.insert(ValueKey::of(old), lowered);
                }
                None => {
                    // SAFETY: both are live values of one type.
                    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
                }
            }
        }
        self.replaced.push(op);
        Ok(())
    }

    /// Tiles carried by scf become ascend tiles; window tensors cannot be.
    fn convert_region_types(&mut self, op: OpRef<'c>) -> Result<(), ConvertError> {
        let mut values: Vec<Val> = (0..op.result_count())
            .map(|index| Builder::result_at(op, index))
            .collect();
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(current) = block {
                for index in 0..current.argument_count() {
                    let argument = current.argument(index).expect("the argument exists");
                    // SAFETY: see the documentation of `pld_ir`.
                    values.push(unsafe { Val::from_raw(argument.to_raw()) });
                }
                block = current.next_in_region();
            }
        }
        for value in values {
            let r#type = value.r#type();
            if pld_types::is_tile(r#type) {
                value.set_type(ascend_tile(context_of(op), r#type)?.0);
                self.carried.insert(ValueKey::of(value), r#type);
            } else if is_buffer_type(r#type) {
                return Err(format!(
                    "a window tensor or memref ('{type}') carried by '{}' cannot be lowered: its \
                     address must be known where it is used",
                    name(op)
                )
                .into());
            } else if is_pld_level_type(r#type) {
                return Err(format!(
                    "a value of type '{type}' carried by '{}' cannot be lowered",
                    name(op)
                )
                .into());
            }
        }
        Ok(())
    }
}

fn cannot_lower(op: OpRef) -> ConvertError {
    format!("'{}' cannot be lowered to the ascend dialect", name(op)).into()
}

/// The pl tile type a store's source had (its operand may already be an
/// ascend tile when it came through a converted op).
fn pld_tile_type<'c>(context: &'c melior::Context, rank: usize, tile: Val<'c>) -> Type<'c> {
    let r#type = tile.r#type();
    if let Some((rows, cols, element)) = ascend_types::tile_shape(r#type) {
        // Tile accesses index the destination with one offset per dimension;
        // the extents of a lowered tile are its rows and columns, with the
        // destination's leading dimensions at 1.
        let mut shape = vec![1; rank.max(2)];
        let last = shape.len() - 1;
        shape[last - 1] = rows;
        shape[last] = cols;
        return pld_types::tile(context, &shape, element).expect("a valid tile shape");
    }
    r#type
}

/// Types that only the pld level has.
fn is_pld_level_type(r#type: Type) -> bool {
    pld_types::is_distributed_tensor(r#type)
        || pld_types::is_tile(r#type)
        || pld_types::is_comm_ctx(r#type)
        || pld_types::is_window_ptr(r#type)
        || pld_types::is_task_id(r#type)
        || types::is_memref(r#type)
}

/// `value`, an `i32` the runtime gives, as `op`'s result type: itself, or
/// cast where the op gives an `index` (`pld.system.rank %ctx : index`).
fn as_result_type<'c>(builder: &Builder<'c>, value: Val<'c>, op: OpRef<'c>) -> Val<'c> {
    let wanted = Builder::result(op).r#type();
    if wanted.is_index() {
        builder.index_cast(value, wanted)
    } else {
        value
    }
}

/// A `cf.assert` (the run-time checks `pld-expand-transfers` inserts, or a
/// user's) becomes `ascend.check`, named by the op it guards: the simulator
/// traps where it fails.
fn convert_assert<'c>(builder: &Builder<'c>, op: OpRef<'c>, site: Site) {
    let assert = cf::AssertOp::operands(&op).expect("dispatched on cf.assert");
    let message = cf::AssertOp::get_msg(&op).expect("a verified cf.assert");
    builder.check(assert.arg, message, site);
    erase_op(op);
}
