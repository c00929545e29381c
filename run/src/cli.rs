//! pld-run's command line (docs/pld-run.md), parsed with clap.
//!
//! ```text
//! pld-run FILE.mlir --ranks N [--entry NAME] [--blocks B]
//!         [--init ARG=EXPR]... [--load ARG=PATH]... [--shape ARG=D0xD1...]
//!         [--expect ARG=EXPR]... [--rtol X] [--atol X] [--print ARG]... [--dump DIR]
//!         [--stats[=json]] [--timeout SECONDS] [--sanitize race|thread|address]
//!         [--schedule CHOICES|pct:SEED[:DEPTH]] [--explore[=MAX]]
//!         [--timing[=MODEL]] [--model KEY=VALUE[,...]]...
//!         [--trace FILE.json] [--timeline FILE.svg]
//!         [--pipeline PIPELINE] [--keep DIR]
//!         [--backend thread|mpi] [--mpirun PATH] [--hostfile FILE]
//!         [--mpi-mode node|rma]
//! ```
//!
//! Every option with a value takes it as `--flag value` or `--flag=value`;
//! in the first form the next argument is the value even if it starts with
//! `-` (so `--init 0=-r` and `--atol -1` reach their checks). `--stats`,
//! `--explore` and `--timing` take their optional value only as
//! `--stats=json` (or `--stats=table`), `--explore=MAX` and
//! `--timing=MODEL`.
//! `--` ends the options. `--help` (or `-h`) anywhere before `--` asks for
//! [`usage`], whatever else is on the line.
//!
//! Options that name an argument (`--init`, `--load`, `--shape`,
//! `--expect`, `--print`) take its position or its SSA name ([`Arg`]) and
//! may repeat for different arguments; naming one argument twice with the
//! same option, or giving one argument both an `--init` and a `--load`, is
//! an error ([`crate::args::bind`], once the names are known). Every other option may appear
//! once. Whether an ARG exists, and fits the option, is only known from
//! the entry's signature: see [`crate::args::validate`].
//!
//! clap splits the line (both value forms, `--`, repeated options) and
//! writes `--help`; every value is kept as it came (`OsString`) and checked
//! here, so that each error names the option and says what it expects, in
//! pld-run's words rather than a parser's. Paths (FILE, `--load`, `--dump`,
//! `--keep`) need not be UTF-8; every other value must be.

use crate::expr::Expr;
use crate::status::ExitStatus;
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::PathBuf;

/// The most ranks a run may have.
pub const MAX_RANKS: usize = 64;

/// Seconds a run may take when `--timeout` is not given.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

const AFTER_HELP: &str = "\
EXPR: numbers (1, 2.5, .5, 1e-3), r (rank), n (ranks), i (row-major flat
index), i0..i7 (index per dimension), + - * / % (integer division and
remainder truncate when both sides are integers), unary -, parentheses,
< <= > >= == != (1 or 0), min(a,b), max(a,b), and sum_r(e), prod_r(e),
max_r(e), min_r(e), which evaluate e for every rank r in 0..n. A value
must be one ARG's element type holds (no fraction into an integer, no
overflow); --expect compares against the stored value in f64 (integers
exactly).
Example: --init 0=r*100+i --expect 0=sum_r(r*100+i), or by the arguments'
names as the entry's signature writes them: --init data=r*100+i

build cache:
  Compiled programs and the simulator library are cached by content
  (SHA-256) in $PLD_RUN_CACHE, else $XDG_CACHE_HOME/pld/run, else
  ~/.cache/pld/run, created private (0700); a cache directory owned by
  another user or writable by others is refused. With none of the three
  variables set, a run builds in a private temporary directory it removes.
  PLD_RUN_CACHE_MAX caps the cache (bytes, K/M/G suffixes; default 1G): the
  least recently used entries are removed first. PLD_CXX names the compiler.

exit status:
  0 ok, 1 an expectation failed, 2 bad usage, invalid IR or a failed build,
  3 deadlock or timeout, 4 a trap, 5 a sanitizer report";

/// The most schedules `--explore` runs when MAX is not given.
pub const DEFAULT_EXPLORE_MAX: u64 = 10_000;
const DEFAULT_EXPLORE_MAX_TEXT: &str = "10000";

