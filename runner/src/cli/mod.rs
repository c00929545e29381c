//! `pld-run`: runs a pld module on N simulated ranks (pipeline §7). The
//! command line ([`pld_run_core::cli::Options`]) becomes
//! [`CompileOptions`] and a [`RunSpec`]; the library compiles and runs;
//! this module prints what it reports and gives back the exit status.

/// `print!`/`eprint!` that ignore a closed pipe: `pld-run ... | head` must
/// keep pld-run's exit status, where `print!` would panic on EPIPE.
macro_rules! out {
    ($($format:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($format)*);
    }};
}
macro_rules! err {
    ($($format:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($format)*);
    }};
}

mod keep;

use crate::{
    Backend, CompileOptions, Error, Exploration, Flavour, Message, Prepared, Program,
    ProgramOutput, RunSpec, Session, Source, program::Workspace,
};
use pld_run_core::{
    cli::{self, Command, Options, Sanitizer, StatsFormat, choice_list},
    status::ExitStatus,
};
use std::{ffi::OsString, fs};

/// A failure with the exit status it means; the message is already printed
/// when empty.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct Failure {
    status: ExitStatus,
    message: String,
}

fn fail(status: ExitStatus, message: impl Into<String>) -> Failure {
    Failure {
        status,
        message: message.into(),
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        // MLIR's diagnostics, printed as they came, say why.
        let message = match error {
            Error::Parse => String::new(),
            _ => error.to_string(),
        };
        fail(error.status(), message)
    }
}

impl From<pld_run_core::Error> for Failure {
    fn from(error: pld_run_core::Error) -> Failure {
        fail(error.status(), error.message())
    }
}

/// Runs pld-run with `arguments` (without the program name); returns the
/// exit status.
pub fn main(arguments: Vec<OsString>) -> i32 {
    let options = match cli::parse(arguments) {
        Ok(Command::Help) => {
            out!("{}", cli::usage());
            return 0;
        }
        Ok(Command::Version) => {
            out!("{}", cli::version());
            return 0;
        }
        Ok(Command::Run(options)) => options,
        Err(error) => {
            err!("pld-run: {error}\nrun 'pld-run --help' for the usage\n");
            return error.status().code().into();
        }
    };
    match run(&options) {
        Ok(status) => status.code().into(),
        Err(failure) => {
            if !failure.message.is_empty() {
                err!("pld-run: {}\n", failure.message);
            }
            failure.status.code().into()
        }
    }
}

/// What the command line asks of the compiler.
fn compile_options(options: &Options) -> CompileOptions {
    CompileOptions {
        entry: options.entry.clone(),
        pipeline: options.pipeline.clone().or_else(|| {
            options
                .no_verify
                .then(|| crate::compile::UNVERIFIED_PIPELINE.to_owned())
        }),
        blocks: options.blocks,
        flavour: match options.sanitize {
            None | Some(Sanitizer::Race) => Flavour::Plain,
            Some(Sanitizer::Thread) => Flavour::Thread,
            Some(Sanitizer::Address) => Flavour::Address,
        },
        backend: match options.backend {
            cli::Backend::Thread => Backend::Thread,
            cli::Backend::Mpi => Backend::Mpi(options.mpi.clone()),
        },
        // pld-run's cache is where the environment says.
        cache: None,
    }
}

/// What the command line asks of the run. The program's output goes
/// straight to pld-run's, as it happens.
fn run_spec(options: &Options) -> RunSpec {
    RunSpec {
        ranks: options.ranks,
        blocks: options.blocks,
        launches: options.launches,
        reset_windows: options.reset_windows,
        init: options.init.clone(),
        load: options.load.clone(),
        shape: options.shape.clone(),
        expect: options.expect.clone(),
        rtol: options.rtol,
        atol: options.atol,
        print: options.print.clone(),
        timeout_secs: options.timeout_secs,
        race: options.sanitize == Some(Sanitizer::Race),
        schedule: options.schedule.clone(),
        timing: options.timing.clone(),
        // --timing reports the modelled times the counters hold.
        stats: options.stats.is_some() || options.timing.is_some(),
        trace: options.trace.is_some() || options.timeline.is_some(),
        output: ProgramOutput::Inherit,
    }
}

/// Prints a compile's message as it happens, as MLIR's tools and pld-run
/// always did; pld-verify's single-rank warning only for a run on one
/// rank, the only run it is about.
fn print_message(message: Message, ranks: usize) {
    match message {
        Message::Diagnostic(diagnostic) => {
            if ranks == 1 || !diagnostic.is_single_rank_warning() {
                err!("{}", diagnostic.text);
            }
        }
        Message::Note(note) => err!("pld-run: {note}\n"),
        Message::CompilerOutput(output) => err!("{output}"),
    }
}

