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
    // SAFETY: a live context and type; `shape` holds `shape.len()` dims for
    // the call. `getChecked` returns null (never UB) on invalid parameters.
    let raw = unsafe {
        ffi::pldDistributedTensorTypeGet(
            context.to_raw(),
            shape.len() as isize,
            shape.as_ptr(),
            element.to_raw(),
        )
    };
    // SAFETY: a non-null type of the context `'c`.
    (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
}

/// `!pl.tile<shape x element>` (static, positive dims), or `None` when invalid.
pub fn tile<'c>(context: &'c Context, shape: &[i64], element: Type<'c>) -> Option<Type<'c>> {
    // SAFETY: as in `distributed_tensor`.
    let raw = unsafe {
        ffi::plTileTypeGet(
            context.to_raw(),
            shape.len() as isize,
            shape.as_ptr(),
            element.to_raw(),
        )
    };
    // SAFETY: a non-null type of the context `'c`.
    (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
}

/// `!pld.comm_ctx`.
pub fn comm_ctx(context: &Context) -> Type<'_> {
    // SAFETY: a live context; the type has no parameters to check.
    unsafe { Type::from_raw(ffi::pldCommCtxTypeGet(context.to_raw())) }
}

/// `!pld.ptr`.
pub fn window_ptr(context: &Context) -> Type<'_> {
    // SAFETY: a live context; the type has no parameters to check.
    unsafe { Type::from_raw(ffi::pldPtrTypeGet(context.to_raw())) }
}

/// `!pl.task_id`.
pub fn task_id(context: &Context) -> Type<'_> {
    // SAFETY: a live context; the type has no parameters to check.
    unsafe { Type::from_raw(ffi::plTaskIdTypeGet(context.to_raw())) }
}

