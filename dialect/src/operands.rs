//! The operands of a pl, pld or ascend op by the names its ODS definition
//! gives them (`pld-c/Operands.h`): passes never count operand positions, so
//! reordering an operand in ODS cannot silently change what they read.

use crate::ffi;
use melior::{
    StringRef,
    ir::{Value, operation::OperationLike, operation::OperationRef},
};
use std::ops::Range;

/// The positions of the operand group `name` of `op` (one operand, an
/// optional one or a variadic list); `None` when `op` is not a pl, pld or
/// ascend op or its definition names no operand `name`.
pub fn group<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> Option<Range<usize>> {
    let (mut start, mut count) = (0isize, 0isize);
    // SAFETY: a live op; `name` outlives the call; both out-pointers point at
    // locals, written only when the call returns true.
    let found = unsafe {
        ffi::pldOperationGetOperandGroup(
            op.to_raw(),
            StringRef::new(name).to_raw(),
            &mut start,
            &mut count,
        )
    };
    found.then(|| start as usize..(start + count) as usize)
}

/// The operands of group `name` of `op`, with the op's lifetimes (melior
/// ties an operand to the borrow of the op).
pub fn values<'c, 'a>(op: &OperationRef<'c, 'a>, name: &str) -> Option<Vec<Value<'c, 'a>>> {
    let range = group(op, name)?;
    Some(
        range
            // SAFETY: the C API returned positions inside the op's operand
            // list; an operand lives as long as its op.
            .map(|index| unsafe {
                Value::from_raw(mlir_sys::mlirOperationGetOperand(
                    op.to_raw(),
                    index as isize,
                ))
            })
            .collect(),
    )
}

/// The operand `name` of `op` when that group holds exactly one operand (a
/// single operand, or an optional one that is present).
pub fn value<'c, 'a>(op: &OperationRef<'c, 'a>, name: &str) -> Option<Value<'c, 'a>> {
    match values(op, name)?.as_slice() {
        [value] => Some(*value),
        _ => None,
    }
}