fn run(options: &Options) -> Result<ExitStatus, Failure> {
    let ranks = options.ranks;
    let session = Session::reporting(move |message| print_message(message, ranks));
    let compile = compile_options(options);
    let spec = run_spec(options);
    let parsed = session.parse(Source::File(&options.input), compile.entry.as_deref())?;
    // Every input error is reported before anything is compiled.
    let prepared = spec.prepare(parsed.arguments())?;
    // A collective on several blocks too, at the op the user wrote.
    parsed.check_blocks(spec.blocks)?;
    let program = parsed.build(&compile)?;
    // The run's files: in DIR with --keep, else in a private temporary
    // directory removed with it.
    let workspace = match &options.keep {
        Some(directory) => keep::keep(directory, &program, &spec)?,
        None => Workspace::temporary(&program)?,
    };
    let result = execute(options, &program, &prepared, &workspace);
    if let Some(directory) = &options.keep {
        err!(
            "pld-run: kept the emitted C++, the program, its job and input in {}; {} reruns it, {} rebuilds it\n",
            directory.display(),
            directory.join(keep::RERUN).display(),
            directory.join(keep::REBUILD).display()
        );
    }
    result
}

/// Runs the program (or explores it) and prints what the options ask for.
fn execute(
    options: &Options,
    program: &Program,
    prepared: &Prepared,
    workspace: &Workspace,
) -> Result<ExitStatus, Failure> {
    if let Some(max) = options.explore {
        let found = program.explore_in(prepared, max, workspace)?;
        return explored(found, max);
    }
    let outcome = program.run_in(prepared, workspace)?;
    if let Some(json) = &outcome.trace {
        write_trace(options, json)?;
    }
    if let Some(message) = outcome.stopped {
        return Err(fail(outcome.status, message));
    }
    for text in &outcome.printed {
        out!("{text}");
    }
    if let (Some(directory), Some(values)) = (&options.dump, &outcome.values) {
        values.dump(directory)?;
    }
    if let Some(stats) = &outcome.stats {
        match options.stats {
            Some(StatsFormat::Json) => out!("{}\n", stats.to_json()),
            Some(StatsFormat::Table) => out!("{}", stats.to_table()),
            None => {}
        }
        if options.timing.is_some() && options.stats != Some(StatsFormat::Json) {
            out!("{}", stats.timing_report());
        }
    }
    if let Some(checks) = outcome.checks.as_ref().filter(|checks| !checks.passed()) {
        err!("{checks}");
        // A serialized run is reproduced by its choices.
        if let Some(choices) = &outcome.schedule {
            err!("  schedule: {}\n", choice_list(choices));
        }
        err!("pld-run: {}\n", checks.summary());
    }
    Ok(outcome.status)
}

/// `--explore`'s report: the failing schedule's output and why it failed,
/// or how many schedules ran.
fn explored(found: Exploration, max: u64) -> Result<ExitStatus, Failure> {
    let runs = found.runs;
    let Some(failed) = found.failed else {
        let cut = if found.cut_short > 0 {
            format!(", {} of them cut short as repeats", found.cut_short)
        } else {
            String::new()
        };
        if found.complete {
            out!("pld-run: explored {runs} schedules{cut} (complete)\n");
        } else {
            out!(
                "pld-run: explored {runs} schedules{cut} (bounded: --explore={max} reached before every interleaving ran)\n"
            );
        }
        return Ok(ExitStatus::Ok);
    };
    // What the failing run printed is the report.
    if let Some(output) = &failed.output {
        out!("{}", output.stdout);
        err!("{}", output.stderr);
    }
    if let Some(message) = failed.stopped {
        err!("pld-run: explore: schedule {runs} fails (replay it with the --schedule above)\n");
        return Err(fail(failed.status, message));
    }
    if let Some(checks) = &failed.checks {
        err!("{checks}");
        err!(
            "  schedule: {}\n",
            choice_list(failed.schedule.as_deref().unwrap_or_default())
        );
        err!("pld-run: explore: schedule {runs}: {}\n", checks.summary());
    }
    Ok(failed.status)
}

/// Puts the run's trace events where `--trace` asks and draws them where
/// `--timeline` asks.
fn write_trace(options: &Options, json: &str) -> Result<(), pld_run_core::Error> {
    let failed = |message: String| pld_run_core::Error::new(message);
    if let Some(path) = &options.trace {
        fs::write(path, json).map_err(|error| {
            failed(format!("--trace: cannot write {}: {error}", path.display()))
        })?;
    }
    if let Some(path) = &options.timeline {
        let svg = pld_run_core::timeline::svg(json).map_err(|error| failed(error.to_string()))?;
        fs::write(path, svg).map_err(|error| {
            failed(format!(
                "--timeline: cannot write {}: {error}",
                path.display()
            ))
        })?;
    }
    Ok(())
}
