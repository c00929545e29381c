//! Hand-offs: a `pl.matmul` product that vector work uses.
//!
//! The cube's product lands in its L0C and leaves only through the fixpipe
//! into global memory, and the vector core reads global memory into its
//! unified buffer: on a2a3 a value crosses between the two through global
//! memory (docs/lowering.md, "Mixed kernels"). So before anything is
//! outlined, a product used otherwise than by one `pl.store` is rewritten
//! into what a user would write by hand:
//!
//! ```text
//! %space = builtin.unrealized_conversion_cast to memref<M x N x T>
//!            {pld.handoff}                        (first in the block)
//! %p = pl.matmul %a, %b
//! pl.store %p, %space[0, 0] valid [m, n]          (the GEMM's store)
//! %v = pl.load %space[0, 0] valid [m, n]          (its uses take %v)
//! ```
//!
//! with the load inside a `pl.split_aiv` region for the uses there (a tile
//! does not cross into a region: each sub-lane loads its own). `%space`
//! stands for the kernel's part of its hand-off space: [`assign`] gives
//! each one its offset among the kernel's hand-offs once the regions are
//! outlined, the kernel takes the space after its FFTS base address (the
//! kernel ABI) and block `b` uses bytes `[b * per_block, (b + 1) *
//! per_block)` of it. The GEMM's cross-core flags then order the store
//! before the loads, as for any GEMM whose product the vector core reads.

use melior::ir::{
    BlockLike, Identifier, RegionLike, Type, ValueLike,
    attribute::{Attribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, MemRefType},
};
use pld_dialect::ops::pl;
use pld_ir::{Builder, Ix, OpRef, Val, nested_ops, read, types, uses};

/// The name of the placeholder op that stands for a hand-off's memory.
const PLACEHOLDER: &str = "builtin.unrealized_conversion_cast";
/// Marks a placeholder as a hand-off (its memref is the product's shape).
const MARK: &str = "pld.handoff";
/// The byte offset [`assign`] gives a hand-off in its kernel's part.
const OFFSET: &str = "pld.handoff_offset";
/// Where one hand-off starts in a block's part: the fixpipe's stores and
/// TLOAD want their addresses aligned, and 512 bytes is a fractal.
const ALIGNMENT: i64 = 512;

/// Whether `op` is a hand-off's placeholder.
pub fn is_placeholder(op: OpRef) -> bool {
    read::name(op) == PLACEHOLDER && op.attribute(MARK).is_ok()
}

/// The byte offset [`assign`] gave the hand-off `placeholder`.
pub fn offset_of(placeholder: OpRef) -> i64 {
    placeholder
        .attribute(OFFSET)
        .ok()
        .and_then(|attribute| IntegerAttribute::try_from(attribute).ok())
        .map_or(0, |offset| offset.value())
}

/// Whether the product of `matmul` needs a hand-off: anything but one
/// `pl.store` in its block uses it.
fn needs_handoff(matmul: OpRef) -> bool {
    match uses(Builder::result(matmul)).as_slice() {
        [(store, _)] => read::name(*store) != pl::StoreOp::NAME || store.block() != matmul.block(),
        _ => true,
    }
}

/// The valid extent of dimension `dim` of the tile that `operand` (a GEMM
/// operand) was loaded as: its load's `valid` entry, else the tile's size.
fn valid_extent<'c>(operand: Val<'c>, dim: usize) -> Ix<'c> {
    let shape = types::shape(operand.r#type()).expect("a tile");
    let loaded = read::defining_op(operand)
        .and_then(|load| pld_ir::attributes::valid_sizes(&load).flatten())
        .map(|(statics, dynamic)| pld_ir::build::mixed_list(&statics, &dynamic));
    loaded
        .and_then(|valid| valid.get(dim).copied())
        .unwrap_or(Ix::Const(shape[dim]))
}

/// Rewrites every product that needs a hand-off, in every function of the
/// module (before regions are outlined).
pub fn insert(module: OpRef) {
    let matmuls: Vec<OpRef> = nested_ops(module)
        .into_iter()
        .filter(|op| read::name(*op) == pl::MatmulOp::NAME)
        .filter(|op| needs_handoff(*op))
        .collect();
    for matmul in matmuls {
        rewrite(matmul);
    }
}