/// Whether `r#type` is a `!pld.dtensor`.
pub fn is_distributed_tensor(r#type: Type) -> bool {
    // SAFETY: a type predicate on a live type.
    unsafe { ffi::pldTypeIsADistributedTensor(r#type.to_raw()) }
}

/// Whether `r#type` is a `!pld.comm_ctx`.
pub fn is_comm_ctx(r#type: Type) -> bool {
    // SAFETY: a type predicate on a live type.
    unsafe { ffi::pldTypeIsACommCtx(r#type.to_raw()) }
}

/// Whether `r#type` is a `!pld.ptr` (a window buffer).
pub fn is_window_ptr(r#type: Type) -> bool {
    // SAFETY: a type predicate on a live type.
    unsafe { ffi::pldTypeIsAPtr(r#type.to_raw()) }
}

/// Whether `r#type` is a `!pl.task_id`.
pub fn is_task_id(r#type: Type) -> bool {
    // SAFETY: a type predicate on a live type.
    unsafe { ffi::plTypeIsATaskId(r#type.to_raw()) }
}

/// Whether `r#type` is a `!pl.tile`.
pub fn is_tile(r#type: Type) -> bool {
    // SAFETY: a type predicate on a live type.
    unsafe { ffi::plTypeIsATile(r#type.to_raw()) }
}

/// The ascend target dialect's types.
pub mod ascend {
    pub use crate::enums::ascend::TileKind;
    use crate::ffi;
    use melior::{Context, ir::Type, ir::TypeLike};

    /// `!ascend.ctx`.
    pub fn ctx(context: &Context) -> Type<'_> {
        // SAFETY: a live context; the type has no parameters to check.
        unsafe { Type::from_raw(ffi::ascendCtxTypeGet(context.to_raw())) }
    }

    /// `!ascend.gm<element>`, or `None` for an element type the target has
    /// no pointer to.
    pub fn gm<'c>(context: &'c Context, element: Type<'c>) -> Option<Type<'c>> {
        // SAFETY: a live context and type; a null result means invalid.
        let raw = unsafe { ffi::ascendGmPtrTypeGet(context.to_raw(), element.to_raw()) };
        // SAFETY: a non-null type of the context `'c`.
        (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
    }

    /// `!ascend.tile<rows x cols x element, kind>`, or `None` when invalid
    /// (the verifier's message goes to the context's diagnostic handlers).
    pub fn tile<'c>(
        context: &'c Context,
        rows: i64,
        cols: i64,
        element: Type<'c>,
        kind: TileKind,
    ) -> Option<Type<'c>> {
        // SAFETY: as for `gm`; every case of `kind` is a case of the C++ enum.
        let raw = unsafe {
            ffi::ascendTileTypeGet(context.to_raw(), rows, cols, element.to_raw(), kind as i32)
        };
        // SAFETY: a non-null type of the context `'c`.
        (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
    }

    /// `!ascend.view<element>`.
    pub fn view<'c>(context: &'c Context, element: Type<'c>) -> Type<'c> {
        // SAFETY: a live context and type.
        unsafe { Type::from_raw(ffi::ascendViewTypeGet(context.to_raw(), element.to_raw())) }
    }

    /// `!ascend.task`.
    pub fn task(context: &Context) -> Type<'_> {
        // SAFETY: a live context.
        unsafe { Type::from_raw(ffi::ascendTaskTypeGet(context.to_raw())) }
    }

    /// `!ascend.dispatch_payload`.
    pub fn dispatch_payload(context: &Context) -> Type<'_> {
        // SAFETY: a live context; the type has no parameters.
        unsafe { Type::from_raw(ffi::ascendDispatchPayloadTypeGet(context.to_raw())) }
    }

    /// `!ascend.ffts_addr`.
    pub fn ffts_addr(context: &Context) -> Type<'_> {
        // SAFETY: a live context; the type has no parameters.
        unsafe { Type::from_raw(ffi::ascendFftsAddrTypeGet(context.to_raw())) }
    }

    /// `!ascend.sdma_workspace`.
    pub fn sdma_workspace(context: &Context) -> Type<'_> {
        // SAFETY: a live context; the type has no parameters.
        unsafe { Type::from_raw(ffi::ascendSdmaWorkspaceTypeGet(context.to_raw())) }
    }

    /// `!ascend.async_session`.
    pub fn async_session(context: &Context) -> Type<'_> {
        // SAFETY: a live context; the type has no parameters.
        unsafe { Type::from_raw(ffi::ascendAsyncSessionTypeGet(context.to_raw())) }
    }

    /// `!ascend.async_event`.
    pub fn async_event(context: &Context) -> Type<'_> {
        // SAFETY: a live context; the type has no parameters.
        unsafe { Type::from_raw(ffi::ascendAsyncEventTypeGet(context.to_raw())) }
    }

    /// Whether `r#type` is an `!ascend.async_session`.
    pub fn is_async_session(r#type: Type) -> bool {
        // SAFETY: a type predicate on a live type.
        unsafe { ffi::ascendTypeIsAAsyncSession(r#type.to_raw()) }
    }

    /// `!ascend.args`.
    pub fn args(context: &Context) -> Type<'_> {
        // SAFETY: a live context.
        unsafe { Type::from_raw(ffi::ascendArgsTypeGet(context.to_raw())) }
    }

    /// Whether `r#type` is an `!ascend.tile`.
    pub fn is_tile(r#type: Type) -> bool {
        // SAFETY: a type predicate on a live type.
        unsafe { ffi::ascendTypeIsATile(r#type.to_raw()) }
    }

    /// Whether `r#type` is an `!ascend.gm` pointer.
    pub fn is_gm(r#type: Type) -> bool {
        // SAFETY: a type predicate on a live type.
        unsafe { ffi::ascendTypeIsAGmPtr(r#type.to_raw()) }
    }

    /// The element type of an `!ascend.gm` pointer type.
    pub fn gm_element(r#type: Type) -> Option<Type> {
        // SAFETY: the accessor runs only on a confirmed `!ascend.gm` type.
        is_gm(r#type)
            .then(|| unsafe { Type::from_raw(ffi::ascendGmPtrTypeGetElementType(r#type.to_raw())) })
    }

    /// The kind of an `!ascend.tile` type.
    pub fn tile_kind(r#type: Type) -> Option<TileKind> {
        // SAFETY: the accessor runs only on a confirmed `!ascend.tile` type.
        is_tile(r#type)
            .then(|| TileKind::from_value(unsafe { ffi::ascendTileTypeGetKind(r#type.to_raw()) }))
            .flatten()
    }

    /// `(rows, cols, element)` of an `!ascend.tile` type.
    pub fn tile_shape(r#type: Type) -> Option<(i64, i64, Type)> {
        // SAFETY: the accessors run only on a confirmed `!ascend.tile` type.
        is_tile(r#type).then(|| unsafe {
            (
                ffi::ascendTileTypeGetRows(r#type.to_raw()),
                ffi::ascendTileTypeGetCols(r#type.to_raw()),
                Type::from_raw(ffi::ascendTileTypeGetElementType(r#type.to_raw())),
            )
        })
    }
}
