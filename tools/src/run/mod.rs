//! `pld-run`: runs a pld module on N simulated ranks (pipeline §7). It
//! lowers the module with pld-to-cce-pipeline, prints C++, compiles it
//! against the host simulator (builds cached by content), runs it, and
//! checks, prints, dumps and counts what the ranks computed.

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

mod build;
mod cache;
mod entry;
mod explore;
mod mpi;

use build::{Flavour, Toolchain};
use cache::Cache;
use melior::{Context, ir::Module, pass::PassManager, utility::parse_pass_pipeline};
use pld_passes::{ir::location_text, model::Model};
use pld_run_core::{
    args::{Bound, bind, resolve, validate},
    check::{Report, compare},
    cli::{self, Backend, Command, Options, Sanitizer, StatsFormat, choice_list},
    job::{self, Job},
    print::format_arg,
    stats::Stats,
    status::ExitStatus,
    values::{Expected, Values},
};
use std::{
    ffi::OsString,
    fs,
    path::{Path, PathBuf},
    process,
    time::{Duration, Instant},
};

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

/// The pipeline pld-run lowers with unless `--pipeline` names another.
const DEFAULT_PIPELINE: &str = "builtin.module(pld-to-cce-pipeline)";

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

fn run(options: &Options) -> Result<ExitStatus, Failure> {
    let bad = |message: String| fail(ExitStatus::BadInput, message);
    let context = pld_dialect::create_context();
    pld_lowering::register_passes();
    let _printer = print_diagnostics(&context, options.ranks);

    if !options.input.is_file() {
        return Err(bad(format!("cannot read {}", options.input.display())));
    }
    let module = parse(&context, &options.input).ok_or_else(|| fail(ExitStatus::BadInput, ""))?;

    let path = options.input.display().to_string();
    let source = fs::read_to_string(&options.input).unwrap_or_default();
    let entry = entry::find(
        module.as_operation(),
        options.entry.as_deref(),
        &path,
        &source,
    )
    .map_err(|error| bad(error.to_string()))?;
    let bound = bind(&entry.args, options).map_err(|error| bad(error.to_string()))?;
    let layouts = resolve(&entry.args, &bound.shape).map_err(|error| bad(error.to_string()))?;
    validate(&layouts, &bound).map_err(|error| bad(error.to_string()))?;
    let initial = Values::initial(&layouts, options.ranks, &bound.init, &bound.load)
        .map_err(|error| bad(error.to_string()))?;
    let expected = Expected::new(&layouts, options.ranks, &bound.expect)
        .map_err(|error| bad(error.to_string()))?;

    let cpp = lower(
        &context,
        module,
        options.pipeline.as_deref().unwrap_or(DEFAULT_PIPELINE),
    )?;
    let flavour = match options.sanitize {
        None | Some(Sanitizer::Race) => Flavour::Plain,
        Some(Sanitizer::Thread) => Flavour::Thread,
        Some(Sanitizer::Address) => Flavour::Address,
    };
    let cache = open_cache().map_err(|error| bad(error.to_string()))?;
    let mpi = match options.backend {
        Backend::Thread => None,
        Backend::Mpi => {
            mpi::check_hostfile(options).map_err(bad)?;
            Some(
                mpi::MpiCompiler::find(options.mpi.mpirun.as_deref())
                    .map_err(|error| bad(error.to_string()))?,
            )
        }
    };
    let program = Toolchain::new(&cache)
        .program(
            &cpp,
            &format!("{}__entry", entry.cpp_symbol),
            flavour,
            mpi.as_ref(),
        )
        .map_err(|error| bad(error.to_string()))?;
    cache.evict(&[&program.entry, &program.runtime]);

    // The run's files: in DIR with --keep, else in a private temporary
    // directory removed with it.
    let temporary;
    let (work, program_path) = match &options.keep {
        Some(directory) => {
            // Absolute: the program runs inside the directory, so a
            // relative path to it would name the wrong file.
            let directory = std::path::absolute(directory)
                .and_then(|directory| {
                    keep(&directory, &cpp, &program, options)?;
                    Ok(directory)
                })
                .map_err(|error| bad(format!("--keep {}: {error}", directory.display())))?;
            let program_path = directory.join("prog");
            (directory, program_path)
        }
        None => {
            temporary = tempfile::Builder::new()
                .prefix("pld-run-")
                .tempdir()
                .map_err(|error| bad(format!("cannot create a work directory: {error}")))?;
            (temporary.path().to_owned(), program.path.clone())
        }
    };
    let result = execute(
        options,
        &bound,
        &program_path,
        &work,
        entry.kind,
        layouts,
        &initial,
        &expected,
    );
    if let Some(directory) = &options.keep {
        err!(
            "pld-run: kept the emitted C++, the program, its job and input in {}; {} reruns it, {} rebuilds it\n",
            directory.display(),
            directory.join(RERUN).display(),
            directory.join(REBUILD).display()
        );
    }
    result
}

