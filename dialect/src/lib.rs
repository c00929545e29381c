//! The `pl` and `pld` MLIR dialects for Rust: registration into a melior
//! [`Context`], type constructors, located diagnostics with notes, and the
//! ops of pl, pld and ascend as typed structs generated from the same ODS
//! files as the C++ dialects ([`ops`]).
//!
//! ```no_run
//! let context = pld_dialect::create_context();
//! let module = melior::ir::Module::parse(&context, "module {}").unwrap();
//! assert!(module.as_operation().verify());
//! ```

pub mod analysis;
mod attributes;
pub mod declared;
pub mod described;
pub mod diagnostics;
pub mod enums;
pub mod ffi;
pub mod interfaces;
pub mod operands;
pub mod ops;
pub mod parser_guard;
pub mod structure;
pub mod target;
pub mod types;

pub use melior;

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
    ir::operation::OperationLike,
};

/// The bytes of a C API string. An empty one may carry a null `data`, which
/// `slice::from_raw_parts` must never see, so every reader goes through here.
///
/// # Safety
///
/// Unless `text.length` is 0, `text.data` points at that many bytes,
/// readable and unchanged for `'a`.
pub unsafe fn string_ref_bytes<'a>(text: mlir_sys::MlirStringRef) -> &'a [u8] {
    if text.length == 0 {
        return &[];
    }
    // SAFETY: the caller guarantees `length` readable bytes for `'a`.
    unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) }
}

/// Whether `op` is named `name`. The bytes are compared as they are: an
/// op's name is ASCII, and the generated readers ask this of every op they
/// are handed, so it skips the UTF-8 check of melior's `as_str`.
pub fn has_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> bool {
    // SAFETY: a live op; its name is uniqued in the context and outlives
    // the comparison.
    let bytes = unsafe {
        string_ref_bytes(mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(
            op.to_raw(),
        )))
    };
    bytes == name.as_bytes()
}

/// The handle of the `pld` dialect.
pub fn pld_dialect_handle() -> DialectHandle {
    // SAFETY: the C API returns a static handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__pld__()) }
}

/// The handle of the `ascend` target dialect.
pub fn ascend_dialect_handle() -> DialectHandle {
    // SAFETY: the C API returns a static handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__ascend__()) }
}

/// Registers the upstream passes pld's pipelines name (canonicalize, cse,
/// arith-expand, convert-to-emitc, form-expressions, ...); idempotent.
pub fn register_upstream_passes() {
    // SAFETY: registration into MLIR's global registry, guarded against
    // repetition on the C++ side.
    unsafe { ffi::pldRegisterUpstreamPasses() }
}

/// `op` (an EmitC module) printed as C++ by upstream's translateToCpp;
/// `None` when EmitC cannot print it (the reason is a located diagnostic).
pub fn translate_to_cpp<'c: 'a, 'a>(
    op: &impl melior::ir::operation::OperationLike<'c, 'a>,
) -> Option<String> {
    let mut text = String::new();
    /// # Safety
    ///
    /// `user_data` is a `*mut String` alive for the call, and `piece` names
    /// `length` readable bytes (as the emitter's stream guarantees).
    unsafe extern "C" fn append(piece: mlir_sys::MlirStringRef, user_data: *mut std::ffi::c_void) {
        // SAFETY: `user_data` is the `String` below, alive for the call;
        // `piece` is `length` bytes the emitter printed (decoded lossily).
        unsafe {
            let text = &mut *(user_data as *mut String);
            text.push_str(&String::from_utf8_lossy(string_ref_bytes(piece)));
        }
    }
    // SAFETY: a live op; the callback only appends to `text`.
    let result = unsafe {
        ffi::pldTranslateToCpp(
            op.to_raw(),
            Some(append),
            &mut text as *mut String as *mut _,
        )
    };
    (result.value != 0).then_some(text)
}

/// The handle of the `pl` core dialect.
pub fn pl_dialect_handle() -> DialectHandle {
    // SAFETY: the C API returns a static handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__pl__()) }
}

/// Inserts `pl`, `pld` and the upstream dialects pld programs use (func,
/// arith, scf, memref, cf) into `registry`.
pub fn register_all_dialects(registry: &DialectRegistry) {
    // SAFETY: `registry` is a live registry, borrowed for the call.
    unsafe { ffi::pldRegisterAllDialects(registry.to_raw()) }
}

/// A context with every dialect of [`register_all_dialects`] loaded.
pub fn create_context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}
