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

/// Exits with a located error (status 1) when the input holds what crashes
/// MLIR's parser ([`pld_dialect::parser_guard`]), before the C++ tool reads
/// it: each file named on the command line, and stdin where the tool reads
/// it (`-`, or no input named when `stdin_by_default`, as the opt and
/// translate drivers do). Stdin is read whole and handed back to the tool
/// unchanged on fd 0; a terminal is left alone (the tool would wait for it,
/// and so would this check).
pub fn refuse_known_parser_crashes(stdin_by_default: bool) {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut after_output = false;
    let mut inputs = Vec::new();
    for argument in &arguments {
        let value_of_output = std::mem::replace(&mut after_output, argument == "-o");
        if value_of_output || (argument.starts_with('-') && argument != "-") {
            continue;
        }
        inputs.push(argument.as_str());
    }
    // A flag that only informs (--help, --version, ...) reads no input: do
    // not wait for stdin on its behalf.
    let informs = arguments.iter().any(|argument| {
        let flag = argument.trim_start_matches('-');
        argument.starts_with('-')
            && ["help", "version", "show-dialects", "list-passes"]
                .iter()
                .any(|name| flag.starts_with(name))
    });
    if inputs.is_empty() && stdin_by_default && !informs {
        inputs.push("-");
    }
    for input in inputs {
        let text = if input == "-" {
            match stdin_checked_and_restored() {
                Some(text) => text,
                None => continue,
            }
        } else {
            match std::fs::read_to_string(input) {
                Ok(text) => text,
                Err(_) => continue,
            }
        };
        if let Some((line, column, why)) = pld_dialect::parser_guard::known_crash(&text) {
            let name = if input == "-" { "<stdin>" } else { input };
            eprintln!("{name}:{line}:{column}: error: {why}");
            std::process::exit(1);
        }
    }
}

/// Stdin's text, read whole and put back in front of the tool (an unnamed
/// temporary file duplicated onto fd 0, from its start), or `None` where
/// stdin is a terminal or cannot be read and copied (the tool then reads
/// stdin as it is).
fn stdin_checked_and_restored() -> Option<String> {
    use std::io::{IsTerminal, Read, Seek, Write};
    use std::os::fd::AsRawFd;
    let mut stdin = std::io::stdin().lock();
    if stdin.is_terminal() {
        return None;
    }
    // The tool waits here for its input, before its own main installs
    // LLVM's crash handler: a crash while it waits reports as one later would.
    install_crash_handler();
    let mut bytes = Vec::new();
    stdin.read_to_end(&mut bytes).ok()?;
    let mut copy = tempfile::tempfile().ok()?;
    copy.write_all(&bytes).ok()?;
    copy.rewind().ok()?;
    // SAFETY: both are open descriptors of this process; dup2 makes fd 0 a
    // second handle of the copy, which stays open when `copy` is dropped.
    // Nothing in this process has read stdin through a buffer that would
    // keep old bytes: std's stdin buffer holds none after read_to_end.
    if unsafe { libc::dup2(copy.as_raw_fd(), 0) } < 0 {
        return None;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Installs LLVM's crash handler with pld's bug report message (a stack
/// trace and where to report it on a fatal signal), for the code that runs
/// before a tool's C++ main or instead of one.
pub fn install_crash_handler() {
    // In a static: LLVM's crash handler keeps the pointer to argv[0] and
    // reads it when a signal comes, whenever that is (and a tool's C++ main
    // may install its own argv[0] over it, so LLVM's static cannot be what
    // keeps it alive, or reachable for a leak checker).
    static ARGV0: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    let argv0 = ARGV0.get_or_init(|| {
        CString::new(
            std::env::args_os()
                .next()
                .unwrap_or_default()
                .into_encoded_bytes(),
        )
        .unwrap_or_default()
    });
    // SAFETY: `argv0` is a NUL-terminated string that lives for the rest of
    // the process.
    unsafe { pld_dialect::ffi::pldInstallCrashHandler(argv0.as_ptr()) };
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
