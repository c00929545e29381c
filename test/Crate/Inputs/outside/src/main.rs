//! A program of its own that embeds pld: registers pld into a melior
//! Context with every upstream dialect, runs canonicalize + pld-verify on the
//! file it is given, and prints each diagnostic with its notes.

// melior as pld-dialect re-exports it: the same version pld links.
use pld_dialect::melior::{
    Context,
    dialect::DialectRegistry,
    ir::Module,
    pass::PassManager,
    utility::{parse_pass_pipeline, register_all_dialects},
};
use std::{env, fs, process::ExitCode};

fn main() -> ExitCode {
    let path = env::args().nth(1).expect("usage: uses-pld FILE");
    let source = fs::read_to_string(&path).expect("a readable file");

    // Every upstream dialect, then pld's (pl, pld, ascend) into the same
    // registry, then the passes, before anything parses a pipeline.
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    pld_dialect::register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    pld_passes::register_passes();

    context.attach_diagnostic_handler(|diagnostic| {
        println!("{}: {:?}: {}", diagnostic.location(), diagnostic.severity(), diagnostic);
        for index in 0..diagnostic.note_count() {
            if let Ok(note) = diagnostic.note(index) {
                println!("  {}: note: {note}", note.location());
            }
        }
        true
    });

    let Some(mut module) = Module::parse(&context, &source) else {
        return ExitCode::from(2);
    };
    let manager = PassManager::new(&context);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        "builtin.module(canonicalize,pld-verify)",
    )
    .expect("the pipeline parses");
    if manager.run(&mut module).is_err() {
        println!("pld-verify rejected {path}");
        return ExitCode::FAILURE;
    }
    println!("{}", module.as_operation());
    ExitCode::SUCCESS
}