/// The command line as clap splits it: every value as given, every option
/// collected however often it appears (the checks below say what may
/// repeat).
#[derive(Parser, Debug)]
#[command(
    name = "pld-run",
    about = "Runs the entry function of a pld module on N simulated ranks and checks its results.",
    override_usage = "pld-run FILE.mlir --ranks N [options]",
    after_help = AFTER_HELP,
    version = env!("CARGO_PKG_VERSION"),
    long_version = LONG_VERSION
)]
struct Line {
    /// The pld module to lower, compile and run
    #[arg(value_name = "FILE.mlir")]
    input: Vec<OsString>,
    /// Number of ranks, 1..=64 (required)
    #[arg(long, value_name = "N", action = ArgAction::Append, allow_hyphen_values = true)]
    ranks: Vec<OsString>,
    /// Function to run (default: the module's only host orchestrator, else its only kernel)
    #[arg(long, value_name = "NAME", action = ArgAction::Append, allow_hyphen_values = true)]
    entry: Vec<OsString>,
    /// Blocks per rank (default 1)
    #[arg(long, value_name = "B", action = ArgAction::Append, allow_hyphen_values = true)]
    blocks: Vec<OsString>,
    /// Initial value of entry argument ARG, per rank and element; everything else starts at 0. ARG, here and below: the argument's 0-based position or its name in the source (data or %data)
    #[arg(long, value_name = "ARG=EXPR", action = ArgAction::Append, allow_hyphen_values = true)]
    init: Vec<OsString>,
    /// Initial value of ARG from a .npy file; {rank} in PATH is replaced by the rank
    #[arg(long, value_name = "ARG=PATH", action = ArgAction::Append, allow_hyphen_values = true)]
    load: Vec<OsString>,
    /// Shape of ARG, needed where its type has dynamic dimensions
    #[arg(long, value_name = "ARG=D0xD1...", action = ArgAction::Append, allow_hyphen_values = true)]
    shape: Vec<OsString>,
    /// Expected final value of ARG on every rank; the run fails (exit 1) otherwise
    #[arg(long, value_name = "ARG=EXPR", action = ArgAction::Append, allow_hyphen_values = true)]
    expect: Vec<OsString>,
    /// Relative tolerance: |got - expected| <= atol + rtol*|expected| (defaults per element type: f16 1e-3, bf16 1e-2, f32 1e-5, f64 1e-12, integers exact)
    #[arg(long, value_name = "X", action = ArgAction::Append, allow_hyphen_values = true)]
    rtol: Vec<OsString>,
    /// Absolute tolerance (defaults: f16 1e-3, bf16 1e-2, f32 1e-6, f64 1e-12, integers exact)
    #[arg(long, value_name = "X", action = ArgAction::Append, allow_hyphen_values = true)]
    atol: Vec<OsString>,
    /// Print ARG's final value on every rank
    #[arg(long, value_name = "ARG", action = ArgAction::Append, allow_hyphen_values = true)]
    print: Vec<OsString>,
    /// Write final array arguments to DIR/rank<R>.arg<K>.npy
    #[arg(long, value_name = "DIR", action = ArgAction::Append, allow_hyphen_values = true)]
    dump: Vec<OsString>,
    /// Print per-rank transfer counters as a table, or JSON (--stats=json)
    #[arg(
        long,
        value_name = "FORMAT",
        action = ArgAction::Append,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "table"
    )]
    stats: Vec<OsString>,
    /// Wall-clock limit of the run in seconds (default 60)
    #[arg(long, value_name = "SECONDS", action = ArgAction::Append, allow_hyphen_values = true)]
    timeout: Vec<OsString>,
    /// race: check pld's happens-before (a data race that no release -> notify -> wait -> acquire chain orders is reported, exit 5); thread, address: build with ThreadSanitizer or AddressSanitizer (bugs in the simulator itself)
    #[arg(long, value_name = "race|thread|address", action = ArgAction::Append, allow_hyphen_values = true)]
    sanitize: Vec<OsString>,
    /// Serialize the run: the simulator decides every interleaving. CHOICES (0,2,1,...: scheduler thread ids, as a report prints them) replays one; pct:SEED[:DEPTH] draws one with PCT (default depth 3)
    #[arg(long, value_name = "CHOICES|pct:SEED[:DEPTH]", action = ArgAction::Append, allow_hyphen_values = true)]
    schedule: Vec<OsString>,
    /// Run every distinct interleaving of the notifies and waits (DPOR), up to MAX schedules (default 10000), with --sanitize race; stops at the first deadlock, trap, race or failed expectation
    #[arg(
        long,
        value_name = "MAX",
        action = ArgAction::Append,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = DEFAULT_EXPLORE_MAX_TEXT
    )]
    explore: Vec<OsString>,
    /// Keep modelled time: every op advances its thread's virtual clock by what the machine model says it costs (MODEL: 910b, the default; docs/performance.md); prints the modelled time per rank, the bytes per link and the critical path. Deterministic: the run is serialized in modelled-time order
    #[arg(
        long,
        value_name = "MODEL",
        action = ArgAction::Append,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "910b"
    )]
    timing: Vec<OsString>,
    /// Override parameters of the --timing model, e.g. alpha_ns=1000,link_bytes_per_ns=20 (repeatable)
    #[arg(long, value_name = "KEY=VALUE[,...]", action = ArgAction::Append, allow_hyphen_values = true)]
    model: Vec<OsString>,
    /// Write what every thread did as Chrome trace-event JSON (open it in Perfetto or chrome://tracing): a track per rank, task, block and lane, slices for waits, transfers and tile math, an arrow from every notify to the wait it released; modelled time with --timing, wall-clock time otherwise
    #[arg(long, value_name = "FILE.json", action = ArgAction::Append, allow_hyphen_values = true)]
    trace: Vec<OsString>,
    /// Draw the same as a static SVG picture (ranks as rows, waits shaded, arrows for notifies)
    #[arg(long, value_name = "FILE.svg", action = ArgAction::Append, allow_hyphen_values = true)]
    timeline: Vec<OsString>,
    /// Lowering pipeline to use instead of the default
    #[arg(long, value_name = "PIPELINE", action = ArgAction::Append, allow_hyphen_values = true)]
    pipeline: Vec<OsString>,
    /// Keep the emitted C++, the compiled program, its job and input in DIR, with DIR/rerun.sh, which reruns the program on them
    #[arg(long, value_name = "DIR", action = ArgAction::Append, allow_hyphen_values = true)]
    keep: Vec<OsString>,
    /// How ranks are hosted: thread (default: every rank a thread of one simulator process) or mpi (every rank an Open MPI process, started with mpirun; see --mpi-mode)
    #[arg(long, value_name = "thread|mpi", action = ArgAction::Append, allow_hyphen_values = true)]
    backend: Vec<OsString>,
    /// The mpirun that starts --backend mpi's processes (default: mpirun on PATH; its mpicxx builds the program)
    #[arg(long, value_name = "PATH", action = ArgAction::Append, allow_hyphen_values = true)]
    mpirun: Vec<OsString>,
    /// Passed to mpirun as --hostfile FILE (--backend mpi)
    #[arg(long, value_name = "FILE", action = ArgAction::Append, allow_hyphen_values = true)]
    hostfile: Vec<OsString>,
    /// How --backend mpi's processes hold the windows: node (every window mapped into every process; one machine) or rma (each process its own window, the others through MPI one-sided operations; any machines). Default: rma with --hostfile, else node
    #[arg(long, value_name = "node|rma", action = ArgAction::Append, allow_hyphen_values = true)]
    mpi_mode: Vec<OsString>,
}

/// `--version`'s text after the program's name: the version, and the line
/// every pld tool prints (`pld version X (REPOSITORY)`).
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "\npld version ",
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CARGO_PKG_REPOSITORY"),
    ")"
);

/// Where a crash of pld-run is reported (the repository's issue tracker).
pub const BUG_REPORT_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/issues");

/// `--help`'s text.
pub fn usage() -> String {
    Line::command().render_help().to_string()
}

/// `--version`'s text: `pld-run 0.1.0` and `pld version 0.1.0 (REPOSITORY)`.
pub fn version() -> String {
    Line::command().render_long_version().to_string()
}

/// What the command line asks for.
// One per process: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `--help`: print [`usage`] and exit 0.
    Help,
    /// `--version` (or `-V`): print [`version`] and exit 0.
    Version,
    Run(Options),
}

/// How `--stats` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    /// `--stats`: an aligned table with totals.
    Table,
    /// `--stats=json`.
    Json,
}

/// `--sanitize`'s choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sanitizer {
    /// pld's own happens-before, checked by the simulator.
    Race,
    Thread,
    Address,
}

impl Sanitizer {
    /// The name `--sanitize` takes.
    pub fn name(self) -> &'static str {
        match self {
            Sanitizer::Race => "race",
            Sanitizer::Thread => "thread",
            Sanitizer::Address => "address",
        }
    }
}

/// `--backend`'s choice: how ranks are hosted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// Every rank a thread of one simulator process.
    #[default]
    Thread,
    /// Every rank an MPI process (`mpirun`), its windows held as
    /// [`MpiMode`] says.
    Mpi,
}

