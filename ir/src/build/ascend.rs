//! Builders of ascend ops, for the lowering passes.

use crate::{Builder, Ix, OpRef, Val};
use melior::ir::{
    Attribute, Type, ValueLike,
    attribute::{DenseI64ArrayAttribute, IntegerAttribute, StringAttribute},
    operation::OperationLike,
};
use pld_dialect::ops::ascend;
use pld_dialect::{
    enums::RoundMode,
    enums::ascend::{AtomicType, Core, NotifyOp, Pipe, WaitCmp},
    target::TileMath,
    types::ascend as types,
};
use std::marker::PhantomData;

/// Where a trapping or blocking op comes from, for the simulator's reports.
pub type Site<'a> = Option<&'a str>;

/// The tensor an access lies in: its first element on this rank and its
/// element count (`in %t[%n]` of `ascend.view`, `read`, `write`), for the
/// simulator's bounds check.
#[derive(Clone, Copy)]
pub struct Tensor<'c> {
    pub base: Val<'c>,
    pub elements: Ix<'c>,
}

/// The ascend ops, built at a [`Builder`]'s insertion point.
pub trait AscendBuilder<'c> {
    /// The `site` attribute of an op that traps or blocks.
    fn site_attribute(&self, site: Site) -> Option<Attribute<'c>>;
    /// `tensor`'s operands (`in %t[%n]`): its base and element count.
    fn tensor_operands(&self, tensor: Option<Tensor<'c>>) -> (Option<Val<'c>>, Option<Val<'c>>);
    fn rank(&self, ctx: Val<'c>) -> Val<'c>;
    fn nranks(&self, ctx: Val<'c>) -> Val<'c>;
    fn world_size(&self, ctx: Val<'c>) -> Val<'c>;
    /// This core's block index: from the task's dispatch payload where the
    /// code has one, else the hardware's.
    fn block_idx(&self, payload: Option<Val<'c>>) -> Val<'c>;
    /// This core's AIV lane: from the payload where the code has one.
    fn subblock_idx(&self, payload: Option<Val<'c>>) -> Val<'c>;
    /// The null payload of a kernel launched without the task runtime.
    fn no_payload(&self) -> Val<'c>;
    fn offset(&self, base: Val<'c>, elements: Ix<'c>) -> Val<'c>;
    fn peer_ptr(&self, ctx: Val<'c>, local: Val<'c>, peer: Ix<'c>, site: Site) -> Val<'c>;
    fn view(
        &self,
        data: Val<'c>,
        rows: Ix<'c>,
        cols: Ix<'c>,
        stride: Ix<'c>,
        tensor: Option<Tensor<'c>>,
    ) -> Val<'c>;
    fn tile(&self, tile: Type<'c>, valid: Option<(Ix<'c>, Ix<'c>)>) -> Val<'c>;
    fn valid_shape(&self, tile: Val<'c>) -> (Val<'c>, Val<'c>);
    /// The valid shape of `tile` as a new tile of its kind is made with:
    /// `None` (the whole tile) or the `valid` operands of the `ascend.tile`
    /// that made it, else read at run time.
    fn valid_shape_of(&self, tile: Val<'c>) -> Option<(Ix<'c>, Ix<'c>)>;
    fn tload(&self, tile: Val<'c>, view: Val<'c>, site: Site);
    fn tstore(&self, view: Val<'c>, tile: Val<'c>, atomic: AtomicType, site: Site);
    fn tile_math(&self, math: TileMath, dst: Val<'c>, lhs: Val<'c>, rhs: Val<'c>, site: Site);
    /// A tile-scalar instruction (`TADDS`, ...), or for `Expand` `TEXPANDS`
    /// of `scalar` into `dst` (`lhs` unused).
    fn tile_math_scalar(
        &self,
        math: TileMath,
        dst: Val<'c>,
        lhs: Val<'c>,
        scalar: Val<'c>,
        site: Site,
    );
    fn tcopy(&self, dst: Val<'c>, src: Val<'c>, site: Site);
    /// `ascend.check`: the run stops with `message` at `site` unless
    /// `holds`.
    fn check(&self, holds: Val<'c>, message: &str, site: Site);
    /// `ascend.tcvt`: `src` converted into `dst`, rounding by `round`.
    fn tcvt(&self, dst: Val<'c>, src: Val<'c>, round: RoundMode, site: Site);
    /// `ascend.textract`: `dst`'s valid shape out of the `mat` tile `src`
    /// from `(row, col)`.
    fn textract(&self, dst: Val<'c>, src: Val<'c>, row: Ix<'c>, col: Ix<'c>, site: Site);
    /// `ascend.tmatmul` (`acc = lhs x rhs`), or `ascend.tmatmul_acc` (`acc
    /// += lhs x rhs`) when `accumulate`.
    fn tmatmul(&self, acc: Val<'c>, lhs: Val<'c>, rhs: Val<'c>, accumulate: bool, site: Site);
    /// `ascend.tstore_acc`: an `acc` tile through the fixpipe into `view`.
    fn tstore_acc(&self, view: Val<'c>, tile: Val<'c>, site: Site);
    /// `ascend.cross_core_signal src -> dst`.
    fn cross_core_signal(&self, src: Core, dst: Core);
    /// `ascend.cross_core_wait src -> dst`.
    fn cross_core_wait(&self, src: Core, dst: Core);
    /// `ascend.run_mixed @aic, @aiv(args) ctx`.
    fn run_mixed(&self, aic: &str, aiv: &str, ctx: Val<'c>, args: &[Val<'c>]);
    /// `ascend.ffts_addr %ctx`: host code's FFTS base address for the mixed
    /// kernels it calls.
    fn ffts_addr(&self, ctx: Val<'c>) -> Val<'c>;
    /// `ascend.set_ffts_base_addr %addr`, at a mixed kernel's entry.
    fn set_ffts_base_addr(&self, addr: Val<'c>);
    fn tnotify(
        &self,
        cell: Val<'c>,
        value: Val<'c>,
        op: NotifyOp,
        signal: Val<'c>,
        dims: &[Ix<'c>],
        site: Site,
    );
    fn twait(
        &self,
        cell: Val<'c>,
        expected: Val<'c>,
        cmp: WaitCmp,
        signal: Val<'c>,
        dims: &[Ix<'c>],
        site: Site,
    );
    /// `ascend.sdma_workspace %ctx`: host code's SDMA workspace for the
    /// kernels it calls.
    fn sdma_workspace(&self, ctx: Val<'c>) -> Val<'c>;
    /// `ascend.sdma_session %workspace, sync_id %sync_id`: the kernel's SDMA
    /// session (its scratch buffer planned by `ascend-plan-ub`), on the
    /// channel of the AIV lane the payload names where the kernel has one.
    fn sdma_session(
        &self,
        workspace: Val<'c>,
        sync_id: Val<'c>,
        payload: Option<Val<'c>>,
        site: Site,
    ) -> Val<'c>;
    /// `ascend.tput_async` (`push`) or `ascend.tget_async`: posts the copy of
    /// `src` into `dst` to the SDMA engine; returns its event.
    fn sdma_transfer(
        &self,
        push: bool,
        dst: Val<'c>,
        src: Val<'c>,
        session: Val<'c>,
        site: Site,
    ) -> Val<'c>;
    /// `ascend.wait_async %event, session %session`.
    fn wait_async(&self, event: Val<'c>, session: Val<'c>, site: Site);
    fn release(&self) -> OpRef<'c>;
    fn acquire(&self) -> OpRef<'c>;
    fn pipe_sync(&self, src: Pipe, dst: Pipe);
    fn defer_completion(
        &self,
        payload: Val<'c>,
        cell: Val<'c>,
        expected: Val<'c>,
        signal: Val<'c>,
        dims: &[Ix<'c>],
        site: Site,
    );
    fn read(
        &self,
        ptr: Val<'c>,
        r#type: Type<'c>,
        tensor: Option<Tensor<'c>>,
        site: Site,
    ) -> Val<'c>;
    fn write(&self, value: Val<'c>, ptr: Val<'c>, tensor: Option<Tensor<'c>>, site: Site);
    fn alloc_window(&self, ctx: Val<'c>, bytes: Ix<'c>, name: &str) -> Val<'c>;
    /// `ascend.comm_group %ctx ranks [...]`: the context of the comm group
    /// of world ranks `ranks`.
    fn comm_group(&self, ctx: Val<'c>, ranks: &[i64]) -> Val<'c>;
    fn window_as(&self, buffer: Val<'c>, element: Type<'c>) -> Val<'c>;
    /// `ascend.handoff_workspace %ctx, %bytes`: the hand-off space host code
    /// passes a mixed kernel whose vector work uses a `pl.matmul` product.
    fn handoff_workspace(&self, ctx: Val<'c>, bytes: Ix<'c>) -> Val<'c>;
}

impl<'c> AscendBuilder<'c> for Builder<'c> {
    fn site_attribute(&self, site: Site) -> Option<Attribute<'c>> {
        site.map(|site| StringAttribute::new(self.context, site).into())
    }

    fn tensor_operands(&self, tensor: Option<Tensor<'c>>) -> (Option<Val<'c>>, Option<Val<'c>>) {
        tensor
            .map(|tensor| (tensor.base, self.value(tensor.elements)))
            .unzip()
    }

    fn rank(&self, ctx: Val<'c>) -> Val<'c> {
        let rank = self.i32_type();
        self.build_one(ascend::RankOp { ctx, rank }.build(self.context, self.location))
    }

    fn nranks(&self, ctx: Val<'c>) -> Val<'c> {
        let nranks = self.i32_type();
        self.build_one(ascend::NranksOp { ctx, nranks }.build(self.context, self.location))
    }

    fn world_size(&self, ctx: Val<'c>) -> Val<'c> {
        let size = melior::ir::r#type::IntegerType::new(self.context, 64).into();
        self.build_one(ascend::WorldSizeOp { ctx, size }.build(self.context, self.location))
    }

    fn block_idx(&self, payload: Option<Val<'c>>) -> Val<'c> {
        let index = self.index_type();
        self.build_one(ascend::BlockIdxOp { payload, index }.build(self.context, self.location))
    }

    fn subblock_idx(&self, payload: Option<Val<'c>>) -> Val<'c> {
        let index = self.index_type();
        self.build_one(ascend::SubblockIdxOp { payload, index }.build(self.context, self.location))
    }

    fn no_payload(&self) -> Val<'c> {
        let payload = types::dispatch_payload(self.context);
        self.build_one(ascend::NoPayloadOp { payload }.build(self.context, self.location))
    }

    fn offset(&self, base: Val<'c>, elements: Ix<'c>) -> Val<'c> {
        if elements.constant() == Some(0) {
            return base;
        }
        let offset = ascend::OffsetOp {
            base,
            elements: self.value(elements),
            result: base.r#type(),
        };
        self.build_one(offset.build(self.context, self.location))
    }

    fn peer_ptr(&self, ctx: Val<'c>, local: Val<'c>, peer: Ix<'c>, site: Site) -> Val<'c> {
        let peer_ptr = ascend::PeerPtrOp {
            ctx,
            local,
            peer: self.value(peer),
            site: self.site_attribute(site),
            result: local.r#type(),
        };
        self.build_one(peer_ptr.build(self.context, self.location))
    }

    fn view(
        &self,
        data: Val<'c>,
        rows: Ix<'c>,
        cols: Ix<'c>,
        stride: Ix<'c>,
        tensor: Option<Tensor<'c>>,
    ) -> Val<'c> {
        let (tensor, tensor_elements) = self.tensor_operands(tensor);
        let view = ascend::ViewOp {
            data,
            rows: self.value(rows),
            cols: self.value(cols),
            stride: self.value(stride),
            tensor,
            tensor_elements,
            view: types::view(self.context, pointee(data)),
        };
        self.build_one(view.build(self.context, self.location))
    }

    fn tile(&self, tile: Type<'c>, valid: Option<(Ix<'c>, Ix<'c>)>) -> Val<'c> {
        let (valid_rows, valid_cols) = valid
            .map(|(rows, cols)| (self.value(rows), self.value(cols)))
            .unzip();
        let tile = ascend::TileOp {
            valid_rows,
            valid_cols,
            offset: None,
            tile,
        };
        self.build_one(tile.build(self.context, self.location))
    }

    fn valid_shape(&self, tile: Val<'c>) -> (Val<'c>, Val<'c>) {
        let index = self.index_type();
        let shape = ascend::ValidShapeOp {
            tile,
            rows: index,
            cols: index,
        };
        let op = self.insert(shape.build(self.context, self.location));
        (Builder::result_at(op, 0), Builder::result_at(op, 1))
    }

    fn valid_shape_of(&self, tile: Val<'c>) -> Option<(Ix<'c>, Ix<'c>)> {
        if let Some(maker) = crate::read::defining_op(tile)
            && crate::read::name(maker) == ascend::TileOp::NAME
        {
            let tile = ascend::TileOp::operands(&maker).expect("an ascend.tile");
            return Some((Ix::Dyn(tile.valid_rows?), Ix::Dyn(tile.valid_cols?)));
        }
        let (rows, cols) = self.valid_shape(tile);
        Some((Ix::Dyn(rows), Ix::Dyn(cols)))
    }

    fn tload(&self, tile: Val<'c>, view: Val<'c>, site: Site) {
        let load = ascend::TLoadOp {
            dst: tile,
            src: view,
            site: self.site_attribute(site),
        };
        self.insert(load.build(self.context, self.location));
    }

    fn tstore(&self, view: Val<'c>, tile: Val<'c>, atomic: AtomicType, site: Site) {
        let store = ascend::TStoreOp {
            dst: view,
            tile,
            atomic: (atomic != AtomicType::AtomicNone).then(|| atomic.attribute(self.context)),
            site: self.site_attribute(site),
        };
        self.insert(store.build(self.context, self.location));
    }

    fn textract(&self, dst: Val<'c>, src: Val<'c>, row: Ix<'c>, col: Ix<'c>, site: Site) {
        let extract = ascend::TExtractOp {
            dst,
            src,
            row: self.value(row),
            col: self.value(col),
            site: self.site_attribute(site),
        };
        self.insert(extract.build(self.context, self.location));
    }

    fn tmatmul(&self, acc: Val<'c>, lhs: Val<'c>, rhs: Val<'c>, accumulate: bool, site: Site) {
        let site = self.site_attribute(site);
        let op = if accumulate {
            ascend::TMatmulAccOp {
                acc,
                lhs,
                rhs,
                site,
            }
            .build(self.context, self.location)
        } else {
            ascend::TMatmulOp {
                acc,
                lhs,
                rhs,
                site,
            }
            .build(self.context, self.location)
        };
        self.insert(op);
    }

    fn tstore_acc(&self, view: Val<'c>, tile: Val<'c>, site: Site) {
        let store = ascend::TStoreAccOp {
            dst: view,
            tile,
            site: self.site_attribute(site),
        };
        self.insert(store.build(self.context, self.location));
    }

    fn cross_core_signal(&self, src: Core, dst: Core) {
        let signal = ascend::CrossCoreSignalOp {
            src: src.attribute(self.context),
            dst: dst.attribute(self.context),
        };
        self.insert(signal.build(self.context, self.location));
    }

    fn cross_core_wait(&self, src: Core, dst: Core) {
        let wait = ascend::CrossCoreWaitOp {
            src: src.attribute(self.context),
            dst: dst.attribute(self.context),
        };
        self.insert(wait.build(self.context, self.location));
    }

    fn run_mixed(&self, aic: &str, aiv: &str, ctx: Val<'c>, args: &[Val<'c>]) {
        let symbol = |name: &str| -> Attribute<'c> {
            melior::ir::attribute::FlatSymbolRefAttribute::new(self.context, name).into()
        };
        let run = ascend::RunMixedOp {
            aic: symbol(aic),
            aiv: symbol(aiv),
            ctx,
            args,
        };
        self.insert(run.build(self.context, self.location));
    }

    fn ffts_addr(&self, ctx: Val<'c>) -> Val<'c> {
        let addr = ascend::FftsAddrOp {
            ctx,
            addr: types::ffts_addr(self.context),
        };
        self.build_one(addr.build(self.context, self.location))
    }

    fn set_ffts_base_addr(&self, addr: Val<'c>) {
        let set = ascend::SetFftsBaseAddrOp { addr };
        self.insert(set.build(self.context, self.location));
    }

    fn tile_math(&self, math: TileMath, dst: Val<'c>, lhs: Val<'c>, rhs: Val<'c>, site: Site) {
        let site = self.site_attribute(site);
        let (context, location) = (self.context, self.location);
        macro_rules! build {
            ($op:ident) => {
                ascend::$op {
                    dst,
                    lhs,
                    rhs,
                    site,
                }
                .build(context, location)
            };
        }
        let op = match math {
            TileMath::Add => build!(TAddOp),
            TileMath::Max => build!(TMaxOp),
            TileMath::Min => build!(TMinOp),
            TileMath::Mul => build!(TMulOp),
            TileMath::Sub => build!(TSubOp),
            TileMath::Expand => unreachable!("TEXPANDS takes a scalar alone"),
        };
        self.insert(op);
    }

    fn tile_math_scalar(
        &self,
        math: TileMath,
        dst: Val<'c>,
        lhs: Val<'c>,
        scalar: Val<'c>,
        site: Site,
    ) {
        let site = self.site_attribute(site);
        let (context, location) = (self.context, self.location);
        macro_rules! build {
            ($op:ident) => {
                ascend::$op {
                    dst,
                    lhs,
                    scalar,
                    site,
                }
                .build(context, location)
            };
        }
        let op = match math {
            TileMath::Add => build!(TAddSOp),
            TileMath::Max => build!(TMaxSOp),
            TileMath::Min => build!(TMinSOp),
            TileMath::Mul => build!(TMulSOp),
            TileMath::Sub => build!(TSubSOp),
            TileMath::Expand => ascend::TExpandSOp { dst, scalar, site }.build(context, location),
        };
        self.insert(op);
    }

    fn tcvt(&self, dst: Val<'c>, src: Val<'c>, round: RoundMode, site: Site) {
        let site = self.site_attribute(site);
        // pl's RoundMode has PTO's values (PlEnums.td).
        let round = IntegerAttribute::new(self.i32_type(), round as i64).into();
        let cvt = ascend::TCvtOp {
            dst,
            src,
            round,
            site,
        };
        self.insert(cvt.build(self.context, self.location));
    }

    fn tcopy(&self, dst: Val<'c>, src: Val<'c>, site: Site) {
        let copy = ascend::TCopyOp {
            dst,
            src,
            site: self.site_attribute(site),
        };
        self.insert(copy.build(self.context, self.location));
    }

    fn check(&self, holds: Val<'c>, message: &str, site: Site) {
        let check = ascend::CheckOp {
            holds,
            message: StringAttribute::new(self.context, message).into(),
            site: self.site_attribute(site),
        };
        self.insert(check.build(self.context, self.location));
    }

    fn tnotify(
        &self,
        cell: Val<'c>,
        value: Val<'c>,
        op: NotifyOp,
        signal: Val<'c>,
        dims: &[Ix<'c>],
        site: Site,
    ) {
        let dims: Vec<Val<'c>> = dims.iter().map(|dim| self.value(*dim)).collect();
        let notify = ascend::TNotifyOp {
            cell,
            value,
            op: op.attribute(self.context),
            signal,
            dims: &dims,
            site: self.site_attribute(site),
        };
        self.insert(notify.build(self.context, self.location));
    }

    fn twait(
        &self,
        cell: Val<'c>,
        expected: Val<'c>,
        cmp: WaitCmp,
        signal: Val<'c>,
        dims: &[Ix<'c>],
        site: Site,
    ) {
        let dims: Vec<Val<'c>> = dims.iter().map(|dim| self.value(*dim)).collect();
        let wait = ascend::TWaitOp {
            cell,
            expected,
            cmp: cmp.attribute(self.context),
            signal,
            dims: &dims,
            site: self.site_attribute(site),
        };
        self.insert(wait.build(self.context, self.location));
    }

    fn sdma_workspace(&self, ctx: Val<'c>) -> Val<'c> {
        let workspace = ascend::SdmaWorkspaceOp {
            ctx,
            workspace: types::sdma_workspace(self.context),
        };
        self.build_one(workspace.build(self.context, self.location))
    }

    fn sdma_session(
        &self,
        workspace: Val<'c>,
        sync_id: Val<'c>,
        payload: Option<Val<'c>>,
        site: Site,
    ) -> Val<'c> {
        let session = ascend::SdmaSessionOp {
            workspace,
            sync_id,
            payload,
            offset: None,
            site: self.site_attribute(site),
            session: types::async_session(self.context),
        };
        self.build_one(session.build(self.context, self.location))
    }

    fn sdma_transfer(
        &self,
        push: bool,
        dst: Val<'c>,
        src: Val<'c>,
        session: Val<'c>,
        site: Site,
    ) -> Val<'c> {
        let (site, event) = (self.site_attribute(site), types::async_event(self.context));
        let op = if push {
            ascend::TPutAsyncOp {
                dst,
                src,
                session,
                site,
                event,
            }
            .build(self.context, self.location)
        } else {
            ascend::TGetAsyncOp {
                dst,
                src,
                session,
                site,
                event,
            }
            .build(self.context, self.location)
        };
        self.build_one(op)
    }

    fn wait_async(&self, event: Val<'c>, session: Val<'c>, site: Site) {
        let wait = ascend::WaitAsyncOp {
            event,
            session,
            site: self.site_attribute(site),
        };
        self.insert(wait.build(self.context, self.location));
    }

    fn release(&self) -> OpRef<'c> {
        let release = ascend::ReleaseOp {
            _context: PhantomData,
        };
        self.insert(release.build(self.context, self.location))
    }

    fn acquire(&self) -> OpRef<'c> {
        let acquire = ascend::AcquireOp {
            _context: PhantomData,
        };
        self.insert(acquire.build(self.context, self.location))
    }

    fn pipe_sync(&self, src: Pipe, dst: Pipe) {
        let sync = ascend::PipeSyncOp {
            src: src.attribute(self.context),
            dst: dst.attribute(self.context),
        };
        self.insert(sync.build(self.context, self.location));
    }

    fn defer_completion(
        &self,
        payload: Val<'c>,
        cell: Val<'c>,
        expected: Val<'c>,
        signal: Val<'c>,
        dims: &[Ix<'c>],
        site: Site,
    ) {
        let dims: Vec<Val<'c>> = dims.iter().map(|dim| self.value(*dim)).collect();
        let defer = ascend::DeferCompletionOp {
            payload,
            cell,
            expected,
            signal,
            dims: &dims,
            site: self.site_attribute(site),
        };
        self.insert(defer.build(self.context, self.location));
    }

    fn read(
        &self,
        ptr: Val<'c>,
        r#type: Type<'c>,
        tensor: Option<Tensor<'c>>,
        site: Site,
    ) -> Val<'c> {
        let (tensor, tensor_elements) = self.tensor_operands(tensor);
        let read = ascend::ReadOp {
            ptr,
            tensor,
            tensor_elements,
            site: self.site_attribute(site),
            value: r#type,
        };
        self.build_one(read.build(self.context, self.location))
    }

    fn write(&self, value: Val<'c>, ptr: Val<'c>, tensor: Option<Tensor<'c>>, site: Site) {
        let (tensor, tensor_elements) = self.tensor_operands(tensor);
        let write = ascend::WriteOp {
            value,
            ptr,
            tensor,
            tensor_elements,
            site: self.site_attribute(site),
        };
        self.insert(write.build(self.context, self.location));
    }

    fn alloc_window(&self, ctx: Val<'c>, bytes: Ix<'c>, name: &str) -> Val<'c> {
        let i8 = melior::ir::r#type::IntegerType::new(self.context, 8).into();
        let alloc = ascend::AllocWindowOp {
            ctx,
            bytes: self.value(bytes),
            name: StringAttribute::new(self.context, name).into(),
            buffer: types::gm(self.context, i8).expect("i8 has a pointer type"),
        };
        self.build_one(alloc.build(self.context, self.location))
    }

    fn comm_group(&self, ctx: Val<'c>, ranks: &[i64]) -> Val<'c> {
        let group = ascend::CommGroupOp {
            ctx,
            ranks: DenseI64ArrayAttribute::new(self.context, ranks).into(),
            group: ctx.r#type(),
        };
        self.build_one(group.build(self.context, self.location))
    }

    fn window_as(&self, buffer: Val<'c>, element: Type<'c>) -> Val<'c> {
        let window_as = ascend::WindowAsOp {
            buffer,
            result: types::gm(self.context, element).expect("a window element type"),
        };
        self.build_one(window_as.build(self.context, self.location))
    }

    fn handoff_workspace(&self, ctx: Val<'c>, bytes: Ix<'c>) -> Val<'c> {
        let i8 = melior::ir::r#type::IntegerType::new(self.context, 8).into();
        let space = ascend::HandoffWorkspaceOp {
            ctx,
            bytes: self.value(bytes),
            buffer: types::gm(self.context, i8).expect("i8 has a pointer type"),
        };
        self.build_one(space.build(self.context, self.location))
    }
}

/// The element type of a `!ascend.gm` pointer value.
pub fn pointee(pointer: Val) -> Type {
    types::gm_element(pointer.r#type()).expect("a __gm__ pointer")
}

/// The discardable attribute a `func.func` carries the C++ specifiers it
/// is emitted with in (`extern "C"`, `__global__ __aicore__`): upstream's
/// func-to-emitc conversion copies it onto the `emitc.func` it makes, whose
/// ODS attribute of this name it becomes.
const SPECIFIERS: &str = "specifiers";

/// Marks `function` to be emitted with the C++ `words`.
pub fn set_specifiers(function: OpRef, words: &[&str]) {
    let context = crate::build::context_of(function);
    let words: Vec<Attribute> = words
        .iter()
        .map(|word| StringAttribute::new(context, word).into())
        .collect();
    let words = melior::ir::attribute::ArrayAttribute::new(context, &words);
    crate::build::set_attribute(function, SPECIFIERS, words.into());
}

/// The C++ specifiers `function` is emitted with.
pub fn specifiers(function: OpRef) -> Vec<String> {
    let Some(words) = function
        .attribute(SPECIFIERS)
        .ok()
        .and_then(|words| melior::ir::attribute::ArrayAttribute::try_from(words).ok())
    else {
        return Vec::new();
    };
    (0..words.len())
        .filter_map(|index| words.element(index).ok())
        .filter_map(|word| StringAttribute::try_from(word).ok())
        .map(|word| word.value().to_owned())
        .collect()
}