fn rewrite(matmul: OpRef) {
    let context = pld_ir::build::context_of(matmul);
    let product = Builder::result(matmul);
    let operands = pl::MatmulOp::operands(&matmul).expect("a pl.matmul");
    let shape = types::shape(product.r#type()).expect("a tile");
    let element = types::element_type(product.r#type()).expect("a tile");
    let (rows, cols) = (shape[0], shape[1]);
    let block = matmul.block().expect("an op in a block");
    let first = block.first_operation().expect("the matmul at least");
    // SAFETY: see the documentation of `pld_ir`.
    let first: OpRef = unsafe { OpRef::from_raw(first.to_raw()) };
    let space = place_holder(
        context,
        Builder::before(first).at(matmul.location()),
        rows,
        cols,
        element,
    );

    // The valid shape of the product: the left operand's rows, the right
    // operand's columns.
    let after = matmul.next_in_block().expect("a terminator follows");
    // SAFETY: see the documentation of `pld_ir`.
    let after: OpRef = unsafe { OpRef::from_raw(after.to_raw()) };
    let builder = Builder::before(after).at(matmul.location());
    let valid = [valid_extent(operands.lhs, 0), valid_extent(operands.rhs, 1)];
    let origin = [Ix::Const(0), Ix::Const(0)];
    let users = uses(product);
    builder.store(product, space, &origin, Some(&valid));

    // One load where the block's own uses are, one at the top of each
    // split region that uses the product.
    let mut loads: Vec<(Option<OpRef>, Val)> = Vec::new();
    for (user, operand) in users {
        let region = outermost_split_region(user, matmul);
        let load = match loads.iter().find(|(at, _)| *at == region) {
            Some((_, load)) => *load,
            None => {
                let builder = match region {
                    Some(split) => {
                        let body = split
                            .region(0)
                            .ok()
                            .and_then(|region| region.first_block())
                            .and_then(|block| block.first_operation())
                            .expect("a region body ends in its terminator");
                        // SAFETY: see the documentation of `pld_ir`.
                        Builder::before(unsafe { OpRef::from_raw(body.to_raw()) })
                    }
                    None => builder,
                }
                .at(matmul.location());
                let load = builder.load(space, &origin, product.r#type(), Some(&valid));
                loads.push((region, load));
                load
            }
        };
        // SAFETY: a live op and an operand index it has.
        unsafe {
            mlir_sys::mlirOperationSetOperand(user.to_raw(), operand as isize, load.to_raw())
        };
    }
}

/// `%space = builtin.unrealized_conversion_cast to memref<rows x cols x
/// element> {pld.handoff}`.
fn place_holder<'c>(
    context: &'c melior::Context,
    builder: Builder<'c>,
    rows: i64,
    cols: i64,
    element: Type<'c>,
) -> Val<'c> {
    let memref = MemRefType::new(element, &[rows, cols], None, None);
    let op = OperationBuilder::new(PLACEHOLDER, builder.location)
        .add_results(&[memref.into()])
        .add_attributes(&[(Identifier::new(context, MARK), Attribute::unit(context))])
        .build()
        .expect("a valid unrealized_conversion_cast");
    builder.build_one(op)
}

/// The outermost `pl.split_aiv` region around `user` that does not also
/// hold `matmul`.
fn outermost_split_region<'c>(user: OpRef<'c>, matmul: OpRef<'c>) -> Option<OpRef<'c>> {
    let mut found = None;
    let mut current = user.parent_operation();
    while let Some(parent) = current {
        // SAFETY: see the documentation of `pld_ir`.
        let parent: OpRef = unsafe { OpRef::from_raw(parent.to_raw()) };
        if pld_ir::read::is_within(matmul, parent) {
            break;
        }
        if read::name(parent) == pl::SplitAivOp::NAME {
            found = Some(parent);
        }
        current = parent.parent_operation();
    }
    found
}

/// Gives each hand-off of `function` (once its regions are outlined) its
/// byte offset in a block's part of the kernel's hand-off space; returns
/// the bytes a block needs (0: the function has none).
pub fn assign(function: OpRef) -> i64 {
    let context = pld_ir::build::context_of(function);
    let i64_type = IntegerType::new(context, 64).into();
    let mut bytes = 0;
    for op in nested_ops(function) {
        if !is_placeholder(op) || read::enclosing_function(&op) != Some(function) {
            continue;
        }
        let memref = Builder::result(op).r#type();
        let size: i64 = types::shape(memref)
            .expect("a memref")
            .iter()
            .product::<i64>()
            * types::element_type(memref)
                .and_then(types::byte_width)
                .expect("a product's element type has a width");
        pld_ir::build::set_attribute(op, OFFSET, IntegerAttribute::new(i64_type, bytes).into());
        bytes += pld_ir::ceil_div(size, ALIGNMENT) * ALIGNMENT;
    }
    bytes
}