/// `--mpi-mode`'s choice: how the MPI processes hold the windows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MpiMode {
    /// Every rank's window mapped into every process (MPI shared memory).
    #[default]
    Node,
    /// Each process its own rank's window; the others through MPI one-sided
    /// operations.
    Rma,
}

/// `--backend mpi`'s launcher settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mpi {
    /// `--mpirun`; `None`: `mpirun` on PATH.
    pub mpirun: Option<PathBuf>,
    /// `--hostfile`, passed through.
    pub hostfile: Option<PathBuf>,
    /// `--mpi-mode`, else rma with a hostfile and node without.
    pub mode: MpiMode,
}

/// `--timing` and its `--model` overrides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    pub model: String,
    pub overrides: Vec<String>,
}

/// `--schedule`'s choice: the run is serialized and the simulator decides
/// every interleaving (docs/pld-run.md, "Schedules").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// These choices, by scheduler thread id; past their end the lowest
    /// thread id that can run.
    Replay(Vec<u32>),
    /// PCT: random thread priorities and `depth - 1` priority change points.
    Pct { seed: u64, depth: u32 },
}

impl Schedule {
    /// The words of the job file's `schedule` directive.
    pub fn directive(&self) -> String {
        match self {
            Schedule::Replay(choices) => format!("replay {}", choice_list(choices)),
            Schedule::Pct { seed, depth } => format!("pct {seed} {depth}"),
        }
        .trim_end()
        .to_owned()
    }
}

/// Choices as `--schedule` takes them: `0,2,1`.
pub fn choice_list(choices: &[u32]) -> String {
    choices
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A `pld-run` invocation. Argument-keyed maps are ordered by argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// FILE.mlir.
    pub input: PathBuf,
    /// `--ranks`, in 1..=[`MAX_RANKS`].
    pub ranks: usize,
    pub entry: Option<String>,
    /// `--blocks`, at least 1 (default 1).
    pub blocks: u32,
    pub init: BTreeMap<Arg, Expr>,
    /// `--load` paths, `{rank}` not yet replaced (see [`crate::npy::rank_path`]).
    pub load: BTreeMap<Arg, PathBuf>,
    pub shape: BTreeMap<Arg, Vec<usize>>,
    pub expect: BTreeMap<Arg, Expr>,
    /// `--rtol`, finite and not negative; `None` keeps the type's default.
    pub rtol: Option<f64>,
    /// `--atol`, finite and not negative; `None` keeps the type's default.
    pub atol: Option<f64>,
    /// `--print` arguments, in command-line order, each once.
    pub print: Vec<Arg>,
    pub dump: Option<PathBuf>,
    pub stats: Option<StatsFormat>,
    /// `--timeout`, at least 1 (default [`DEFAULT_TIMEOUT_SECS`]).
    pub timeout_secs: u64,
    /// `--sanitize`; `--explore` implies [`Sanitizer::Race`].
    pub sanitize: Option<Sanitizer>,
    pub schedule: Option<Schedule>,
    /// `--explore`: the most schedules to run, at least 1.
    pub explore: Option<u64>,
    /// `--timing`: the machine model's name and the `--model` overrides
    /// (`KEY=VALUE` items, in order), checked against the model by whoever
    /// builds it.
    pub timing: Option<Timing>,
    /// `--trace`: where the trace events go.
    pub trace: Option<PathBuf>,
    /// `--timeline`: where their picture goes.
    pub timeline: Option<PathBuf>,
    pub pipeline: Option<String>,
    pub keep: Option<PathBuf>,
    /// `--backend`; [`Backend::Thread`] unless given.
    pub backend: Backend,
    /// `--mpirun` and `--hostfile`, only with [`Backend::Mpi`].
    pub mpi: Mpi,
}

/// A command line pld-run cannot follow; exit status 2.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    pub message: String,
}

impl UsageError {
    pub fn status(&self) -> ExitStatus {
        ExitStatus::BadInput
    }
}

fn usage_error(message: impl Into<String>) -> UsageError {
    UsageError {
        message: message.into(),
    }
}

/// Adds an argument-keyed option.
fn keyed<T>(map: &mut BTreeMap<Arg, T>, name: &str, arg: Arg, value: T) -> Result<(), UsageError> {
    if map.contains_key(&arg) {
        return Err(usage_error(format!(
            "{name} is given more than once for argument {arg}"
        )));
    }
    map.insert(arg, value);
    Ok(())
}

fn utf8<'a>(name: &str, value: &'a OsStr) -> Result<&'a str, UsageError> {
    value
        .to_str()
        .ok_or_else(|| usage_error(format!("{name}: value is not valid UTF-8")))
}

fn non_empty(name: &str, value: &OsStr) -> Result<String, UsageError> {
    let text = utf8(name, value)?;
    if text.is_empty() {
        return Err(usage_error(format!("{name} needs a non-empty value")));
    }
    Ok(text.to_owned())
}

fn path(name: &str, value: &OsStr) -> Result<PathBuf, UsageError> {
    if value.is_empty() {
        return Err(usage_error(format!("{name} needs a non-empty path")));
    }
    Ok(PathBuf::from(value))
}

/// An unsigned decimal number in `min..=max`.
fn number<T>(name: &str, value: &OsStr, min: T, max: T, what: &str) -> Result<T, UsageError>
where
    T: std::str::FromStr + PartialOrd + Copy,
{
    let text = utf8(name, value)?;
    text.parse::<T>()
        .ok()
        .filter(|n| *n >= min && *n <= max && text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| usage_error(format!("{name} expects {what}, got `{text}`")))
}

/// An entry argument as the command line names it: by its 0-based
/// position, or by its SSA name as the source writes it (`data` or
/// `%data`), which pld-run reads from the entry's signature.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arg {
    Position(usize),
    /// Without the `%`.
    Name(String),
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Position(position) => write!(f, "{position}"),
            Arg::Name(name) => f.write_str(name),
        }
    }
}

/// Whether `text` is an SSA name MLIR accepts after `%` (digits alone are
/// a position).
pub fn is_ssa_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || "_$.-".contains(c))
        && chars.all(|c| c.is_ascii_alphanumeric() || "_$.-".contains(c))
}

/// The `ARG` of `ARG=...`, or of `--print ARG`: a position or a name.
fn arg_ref(name: &str, text: &str) -> Result<Arg, UsageError> {
    if !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && let Ok(arg) = text.parse()
    {
        return Ok(Arg::Position(arg));
    }
    let bare = text.strip_prefix('%').unwrap_or(text);
    if is_ssa_name(bare) {
        return Ok(Arg::Name(bare.to_owned()));
    }
    Err(usage_error(format!(
        "{name}: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `{text}`"
    )))
}