/// The cache the environment names (checked to be the user's alone), or a
/// private temporary one for this run when it names none.
fn open_cache() -> Result<Cache, cache::CacheError> {
    match cache::location() {
        cache::Location::Directory(path) => Cache::open(&path, cache::max_bytes()?),
        cache::Location::None => {
            err!(
                "pld-run: HOME, XDG_CACHE_HOME and PLD_RUN_CACHE are unset: building in a private temporary directory, removed after the run (set PLD_RUN_CACHE to keep builds)\n"
            );
            Cache::temporary()
        }
    }
}

/// The scripts `--keep` leaves beside the program.
const RERUN: &str = "rerun.sh";
const REBUILD: &str = "rebuild.sh";

/// `--keep DIR`: the emitted C++ and a copy of the program in DIR (the
/// cache may evict its own), a script that reruns the program on the job
/// and input the run writes there, and one that rebuilds the program from
/// the (perhaps edited) C++.
fn keep(
    directory: &Path,
    cpp: &str,
    program: &build::Program,
    options: &Options,
) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::create_dir_all(directory)?;
    fs::write(directory.join(build::Program::SOURCE), cpp)?;
    let copy = directory.join(build::Program::OUTPUT);
    let _ = fs::remove_file(&copy);
    fs::copy(&program.path, &copy)?;
    let compile: Vec<String> = program
        .compile
        .iter()
        .map(|word| shell_quote(&word.to_string_lossy()))
        .collect();
    let rebuild = format!(
        "#!/bin/sh
# Rebuilds {output} from {source} here, as pld-run built it, with the
# runtime in pld-run's cache (a later pld-run rebuilds that if the cache
# evicted it).
cd \"$(dirname \"$0\")\" || exit 2
exec {}
",
        compile.join(" "),
        output = build::Program::OUTPUT,
        source = build::Program::SOURCE,
    );
    let path = directory.join(REBUILD);
    fs::write(&path, rebuild)?;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
    let command: Vec<String> = std::iter::once("pld-run".to_owned())
        .chain(
            std::env::args_os()
                .skip(1)
                .map(|arg| shell_quote(&arg.to_string_lossy())),
        )
        .collect();
    let script = format!(
        "#!/bin/sh
# Reruns the simulated program of
#   {}
# on the job (job.txt) and input (input.bin) kept beside this script; it
# writes output.bin and stats.json here, prints what the simulator reports
# (a deadlock, a trap, a race) and exits as pld-run would for them (3, 4, 5).
# --expect, --print and --dump are pld-run's: the script does not check them.
cd \"$(dirname \"$0\")\" || exit 2
TSAN_OPTIONS='exitcode={TSAN_EXIT} halt_on_error=1' ASAN_OPTIONS='exitcode={ASAN_EXIT} detect_leaks=0' exec {launcher}./prog job.txt \"$@\"
",
        command.join(" ").replace('\n', "\\n"),
        launcher = launcher(options)
    );
    let path = directory.join(RERUN);
    fs::write(&path, script)?;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))
}

/// What starts the kept program in its script: nothing for the thread
/// simulator, mpirun and its options (environment included) for MPI.
fn launcher(options: &Options) -> String {
    if options.backend == Backend::Thread {
        return String::new();
    }
    let command = mpi::launch(options, Path::new("prog"), JOB);
    let mut words: Vec<String> = command
        .get_envs()
        .filter_map(|(name, value)| {
            Some(format!(
                "{}={}",
                name.to_string_lossy(),
                shell_quote(&value?.to_string_lossy())
            ))
        })
        .collect();
    if !words.is_empty() {
        words.insert(0, "env".to_owned());
    }
    words.push(shell_quote(&command.get_program().to_string_lossy()));
    words.extend(
        mpi::launch_arguments(options)
            .iter()
            .map(|argument| shell_quote(&argument.to_string_lossy())),
    );
    words.join(" ") + " "
}

