//! New functions: the kernels a pass outlines or generates.

use crate::{OpRef, build::context_of};
use melior::dialect::func;
use melior::ir::{
    Block, BlockLike, BlockRef, Location, Region, RegionLike, Type,
    attribute::{StringAttribute, TypeAttribute},
    operation::OperationLike,
    r#type::FunctionType,
};
use pld_dialect::enums::KernelKind;

/// A private `func.func @name(inputs)` of `kind`, with an empty entry
/// block, inserted into `after`'s block right after it; the function and
/// its entry block.
pub fn private_function<'c>(
    after: OpRef<'c>,
    name: &str,
    inputs: &[Type<'c>],
    kind: KernelKind,
    location: Location<'c>,
) -> (OpRef<'c>, BlockRef<'c, 'c>) {
    let context = context_of(after);
    let arguments: Vec<(Type, Location)> =
        inputs.iter().map(|r#type| (*r#type, location)).collect();
    let region = Region::new();
    let block = region.append_block(Block::new(&arguments));
    // SAFETY: see the crate documentation; the block keeps its address when
    // the region moves into the function.
    let block: BlockRef<'c, 'c> = unsafe { BlockRef::from_raw(block.to_raw()) };
    let function = func::func(
        context,
        StringAttribute::new(context, name),
        TypeAttribute::new(FunctionType::new(context, inputs, &[]).into()),
        region,
        &[],
        location,
    );
    let function = after
        .block()
        .expect("functions sit in a module")
        .insert_operation_after(after, function);
    // SAFETY: see the crate documentation.
    let function: OpRef<'c> = unsafe { OpRef::from_raw(function.to_raw()) };
    pld_dialect::ops::func::FuncOp::set_sym_visibility(&function, Some("private"));
    kind.set_on(&function);
    (function, block)
}
