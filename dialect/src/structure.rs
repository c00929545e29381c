//! An op's structure as tokens (`pld-c/Structure.h`): two ops of one context
//! have equal tokens exactly when they are the same op up to locations, the
//! root's symbol name and the names its flat symbol references use.

use crate::ffi;
use melior::ir::operation::OperationLike;

/// The token before a flat symbol reference's name; the token after it is
/// the address of the name's `StringAttr`, which is the address of the
/// referenced symbol's `sym_name` attribute.
pub const SYMBOL_REFERENCE: u64 = u64::MAX;

/// The tokens of `op` and everything nested in it.
pub fn tokens<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Vec<u64> {
    unsafe extern "C" fn append(
        tokens: *const u64,
        count: isize,
        user_data: *mut std::ffi::c_void,
    ) {
        // SAFETY: `user_data` is the `Vec` below, alive for the call;
        // `tokens` points at `count` tokens the writer owns for the call.
        unsafe {
            let out = &mut *(user_data as *mut Vec<u64>);
            if count > 0 {
                out.extend_from_slice(std::slice::from_raw_parts(tokens, count as usize));
            }
        }
    }
    let mut out: Vec<u64> = Vec::new();
    // SAFETY: a live op, only read; the callback only appends to `out`.
    unsafe {
        ffi::pldOperationStructure(
            op.to_raw(),
            Some(append),
            &mut out as *mut Vec<u64> as *mut _,
        )
    };
    out
}