/// `text` as one shell word.
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The module in the file at `path` (its ops located in that file).
fn parse<'c>(context: &'c Context, path: &Path) -> Option<Module<'c>> {
    let name = path.display().to_string();
    // SAFETY: the context is live; the parser reads the file itself; a null
    // module (the reason went to the diagnostic handler) becomes `None`.
    unsafe {
        let module = mlir_sys::mlirModuleCreateParseFromFile(
            context.to_raw(),
            melior::StringRef::new(&name).to_raw(),
        );
        (!module.ptr.is_null()).then(|| Module::from_raw(module))
    }
}

/// Lowers `module` with `pipeline` and prints it as C++.
fn lower(context: &Context, mut module: Module, pipeline: &str) -> Result<String, Failure> {
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
        .map_err(|error| fail(ExitStatus::BadInput, format!("--pipeline: {error}")))?;
    manager.run(&mut module).map_err(|_| {
        fail(
            ExitStatus::BadInput,
            "the module does not lower (see the errors above)",
        )
    })?;
    pld_dialect::translate_to_cpp(&module.as_operation()).ok_or_else(|| {
        fail(
            ExitStatus::BadInput,
            "the lowered module does not print as C++ (see the errors above)",
        )
    })
}

/// Runs the compiled program on the job and reports.
#[allow(clippy::too_many_arguments)]
fn execute(
    options: &Options,
    bound: &Bound,
    program: &Path,
    work: &Path,
    entry: job::Entry,
    layouts: Vec<pld_run_core::args::ArgLayout>,
    initial: &Values,
    expected: &Expected,
) -> Result<ExitStatus, Failure> {
    let bad = |message: String| fail(ExitStatus::BadInput, message);
    let job = Job {
        ranks: options.ranks,
        blocks: options.blocks,
        entry,
        timeout_secs: options.timeout_secs,
        race: options.sanitize == Some(Sanitizer::Race),
        schedule: options.schedule.clone(),
        asleep: Vec::new(),
        mpi_rma: options.backend == Backend::Mpi && options.mpi.mode == cli::MpiMode::Rma,
        trace: options
            .schedule
            .is_some()
            .then(|| PathBuf::from("trace.txt")),
        timing: timing_parameters(options).map_err(|error| bad(error.to_string()))?,
        events: (options.trace.is_some() || options.timeline.is_some())
            .then(|| PathBuf::from("events.json")),
        // Relative: the program runs in `work`, so a kept directory can move.
        stats: PathBuf::from("stats.json"),
        input: PathBuf::from("input.bin"),
        output: PathBuf::from("output.bin"),
        args: layouts,
    };
    job::write_input(initial, &work.join(&job.input)).map_err(|error| bad(error.to_string()))?;
    if let Some(max) = options.explore {
        return explore::run(options, bound, program, work, job, max, initial, expected);
    }
    job.write(&work.join(JOB))
        .map_err(|error| bad(error.to_string()))?;

    let status = run_program(program, work, options, None)?;
    // A trace shows most where a run went wrong: kept whatever the status.
    if let Some(events) = job
        .events
        .as_ref()
        .map(|events| work.join(events))
        .filter(|events| events.exists())
    {
        write_trace(options, &events).map_err(|error| bad(error.to_string()))?;
    }
    if let Some(failure) = status {
        return Err(failure);
    }
    let final_values = job::read_output(initial, &work.join(&job.output))
        .map_err(|error| bad(error.to_string()))?;
    for arg in &bound.print {
        out!("{}", format_arg(&final_values, *arg));
    }
    if let Some(directory) = &options.dump {
        final_values
            .dump(directory)
            .map_err(|error| bad(error.to_string()))?;
    }
    if options.stats.is_some() || options.timing.is_some() {
        let stats = Stats::read(&work.join(&job.stats)).map_err(|error| bad(error.to_string()))?;
        match options.stats {
            Some(StatsFormat::Json) => out!("{}\n", stats.to_json()),
            Some(StatsFormat::Table) => out!("{}", stats.to_table()),
            None => {}
        }
        if options.timing.is_some() && options.stats != Some(StatsFormat::Json) {
            out!("{}", stats.timing_report());
        }
    }
    let report = check(options, bound, &final_values, expected);
    if !report.passed() {
        err!("{report}");
        // A serialized run is reproduced by its choices.
        if let Some(trace) = &job.trace
            && let Ok(trace) = explore::read_trace(&work.join(trace))
        {
            err!("  schedule: {}\n", choice_list(&trace.choices()));
        }
        err!("pld-run: {}\n", report.summary());
    }
    Ok(report.status())
}