/// Splits `ARG=VALUE`.
fn assignment<'a>(
    name: &str,
    value: &'a OsStr,
    what: &str,
) -> Result<(Arg, &'a OsStr), UsageError> {
    let (arg, rest) = crate::os_str::split_once(value, b'=').ok_or_else(|| {
        usage_error(format!(
            "{name} expects ARG={what}, got `{}`",
            value.to_string_lossy()
        ))
    })?;
    Ok((arg_ref(name, utf8(name, arg)?)?, rest))
}

fn expression(name: &str, arg: &Arg, text: &str) -> Result<Expr, UsageError> {
    Expr::parse(text).map_err(|e| usage_error(format!("{name} {arg}={text}: {}", e.render(text))))
}

fn dims(name: &str, arg: &Arg, text: &str) -> Result<Vec<usize>, UsageError> {
    text.split('x')
        .map(|d| {
            d.parse::<usize>()
                .ok()
                .filter(|_| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            usage_error(format!(
                "{name} {arg}={text}: expected dimensions like 4x8 (decimal sizes joined by x)"
            ))
        })
}

fn tolerance(name: &str, value: &OsStr) -> Result<f64, UsageError> {
    let text = utf8(name, value)?;
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| usage_error(format!("{name} expects a number >= 0, got `{text}`")))
}

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // Help wins over any error elsewhere on the line, so that adding
    // `--help` to a failing command always explains it.
    if args
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--help" || a == "-h")
    {
        return Ok(Command::Help);
    }
    if args
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--version" || a == "-V")
    {
        return Ok(Command::Version);
    }
    let command = Line::command().no_binary_name(true);
    let matches = command
        .try_get_matches_from(&args)
        .map_err(|error| clap_error(&error))?;
    let line = Line::from_arg_matches(&matches).map_err(|error| clap_error(&error))?;
    // The value `--stats json` left as a second FILE gets a hint.
    let after_stats = |file: &OsStr| {
        args.windows(2)
            .any(|pair| pair[0] == "--stats" && pair[1] == file)
    };
    options(line, after_stats).map(Command::Run)
}

/// clap's errors in pld-run's words.
fn clap_error(error: &clap::Error) -> UsageError {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => text.clone(),
        _ => String::new(),
    };
    // "--ranks <N>" -> "--ranks"
    let flag = || {
        context(ContextKind::InvalidArg)
            .split(['=', ' '])
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    match error.kind() {
        ErrorKind::UnknownArgument => {
            let arg = context(ContextKind::InvalidArg);
            if arg.starts_with('-') {
                let name = arg.split('=').next().unwrap_or_default();
                usage_error(format!("unknown option `{name}` (see --help)"))
            } else {
                usage_error(format!(
                    "unexpected argument `{arg}`: only one FILE.mlir is run"
                ))
            }
        }
        ErrorKind::InvalidValue | ErrorKind::NoEquals => {
            usage_error(format!("{} needs a value", flag()))
        }
        ErrorKind::TooManyValues if flag() == "--help" => usage_error("--help takes no value"),
        _ => usage_error(
            error
                .to_string()
                .trim()
                .trim_start_matches("error: ")
                .to_owned(),
        ),
    }
}

/// The one value of an option that may appear once, if it appears.
fn single<'a>(name: &str, values: &'a [OsString]) -> Result<Option<&'a OsStr>, UsageError> {
    match values {
        [] => Ok(None),
        [value] => Ok(Some(value)),
        _ => Err(usage_error(format!("{name} is given more than once"))),
    }
}

