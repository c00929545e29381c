//! A builder that inserts ops at one point of a block, with index arithmetic
//! that folds constants as it goes (so generated IR keeps static offsets
//! static and reads like the algorithm), and structured control flow built
//! from closures.

use crate::{OpRef, Val, read::defining_op};
use melior::{
    Context,
    dialect::arith::{self, CmpiPredicate},
    ir::{
        Attribute, AttributeLike, Block, BlockLike, BlockRef, Location, Region, RegionLike, Type,
        ValueLike,
        attribute::{DenseI64ArrayAttribute, IntegerAttribute},
        operation::{Operation, OperationLike},
        r#type::IntegerType,
    },
};
use pld_dialect::ops::scf;

pub mod ascend;
pub mod function;
pub mod pld;

pub use pld::mixed_list;

/// An index that is either known at compile time or a runtime `index` value.
#[derive(Clone, Copy, Debug)]
pub enum Ix<'c> {
    Const(i64),
    Dyn(Val<'c>),
}

impl<'c> Ix<'c> {
    /// The compile-time value, if there is one.
    pub fn constant(self) -> Option<i64> {
        match self {
            Ix::Const(value) => Some(value),
            Ix::Dyn(value) => constant_of(value),
        }
    }
}

impl From<i64> for Ix<'_> {
    fn from(value: i64) -> Self {
        Ix::Const(value)
    }
}

/// The integer an `arith.constant` holds, if `value` is one.
pub fn constant_of(value: Val) -> Option<i64> {
    let constant = pld_dialect::ops::arith::ConstantOp::get_value(&defining_op(value)?)?;
    IntegerAttribute::try_from(constant)
        .ok()
        .map(|attribute| attribute.value())
}