/// Puts the run's trace events where `--trace` asks and draws them where
/// `--timeline` asks.
fn write_trace(options: &Options, events: &Path) -> Result<(), pld_run_core::Error> {
    let failed = |message: String| pld_run_core::Error::new(message);
    let json = fs::read_to_string(events).map_err(|error| {
        failed(format!(
            "cannot read the trace {}: {error}",
            events.display()
        ))
    })?;
    if let Some(path) = &options.trace {
        fs::write(path, &json).map_err(|error| {
            failed(format!("--trace: cannot write {}: {error}", path.display()))
        })?;
    }
    if let Some(path) = &options.timeline {
        let svg = pld_run_core::timeline::svg(&json).map_err(|error| failed(error.to_string()))?;
        fs::write(path, svg).map_err(|error| {
            failed(format!(
                "--timeline: cannot write {}: {error}",
                path.display()
            ))
        })?;
    }
    Ok(())
}

/// The machine model's parameters for the job file (`--timing`, with the
/// `--model` overrides), or why they are wrong.
fn timing_parameters(options: &Options) -> Result<Option<Vec<String>>, pld_run_core::Error> {
    let Some(timing) = &options.timing else {
        return Ok(None);
    };
    let mut model = Model::named(&timing.model)
        .map_err(|error| pld_run_core::Error::new(format!("--timing: {error}")))?;
    for overrides in &timing.overrides {
        model = model
            .with_overrides(overrides)
            .map_err(|error| pld_run_core::Error::new(format!("--model: {error}")))?;
    }
    Ok(Some(
        model.to_string().split(',').map(str::to_owned).collect(),
    ))
}

/// The `--expect` comparisons of a run's final values.
fn check(options: &Options, bound: &Bound, got: &Values, expected: &Expected) -> Report {
    compare(
        got,
        expected,
        bound.expect.keys().copied(),
        options.rtol,
        options.atol,
    )
}

/// The job file's name in the work directory.
const JOB: &str = "job.txt";

// TSan and ASan exit with these when they report, so that a report is
// told apart from the harness's own statuses.
const TSAN_EXIT: i32 = 66;
const ASAN_EXIT: i32 = 67;

