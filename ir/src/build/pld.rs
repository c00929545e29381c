//! Builders of the pl and pld ops the passes produce.
//!
//! Every builder's output is checked by the op verifiers (`--verify-each` in
//! every pass test).

use super::{Builder, Ix, constant_of};
use crate::{Val, types};
use melior::ir::{
    Attribute, Block, BlockLike, BlockRef, Region, RegionLike, Type, ValueLike,
    attribute::{ArrayAttribute, StringAttribute},
};
use pld_dialect::{
    enums::{AtomicType, Level, NotifyOp, ReduceOp, WaitCmp},
    ops::{memref, pl, pld},
};

/// A mixed static/dynamic index list read back: static entries as
/// constants, each dynamic marker paired with the next dynamic operand.
pub fn mixed_list<'c>(statics: &[i64], dynamic: &[Val<'c>]) -> Vec<Ix<'c>> {
    let mut dynamic = dynamic.iter();
    statics
        .iter()
        .map(|value| {
            if *value == types::DYNAMIC {
                let value = *dynamic.next().expect("one operand per dynamic entry");
                constant_of(value).map_or(Ix::Dyn(value), Ix::Const)
            } else {
                Ix::Const(*value)
            }
        })
        .collect()
}

// --- pld.system.* ----------------------------------------------------------

