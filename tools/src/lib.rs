//! What pld's command-line tools share: calling a C++ `main`-style entry
//! point with the process arguments, on a thread whose stack is large enough
//! for deeply nested input; and pld-lsp-server's proxy ([`lsp`]). (pld-run
//! itself is the pld-run crate.)

use std::ffi::{CString, c_char, c_int};

pub mod lsp;

/// The stack of the thread that runs a tool. MLIR's parser, verifier and
/// printer recurse once per nesting level (a few KiB each): 8 MiB, the main
/// thread's usual size, overflows near 3000 nested regions. Only the pages
/// a run touches are committed, so a large reservation costs nothing.
pub const TOOL_STACK_BYTES: usize = 1 << 30;

/// Runs `entry(argc, argv)` with this process's arguments on a thread with a
/// [`TOOL_STACK_BYTES`] stack and exits with the code it returns.
///
/// # Safety
///
/// `entry` must be sound to call as a C `main` (`argc` NUL-terminated
/// strings in a NULL-terminated, writable `argv`, alive until it returns).
pub unsafe fn exit_with_entry_point(
    entry: unsafe extern "C" fn(c_int, *mut *mut c_char) -> c_int,
) -> ! {
    // SAFETY: the caller vouches for `entry`, as this function's contract asks.
    unsafe { exit_with_arguments(entry, std::env::args_os().collect()) }
}

/// Runs `entry(argc, argv)` with `arguments` (`argv[0]` first) as
/// [`exit_with_entry_point`] runs it with the process's.
///
/// # Safety
///
/// As [`exit_with_entry_point`]'s.
pub unsafe fn exit_with_arguments(
    entry: unsafe extern "C" fn(c_int, *mut *mut c_char) -> c_int,
    arguments: Vec<std::ffi::OsString>,
) -> ! {
    // Leaked, as a C `main`'s argv lives for the whole process: LLVM's
    // crash handler keeps argv[0] in a static and may read it after `entry`
    // returns (a sanitizer report at thread exit, say).
    let arguments: &'static [CString] = arguments
        .into_iter()
        .map(|argument| {
            CString::new(argument.into_encoded_bytes()).expect("arguments never contain NUL")
        })
        .collect::<Vec<_>>()
        .leak();
    let code = run_on_large_stack(move || {
        let mut argv: Vec<*mut c_char> = arguments
            .iter()
            .map(|argument| argument.as_ptr() as *mut c_char)
            .chain(std::iter::once(std::ptr::null_mut()))
            .collect();
        // SAFETY: `argv` is a NULL-terminated array of NUL-terminated strings
        // that live for the rest of the process, as the C `main` the caller vouched for expects.
        unsafe { entry((argv.len() - 1) as c_int, argv.as_mut_ptr()) }
    });
    std::process::exit(code);
}

/// Exits with a located error (status 1) when an input file named on the
/// command line holds input that crashes MLIR's parser
/// ([`pld_dialect::parser_guard`]), before the C++ tool reads it. Input on
/// stdin is not checked.
pub fn refuse_known_parser_crashes() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut after_output = false;
    for argument in &arguments {
        let value_of_output = std::mem::replace(&mut after_output, argument == "-o");
        if value_of_output || argument.starts_with('-') {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(argument) else {
            continue;
        };
        if let Some((line, column, why)) = pld_dialect::parser_guard::known_crash(&text) {
            eprintln!("{argument}:{line}:{column}: error: {why}");
            std::process::exit(1);
        }
    }
}

/// Runs `work` on a thread with a [`TOOL_STACK_BYTES`] stack and returns its
/// result.
pub fn run_on_large_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name("pld-main".into())
        .stack_size(TOOL_STACK_BYTES)
        .spawn(work)
        .expect("the tool thread starts")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