/// The context of `op`, as melior's builders want it: a `&Context`.
///
/// melior hands out a `ContextRef` by value, and the `&Context` it converts
/// to points at that value, so it must outlive every use: one `ContextRef`
/// per context is kept for the life of the process (a few bytes each).
pub fn context_of<'c>(op: OpRef<'c>) -> &'c Context {
    use std::{collections::HashMap, sync::Mutex};
    // Context address -> address of its kept `ContextRef`.
    static KEPT: Mutex<Option<HashMap<usize, usize>>> = Mutex::new(None);
    thread_local! {
        // The last context asked for on this thread and its `ContextRef`'s
        // address: a pass asks for one context millions of times.
        static LAST: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
    }
    // SAFETY: `op` is a live op.
    let raw = unsafe { mlir_sys::mlirOperationGetContext(op.to_raw()) };
    let (last_context, last_address) = LAST.get();
    if last_context == raw.ptr as usize {
        // SAFETY: as below: a kept `ContextRef` is never freed.
        return unsafe { (*(last_address as *const melior::ContextRef<'c>)).to_ref() };
    }
    let mut kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let address = *kept
        .get_or_insert_with(HashMap::new)
        .entry(raw.ptr as usize)
        .or_insert_with(|| {
            // SAFETY: `raw` is the live context of `op`.
            let reference = unsafe { melior::ContextRef::from_raw(raw) };
            Box::leak(Box::new(reference)) as *const melior::ContextRef as usize
        });
    LAST.set((raw.ptr as usize, address));
    // SAFETY: the `ContextRef` at `address` is never freed; the context it
    // names outlives the IR (`'c`) the caller transforms.
    unsafe { (*(address as *const melior::ContextRef<'c>)).to_ref() }
}

/// Inserts ops before an anchor op, or at the end of a block.
#[derive(Clone, Copy)]
pub struct Builder<'c> {
    pub context: &'c Context,
    pub location: Location<'c>,
    block: BlockRef<'c, 'c>,
    anchor: Option<OpRef<'c>>,
}

impl<'c> Builder<'c> {
    /// Inserts before `op`, at `op`'s location.
    pub fn before(op: OpRef<'c>) -> Self {
        let context = context_of(op);
        let block = op.block().expect("an op being rewritten sits in a block");
        // SAFETY: see the module documentation: IR handles live for `'c`.
        let block = unsafe { BlockRef::from_raw(block.to_raw()) };
        Self {
            context,
            location: op.location(),
            block,
            anchor: Some(op),
        }
    }

    /// Appends at the end of `block`.
    pub fn at_end(context: &'c Context, location: Location<'c>, block: BlockRef<'c, 'c>) -> Self {
        Self {
            context,
            location,
            block,
            anchor: None,
        }
    }

    /// The same insertion point, with ops located at `location`.
    pub fn at(self, location: Location<'c>) -> Self {
        Self { location, ..self }
    }

    /// Inserts a built op.
    pub fn insert(&self, op: Operation<'c>) -> OpRef<'c> {
        let inserted = match self.anchor {
            Some(anchor) => self.block.insert_operation_before(anchor, op),
            None => self.block.append_operation(op),
        };
        // SAFETY: see the module documentation.
        unsafe { OpRef::from_raw(inserted.to_raw()) }
    }

    /// Inserts a built op of one result and returns that result.
    pub fn build_one(&self, op: Operation<'c>) -> Val<'c> {
        Self::result(self.insert(op))
    }

    /// The single result of `op`.
    pub fn result(op: OpRef<'c>) -> Val<'c> {
        Self::result_at(op, 0)
    }

    /// Result `index` of `op`.
    pub fn result_at(op: OpRef<'c>, index: usize) -> Val<'c> {
        let result = op.result(index).expect("the op has this result");
        // SAFETY: see the module documentation.
        unsafe { Val::from_raw(result.to_raw()) }
    }

    pub fn index_type(&self) -> Type<'c> {
        Type::index(self.context)
    }

    pub fn i32_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 32).into()
    }

    pub fn i64_attribute(&self, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(self.context, 64).into(), value).into()
    }

    pub fn i64_array(&self, values: &[i64]) -> Attribute<'c> {
        DenseI64ArrayAttribute::new(self.context, values).into()
    }

    /// An integer constant of `r#type`.
    pub fn constant(&self, r#type: Type<'c>, value: i64) -> Val<'c> {
        let op = self.insert(arith::constant(
            self.context,
            IntegerAttribute::new(r#type, value).into(),
            self.location,
        ));
        Self::result(op)
    }

    /// An `index` constant.
    pub fn index(&self, value: i64) -> Val<'c> {
        self.constant(self.index_type(), value)
    }

    /// An `i32` constant.
    pub fn i32(&self, value: i64) -> Val<'c> {
        self.constant(self.i32_type(), value)
    }

    /// The runtime value of `ix` (a constant op when it is known).
    pub fn value(&self, ix: Ix<'c>) -> Val<'c> {
        match ix {
            Ix::Const(value) => self.index(value),
            Ix::Dyn(value) => value,
        }
    }

    /// A mixed static/dynamic index list: the dynamic operands and the
    /// static entries (dynamic ones are the marker).
    pub fn index_list(&self, list: &[Ix<'c>]) -> (Vec<Val<'c>>, Attribute<'c>) {
        let mut operands = Vec::new();
        let mut statics = Vec::new();
        for ix in list {
            match ix.constant() {
                Some(value) => statics.push(value),
                None => {
                    statics.push(crate::types::DYNAMIC);
                    operands.push(self.value(*ix));
                }
            }
        }
        (operands, self.i64_array(&statics))
    }

    /// A binary arith op of `lhs` and `rhs` (melior's typed builders, which
    /// take the operands in order).
    fn binary(
        &self,
        op: fn(Val<'c>, Val<'c>, Location<'c>) -> Operation<'c>,
        lhs: Val<'c>,
        rhs: Val<'c>,
    ) -> Val<'c> {
        self.build_one(op(lhs, rhs, self.location))
    }

    /// `a + b`, folded when both are known.
    pub fn add(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) => Ix::Const(x + y),
            (Some(0), _) => b,
            (_, Some(0)) => a,
            _ => Ix::Dyn(self.binary(arith::addi, self.value(a), self.value(b))),
        }
    }

    /// `a - b`, folded when both are known.
    pub fn sub(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) => Ix::Const(x - y),
            (_, Some(0)) => a,
            _ => Ix::Dyn(self.binary(arith::subi, self.value(a), self.value(b))),
        }
    }

    /// `a * b`, folded when both are known.
    pub fn mul(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) => Ix::Const(x * y),
            (Some(0), _) | (_, Some(0)) => Ix::Const(0),
            (Some(1), _) => b,
            (_, Some(1)) => a,
            _ => Ix::Dyn(self.binary(arith::muli, self.value(a), self.value(b))),
        }
    }

    /// `a / b` for non-negative operands.
    pub fn div(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) if y > 0 => Ix::Const(x / y),
            (_, Some(1)) => a,
            _ => Ix::Dyn(self.binary(arith::divsi, self.value(a), self.value(b))),
        }
    }

    /// `a % b` for non-negative operands.
    pub fn rem(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) if y > 0 => Ix::Const(x % y),
            (_, Some(1)) => Ix::Const(0),
            _ => Ix::Dyn(self.binary(arith::remsi, self.value(a), self.value(b))),
        }
    }

    /// `ceil(a / b)` for non-negative `a` and positive `b`.
    pub fn ceil_div(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) if y > 0 => Ix::Const(crate::ceil_div(x, y)),
            (_, Some(1)) => a,
            _ => Ix::Dyn(self.binary(arith::ceildivsi, self.value(a), self.value(b))),
        }
    }

    /// `min(a, b)` (signed).
    pub fn min(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) => Ix::Const(x.min(y)),
            _ => Ix::Dyn(self.binary(arith::minsi, self.value(a), self.value(b))),
        }
    }

    /// `max(a, b)` (signed).
    pub fn max(&self, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        match (a.constant(), b.constant()) {
            (Some(x), Some(y)) => Ix::Const(x.max(y)),
            _ => Ix::Dyn(self.binary(arith::maxsi, self.value(a), self.value(b))),
        }
    }

    /// `clamp(a, 0, hi)`: how much of a `hi`-wide window a remaining length
    /// `a` fills (a ragged tail, or nothing once the data ran out).
    pub fn clamp_to(&self, a: Ix<'c>, hi: Ix<'c>) -> Ix<'c> {
        self.max(self.min(a, hi), Ix::Const(0))
    }

    /// How much of a `chunk`-wide window at `offset` a `total`-long extent
    /// fills: `chunk` where that is known (a static extent that the chunk
    /// divides), else `clamp(total - offset, 0, chunk)` (a ragged tail, or
    /// nothing past the end).
    pub fn chunk_extent(&self, total: Ix<'c>, offset: Ix<'c>, chunk: i64) -> Ix<'c> {
        if let Some(total) = total.constant()
            && total % chunk == 0
            && offset
                .constant()
                .is_none_or(|offset| offset + chunk <= total)
        {
            return Ix::Const(chunk);
        }
        self.clamp_to(self.sub(total, offset), Ix::Const(chunk))
    }

    /// Runs `body` for `index` in `0..count`, without a loop when `count` is
    /// statically 1.
    pub fn for_each_or_once(&self, count: Ix<'c>, body: impl FnOnce(&Builder<'c>, Ix<'c>)) {
        if count.constant() == Some(1) {
            body(self, Ix::Const(0));
        } else {
            self.for_each(Ix::Const(0), count, body);
        }
    }

    /// `arith.cmpi predicate, a, b` on index values.
    pub fn cmp(&self, predicate: CmpiPredicate, a: Ix<'c>, b: Ix<'c>) -> Val<'c> {
        let op = self.insert(arith::cmpi(
            self.context,
            predicate,
            self.value(a),
            self.value(b),
            self.location,
        ));
        Self::result(op)
    }

    /// `a && b` on `i1` values.
    pub fn and(&self, a: Val<'c>, b: Val<'c>) -> Val<'c> {
        self.binary(arith::andi, a, b)
    }

    /// `arith.select condition, a, b` on index values.
    pub fn select(&self, condition: Val<'c>, a: Ix<'c>, b: Ix<'c>) -> Ix<'c> {
        let op = self.insert(arith::select(
            condition,
            self.value(a),
            self.value(b),
            self.location,
        ));
        Ix::Dyn(Self::result(op))
    }

    /// `arith.index_cast` of `value` to `r#type`.
    pub fn index_cast(&self, value: Val<'c>, r#type: Type<'c>) -> Val<'c> {
        self.build_one(arith::index_cast(value, r#type, self.location))
    }

    /// An index as an `i32` value (signal values and expectations).
    pub fn to_i32(&self, ix: Ix<'c>) -> Val<'c> {
        match ix.constant() {
            Some(value) => self.i32(value),
            None => self.index_cast(self.value(ix), self.i32_type()),
        }
    }

    /// An `i32` value as an index.
    pub fn i32_to_index(&self, value: Val<'c>) -> Ix<'c> {
        match constant_of(value) {
            Some(constant) => Ix::Const(constant),
            None => Ix::Dyn(self.index_cast(value, self.index_type())),
        }
    }

    /// `scf.for iv = lower to upper step step iter_args(inits)`; `body` gets
    /// a builder at the end of the loop body, the induction variable and the
    /// iteration arguments, and returns the values to yield. Returns the
    /// loop's results.
    pub fn for_loop(
        &self,
        lower: Ix<'c>,
        upper: Ix<'c>,
        step: Ix<'c>,
        inits: &[Val<'c>],
        body: impl FnOnce(&Builder<'c>, Ix<'c>, &[Val<'c>]) -> Vec<Val<'c>>,
    ) -> Vec<Val<'c>> {
        let mut arguments = vec![(self.index_type(), self.location)];
        arguments.extend(inits.iter().map(|init| (init.r#type(), self.location)));
        let block = Block::new(&arguments);
        let region = Region::new();
        let block = region.append_block(block);
        // SAFETY: see the module documentation; the block keeps its address
        // when the region moves into the op below.
        let block = unsafe { BlockRef::from_raw(block.to_raw()) };
        let for_op = scf::ForOp {
            lower_bound: self.value(lower),
            upper_bound: self.value(upper),
            step: self.value(step),
            init_args: inits,
            unsigned_cmp: false,
            results: inits.iter().map(|init| init.r#type()).collect(),
            region,
        };
        let op = self.insert(for_op.build(self.context, self.location));
        let inner = Builder::at_end(self.context, self.location, block);
        let argument = |index: usize| {
            let argument = block
                .argument(index)
                .expect("the loop block has this argument");
            // SAFETY: see the module documentation.
            unsafe { Val::from_raw(argument.to_raw()) }
        };
        let iter_args: Vec<Val> = (1..=inits.len()).map(argument).collect();
        let yielded = body(&inner, Ix::Dyn(argument(0)), &iter_args);
        inner.insert(scf::YieldOp { results: &yielded }.build(self.context, self.location));
        (0..inits.len())
            .map(|index| Self::result_at(op, index))
            .collect()
    }

    /// `scf.for` without iteration arguments.
    pub fn for_each(&self, lower: Ix<'c>, upper: Ix<'c>, body: impl FnOnce(&Builder<'c>, Ix<'c>)) {
        self.for_each_step(lower, upper, Ix::Const(1), body);
    }

    /// `scf.for` with a step, without iteration arguments.
    pub fn for_each_step(
        &self,
        lower: Ix<'c>,
        upper: Ix<'c>,
        step: Ix<'c>,
        body: impl FnOnce(&Builder<'c>, Ix<'c>),
    ) {
        self.for_loop(lower, upper, step, &[], |builder, iv, _| {
            body(builder, iv);
            vec![]
        });
    }

    /// `scf.if condition` with results of `types`: each branch gets a builder
    /// at the end of its block and returns the values to yield.
    pub fn if_else(
        &self,
        condition: Val<'c>,
        types: &[Type<'c>],
        then_branch: impl FnOnce(&Builder<'c>) -> Vec<Val<'c>>,
        else_branch: impl FnOnce(&Builder<'c>) -> Vec<Val<'c>>,
    ) -> Vec<Val<'c>> {
        self.build_if(condition, types, then_branch, Some(else_branch))
    }

    /// `scf.if condition { body }` without results or else branch.
    pub fn if_then(&self, condition: Val<'c>, body: impl FnOnce(&Builder<'c>)) {
        let then_branch = |builder: &Builder<'c>| {
            body(builder);
            vec![]
        };
        self.build_if(
            condition,
            &[],
            then_branch,
            None::<fn(&Builder<'c>) -> Vec<Val<'c>>>,
        );
    }

    fn build_if(
        &self,
        condition: Val<'c>,
        types: &[Type<'c>],
        then_branch: impl FnOnce(&Builder<'c>) -> Vec<Val<'c>>,
        else_branch: Option<impl FnOnce(&Builder<'c>) -> Vec<Val<'c>>>,
    ) -> Vec<Val<'c>> {
        let then_region = Region::new();
        let then_block = then_region.append_block(Block::new(&[]));
        // SAFETY: see `for_loop`.
        let then_block = unsafe { BlockRef::from_raw(then_block.to_raw()) };
        let else_region = Region::new();
        let else_block = else_branch.as_ref().map(|_| {
            let block = else_region.append_block(Block::new(&[]));
            // SAFETY: see `for_loop`.
            unsafe { BlockRef::from_raw(block.to_raw()) }
        });
        let if_op = scf::IfOp {
            condition,
            results: types.to_vec(),
            then_region,
            else_region,
        };
        let op = self.insert(if_op.build(self.context, self.location));
        let then_builder = Builder::at_end(self.context, self.location, then_block);
        let yielded = then_branch(&then_builder);
        then_builder.insert(scf::YieldOp { results: &yielded }.build(self.context, self.location));
        if let (Some(block), Some(branch)) = (else_block, else_branch) {
            let else_builder = Builder::at_end(self.context, self.location, block);
            let yielded = branch(&else_builder);
            else_builder
                .insert(scf::YieldOp { results: &yielded }.build(self.context, self.location));
        }
        (0..types.len())
            .map(|index| Self::result_at(op, index))
            .collect()
    }
}

/// Replaces every use of `op`'s results with `replacements` and erases it.
pub fn replace_op<'c>(op: OpRef<'c>, replacements: &[Val<'c>]) {
    replace_uses(op, replacements);
    erase_op(op);
}

/// Moves every use of `op`'s results to `replacements` (one per result);
/// `op` stays, without uses.
pub fn replace_uses<'c>(op: OpRef<'c>, replacements: &[Val<'c>]) {
    assert_eq!(op.result_count(), replacements.len());
    for (index, replacement) in replacements.iter().enumerate() {
        // SAFETY: both values are live values of the same context.
        unsafe {
            mlir_sys::mlirValueReplaceAllUsesOfWith(
                Builder::result_at(op, index).to_raw(),
                replacement.to_raw(),
            )
        };
    }
}

/// Erases an op whose results have no uses left.
pub fn erase_op(op: OpRef) {
    // SAFETY: the op is attached to a block, which owns it; destroying it
    // unlinks it. Callers replaced every use of its results first and hold
    // no handle to it afterwards.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

/// Sets `name` on `op`.
pub fn set_attribute(op: OpRef, name: &str, value: Attribute) {
    // SAFETY: a live op; the name is copied.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            op.to_raw(),
            melior::StringRef::new(name).to_raw(),
            value.to_raw(),
        )
    }
}
