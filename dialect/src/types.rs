//! Constructors and predicates for the dialects' types.

use crate::ffi;
use melior::{Context, ir::Type, ir::TypeLike};

/// The dynamic-dimension marker of shaped types (`?`).
pub const DYNAMIC: i64 = i64::MIN;

/// `!pld.dtensor<shape x element>`, or `None` when the type is invalid (the
/// reason is reported to the context's diagnostic handlers).
pub fn distributed_tensor<'c>(
    context: &'c Context,
    shape: &[i64],
    element: Type<'c>,
) -> Option<Type<'c>> {
    let raw = unsafe {
        ffi::pldDistributedTensorTypeGet(
            context.to_raw(),
            shape.len() as isize,
            shape.as_ptr(),
            element.to_raw(),
        )
    };
    (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
}

/// `!pl.tile<shape x element>` (static, positive dims), or `None` when invalid.
pub fn tile<'c>(context: &'c Context, shape: &[i64], element: Type<'c>) -> Option<Type<'c>> {
    let raw = unsafe {
        ffi::pldTileTypeGet(
            context.to_raw(),
            shape.len() as isize,
            shape.as_ptr(),
            element.to_raw(),
        )
    };
    (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
}

/// `!pld.comm_ctx`.
pub fn comm_ctx(context: &Context) -> Type<'_> {
    unsafe { Type::from_raw(ffi::pldCommCtxTypeGet(context.to_raw())) }
}

/// `!pld.ptr`.
pub fn window_ptr(context: &Context) -> Type<'_> {
    unsafe { Type::from_raw(ffi::pldPtrTypeGet(context.to_raw())) }
}

/// `!pl.task_id`.
pub fn task_id(context: &Context) -> Type<'_> {
    unsafe { Type::from_raw(ffi::pldTaskIdTypeGet(context.to_raw())) }
}

/// Whether `r#type` is a `!pld.dtensor`.
pub fn is_distributed_tensor(r#type: Type) -> bool {
    unsafe { ffi::pldTypeIsADistributedTensor(r#type.to_raw()) }
}

/// Whether `r#type` is a `!pl.tile`.
pub fn is_tile(r#type: Type) -> bool {
    unsafe { ffi::pldTypeIsATile(r#type.to_raw()) }
}