/// Runs the program in `work` on its [`JOB`]; `Some` failure for every
/// outcome but a finished run. With `captured`, the program's stdout and
/// stderr go to those files instead of pld-run's.
fn run_program(
    program: &Path,
    work: &Path,
    options: &Options,
    captured: Option<(&Path, &Path)>,
) -> Result<Option<Failure>, Failure> {
    let mut command = match options.backend {
        Backend::Thread => {
            let mut command = process::Command::new(program);
            command.arg(JOB);
            command
        }
        Backend::Mpi => mpi::launch(options, program, JOB),
    };
    command
        .current_dir(work)
        .env(
            "TSAN_OPTIONS",
            format!("exitcode={TSAN_EXIT} halt_on_error=1"),
        )
        .env(
            "ASAN_OPTIONS",
            format!("exitcode={ASAN_EXIT} detect_leaks=0"),
        );
    if let Some((stdout, stderr)) = captured {
        let file = |path: &Path| {
            fs::File::create(path).map_err(|error| {
                fail(
                    ExitStatus::BadInput,
                    format!("cannot write {}: {error}", path.display()),
                )
            })
        };
        command.stdout(file(stdout)?).stderr(file(stderr)?);
    }
    let mut child = command.spawn().map_err(|error| {
        fail(
            ExitStatus::BadInput,
            format!(
                "cannot start {}: {error}",
                Path::new(command.get_program()).display()
            ),
        )
    })?;
    // The harness stops itself at the timeout; this is the backstop for a
    // program that cannot.
    let backstop = Duration::from_secs(options.timeout_secs + 30);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|error| fail(ExitStatus::BadInput, error.to_string()))?
        {
            break status;
        }
        if started.elapsed() > backstop {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Some(fail(
                ExitStatus::DeadlockOrTimeout,
                format!(
                    "timeout: the simulated program did not stop within {} s",
                    backstop.as_secs()
                ),
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let failure = match status.code() {
        Some(0) => None,
        Some(code) if options.backend == Backend::Mpi => {
            let (status, message) = mpi::failure(code);
            Some(fail(status, message))
        }
        Some(TSAN_EXIT) | Some(ASAN_EXIT) => Some(fail(
            ExitStatus::Sanitizer,
            "the sanitizer reported a problem (above)",
        )),
        Some(code) => match ExitStatus::from_code(code) {
            Some(status) => Some(fail(status, "")),
            None => Some(fail(
                ExitStatus::Trap,
                format!("the simulated program failed with exit status {code}"),
            )),
        },
        None => Some(fail(
            ExitStatus::Trap,
            format!("the simulated program crashed ({status})"),
        )),
    };
    Ok(failure)
}

/// Prints every diagnostic to stderr as MLIR's tools do: `file:line:col:
/// error: message`, the source line and a caret under the column, then its
/// notes the same way. Upstream's "see current operation" note (a generic
/// dump of the op the message already locates) is left out, as pld-opt
/// leaves it out by default; pld-verify's single-rank warning is shown only
/// for a run on one rank, the only run it is about.
fn print_diagnostics(context: &Context, ranks: usize) -> melior::diagnostic::DiagnosticHandlerId {
    let mut sources = SourceLines::default();
    context.attach_diagnostic_handler(move |diagnostic| {
        let severity = match diagnostic.severity() {
            melior::diagnostic::DiagnosticSeverity::Error => "error",
            melior::diagnostic::DiagnosticSeverity::Warning => "warning",
            melior::diagnostic::DiagnosticSeverity::Note => "note",
            melior::diagnostic::DiagnosticSeverity::Remark => "remark",
        };
        let message = diagnostic.to_string();
        if ranks != 1
            && severity == "warning"
            && message.starts_with(pld_passes::verify::SINGLE_RANK_WARNING)
        {
            return true;
        }
        let mut text = sources.located(diagnostic.location(), severity, &message);
        for index in 0..diagnostic.note_count() {
            if let Ok(note) = diagnostic.note(index) {
                let message = note.to_string();
                if message.starts_with("see current operation") {
                    continue;
                }
                text += &sources.located(note.location(), "note", &message);
            }
        }
        err!("{text}");
        true
    })
}

/// The files diagnostics point into, read once each.
#[derive(Default)]
struct SourceLines {
    files: std::collections::HashMap<String, Option<String>>,
}

impl SourceLines {
    /// `file:line:col: severity: message`, then the line and a caret when
    /// the file can be read (tabs expanded as LLVM's SourceMgr does).
    fn located(&mut self, location: melior::ir::Location, severity: &str, message: &str) -> String {
        let mut text = format!("{}: {severity}: {message}\n", location_text(location));
        let Some((file, line, column)) = pld_passes::ir::location::file_line_column(location)
        else {
            return text;
        };
        let source = self
            .files
            .entry(file.clone())
            .or_insert_with(|| fs::read_to_string(&file).ok());
        let Some(content) = source
            .as_deref()
            .and_then(|source| source.lines().nth(line.checked_sub(1)?))
        else {
            return text;
        };
        let mut shown = String::new();
        let mut caret = String::new();
        for (index, c) in content.chars().enumerate() {
            let width = if c == '\t' {
                8 - shown.chars().count() % 8
            } else {
                1
            };
            if index + 1 < column {
                caret.push_str(&" ".repeat(width));
            }
            if c == '\t' {
                shown.push_str(&" ".repeat(width));
            } else {
                shown.push(c);
            }
        }
        text += &format!("{shown}\n{caret}^\n");
        text
    }
}
