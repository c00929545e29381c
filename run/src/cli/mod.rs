//! pld-run's command line (docs/pld-run.md), parsed with clap's derive.
//!
//! ```text
//! pld-run FILE.mlir --ranks N [--entry NAME] [--blocks B]
//!         [--init ARG=EXPR]... [--load ARG=PATH]... [--shape ARG=D0xD1...]
//!         [--expect ARG=EXPR]... [--rtol X] [--atol X] [--print ARG]... [--dump DIR]
//!         [--stats[=json]] [--timeout SECONDS] [--sanitize race|thread|address]
//!         [--schedule CHOICES|pct:SEED[:DEPTH]] [--explore[=MAX]]
//!         [--timing[=MODEL]] [--timing-only] [--model KEY=VALUE[,...]]...
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
//! same option is an error, and so is giving one argument both an `--init`
//! and a `--load` ([`crate::args::bind`], once the names are known). Every
//! other option may appear once. Whether an ARG exists, and fits the
//! option, is only known from the entry's signature: see
//! [`crate::args::validate`].
//!
//! How it is split: `line` declares the options (clap's derive: a typed
//! field each, defaults, the help text), `values` reads each option's value
//! into its type (numbers in range, `ARG=EXPR` pairs, shapes, schedules,
//! the choices of `choices`), `options` checks the rules between options,
//! and `error` says clap's own complaints in pld-run's words. Every error
//! names the option and says what it expects. Paths (FILE, `--load`,
//! `--dump`, `--keep`, ...) need not be UTF-8; every other value must be.

mod arg;
mod choices;
mod error;
mod line;
mod options;
mod schedule;
mod values;

pub use arg::{Arg, is_ssa_name};
pub use choices::{Backend, MpiMode, Sanitizer, StatsFormat};
pub use error::UsageError;
pub use options::{Mpi, Options, Timing};
pub use schedule::{Schedule, choice_list};

use clap::{CommandFactory, Parser};
use line::Line;
use std::ffi::OsString;

/// The most ranks a run may have.
pub const MAX_RANKS: usize = 64;

/// The most launches one `pld-run --launches` makes.
pub const MAX_LAUNCHES: usize = 1000;

/// Seconds a run may take when `--timeout` is not given.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

/// The most schedules `--explore` runs when MAX is not given.
pub const DEFAULT_EXPLORE_MAX: u64 = 10_000;

/// What pld-run asks for when it fails inside: the same request as every
/// pld tool's crash report (`pld-c/Tools.h`).
pub const BUG_REPORT: &str =
    "PLEASE submit a bug report to pld's maintainers with the command line and its input.";

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

/// `--help`'s text.
pub fn usage() -> String {
    Line::command().render_help().to_string()
}

/// `--version`'s text: `pld-run 0.1.0` and `pld version 0.1.0 (REPOSITORY)`.
pub fn version() -> String {
    Line::command().render_long_version().to_string()
}

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // Help wins over any error elsewhere on the line, so that adding
    // `--help` to a failing command always explains it; clap would stop
    // at the first error instead.
    let before_end = || args.iter().take_while(|a| *a != "--");
    if before_end().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    if before_end().any(|a| a == "--version" || a == "-V") {
        return Ok(Command::Version);
    }
    let line = Line::try_parse_from(&args).map_err(|e| error::from_clap(&e))?;
    options::check(line, &args).map(Command::Run)
}
