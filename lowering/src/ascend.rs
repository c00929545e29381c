//! Builders of ascend ops, for the lowering passes.

use melior::ir::{Attribute, Type, ValueLike, attribute::StringAttribute};
use pld_dialect::{
    enums::ascend::{AtomicType, NotifyOp, Pipe, WaitCmp},
    types::ascend as types,
};
use pld_passes::ir::{Builder, Ix, OpRef, Val};

/// Where a trapping or blocking op comes from, for the simulator's reports.
pub type Site<'a> = Option<&'a str>;

/// The ascend ops, built at a [`Builder`]'s insertion point.
pub trait AscendBuilder<'c> {
    fn site_attribute(&self, site: Site) -> Vec<(&'static str, Attribute<'c>)>;
    fn rank(&self, ctx: Val<'c>) -> Val<'c>;
    fn nranks(&self, ctx: Val<'c>) -> Val<'c>;
    fn world_size(&self, ctx: Val<'c>) -> Val<'c>;
    fn block_idx(&self) -> Val<'c>;
    fn subblock_idx(&self) -> Val<'c>;
    fn offset(&self, base: Val<'c>, elements: Ix<'c>) -> Val<'c>;
    fn peer_ptr(&self, ctx: Val<'c>, local: Val<'c>, peer: Ix<'c>, site: Site) -> Val<'c>;
    fn view(&self, data: Val<'c>, rows: Ix<'c>, cols: Ix<'c>, stride: Ix<'c>) -> Val<'c>;
    fn tile(&self, tile: Type<'c>, valid: Option<(Ix<'c>, Ix<'c>)>) -> Val<'c>;
    fn tload(&self, tile: Val<'c>, view: Val<'c>, site: Site);
    fn tstore(&self, view: Val<'c>, tile: Val<'c>, atomic: AtomicType, site: Site);
    fn tile_math(&self, name: &str, dst: Val<'c>, lhs: Val<'c>, rhs: Val<'c>);
    fn tcopy(&self, dst: Val<'c>, src: Val<'c>);
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
    fn release(&self) -> OpRef<'c>;
    fn acquire(&self) -> OpRef<'c>;
    fn pipe_sync(&self, src: Pipe, dst: Pipe);
    fn defer_completion(&self, ctx: Val<'c>, cell: Val<'c>, expected: Val<'c>, site: Site);
    fn read(&self, ptr: Val<'c>, r#type: Type<'c>, site: Site) -> Val<'c>;
    fn write(&self, value: Val<'c>, ptr: Val<'c>, site: Site);
    fn alloc_window(&self, ctx: Val<'c>, bytes: Ix<'c>, name: &str) -> Val<'c>;
    fn window_as(&self, buffer: Val<'c>, element: Type<'c>) -> Val<'c>;
}

impl<'c> AscendBuilder<'c> for Builder<'c> {
    fn site_attribute(&self, site: Site) -> Vec<(&'static str, Attribute<'c>)> {
        site.map(|site| ("site", StringAttribute::new(self.context, site).into()))
            .into_iter()
            .collect()
    }

    fn rank(&self, ctx: Val<'c>) -> Val<'c> {
        Builder::result(self.create("ascend.rank", &[ctx], &[self.i32_type()], &[], vec![]))
    }

    fn nranks(&self, ctx: Val<'c>) -> Val<'c> {
        Builder::result(self.create("ascend.nranks", &[ctx], &[self.i32_type()], &[], vec![]))
    }

    fn world_size(&self, ctx: Val<'c>) -> Val<'c> {
        let i64 = melior::ir::r#type::IntegerType::new(self.context, 64).into();
        Builder::result(self.create("ascend.world_size", &[ctx], &[i64], &[], vec![]))
    }

    fn block_idx(&self) -> Val<'c> {
        Builder::result(self.create("ascend.block_idx", &[], &[self.index_type()], &[], vec![]))
    }

    fn subblock_idx(&self) -> Val<'c> {
        Builder::result(self.create(
            "ascend.subblock_idx",
            &[],
            &[self.index_type()],
            &[],
            vec![],
        ))
    }

    fn offset(&self, base: Val<'c>, elements: Ix<'c>) -> Val<'c> {
        if elements.constant() == Some(0) {
            return base;
        }
        let elements = self.value(elements);
        Builder::result(self.create(
            "ascend.offset",
            &[base, elements],
            &[base.r#type()],
            &[],
            vec![],
        ))
    }

    fn peer_ptr(&self, ctx: Val<'c>, local: Val<'c>, peer: Ix<'c>, site: Site) -> Val<'c> {
        let peer = self.value(peer);
        Builder::result(self.create(
            "ascend.peer_ptr",
            &[ctx, local, peer],
            &[local.r#type()],
            &self.site_attribute(site),
            vec![],
        ))
    }

    fn view(&self, data: Val<'c>, rows: Ix<'c>, cols: Ix<'c>, stride: Ix<'c>) -> Val<'c> {
        let element = pointee(data);
        let operands = [data, self.value(rows), self.value(cols), self.value(stride)];
        let view = types::view(self.context, element);
        Builder::result(self.create("ascend.view", &operands, &[view], &[], vec![]))
    }

    fn tile(&self, tile: Type<'c>, valid: Option<(Ix<'c>, Ix<'c>)>) -> Val<'c> {
        let operands: Vec<Val> = valid
            .map(|(rows, cols)| vec![self.value(rows), self.value(cols)])
            .unwrap_or_default();
        let count = operands.len() / 2;
        Builder::result(self.create(
            "ascend.tile",
            &operands,
            &[tile],
            &[self.segment_sizes(&[count, count])],
            vec![],
        ))
    }

    fn tload(&self, tile: Val<'c>, view: Val<'c>, site: Site) {
        self.create(
            "ascend.tload",
            &[tile, view],
            &[],
            &self.site_attribute(site),
            vec![],
        );
    }

    fn tstore(&self, view: Val<'c>, tile: Val<'c>, atomic: AtomicType, site: Site) {
        let mut attributes = self.site_attribute(site);
        if atomic != AtomicType::AtomicNone {
            attributes.push(("atomic", atomic.attribute(self.context)));
        }
        self.create("ascend.tstore", &[view, tile], &[], &attributes, vec![]);
    }

    fn tile_math(&self, name: &str, dst: Val<'c>, lhs: Val<'c>, rhs: Val<'c>) {
        self.create(name, &[dst, lhs, rhs], &[], &[], vec![]);
    }

    fn tcopy(&self, dst: Val<'c>, src: Val<'c>) {
        self.create("ascend.tcopy", &[dst, src], &[], &[], vec![]);
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
        let mut operands = vec![cell, value, signal];
        operands.extend(dims.iter().map(|dim| self.value(*dim)));
        let mut attributes = self.site_attribute(site);
        attributes.push(("op", op.attribute(self.context)));
        self.create("ascend.tnotify", &operands, &[], &attributes, vec![]);
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
        let mut operands = vec![cell, expected, signal];
        operands.extend(dims.iter().map(|dim| self.value(*dim)));
        let mut attributes = self.site_attribute(site);
        attributes.push(("cmp", cmp.attribute(self.context)));
        self.create("ascend.twait", &operands, &[], &attributes, vec![]);
    }

    fn release(&self) -> OpRef<'c> {
        self.create("ascend.release", &[], &[], &[], vec![])
    }

    fn acquire(&self) -> OpRef<'c> {
        self.create("ascend.acquire", &[], &[], &[], vec![])
    }

    fn pipe_sync(&self, src: Pipe, dst: Pipe) {
        self.create(
            "ascend.pipe_sync",
            &[],
            &[],
            &[
                ("src", src.attribute(self.context)),
                ("dst", dst.attribute(self.context)),
            ],
            vec![],
        );
    }

    fn defer_completion(&self, ctx: Val<'c>, cell: Val<'c>, expected: Val<'c>, site: Site) {
        self.create(
            "ascend.defer_completion",
            &[ctx, cell, expected],
            &[],
            &self.site_attribute(site),
            vec![],
        );
    }

    fn read(&self, ptr: Val<'c>, r#type: Type<'c>, site: Site) -> Val<'c> {
        Builder::result(self.create(
            "ascend.read",
            &[ptr],
            &[r#type],
            &self.site_attribute(site),
            vec![],
        ))
    }

    fn write(&self, value: Val<'c>, ptr: Val<'c>, site: Site) {
        self.create(
            "ascend.write",
            &[value, ptr],
            &[],
            &self.site_attribute(site),
            vec![],
        );
    }

    fn alloc_window(&self, ctx: Val<'c>, bytes: Ix<'c>, name: &str) -> Val<'c> {
        let i8 = melior::ir::r#type::IntegerType::new(self.context, 8).into();
        let buffer = types::gm(self.context, i8).expect("i8 has a pointer type");
        let bytes = self.value(bytes);
        Builder::result(self.create(
            "ascend.alloc_window",
            &[ctx, bytes],
            &[buffer],
            &[("name", StringAttribute::new(self.context, name).into())],
            vec![],
        ))
    }

    fn window_as(&self, buffer: Val<'c>, element: Type<'c>) -> Val<'c> {
        let pointer = types::gm(self.context, element).expect("a window element type");
        Builder::result(self.create("ascend.window_as", &[buffer], &[pointer], &[], vec![]))
    }
}

/// The element type of a `!ascend.gm` pointer value.
pub fn pointee(pointer: Val) -> Type {
    types::gm_element(pointer.r#type()).expect("a __gm__ pointer")
}
