//! Builders of ascend ops, for the lowering passes.

use melior::ir::{
    Attribute, Type, ValueLike, attribute::StringAttribute, operation::OperationLike,
};
use pld_dialect::{
    enums::ascend::{AtomicType, NotifyOp, Pipe, WaitCmp},
    types::ascend as types,
};
use pld_passes::ir::{Builder, Ix, OpRef, Val};

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
    fn site_attribute(&self, site: Site) -> Vec<(&'static str, Attribute<'c>)>;
    /// Appends `tensor`'s operands; how many a segment of each has (0 or 1).
    fn tensor_operands(&self, tensor: Option<Tensor<'c>>, operands: &mut Vec<Val<'c>>) -> usize;
    fn rank(&self, ctx: Val<'c>) -> Val<'c>;
    fn nranks(&self, ctx: Val<'c>) -> Val<'c>;
    fn world_size(&self, ctx: Val<'c>) -> Val<'c>;
    fn block_idx(&self) -> Val<'c>;
    fn subblock_idx(&self) -> Val<'c>;
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
    fn tile_math(&self, name: &str, dst: Val<'c>, lhs: Val<'c>, rhs: Val<'c>, site: Site);
    fn tcopy(&self, dst: Val<'c>, src: Val<'c>, site: Site);
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
    fn window_as(&self, buffer: Val<'c>, element: Type<'c>) -> Val<'c>;
}

impl<'c> AscendBuilder<'c> for Builder<'c> {
    fn site_attribute(&self, site: Site) -> Vec<(&'static str, Attribute<'c>)> {
        site.map(|site| ("site", StringAttribute::new(self.context, site).into()))
            .into_iter()
            .collect()
    }

    fn tensor_operands(&self, tensor: Option<Tensor<'c>>, operands: &mut Vec<Val<'c>>) -> usize {
        let Some(tensor) = tensor else {
            return 0;
        };
        operands.push(tensor.base);
        operands.push(self.value(tensor.elements));
        1
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

    fn view(
        &self,
        data: Val<'c>,
        rows: Ix<'c>,
        cols: Ix<'c>,
        stride: Ix<'c>,
        tensor: Option<Tensor<'c>>,
    ) -> Val<'c> {
        let element = pointee(data);
        let mut operands = vec![data, self.value(rows), self.value(cols), self.value(stride)];
        let named = self.tensor_operands(tensor, &mut operands);
        let view = types::view(self.context, element);
        Builder::result(self.create(
            "ascend.view",
            &operands,
            &[view],
            &[self.segment_sizes(&[1, 1, 1, 1, named, named])],
            vec![],
        ))
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

    fn valid_shape(&self, tile: Val<'c>) -> (Val<'c>, Val<'c>) {
        let index = self.index_type();
        let op = self.create("ascend.valid_shape", &[tile], &[index, index], &[], vec![]);
        (Builder::result_at(op, 0), Builder::result_at(op, 1))
    }

    fn valid_shape_of(&self, tile: Val<'c>) -> Option<(Ix<'c>, Ix<'c>)> {
        if let Some(maker) = pld_passes::ir::builder::defining_op(tile)
            && pld_passes::ir::ops::name(maker) == "ascend.tile"
        {
            return (maker.operand_count() == 2).then(|| {
                let operand = |index| Ix::Dyn(pld_passes::ir::ops::operand(maker, index));
                (operand(0), operand(1))
            });
        }
        let (rows, cols) = self.valid_shape(tile);
        Some((Ix::Dyn(rows), Ix::Dyn(cols)))
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

    fn tile_math(&self, name: &str, dst: Val<'c>, lhs: Val<'c>, rhs: Val<'c>, site: Site) {
        self.create(
            name,
            &[dst, lhs, rhs],
            &[],
            &self.site_attribute(site),
            vec![],
        );
    }

    fn tcopy(&self, dst: Val<'c>, src: Val<'c>, site: Site) {
        self.create(
            "ascend.tcopy",
            &[dst, src],
            &[],
            &self.site_attribute(site),
            vec![],
        );
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

    fn defer_completion(
        &self,
        payload: Val<'c>,
        cell: Val<'c>,
        expected: Val<'c>,
        signal: Val<'c>,
        dims: &[Ix<'c>],
        site: Site,
    ) {
        let mut operands = vec![payload, cell, expected, signal];
        operands.extend(dims.iter().map(|dim| self.value(*dim)));
        self.create(
            "ascend.defer_completion",
            &operands,
            &[],
            &self.site_attribute(site),
            vec![],
        );
    }

    fn read(
        &self,
        ptr: Val<'c>,
        r#type: Type<'c>,
        tensor: Option<Tensor<'c>>,
        site: Site,
    ) -> Val<'c> {
        let mut operands = vec![ptr];
        let named = self.tensor_operands(tensor, &mut operands);
        let mut attributes = self.site_attribute(site);
        attributes.push(self.segment_sizes(&[1, named, named]));
        Builder::result(self.create("ascend.read", &operands, &[r#type], &attributes, vec![]))
    }

    fn write(&self, value: Val<'c>, ptr: Val<'c>, tensor: Option<Tensor<'c>>, site: Site) {
        let mut operands = vec![value, ptr];
        let named = self.tensor_operands(tensor, &mut operands);
        let mut attributes = self.site_attribute(site);
        attributes.push(self.segment_sizes(&[1, 1, named, named]));
        self.create("ascend.write", &operands, &[], &attributes, vec![]);
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