/// Checks every value and builds the options.
fn options(line: Line, after_stats: impl Fn(&OsStr) -> bool) -> Result<Options, UsageError> {
    let input = match line.input.as_slice() {
        [] => return Err(usage_error("missing FILE.mlir (see --help)")),
        [file] => path("FILE.mlir", file)?,
        [_, extra, ..] => {
            let text = extra.to_string_lossy();
            let hint = if after_stats(extra) && (text == "json" || text == "table") {
                format!(" (write --stats={text})")
            } else {
                String::new()
            };
            return Err(usage_error(format!(
                "unexpected argument `{text}`: only one FILE.mlir is run{hint}"
            )));
        }
    };
    let ranks = single("--ranks", &line.ranks)?
        .map(|v| number("--ranks", v, 1, MAX_RANKS, "a number of ranks in 1..=64"))
        .transpose()?
        .ok_or_else(|| usage_error("--ranks N is required"))?;
    let entry = single("--entry", &line.entry)?
        .map(|v| non_empty("--entry", v))
        .transpose()?;
    let blocks = single("--blocks", &line.blocks)?
        .map(|v| number("--blocks", v, 1, u32::MAX, "a number of blocks >= 1"))
        .transpose()?
        .unwrap_or(1);
    let mut init = BTreeMap::new();
    for value in &line.init {
        let (arg, text) = assignment("--init", value, "EXPR")?;
        let expr = expression("--init", &arg, utf8("--init", text)?)?;
        keyed(&mut init, "--init", arg, expr)?;
    }
    let mut expect = BTreeMap::new();
    for value in &line.expect {
        let (arg, text) = assignment("--expect", value, "EXPR")?;
        let expr = expression("--expect", &arg, utf8("--expect", text)?)?;
        keyed(&mut expect, "--expect", arg, expr)?;
    }
    let mut load = BTreeMap::new();
    for value in &line.load {
        let (arg, file) = assignment("--load", value, "PATH")?;
        keyed(&mut load, "--load", arg, path("--load", file)?)?;
    }
    let mut shape = BTreeMap::new();
    for value in &line.shape {
        let (arg, text) = assignment("--shape", value, "D0xD1...")?;
        let dims = dims("--shape", &arg, utf8("--shape", text)?)?;
        keyed(&mut shape, "--shape", arg, dims)?;
    }
    let rtol = single("--rtol", &line.rtol)?
        .map(|v| tolerance("--rtol", v))
        .transpose()?;
    let atol = single("--atol", &line.atol)?
        .map(|v| tolerance("--atol", v))
        .transpose()?;
    let mut print = Vec::new();
    for value in &line.print {
        let arg = arg_ref("--print", utf8("--print", value)?)?;
        if print.contains(&arg) {
            return Err(usage_error(format!(
                "--print is given more than once for argument {arg}"
            )));
        }
        print.push(arg);
    }
    let dump = single("--dump", &line.dump)?
        .map(|v| path("--dump", v))
        .transpose()?;
    let stats = single("--stats", &line.stats)?
        .map(|v| match utf8("--stats", v)? {
            "json" => Ok(StatsFormat::Json),
            "table" => Ok(StatsFormat::Table),
            other => Err(usage_error(format!(
                "--stats takes no value or =json, got `{other}`"
            ))),
        })
        .transpose()?;
    let timeout_secs = single("--timeout", &line.timeout)?
        .map(|v| {
            number(
                "--timeout",
                v,
                1,
                u64::MAX,
                "a whole number of seconds >= 1",
            )
        })
        .transpose()?
        .unwrap_or(DEFAULT_TIMEOUT_SECS);
    let sanitize = single("--sanitize", &line.sanitize)?
        .map(|v| match utf8("--sanitize", v)? {
            "race" => Ok(Sanitizer::Race),
            "thread" => Ok(Sanitizer::Thread),
            "address" => Ok(Sanitizer::Address),
            other => Err(usage_error(format!(
                "--sanitize expects race, thread or address, got `{other}`"
            ))),
        })
        .transpose()?;
    let schedule = single("--schedule", &line.schedule)?
        .map(|v| schedule(utf8("--schedule", v)?))
        .transpose()?;
    let explore = single("--explore", &line.explore)?
        .map(|v| {
            number(
                "--explore",
                v,
                1,
                u64::MAX,
                "a number of schedules >= 1 (as --explore=MAX)",
            )
        })
        .transpose()?;
    let mut sanitize = sanitize;
    if explore.is_some() {
        if schedule.is_some() {
            return Err(usage_error(
                "--explore chooses the schedules itself; give --schedule or --explore",
            ));
        }
        match sanitize {
            Some(Sanitizer::Thread | Sanitizer::Address) => {
                return Err(usage_error(
                    "--explore checks pld's happens-before (--sanitize race); it does not run under another sanitizer",
                ));
            }
            _ => sanitize = Some(Sanitizer::Race),
        }
        for (given, name) in [
            (!print.is_empty(), "--print"),
            (dump.is_some(), "--dump"),
            (stats.is_some(), "--stats"),
        ] {
            if given {
                return Err(usage_error(format!(
                    "{name} describes one run and --explore makes many: replay one with --schedule"
                )));
            }
        }
    }
    let timing = single("--timing", &line.timing)?
        .map(|v| non_empty("--timing", v))
        .transpose()?;
    let overrides = line
        .model
        .iter()
        .map(|v| non_empty("--model", v))
        .collect::<Result<Vec<_>, _>>()?;
    if timing.is_none() && !overrides.is_empty() {
        return Err(usage_error(
            "--model changes the model of --timing; give --timing too",
        ));
    }
    if timing.is_some() {
        for (given, name) in [
            (schedule.is_some(), "--schedule"),
            (explore.is_some(), "--explore"),
        ] {
            if given {
                return Err(usage_error(format!(
                    "--timing orders the run by modelled time; it does not combine with {name}"
                )));
            }
        }
    }
    let timing = timing.map(|model| Timing { model, overrides });
    let trace = single("--trace", &line.trace)?
        .map(|v| path("--trace", v))
        .transpose()?;
    let timeline = single("--timeline", &line.timeline)?
        .map(|v| path("--timeline", v))
        .transpose()?;
    if explore.is_some() && (trace.is_some() || timeline.is_some()) {
        return Err(usage_error(
            "--trace and --timeline describe one run and --explore makes many: replay one with --schedule",
        ));
    }
    let pipeline = single("--pipeline", &line.pipeline)?
        .map(|v| non_empty("--pipeline", v))
        .transpose()?;
    let keep = single("--keep", &line.keep)?
        .map(|v| path("--keep", v))
        .transpose()?;
    let backend = single("--backend", &line.backend)?
        .map(|v| match utf8("--backend", v)? {
            "thread" => Ok(Backend::Thread),
            "mpi" => Ok(Backend::Mpi),
            other => Err(usage_error(format!(
                "--backend expects thread or mpi, got `{other}`"
            ))),
        })
        .transpose()?
        .unwrap_or_default();
    let mpi = Mpi {
        mpirun: single("--mpirun", &line.mpirun)?
            .map(|v| path("--mpirun", v))
            .transpose()?,
        hostfile: single("--hostfile", &line.hostfile)?
            .map(|v| path("--hostfile", v))
            .transpose()?,
        mode: MpiMode::Node,
    };
    let mpi_mode = single("--mpi-mode", &line.mpi_mode)?
        .map(|v| match utf8("--mpi-mode", v)? {
            "node" => Ok(MpiMode::Node),
            "rma" => Ok(MpiMode::Rma),
            other => Err(usage_error(format!(
                "--mpi-mode expects node or rma, got `{other}`"
            ))),
        })
        .transpose()?;
    let mpi = Mpi {
        mode: mpi_mode.unwrap_or(if mpi.hostfile.is_some() {
            MpiMode::Rma
        } else {
            MpiMode::Node
        }),
        ..mpi
    };
    if backend == Backend::Thread {
        for (given, name) in [
            (mpi.mpirun.is_some(), "--mpirun"),
            (mpi.hostfile.is_some(), "--hostfile"),
            (mpi_mode.is_some(), "--mpi-mode"),
        ] {
            if given {
                return Err(usage_error(format!(
                    "{name} configures --backend mpi; give --backend mpi too"
                )));
            }
        }
    } else {
        // These need one process that sees every rank's threads.
        for (given, name) in [
            // First: --explore implies --sanitize race.
            (explore.is_some(), "--explore"),
            (sanitize.is_some(), "--sanitize"),
            (schedule.is_some(), "--schedule"),
            (timing.is_some(), "--timing"),
            (trace.is_some(), "--trace"),
            (timeline.is_some(), "--timeline"),
        ] {
            if given {
                return Err(usage_error(format!(
                    "{name} needs every rank in one process: it runs on --backend thread, not mpi"
                )));
            }
        }
    }
    Ok(Options {
        input,
        ranks,
        entry,
        blocks,
        init,
        load,
        shape,
        expect,
        rtol,
        atol,
        print,
        dump,
        stats,
        timeout_secs,
        sanitize,
        schedule,
        explore,
        timing,
        trace,
        timeline,
        pipeline,
        keep,
        backend,
        mpi,
    })
}