impl<'c> Builder<'c> {
    /// `pld.system.get_comm_ctx` of a window tensor.
    pub fn comm_ctx(&self, tensor: Val<'c>) -> Val<'c> {
        let ctx = pld_dialect::types::comm_ctx(self.context);
        self.build_one(pld::SystemGetCommCtxOp { tensor, ctx }.build(self.context, self.location))
    }

    /// `pld.system.rank` as an index.
    pub fn rank_index(&self, ctx: Val<'c>) -> Ix<'c> {
        let rank = pld::SystemRankOp {
            ctx,
            rank: self.i32_type(),
        };
        let rank = self.build_one(rank.build(self.context, self.location));
        self.i32_to_index(rank)
    }

    /// `pl.get_block_idx`: the block of the kernel launch running this code.
    pub fn pl_block_idx(&self) -> Ix<'c> {
        let index = pl::GetBlockIdxOp {
            index: self.index_type(),
        };
        Ix::Dyn(self.build_one(index.build(self.context, self.location)))
    }

    /// `pld.system.nranks` as an index.
    pub fn nranks_index(&self, ctx: Val<'c>) -> Ix<'c> {
        let count = pld::SystemNranksOp {
            ctx,
            nranks: self.i32_type(),
        };
        let count = self.build_one(count.build(self.context, self.location));
        self.i32_to_index(count)
    }

    /// `pld.system.notify signal[offsets], peer peer, value value, op op`.
    pub fn notify(
        &self,
        signal: Val<'c>,
        peer: Ix<'c>,
        offsets: &[Ix<'c>],
        value: Val<'c>,
        op: NotifyOp,
    ) {
        let (dynamic, static_offsets) = self.index_list(offsets);
        let notify = pld::SystemNotifyOp {
            target: signal,
            peer: self.value(peer),
            offsets: &dynamic,
            static_offsets,
            value,
            op: op.attribute(self.context),
        };
        self.insert(notify.build(self.context, self.location));
    }

    /// `pld.system.wait signal[offsets], expected expected, cmp cmp`.
    pub fn wait(&self, signal: Val<'c>, offsets: &[Ix<'c>], expected: Val<'c>, cmp: WaitCmp) {
        let (dynamic, static_offsets) = self.index_list(offsets);
        let wait = pld::SystemWaitOp {
            signal,
            offsets: &dynamic,
            static_offsets,
            expected,
            cmp: cmp.attribute(self.context),
        };
        self.insert(wait.build(self.context, self.location));
    }

    // --- tiles -------------------------------------------------------------

    /// The optional `valid` list of a tile access: left out when it is the
    /// whole tile.
    fn valid_list(
        &self,
        tile: Type<'c>,
        valid: Option<&[Ix<'c>]>,
    ) -> Option<(Vec<Val<'c>>, Attribute<'c>)> {
        let valid = valid?;
        let shape = types::shape(tile).expect("a tile is shaped");
        let whole = valid
            .iter()
            .zip(&shape)
            .all(|(ix, extent)| ix.constant() == Some(*extent));
        (!whole).then(|| self.index_list(valid))
    }

    /// `pl.load source[offsets] valid [...] -> tile`.
    pub fn load(
        &self,
        source: Val<'c>,
        offsets: &[Ix<'c>],
        tile: Type<'c>,
        valid: Option<&[Ix<'c>]>,
    ) -> Val<'c> {
        let (offsets, static_offsets) = self.index_list(offsets);
        let (valid_sizes, static_valid_sizes) = self.valid_list(tile, valid).unzip();
        let load = pl::LoadOp {
            source,
            offsets: &offsets,
            static_offsets,
            valid_sizes: valid_sizes.as_deref().unwrap_or_default(),
            static_valid_sizes,
            result: tile,
        };
        self.build_one(load.build(self.context, self.location))
    }

    /// `pl.read source[offsets]`: one element, as a scalar of its type.
    pub fn pl_read(&self, source: Val<'c>, offsets: &[Ix<'c>]) -> Val<'c> {
        let (offsets, static_offsets) = self.index_list(offsets);
        let read = pl::ReadOp {
            source,
            offsets: &offsets,
            static_offsets,
            result: crate::types::element_type(source.r#type())
                .expect("pl.read reads a shaped tensor"),
        };
        self.build_one(read.build(self.context, self.location))
    }

    /// `pl.store tile, dest[offsets] valid [...]`.
    pub fn store(
        &self,
        tile: Val<'c>,
        dest: Val<'c>,
        offsets: &[Ix<'c>],
        valid: Option<&[Ix<'c>]>,
    ) {
        let (offsets, static_offsets) = self.index_list(offsets);
        let (valid_sizes, static_valid_sizes) = self.valid_list(tile.r#type(), valid).unzip();
        let store = pl::StoreOp {
            value: tile,
            dest,
            offsets: &offsets,
            static_offsets,
            valid_sizes: valid_sizes.as_deref().unwrap_or_default(),
            static_valid_sizes,
        };
        self.insert(store.build(self.context, self.location));
    }

    /// `pld.tile.remote_load target[offsets], peer peer valid [...] -> tile`.
    pub fn remote_load(
        &self,
        target: Val<'c>,
        peer: Ix<'c>,
        offsets: &[Ix<'c>],
        tile: Type<'c>,
        valid: Option<&[Ix<'c>]>,
    ) -> Val<'c> {
        let (offsets, static_offsets) = self.index_list(offsets);
        let (valid_sizes, static_valid_sizes) = self.valid_list(tile, valid).unzip();
        let load = pld::TileRemoteLoadOp {
            target,
            peer: self.value(peer),
            offsets: &offsets,
            static_offsets,
            valid_sizes: valid_sizes.as_deref().unwrap_or_default(),
            static_valid_sizes,
            result: tile,
        };
        self.build_one(load.build(self.context, self.location))
    }

    /// `pld.tile.remote_store tile, target[offsets], peer peer valid [...]
    /// atomic atomic`.
    pub fn remote_store(
        &self,
        tile: Val<'c>,
        target: Val<'c>,
        peer: Ix<'c>,
        offsets: &[Ix<'c>],
        valid: Option<&[Ix<'c>]>,
        atomic: AtomicType,
    ) {
        let (offsets, static_offsets) = self.index_list(offsets);
        let (valid_sizes, static_valid_sizes) = self.valid_list(tile.r#type(), valid).unzip();
        let store = pld::TileRemoteStoreOp {
            source: tile,
            target,
            peer: self.value(peer),
            offsets: &offsets,
            static_offsets,
            valid_sizes: valid_sizes.as_deref().unwrap_or_default(),
            static_valid_sizes,
            atomic: (atomic != AtomicType::None).then(|| atomic.attribute(self.context)),
        };
        self.insert(store.build(self.context, self.location));
    }

    /// The element-wise combination of two tiles by a reduction operator
    /// (`prod` is a product: `pl.mul`).
    pub fn combine(&self, op: ReduceOp, lhs: Val<'c>, rhs: Val<'c>) -> Val<'c> {
        let result = lhs.r#type();
        let combined = match op {
            ReduceOp::Sum => pl::AddOp { lhs, rhs, result }.build(self.context, self.location),
            ReduceOp::Max => pl::MaxOp { lhs, rhs, result }.build(self.context, self.location),
            ReduceOp::Min => pl::MinOp { lhs, rhs, result }.build(self.context, self.location),
            ReduceOp::Prod => pl::MulOp { lhs, rhs, result }.build(self.context, self.location),
        };
        self.build_one(combined)
    }

    /// A `put` or `get` of a region: `pld.tensor.put dst, peer peer, src
    /// dst_offsets [...] src_offsets [...] shape [...] chunk_cols ...`.
    pub fn transfer(&self, transfer: &Transfer<'c>) {
        let (dst_offsets, static_dst_offsets) = self.index_list(&transfer.dst_offsets);
        let (src_offsets, static_src_offsets) = self.index_list(&transfer.src_offsets);
        let (sizes, static_sizes) = self.index_list(&transfer.shape);
        let chunk = |extent: i64| (extent > 0).then(|| self.i64_attribute(extent));
        let (dst, peer, src) = (transfer.dst, self.value(transfer.peer), transfer.src);
        let op = if transfer.is_put {
            pld::TensorPutOp {
                dst,
                peer,
                src,
                dst_offsets: &dst_offsets,
                static_dst_offsets: Some(static_dst_offsets),
                src_offsets: &src_offsets,
                static_src_offsets: Some(static_src_offsets),
                sizes: &sizes,
                static_sizes: Some(static_sizes),
                atomic: None,
                engine: None,
                chunk_rows: chunk(transfer.chunk_rows),
                chunk_cols: chunk(transfer.chunk_cols),
                pipeline: transfer.pipeline,
            }
            .build(self.context, self.location)
        } else {
            pld::TensorGetOp {
                dst,
                peer,
                src,
                dst_offsets: &dst_offsets,
                static_dst_offsets: Some(static_dst_offsets),
                src_offsets: &src_offsets,
                static_src_offsets: Some(static_src_offsets),
                sizes: &sizes,
                static_sizes: Some(static_sizes),
                engine: None,
                chunk_rows: chunk(transfer.chunk_rows),
                chunk_cols: chunk(transfer.chunk_cols),
                pipeline: transfer.pipeline,
            }
            .build(self.context, self.location)
        };
        self.insert(op);
    }

    /// `pl.matmul lhs, rhs -> result`.
    pub fn matmul(&self, lhs: Val<'c>, rhs: Val<'c>, result: Type<'c>) -> Val<'c> {
        self.build_one(pl::MatmulOp { lhs, rhs, result }.build(self.context, self.location))
    }

    // --- tasks ---------------------------------------------------------------

    /// A region of one empty block, and a builder at its end.
    fn task_body(&self) -> (Region<'c>, Builder<'c>) {
        let region = Region::new();
        let block = region.append_block(Block::new(&[]));
        // SAFETY: see the module documentation of `build`; the block keeps
        // its address when the region moves into its op.
        let block = unsafe { BlockRef::from_raw(block.to_raw()) };
        (region, Builder::at_end(self.context, self.location, block))
    }

    /// `pl.spmd blocks name "name" deps [deps] { body }`: a task of `blocks`
    /// blocks; returns its id.
    pub fn spmd_task(
        &self,
        blocks: Ix<'c>,
        name: &str,
        deps: &[Val<'c>],
        body: impl FnOnce(&Builder<'c>),
    ) -> Val<'c> {
        let (region, inner) = self.task_body();
        let spmd = pl::SpmdOp {
            num_blocks: self.value(blocks),
            name_hint: StringAttribute::new(self.context, name).into(),
            deps,
            task: pld_dialect::types::task_id(self.context),
            body: region,
        };
        let task = self.build_one(spmd.build(self.context, self.location));
        body(&inner);
        task
    }

    /// `pl.at level core_group name "name" deps [deps] { body }`: a task of
    /// one block; returns its id.
    pub fn core_group_task(
        &self,
        name: &str,
        deps: &[Val<'c>],
        body: impl FnOnce(&Builder<'c>),
    ) -> Val<'c> {
        let (region, inner) = self.task_body();
        let at = pl::AtOp {
            level: Level::CoreGroup.attribute(self.context),
            name_hint: StringAttribute::new(self.context, name).into(),
            deps,
            dispatch_if: None,
            allow_early_resolve: false,
            task: pld_dialect::types::task_id(self.context),
            body: region,
        };
        let task = self.build_one(at.build(self.context, self.location));
        body(&inner);
        task
    }

    // --- views ---------------------------------------------------------------

    /// `pld.tensor.reshape source(dynamic sizes) : ... to result`.
    pub fn reshape(&self, source: Val<'c>, result: Type<'c>, dynamic_sizes: &[Val<'c>]) -> Val<'c> {
        let reshape = pld::TensorReshapeOp {
            source,
            dynamic_sizes,
            result,
        };
        self.build_one(reshape.build(self.context, self.location))
    }

    /// A 1-D memref as `[1, L]` (`memref.expand_shape`); `len` is `L` when
    /// static, else the one dynamic size.
    pub fn expand_to_row(
        &self,
        memref: Val<'c>,
        row: Type<'c>,
        len: i64,
        dynamic: &[Val<'c>],
    ) -> Val<'c> {
        let group = ArrayAttribute::new(
            self.context,
            &[self.i64_attribute(0), self.i64_attribute(1)],
        );
        let reassociation: Attribute = ArrayAttribute::new(self.context, &[group.into()]).into();
        let expand = memref::ExpandShapeOp {
            src: memref,
            reassociation,
            output_shape: dynamic,
            static_output_shape: self.i64_array(&[1, len]),
            result: row,
        };
        self.build_one(expand.build(self.context, self.location))
    }

    /// The extent of dimension `dim` of a window tensor or memref: the static
    /// size, or `pld.tensor.dim` / `memref.dim` of a dynamic one.
    pub fn dim(&self, shaped: Val<'c>, dim: usize) -> Ix<'c> {
        let shape = types::shape(shaped.r#type()).expect("a shaped value");
        if shape[dim] != types::DYNAMIC {
            return Ix::Const(shape[dim]);
        }
        if types::is_memref(shaped.r#type()) {
            let index = self.index(dim as i64);
            let dim = memref::DimOp {
                source: shaped,
                index,
                result: self.index_type(),
            };
            return Ix::Dyn(self.build_one(dim.build(self.context, self.location)));
        }
        let dim = pld::TensorDimOp {
            source: shaped,
            dim: self.i64_attribute(dim as i64),
            result: self.index_type(),
        };
        Ix::Dyn(self.build_one(dim.build(self.context, self.location)))
    }
}

/// A region transfer to build with [`Builder::transfer`].
pub struct Transfer<'c> {
    pub is_put: bool,
    pub dst: Val<'c>,
    pub peer: Ix<'c>,
    pub src: Val<'c>,
    pub dst_offsets: Vec<Ix<'c>>,
    pub src_offsets: Vec<Ix<'c>>,
    pub shape: Vec<Ix<'c>>,
    pub chunk_rows: i64,
    pub chunk_cols: i64,
    /// Staged through two tiles (ping/pong), see `pld-expand-transfers`.
    pub pipeline: bool,
}
