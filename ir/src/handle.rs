//! Handles to IR objects, with the context lifetime `'c` only.
//!
//! A pass transforms one module that outlives its run, so every op, block
//! and value it touches lives as long as the run. melior ties handles to the
//! borrow they came from, which makes a rewrite that builds nested regions
//! while it holds values of the enclosing block impossible to express; these
//! aliases state the real lifetime once.

use melior::ir::{Value, ValueLike, operation::OperationRef};

/// A value of the IR being transformed.
pub type Val<'c> = Value<'c, 'c>;

/// An op of the IR being transformed.
pub type OpRef<'c> = OperationRef<'c, 'c>;

use melior::ir::{BlockLike, RegionLike, operation::OperationLike};

/// Every op nested under `root` (not `root` itself), in pre-order, which is
/// program order within each block: the one IR walk of the passes.
pub fn nested_ops<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    collect(root, &mut ops);
    ops
}

fn collect<'c, 'a>(op: OperationRef<'c, 'a>, ops: &mut Vec<OperationRef<'c, 'a>>) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(current) = block {
            let mut child = current.first_operation();
            while let Some(operation) = child {
                ops.push(operation);
                collect(operation, ops);
                child = operation.next_in_block();
            }
            block = current.next_in_region();
        }
    }
}

/// Every use of `value`: the using op and the operand number.
pub fn uses(value: Val) -> Vec<(OpRef, usize)> {
    let mut found = Vec::new();
    // SAFETY: walks the use list of a live value without changing it.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            found.push((
                OpRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)),
                mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize,
            ));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    found
}

/// `ceil(a / b)` for non-negative `a` and positive `b` (`i64::div_ceil` is
/// not stable).
pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}
