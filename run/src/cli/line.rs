//! The command line as clap reads it: one typed field per option, each
//! value read by its check in [`super::values`].

use super::DEFAULT_TIMEOUT_SECS;
use super::arg::Arg;
use super::choices::{Backend, MpiMode, Sanitizer, StatsFormat};
use super::schedule::Schedule;
use super::values::{self, Checked, Keyed};
use crate::expr::Expr;
use clap::Parser;
use clap::builder::{OsStringValueParser, TypedValueParser};
use std::path::PathBuf;

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

/// `--version`'s text after the program's name: the version, and the line
/// every pld tool prints (`pld version X`).
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "\npld version ",
    env!("CARGO_PKG_VERSION")
);

/// The machine model of `--timing` without `=MODEL`, and of `--timing-only`.
pub(super) const DEFAULT_MODEL: &str = "910b";

/// [`super::DEFAULT_EXPLORE_MAX`] as clap takes a default: text.
const DEFAULT_EXPLORE_MAX_TEXT: &str = "10000";

/// Every option as the user gave it, each value already of its type. An
/// option without `Vec` may appear once (clap refuses a second time); the
/// rules between options are [`super::options::check`]'s.
#[derive(Parser, Debug)]
#[command(
    name = "pld-run",
    about = "Runs the entry function of a pld module on N simulated ranks and checks its results.",
    override_usage = "pld-run FILE.mlir --ranks N [options]",
    after_help = AFTER_HELP,
    version = env!("CARGO_PKG_VERSION"),
    long_version = LONG_VERSION,
    no_binary_name = true
)]
pub(super) struct Line {
    /// The pld module to lower, compile and run
    // Every word that is not an option lands here (`-` and words after `--`
    // too), so that a second one is pld-run's "only one FILE.mlir"
    // (`options::check`), never an unknown option.
    #[arg(value_name = "FILE.mlir", required = true, value_parser = OsStringValueParser::new().map(PathBuf::from))]
    pub input: Vec<PathBuf>,
    /// Number of ranks, 1..=64 (required)
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = Checked(values::ranks))]
    pub ranks: usize,
    /// Function to run (default: the module's only host orchestrator, else its only kernel)
    #[arg(long, value_name = "NAME", allow_hyphen_values = true, value_parser = Checked(values::text))]
    pub entry: Option<String>,
    /// Blocks per rank of an entry kernel (default 1); a kernel that runs a collective takes 1
    #[arg(
        long,
        value_name = "B",
        allow_hyphen_values = true,
        value_parser = Checked(values::blocks),
        default_value = "1",
        hide_default_value = true
    )]
    pub blocks: u32,
    /// Launch the entry K times (default 1), every rank finishing one launch before any starts the next; windows keep their contents between launches, as PyPTO's persistent windows do, and every other argument is set anew from --init and --load (where `l` is the launch, from 0); each launch's final values must meet --expect
    #[arg(
        long,
        value_name = "K",
        allow_hyphen_values = true,
        value_parser = Checked(values::launches),
        default_value = "1",
        hide_default_value = true
    )]
    pub launches: usize,
    /// With --launches: start every launch with the windows as the first started (PyPTO's reset_persistent_windows)
    #[arg(long)]
    pub reset_windows: bool,
    /// Initial value of entry argument ARG, per rank and element; everything else starts at 0. ARG, here and below: the argument's 0-based position or its name in the source (data or %data)
    #[arg(long, value_name = "ARG=EXPR", allow_hyphen_values = true, value_parser = Checked(values::expression))]
    pub init: Vec<Keyed<Expr>>,
    /// Initial value of ARG from a .npy file; {rank} in PATH is replaced by the rank
    #[arg(long, value_name = "ARG=PATH", allow_hyphen_values = true, value_parser = Checked(values::load))]
    pub load: Vec<Keyed<PathBuf>>,
    /// Shape of ARG, needed where its type has dynamic dimensions (a --load gives its file's)
    #[arg(long, value_name = "ARG=D0xD1...", allow_hyphen_values = true, value_parser = Checked(values::shape))]
    pub shape: Vec<Keyed<Vec<usize>>>,
    /// Expected final value of ARG on every rank; the run fails (exit 1) otherwise
    #[arg(long, value_name = "ARG=EXPR", allow_hyphen_values = true, value_parser = Checked(values::expression))]
    pub expect: Vec<Keyed<Expr>>,
    /// Relative tolerance: |got - expected| <= atol + rtol*|expected| (defaults per element type: f16 1e-3, bf16 1e-2, f32 1e-5, f64 1e-12, integers exact)
    #[arg(long, value_name = "X", allow_hyphen_values = true, value_parser = Checked(values::tolerance))]
    pub rtol: Option<f64>,
    /// Absolute tolerance (defaults: f16 1e-3, bf16 1e-2, f32 1e-6, f64 1e-12, integers exact)
    #[arg(long, value_name = "X", allow_hyphen_values = true, value_parser = Checked(values::tolerance))]
    pub atol: Option<f64>,
    /// Print ARG's final value on every rank
    #[arg(long, value_name = "ARG", allow_hyphen_values = true, value_parser = Checked(values::arg))]
    pub print: Vec<Arg>,
    /// Write final array arguments to DIR/rank<R>.arg<K>.npy
    #[arg(long, value_name = "DIR", allow_hyphen_values = true, value_parser = Checked(values::path))]
    pub dump: Option<PathBuf>,
    /// Print per-rank transfer counters as a table, or JSON (--stats=json)
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "table",
        value_parser = Checked(values::stats_format)
    )]
    pub stats: Option<StatsFormat>,
    /// Wall-clock limit of the run in seconds (default 60)
    #[arg(
        long,
        value_name = "SECONDS",
        allow_hyphen_values = true,
        value_parser = Checked(values::seconds),
        default_value_t = DEFAULT_TIMEOUT_SECS,
        hide_default_value = true
    )]
    pub timeout: u64,
    /// race: check pld's happens-before (a data race that no release -> notify -> wait -> acquire chain orders is reported, exit 5); thread, address: build with ThreadSanitizer or AddressSanitizer (bugs in the simulator itself)
    #[arg(long, value_name = "race|thread|address", allow_hyphen_values = true, value_parser = Checked(values::choice::<Sanitizer>))]
    pub sanitize: Option<Sanitizer>,
    /// Serialize the run: the simulator decides every interleaving. CHOICES (0,2,1,...: scheduler thread ids, as a report prints them) replays one; pct:SEED[:DEPTH] draws one with PCT (default depth 3)
    #[arg(long, value_name = "CHOICES|pct:SEED[:DEPTH]", allow_hyphen_values = true, value_parser = Checked(values::schedule))]
    pub schedule: Option<Schedule>,
    /// Run every distinct interleaving of the notifies and waits (DPOR), up to MAX schedules (default 10000), with --sanitize race; stops at the first deadlock, trap, race or failed expectation
    #[arg(
        long,
        value_name = "MAX",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = DEFAULT_EXPLORE_MAX_TEXT,
        value_parser = Checked(values::schedules)
    )]
    pub explore: Option<u64>,
    /// Keep modelled time: every op advances its thread's virtual clock by what the machine model says it costs (MODEL: 910b, the default; docs/performance.md); prints the modelled time per rank, the bytes per link and the critical path. Deterministic: the run is serialized in modelled-time order
    #[arg(
        long,
        value_name = "MODEL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = DEFAULT_MODEL,
        value_parser = Checked(values::text)
    )]
    pub timing: Option<String>,
    /// --timing without the values: the same threads, signals, waits, transfers and modelled time, but no tile math, matmul arithmetic or element copies (for GEMMs too big to compute on a host); a scalar read of skipped data stops the run (exit 2). Takes --timing=MODEL and --model; not --expect, --print or --dump
    #[arg(long)]
    pub timing_only: bool,
    /// Override parameters of the --timing model, e.g. alpha_ns=1000,link_bytes_per_ns=20 (repeatable)
    #[arg(long, value_name = "KEY=VALUE[,...]", allow_hyphen_values = true, value_parser = Checked(values::text))]
    pub model: Vec<String>,
    /// Write what every thread did as Chrome trace-event JSON (open it in Perfetto or chrome://tracing): a track per rank, task, block and lane, slices for waits, transfers and tile math, an arrow from every notify to the wait it released; modelled time with --timing, wall-clock time otherwise
    #[arg(long, value_name = "FILE.json", allow_hyphen_values = true, value_parser = Checked(values::path))]
    pub trace: Option<PathBuf>,
    /// Draw the same as a static SVG picture (ranks as rows, waits shaded, arrows for notifies)
    #[arg(long, value_name = "FILE.svg", allow_hyphen_values = true, value_parser = Checked(values::path))]
    pub timeline: Option<PathBuf>,
    /// Lowering pipeline to use instead of the default
    #[arg(long, value_name = "PIPELINE", allow_hyphen_values = true, value_parser = Checked(values::text))]
    pub pipeline: Option<String>,
    /// Lower without pld-verify (the default pipeline with verify=false): run a program its rules reject, to watch the race or hang happen
    #[arg(long, conflicts_with = "pipeline")]
    pub no_verify: bool,
    /// Keep the emitted C++, the compiled program, its job and input in DIR, with DIR/rerun.sh, which reruns the program on them
    #[arg(long, value_name = "DIR", allow_hyphen_values = true, value_parser = Checked(values::path))]
    pub keep: Option<PathBuf>,
    /// How ranks are hosted: thread (default: every rank a thread of one simulator process) or mpi (every rank an Open MPI process, started with mpirun; see --mpi-mode)
    #[arg(
        long,
        value_name = "thread|mpi",
        allow_hyphen_values = true,
        value_parser = Checked(values::choice::<Backend>),
        default_value = "thread",
        hide_default_value = true
    )]
    pub backend: Backend,
    /// The mpirun that starts --backend mpi's processes (default: mpirun on PATH; its mpicxx builds the program)
    #[arg(long, value_name = "PATH", allow_hyphen_values = true, value_parser = Checked(values::path))]
    pub mpirun: Option<PathBuf>,
    /// Passed to mpirun as --hostfile FILE (--backend mpi)
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_parser = Checked(values::path))]
    pub hostfile: Option<PathBuf>,
    /// How --backend mpi's processes hold the windows: node (every window mapped into every process; one machine) or rma (each process its own window, the others through MPI one-sided operations; any machines). Default: rma with --hostfile, else node
    #[arg(long, value_name = "node|rma", allow_hyphen_values = true, value_parser = Checked(values::choice::<MpiMode>))]
    pub mpi_mode: Option<MpiMode>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_usage_names_every_option() {
        let text = super::super::usage();
        for arg in Line::command().get_arguments() {
            if let Some(flag) = arg.get_long() {
                assert!(
                    text.contains(&format!("--{flag}")),
                    "--{flag} is not in the usage text"
                );
            }
        }
    }
}
