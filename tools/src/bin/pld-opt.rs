//! `pld-opt`: MLIR's own opt driver (every standard flag works) with the pl
//! and pld dialects, upstream's transform passes, and pld's Rust passes.

use std::ffi::{CString, c_char, c_int};

unsafe extern "C" {
    fn pldOptMain(argc: c_int, argv: *mut *mut c_char) -> c_int;
}

fn main() {
    pld_passes::register_passes();
    let arguments: Vec<CString> = std::env::args_os()
        .map(|argument| {
            CString::new(argument.into_encoded_bytes()).expect("arguments never contain NUL")
        })
        .collect();
    let mut argv: Vec<*mut c_char> = arguments
        .iter()
        .map(|argument| argument.as_ptr() as *mut c_char)
        .chain(std::iter::once(std::ptr::null_mut()))
        .collect();
    let code = unsafe { pldOptMain((argv.len() - 1) as c_int, argv.as_mut_ptr()) };
    std::process::exit(code);
}
