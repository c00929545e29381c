//! The pld fuzz target: every input that parses goes through the verifier,
//! `pld-verify`, canonicalization, each lowering pass and the whole
//! pipeline to C++, and everything printed on the way must parse back to the
//! same text (custom and generic form alike).
//!
//! A finding is anything that stops the process: a signal or sanitizer
//! report in the C++ half, a panic in a Rust pass (libfuzzer-sys aborts on
//! every panic, even one the pass bridge would turn into an error), or a
//! broken round trip, reported by the panics below. Errors in the input are
//! not findings: they go to a diagnostic handler that drops them; nor is
//! input the tools refuse because it crashes MLIR's parser.

use libfuzzer_sys::fuzz_target;
use melior::{
    Context, StringRef,
    ir::{
        Module,
        operation::{OperationLike, OperationPrintingFlags},
    },
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use std::{
    cell::RefCell,
    ffi::{CString, c_char, c_int},
};

/// The pipelines each input runs through, each on its own copy. The lowering
/// passes also run without `pld-verify` in front of them: a pass must not
/// crash on valid IR that breaks a protocol rule.
const PIPELINES: &[&str] = &[
    "builtin.module(pld-verify)",
    "builtin.module(canonicalize,cse)",
    "builtin.module(pld-decompose-collectives,pld-expand-transfers)",
    "builtin.module(ascend-plan-ub,ascend-insert-sync)",
    "builtin.module(pld-to-cce-pipeline)",
];

/// Inputs per context: a context keeps every type and attribute it ever
/// uniqued, so a long run starts a fresh one now and then.
const INPUTS_PER_CONTEXT: usize = 500;

struct Session {
    context: Context,
    inputs: usize,
}

impl Session {
    fn new() -> Self {
        let context = pld_dialect::create_context();
        // Bad input is expected; its diagnostics are not findings.
        context.attach_diagnostic_handler(|_| true);
        Self { context, inputs: 0 }
    }
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

fuzz_target!(
    init: {
        pld_compiler::register_all_passes();
    },
    |data: &[u8]| {
        let Ok(source) = std::str::from_utf8(data) else {
            return;
        };
        // Input that crashes MLIR's own parser, which the tools refuse
        // before parsing (pld_dialect::parser_guard): not pld's finding.
        if pld_dialect::parser_guard::known_crash(source).is_some() {
            return;
        }
        SESSION.with_borrow_mut(|session| {
            if session.as_ref().is_none_or(|it| it.inputs >= INPUTS_PER_CONTEXT) {
                *session = Some(Session::new());
            }
            let session = session.as_mut().expect("made above");
            session.inputs += 1;
            check(&session.context, source);
        });
    }
);

/// libFuzzer's driver, started from here rather than from libFuzzer's own
/// `main`: the static MLIR libraries carry an `mlir-opt` `main` of their
/// own, and whichever archive the linker reads first would win.
fn main() {
    unsafe extern "C" {
        fn LLVMFuzzerRunDriver(
            argc: *mut c_int,
            argv: *mut *mut *mut c_char,
            test_one_input: unsafe extern "C" fn(*const u8, usize) -> c_int,
        ) -> c_int;
        fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> c_int;
    }
    // Leaked: libFuzzer keeps argv for the whole run.
    let arguments: &'static [CString] = std::env::args_os()
        .map(|argument| CString::new(argument.into_encoded_bytes()).expect("no NUL in arguments"))
        .collect::<Vec<_>>()
        .leak();
    let mut argv: Vec<*mut c_char> = arguments
        .iter()
        .map(|argument| argument.as_ptr() as *mut c_char)
        .chain(std::iter::once(std::ptr::null_mut()))
        .collect();
    let mut argc = arguments.len() as c_int;
    let mut argv_pointer = argv.as_mut_ptr();
    // SAFETY: argc/argv describe NUL-terminated strings that live for the
    // process, as libFuzzer expects of main's; the callback is the one
    // `fuzz_target!` defines, with libFuzzer's signature.
    let code = unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv_pointer, LLVMFuzzerTestOneInput) };
    std::process::exit(code);
}

/// `source` parsed and verified as a module, as `pld-opt` reads a file:
/// every byte, a NUL included, in a buffer followed by a NUL (MLIR's lexer
/// reads the byte after the end as its end marker, as a file buffer
/// guarantees; melior's `Module::parse` needs a NUL-free C string).
fn parse<'c>(context: &'c Context, source: &str) -> Option<Module<'c>> {
    let buffer = format!("{source}\0");
    let text = &buffer[..source.len()];
    // SAFETY: the context is live; `text` is followed by a NUL inside
    // `buffer`, alive for the call, and the parser copies what it keeps; a
    // null module (the reason went to the diagnostic handler) becomes `None`.
    unsafe {
        let module =
            mlir_sys::mlirModuleCreateParse(context.to_raw(), StringRef::new(text).to_raw());
        (!module.ptr.is_null()).then(|| Module::from_raw(module))
    }
}

fn check(context: &Context, source: &str) {
    let Some(module) = parse(context, source) else {
        return;
    };
    let printed = round_trip(context, &module);
    for pipeline in PIPELINES {
        let mut copy = parse(context, &printed).expect("round_trip parsed it");
        let manager = PassManager::new(context);
        parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
            .expect("the pipelines are registered");
        if manager.run(&mut copy).is_err() {
            continue;
        }
        // The pass manager verified the result; it must print and re-parse.
        round_trip(context, &copy);
        if pipeline.contains("cce") {
            // Either C++ or a located error, never a crash.
            let _ = pld_dialect::translate_to_cpp(&copy.as_operation());
        }
    }
}

/// `module` printed in custom form; panics unless both its custom and its
/// generic form parse back to a module that prints the same custom text.
fn round_trip(context: &Context, module: &Module) -> String {
    let operation = module.as_operation();
    let custom = operation.to_string();
    let generic = operation
        .to_string_with_flags(OperationPrintingFlags::new().print_generic_operation_form())
        .expect("a verified module prints");
    for (form, text) in [("custom", &custom), ("generic", &generic)] {
        let Some(reparsed) = parse(context, text) else {
            panic!("the {form} form does not parse back:\n{text}");
        };
        let again = reparsed.as_operation().to_string();
        assert!(
            again == custom,
            "the {form} form parses back to different IR:\n--- printed\n{custom}\n--- re-parsed\n{again}"
        );
    }
    custom
}