/// `--schedule CHOICES` or `--schedule pct:SEED[:DEPTH]`.
fn schedule(text: &str) -> Result<Schedule, UsageError> {
    let bad = || {
        usage_error(format!(
            "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `{text}`"
        ))
    };
    let decimal = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = text.strip_prefix("pct:") {
        let mut parts = rest.split(':');
        let seed = parts
            .next()
            .filter(|t| decimal(t))
            .and_then(|t| t.parse().ok());
        let depth = match parts.next() {
            None => Some(3),
            Some(t) => Some(t)
                .filter(|t| decimal(t))
                .and_then(|t| t.parse().ok())
                .filter(|d| *d >= 1),
        };
        return match (seed, depth, parts.next()) {
            (Some(seed), Some(depth), None) => Ok(Schedule::Pct { seed, depth }),
            _ => Err(bad()),
        };
    }
    text.split(',')
        .map(|t| t.parse::<u32>().ok().filter(|_| decimal(t)))
        .collect::<Option<Vec<_>>>()
        .map(Schedule::Replay)
        .ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Options {
        match parse(args.iter().copied()) {
            Ok(Command::Run(options)) => options,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    fn error(args: &[&str]) -> String {
        match parse(args.iter().copied()) {
            Err(e) => e.message,
            other => panic!("{args:?} parsed: {other:?}"),
        }
    }

    #[test]
    fn minimal_command_takes_defaults() {
        let o = run(&["a.mlir", "--ranks", "4"]);
        assert_eq!(o.input, PathBuf::from("a.mlir"));
        assert_eq!(o.ranks, 4);
        assert_eq!(o.blocks, 1);
        assert_eq!(o.timeout_secs, 60);
        assert_eq!(o.entry, None);
        assert!(o.init.is_empty() && o.load.is_empty() && o.shape.is_empty());
        assert!(o.expect.is_empty() && o.print.is_empty());
        assert_eq!((o.rtol, o.atol), (None, None));
        assert_eq!((o.stats, o.sanitize), (None, None));
        assert_eq!((o.dump, o.keep, o.pipeline), (None, None, None));
    }

    #[test]
    fn every_flag_in_both_spellings() {
        let spaced = run(&[
            "--ranks",
            "8",
            "--entry",
            "main",
            "--blocks",
            "2",
            "--init",
            "0=r*100+i",
            "--load",
            "1=in/x{rank}.npy",
            "--shape",
            "0=4x17",
            "--expect",
            "0=sum_r(r*100+i)",
            "--rtol",
            "1e-3",
            "--atol",
            "0",
            "--print",
            "0",
            "--print",
            "2",
            "--dump",
            "out",
            "--stats",
            "--timeout",
            "5",
            "--sanitize",
            "thread",
            "--pipeline",
            "pld-to-cce-pipeline",
            "--keep",
            "kept",
            "k.mlir",
        ]);
        let joined = run(&[
            "k.mlir",
            "--ranks=8",
            "--entry=main",
            "--blocks=2",
            "--init=0=r*100+i",
            "--load=1=in/x{rank}.npy",
            "--shape=0=4x17",
            "--expect=0=sum_r(r*100+i)",
            "--rtol=1e-3",
            "--atol=0",
            "--print=0",
            "--print=2",
            "--dump=out",
            "--stats",
            "--timeout=5",
            "--sanitize=thread",
            "--pipeline=pld-to-cce-pipeline",
            "--keep=kept",
        ]);
        assert_eq!(spaced, joined);
        let o = spaced;
        assert_eq!(o.input, PathBuf::from("k.mlir"));
        assert_eq!(o.ranks, 8);
        assert_eq!(o.entry.as_deref(), Some("main"));
        assert_eq!(o.blocks, 2);
        assert_eq!(o.init[&Arg::Position(0)].source(), "r*100+i");
        assert_eq!(o.load[&Arg::Position(1)], PathBuf::from("in/x{rank}.npy"));
        assert_eq!(o.shape[&Arg::Position(0)], [4, 17]);
        assert_eq!(o.expect[&Arg::Position(0)].source(), "sum_r(r*100+i)");
        assert_eq!((o.rtol, o.atol), (Some(1e-3), Some(0.0)));
        assert_eq!(o.print, [Arg::Position(0), Arg::Position(2)]);
        assert_eq!(o.dump, Some(PathBuf::from("out")));
        assert_eq!(o.stats, Some(StatsFormat::Table));
        assert_eq!(o.timeout_secs, 5);
        assert_eq!(o.sanitize, Some(Sanitizer::Thread));
        assert_eq!(o.pipeline.as_deref(), Some("pld-to-cce-pipeline"));
        assert_eq!(o.keep, Some(PathBuf::from("kept")));
    }

    #[test]
    fn backends_and_their_options() {
        let o = run(&["a", "--ranks", "3"]);
        assert_eq!((o.backend, o.mpi), (Backend::Thread, Mpi::default()));
        let o = run(&[
            "a",
            "--ranks",
            "3",
            "--backend",
            "mpi",
            "--mpirun=/opt/ompi/bin/mpirun",
            "--hostfile",
            "hosts",
        ]);
        assert_eq!(o.backend, Backend::Mpi);
        assert_eq!(o.mpi.mpirun, Some(PathBuf::from("/opt/ompi/bin/mpirun")));
        assert_eq!(o.mpi.hostfile, Some(PathBuf::from("hosts")));
        // A hostfile may span machines: rma unless told otherwise.
        assert_eq!(o.mpi.mode, MpiMode::Rma);
        let mode = |extra: &[&str]| {
            let mut args = vec!["a", "--ranks", "2", "--backend", "mpi"];
            args.extend_from_slice(extra);
            run(&args).mpi.mode
        };
        assert_eq!(mode(&[]), MpiMode::Node);
        assert_eq!(mode(&["--mpi-mode", "rma"]), MpiMode::Rma);
        assert_eq!(
            mode(&["--hostfile", "hosts", "--mpi-mode=node"]),
            MpiMode::Node
        );
        assert_eq!(
            error(&["a", "--ranks", "1", "--backend", "mpi", "--mpi-mode", "shm"]),
            "--mpi-mode expects node or rma, got `shm`"
        );
        assert_eq!(
            error(&["a", "--ranks", "1", "--mpi-mode", "rma"]),
            "--mpi-mode configures --backend mpi; give --backend mpi too"
        );
        assert_eq!(
            run(&["a", "--ranks", "1", "--backend=thread"]).backend,
            Backend::Thread
        );
        assert_eq!(
            error(&["a", "--ranks", "1", "--backend", "ucx"]),
            "--backend expects thread or mpi, got `ucx`"
        );
        assert_eq!(
            error(&["a", "--ranks", "1", "--hostfile", "h"]),
            "--hostfile configures --backend mpi; give --backend mpi too"
        );
        assert_eq!(
            error(&["a", "--ranks", "1", "--backend", "mpi", "--mpirun", ""]),
            "--mpirun needs a non-empty path"
        );
        for option in [
            &["--sanitize", "race"][..],
            &["--schedule", "0,1"],
            &["--explore"],
            &["--timing"],
            &["--trace", "t.json"],
        ] {
            let mut args = vec!["a", "--ranks", "2", "--backend", "mpi"];
            args.extend_from_slice(option);
            assert_eq!(
                error(&args),
                format!(
                    "{} needs every rank in one process: it runs on --backend thread, not mpi",
                    option[0]
                )
            );
        }
    }

    #[test]
    fn stats_formats_and_sanitizers() {
        assert_eq!(
            run(&["a", "--ranks", "1", "--stats=json"]).stats,
            Some(StatsFormat::Json)
        );
        assert_eq!(
            run(&["a", "--ranks", "1", "--stats=table"]).stats,
            Some(StatsFormat::Table)
        );
        assert_eq!(
            run(&["a", "--ranks", "1", "--sanitize", "address"]).sanitize,
            Some(Sanitizer::Address)
        );
        assert_eq!(Sanitizer::Thread.name(), "thread");
        assert_eq!(
            error(&["a", "--ranks", "1", "--stats=xml"]),
            "--stats takes no value or =json, got `xml`"
        );
        assert_eq!(
            error(&["a", "--ranks", "1", "--stats", "json"]),
            "unexpected argument `json`: only one FILE.mlir is run (write --stats=json)"
        );
        assert!(
            error(&["a", "--ranks", "1", "--sanitize", "memory"])
                .contains("race, thread or address")
        );
    }

    #[test]
    fn repeated_keyed_options_collect_per_argument() {
        let o = run(&[
            "a", "--ranks", "2", "--init", "0=1", "--init", "2=r", "--expect", "1=2", "--expect",
            "0=i", "--load", "3=x.npy", "--shape", "3=2x2", "--shape", "0=5",
        ]);
        assert_eq!(
            o.init.keys().cloned().collect::<Vec<_>>(),
            [Arg::Position(0), Arg::Position(2)]
        );
        assert_eq!(
            o.expect.keys().cloned().collect::<Vec<_>>(),
            [Arg::Position(0), Arg::Position(1)]
        );
        assert_eq!(o.shape[&Arg::Position(0)], [5]);
        assert_eq!(o.shape[&Arg::Position(3)], [2, 2]);
    }

    #[test]
    fn arguments_by_name() {
        let o = run(&[
            "a",
            "--ranks",
            "2",
            "--init",
            "data=r",
            "--expect",
            "%out=1",
            "--print",
            "%out",
            "--shape",
            "x.y$-_1=4",
            "--load",
            "sig=s.npy",
        ]);
        let name = |n: &str| Arg::Name(n.to_owned());
        assert_eq!(o.init[&name("data")].source(), "r");
        assert_eq!(o.expect[&name("out")].source(), "1");
        assert_eq!(o.print, [name("out")]);
        assert_eq!(o.shape[&name("x.y$-_1")], [4]);
        assert_eq!(o.load[&name("sig")], PathBuf::from("s.npy"));
        assert_eq!(name("data").to_string(), "data");
        assert_eq!(Arg::Position(3).to_string(), "3");
        // -1 is a name (MLIR allows `%-1`), not a position.
        assert_eq!(run(&["a", "--ranks", "2", "--init", "-1=1"]).init.len(), 1);
    }

    #[test]
    fn values_may_start_with_a_dash_and_contain_equals() {
        let o = run(&[
            "a",
            "--ranks",
            "2",
            "--init",
            "0=-r",
            "--expect",
            "0=(r == 0) - r",
        ]);
        assert_eq!(o.init[&Arg::Position(0)].source(), "-r");
        assert_eq!(o.expect[&Arg::Position(0)].source(), "(r == 0) - r");
        let o = run(&["a", "--ranks", "2", "--load", "0=dir=x/{rank}.npy"]);
        assert_eq!(o.load[&Arg::Position(0)], PathBuf::from("dir=x/{rank}.npy"));
        let o = run(&["--ranks", "2", "--", "--odd.mlir"]);
        assert_eq!(o.input, PathBuf::from("--odd.mlir"));
        assert_eq!(run(&["-", "--ranks", "1"]).input, PathBuf::from("-"));
    }

    #[test]
    fn help_wins() {
        assert_eq!(parse(["--help"]), Ok(Command::Help));
        assert_eq!(parse(["a.mlir", "--ranks", "0", "-h"]), Ok(Command::Help));
        assert_eq!(parse(["--bogus", "--help"]), Ok(Command::Help));
        // After `--` it is a file name.
        assert!(parse(["--ranks", "1", "--", "--help"]).is_ok_and(|c| c != Command::Help));
        let text = usage();
        assert!(text.contains("--sanitize <race|thread|address>"), "{text}");
        for arg in Line::command().get_arguments() {
            if let Some(flag) = arg.get_long() {
                assert!(
                    text.contains(&format!("--{flag}")),
                    "--{flag} is not in the usage text"
                );
            }
        }
    }

    #[test]
    fn range_checks() {
        assert_eq!(run(&["a", "--ranks", "64"]).ranks, 64);
        assert_eq!(run(&["a", "--ranks", "1"]).ranks, 1);
        for bad in ["0", "65", "-1", "+3", "x", "", "4.0"] {
            assert_eq!(
                error(&["a", "--ranks", bad]),
                format!("--ranks expects a number of ranks in 1..=64, got `{bad}`")
            );
        }
        assert!(error(&["a", "--ranks", "1", "--blocks", "0"]).contains("number of blocks >= 1"));
        assert!(error(&["a", "--ranks", "1", "--timeout", "0"]).contains("seconds >= 1"));
        assert!(error(&["a", "--ranks", "1", "--timeout", "1.5"]).contains("seconds >= 1"));
        assert_eq!(run(&["a", "--ranks", "1", "--blocks", "48"]).blocks, 48);
        for bad in ["-1", "nan", "inf", "x"] {
            assert!(
                error(&["a", "--ranks", "1", "--rtol", bad])
                    .contains("--rtol expects a number >= 0")
            );
        }
        assert!(error(&["a", "--ranks", "1", "--atol", "-0.5"]).contains("--atol expects"));
    }

    #[test]
    fn schedules_and_exploration() {
        let o = run(&["a", "--ranks", "2", "--schedule", "0,2,1"]);
        assert_eq!(o.schedule, Some(Schedule::Replay(vec![0, 2, 1])));
        assert_eq!(o.schedule.unwrap().directive(), "replay 0,2,1");
        let o = run(&["a", "--ranks", "2", "--schedule=pct:7"]);
        assert_eq!(o.schedule, Some(Schedule::Pct { seed: 7, depth: 3 }));
        let o = run(&["a", "--ranks", "2", "--schedule", "pct:7:1"]);
        assert_eq!(o.schedule.unwrap().directive(), "pct 7 1");
        let o = run(&["a", "--ranks", "2", "--explore"]);
        assert_eq!(o.explore, Some(DEFAULT_EXPLORE_MAX));
        assert_eq!(o.sanitize, Some(Sanitizer::Race));
        let o = run(&["a", "--ranks", "2", "--explore=5", "--sanitize", "race"]);
        assert_eq!(o.explore, Some(5));
        for (args, want) in [
            (
                &["a", "--ranks", "2", "--schedule", "0,,1"][..],
                "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `0,,1`",
            ),
            (
                &["a", "--ranks", "2", "--schedule", "pct:x"],
                "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `pct:x`",
            ),
            (
                &["a", "--ranks", "2", "--schedule", "pct:1:0"],
                "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `pct:1:0`",
            ),
            (
                &["a", "--ranks", "2", "--schedule", "pct:1:2:3"],
                "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `pct:1:2:3`",
            ),
            (
                &["a", "--ranks", "2", "--explore=0"],
                "--explore expects a number of schedules >= 1 (as --explore=MAX), got `0`",
            ),
            (
                &["a", "--ranks", "2", "--explore", "--schedule", "0"],
                "--explore chooses the schedules itself; give --schedule or --explore",
            ),
            (
                &["a", "--ranks", "2", "--explore", "--sanitize", "thread"],
                "--explore checks pld's happens-before (--sanitize race); it does not run under another sanitizer",
            ),
            (
                &["a", "--ranks", "2", "--explore", "--print", "0"],
                "--print describes one run and --explore makes many: replay one with --schedule",
            ),
            (
                &["a", "--ranks", "2", "--explore", "--stats"],
                "--stats describes one run and --explore makes many: replay one with --schedule",
            ),
        ] {
            assert_eq!(error(args), want, "{args:?}");
        }
        // `--explore 5` leaves 5 as a second FILE.
        assert!(
            error(&["a", "--ranks", "2", "--explore", "5"]).starts_with("unexpected argument `5`")
        );
    }

    #[test]
    fn usage_errors() {
        let cases: &[(&[&str], &str)] = &[
            (&["--ranks", "2"], "missing FILE.mlir (see --help)"),
            (&["a.mlir"], "--ranks N is required"),
            (
                &["a", "b", "--ranks", "2"],
                "unexpected argument `b`: only one FILE.mlir is run",
            ),
            (&["a", "--ranks"], "--ranks needs a value"),
            (
                &["a", "--ranks", "2", "--frobnicate"],
                "unknown option `--frobnicate` (see --help)",
            ),
            (
                &["a", "--ranks", "2", "-x"],
                "unknown option `-x` (see --help)",
            ),
            (
                &["a", "--ranks", "2", "--ranks", "3"],
                "--ranks is given more than once",
            ),
            (
                &["a", "--ranks", "2", "--stats", "--stats=json"],
                "--stats is given more than once",
            ),
            (
                &["a", "--ranks", "2", "--entry", ""],
                "--entry needs a non-empty value",
            ),
            (
                &["a", "--ranks", "2", "--dump="],
                "--dump needs a non-empty path",
            ),
            (
                &["a", "--ranks", "2", "--init", "0"],
                "--init expects ARG=EXPR, got `0`",
            ),
            (
                &["a", "--ranks", "2", "--init", "x y=1"],
                "--init: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `x y`",
            ),
            (
                &["a", "--ranks", "2", "--init", "%=1"],
                "--init: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `%`",
            ),
            (
                &["a", "--ranks", "2", "--print", "1a"],
                "--print: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `1a`",
            ),
            (
                &["a", "--ranks", "2", "--init", "data=1", "--init", "%data=2"],
                "--init is given more than once for argument data",
            ),
            (
                &["a", "--ranks", "2", "--init", "0=1", "--init", "0=2"],
                "--init is given more than once for argument 0",
            ),
            (
                &["a", "--ranks", "2", "--print", "1", "--print", "1"],
                "--print is given more than once for argument 1",
            ),
            (
                &["a", "--ranks", "2", "--shape", "0=4", "--shape", "0=4"],
                "--shape is given more than once for argument 0",
            ),
            (
                &["a", "--ranks", "2", "--load", "0=x", "--load", "0=y"],
                "--load is given more than once for argument 0",
            ),
            (
                &["a", "--ranks", "2", "--expect", "1=1", "--expect=1=2"],
                "--expect is given more than once for argument 1",
            ),
            (
                &["a", "--ranks", "2", "--load", "0="],
                "--load needs a non-empty path",
            ),
            (
                &["a", "--ranks", "2", "--shape", "0=4x"],
                "--shape 0=4x: expected dimensions like 4x8 (decimal sizes joined by x)",
            ),
            (
                &["a", "--ranks", "2", "--shape", "0=?x4"],
                "--shape 0=?x4: expected dimensions like 4x8 (decimal sizes joined by x)",
            ),
            (
                &["a", "--ranks", "2", "--shape", "0="],
                "--shape 0=: expected dimensions like 4x8 (decimal sizes joined by x)",
            ),
            (&["a", "--ranks", "2", "--help=1"], "--help takes no value"),
        ];
        for (args, want) in cases {
            assert_eq!(error(args), *want, "{args:?}");
        }
    }

    #[test]
    fn expression_errors_show_the_column() {
        assert_eq!(
            error(&["a", "--ranks", "2", "--expect", "1=r+"]),
            "--expect 1=r+: column 3: expected a number, a name or `(`, found end of input\n  r+\n    ^"
        );
        assert!(
            error(&["a", "--ranks", "2", "--init", "0="])
                .starts_with("--init 0=: column 1: expected a number")
        );
    }

    #[cfg(unix)]
    #[test]
    fn paths_need_not_be_utf8() {
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        let bad = |bytes: &[u8]| OsString::from_vec(bytes.to_vec());
        let args = [
            bad(b"\xff.mlir"),
            "--ranks".into(),
            "1".into(),
            bad(b"--load=0=\xfe{rank}.npy"),
            bad(b"--dump=\xfd"),
        ];
        let Ok(Command::Run(o)) = parse(args) else {
            panic!("not parsed")
        };
        assert_eq!(o.input.as_os_str().as_bytes(), b"\xff.mlir");
        assert_eq!(
            o.load[&Arg::Position(0)].as_os_str().as_bytes(),
            b"\xfe{rank}.npy"
        );
        assert_eq!(o.dump.unwrap().as_os_str().as_bytes(), b"\xfd");
        let err = parse([
            OsString::from("a"),
            "--ranks".into(),
            "1".into(),
            "--entry".into(),
            bad(b"\xff"),
        ]);
        assert_eq!(
            err.unwrap_err().message,
            "--entry: value is not valid UTF-8"
        );
    }
}
