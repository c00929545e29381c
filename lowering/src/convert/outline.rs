//! Moving a region's body into a function of its own: task bodies become
//! kernels the host submits, split-AIV bodies become functions that run on
//! both sub-lanes. The new function takes, in order of first use, the
//! values the body uses from outside.

use melior::ir::{BlockLike, RegionLike, Type, ValueLike, operation::OperationLike};
use pld_dialect::enums::KernelKind;
use pld_ir::{
    OpRef, Val, ValueKey, build::function::private_function, nested_ops, read::is_within, uses,
};
use std::collections::HashSet;

/// The op a value is defined by or, for a block argument, the op whose region
/// holds the block.
fn owner_of(value: Val) -> Option<OpRef> {
    // SAFETY: a live value; its owner (op or block) is live too.
    unsafe {
        if value.is_operation_result() {
            return Some(OpRef::from_raw(mlir_sys::mlirOpResultGetOwner(
                value.to_raw(),
            )));
        }
        let block = mlir_sys::mlirBlockArgumentGetOwner(value.to_raw());
        OpRef::from_option_raw(mlir_sys::mlirBlockGetParentOperation(block))
    }
}

/// The values ops inside `region_op` use but that are defined outside it
/// (a block argument of `region_op`'s own region counts as inside).
pub fn captures<'c>(region_op: OpRef<'c>) -> Vec<Val<'c>> {
    let mut seen = HashSet::new();
    let mut captured = Vec::new();
    for op in nested_ops(region_op) {
        for index in 0..op.operand_count() {
            let value = pld_ir::read::operand(op, index);
            let inside = owner_of(value).is_some_and(|owner| is_within(owner, region_op));
            if !inside && seen.insert(ValueKey::of(value)) {
                captured.push(value);
            }
        }
    }
    captured
}

/// Creates `func.func private @name(captures...)` marked `kind` after
/// `after`, moves the single block of `region_op`'s first region into it,
/// and makes the moved ops use the new arguments. Returns the function.
pub fn outline<'c>(
    region_op: OpRef<'c>,
    after: OpRef<'c>,
    name: &str,
    kind: KernelKind,
    captured: &[Val<'c>],
) -> OpRef<'c> {
    let location = region_op.location();
    let inputs: Vec<Type> = captured.iter().map(|value| value.r#type()).collect();
    let (function, block) = private_function(after, name, &inputs, kind, location);
    let terminator = melior::dialect::func::r#return(&[], location);
    let terminator = block.append_operation(terminator);

    // Move the body's ops before the return, in order.
    let body = region_op
        .region(0)
        .expect("the op has a body")
        .first_block()
        .expect("the body has a block");
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        // SAFETY: both ops are live; the moved op leaves its old block.
        unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), terminator.to_raw()) };
    }

    // Uses of a captured value inside the function become its argument.
    for (index, value) in captured.iter().enumerate() {
        let argument = block.argument(index).expect("one argument per capture");
        for (owner, operand) in uses(*value) {
            if is_within(owner, function) {
                // SAFETY: a live op and an operand index it has.
                unsafe {
                    mlir_sys::mlirOperationSetOperand(
                        owner.to_raw(),
                        operand as isize,
                        argument.to_raw(),
                    )
                };
            }
        }
    }
    function
}
