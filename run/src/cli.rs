//! pld-run's command line (PIPELINE.md §7).
//!
//! ```text
//! pld-run FILE.mlir --ranks N [--entry NAME] [--blocks B]
//!         [--init ARG=EXPR]... [--load ARG=PATH]... [--shape ARG=D0xD1...]
//!         [--expect ARG=EXPR]... [--rtol X] [--atol X] [--print ARG]... [--dump DIR]
//!         [--stats[=json]] [--timeout SECONDS] [--sanitize race|thread|address]
//!         [--pipeline PIPELINE] [--keep DIR]
//! ```
//!
//! Every option with a value takes it as `--flag value` or `--flag=value`;
//! in the first form the next argument is the value even if it starts with
//! `-` (so `--init 0=-r` and `--atol -1` reach their checks). `--stats`
//! takes its optional value only as `--stats=json` (or `--stats=table`).
//! `--` ends the options. `--help` (or `-h`) anywhere before `--` asks for
//! [`USAGE`], whatever else is on the line.
//!
//! Options that name an argument (`--init`, `--load`, `--shape`,
//! `--expect`, `--print`) may repeat for different arguments; naming one
//! argument twice with the same option, or giving one argument both an
//! `--init` and a `--load`, is an error. Every other option may appear
//! once. Whether an ARG exists, and fits the option, is only known from
//! the entry's signature: see [`crate::args::validate`].
//!
//! Paths (FILE, `--load`, `--dump`, `--keep`) need not be UTF-8; every other
//! value must be.

use crate::expr::Expr;
use crate::status::ExitStatus;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::PathBuf;

/// The most ranks a run may have.
pub const MAX_RANKS: usize = 64;

/// Seconds a run may take when `--timeout` is not given.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

/// `--help`'s text.
pub const USAGE: &str = "\
usage: pld-run FILE.mlir --ranks N [options]

Runs the entry function of a pld module on N simulated ranks and checks
its results.

options:
  --ranks N              number of ranks, 1..=64 (required)
  --entry NAME           function to run (default: the module's only host
                         orchestrator, else its only kernel)
  --blocks B             blocks per rank (default 1)
  --init ARG=EXPR        initial value of entry argument ARG (0-based), per
                         rank and element; everything else starts at 0
  --load ARG=PATH        initial value of ARG from a .npy file; {rank} in
                         PATH is replaced by the rank
  --shape ARG=D0xD1...   shape of ARG, needed where its type has dynamic
                         dimensions
  --expect ARG=EXPR      expected final value of ARG on every rank
  --rtol X, --atol X     tolerance: |got - expected| <= atol + rtol*|expected|
                         (defaults per element type: f16 1e-3/1e-3,
                         bf16 1e-2/1e-2, f32 1e-5/1e-6, f64 1e-12/1e-12,
                         integers exact)
  --print ARG            print ARG's final value on every rank
  --dump DIR             write final array arguments to DIR/rank<R>.arg<K>.npy
  --stats[=json]         print per-rank transfer counters as a table, or JSON
  --timeout SECONDS      wall-clock limit of the run (default 60)
  --sanitize race|thread|address
                         race: check pld's happens-before (a data race that
                         no release -> notify -> wait -> acquire chain
                         orders is reported, exit 5); thread, address:
                         build with ThreadSanitizer or AddressSanitizer (bugs
                         in the simulator itself)
  --pipeline PIPELINE    lowering pipeline to use instead of the default
  --keep DIR             keep the generated C++, job and binaries in DIR
  -h, --help             print this help

EXPR: numbers (1, 2.5, .5, 1e-3), r (rank), n (ranks), i (row-major flat
index), i0..i7 (index per dimension), + - * / % (integer division and
remainder truncate when both sides are integers), unary -, parentheses,
< <= > >= == != (1 or 0), min(a,b), max(a,b), and sum_r(e), prod_r(e),
max_r(e), min_r(e), which evaluate e for every rank r in 0..n.
Example: --init 0=r*100+i --expect 0=sum_r(r*100+i)

exit status:
  0 ok, 1 an expectation failed, 2 bad usage, invalid IR or a failed build,
  3 deadlock or timeout, 4 a trap, 5 a sanitizer report
";

/// What the command line asks for.
// One per process: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `--help`: print [`USAGE`] and exit 0.
    Help,
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
    pub init: BTreeMap<usize, Expr>,
    /// `--load` paths, `{rank}` not yet replaced (see [`crate::npy::rank_path`]).
    pub load: BTreeMap<usize, PathBuf>,
    pub shape: BTreeMap<usize, Vec<usize>>,
    pub expect: BTreeMap<usize, Expr>,
    /// `--rtol`, finite and not negative; `None` keeps the type's default.
    pub rtol: Option<f64>,
    /// `--atol`, finite and not negative; `None` keeps the type's default.
    pub atol: Option<f64>,
    /// `--print` arguments, in command-line order, each once.
    pub print: Vec<usize>,
    pub dump: Option<PathBuf>,
    pub stats: Option<StatsFormat>,
    /// `--timeout`, at least 1 (default [`DEFAULT_TIMEOUT_SECS`]).
    pub timeout_secs: u64,
    pub sanitize: Option<Sanitizer>,
    pub pipeline: Option<String>,
    pub keep: Option<PathBuf>,
}

/// A command line pld-run cannot follow; exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError {
    pub message: String,
}

impl UsageError {
    pub fn status(&self) -> ExitStatus {
        ExitStatus::BadInput
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

fn usage_error(message: impl Into<String>) -> UsageError {
    UsageError {
        message: message.into(),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flag {
    Ranks,
    Entry,
    Blocks,
    Init,
    Load,
    Shape,
    Expect,
    Rtol,
    Atol,
    Print,
    Dump,
    Stats,
    Timeout,
    Sanitize,
    Pipeline,
    Keep,
    Help,
}

const FLAGS: [(&str, Flag); 17] = [
    ("--ranks", Flag::Ranks),
    ("--entry", Flag::Entry),
    ("--blocks", Flag::Blocks),
    ("--init", Flag::Init),
    ("--load", Flag::Load),
    ("--shape", Flag::Shape),
    ("--expect", Flag::Expect),
    ("--rtol", Flag::Rtol),
    ("--atol", Flag::Atol),
    ("--print", Flag::Print),
    ("--dump", Flag::Dump),
    ("--stats", Flag::Stats),
    ("--timeout", Flag::Timeout),
    ("--sanitize", Flag::Sanitize),
    ("--pipeline", Flag::Pipeline),
    ("--keep", Flag::Keep),
    ("--help", Flag::Help),
];

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
    let mut builder = Builder::default();
    let mut args = args.into_iter();
    let mut options_ended = false;
    while let Some(arg) = args.next() {
        let is_option = arg.as_encoded_bytes().starts_with(b"-") && arg != "-";
        if options_ended || !is_option {
            builder.positional(arg)?;
            continue;
        }
        if arg == "--" {
            options_ended = true;
            continue;
        }
        let (name, inline) = match crate::os_str::split_once(&arg, b'=') {
            Some((name, value)) if arg.as_encoded_bytes().starts_with(b"--") => {
                (name, Some(value.to_os_string()))
            }
            _ => (arg.as_os_str(), None),
        };
        let name = name.to_string_lossy();
        let flag = FLAGS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, f)| f)
            .ok_or_else(|| usage_error(format!("unknown option `{name}` (see --help)")))?;
        let value = match flag {
            Flag::Stats => inline,
            // A bare --help returned above; only --help=VALUE gets here.
            Flag::Help => return Err(usage_error("--help takes no value")),
            _ => match inline {
                Some(value) => Some(value),
                None => Some(
                    args.next()
                        .ok_or_else(|| usage_error(format!("{name} needs a value")))?,
                ),
            },
        };
        builder.apply(flag, &name, value)?;
    }
    builder.finish().map(Command::Run)
}

/// Options as they accumulate.
#[derive(Default)]
struct Builder {
    input: Option<PathBuf>,
    ranks: Option<usize>,
    entry: Option<String>,
    blocks: Option<u32>,
    init: BTreeMap<usize, Expr>,
    load: BTreeMap<usize, PathBuf>,
    shape: BTreeMap<usize, Vec<usize>>,
    expect: BTreeMap<usize, Expr>,
    rtol: Option<f64>,
    atol: Option<f64>,
    print: Vec<usize>,
    dump: Option<PathBuf>,
    stats: Option<StatsFormat>,
    timeout_secs: Option<u64>,
    sanitize: Option<Sanitizer>,
    pipeline: Option<String>,
    keep: Option<PathBuf>,
    /// The last option seen, for a hint when `--stats json` leaves `json`
    /// as a stray positional argument.
    last_flag: Option<Flag>,
}

/// Sets a once-only option.
fn once<T>(slot: &mut Option<T>, name: &str, value: T) -> Result<(), UsageError> {
    if slot.is_some() {
        return Err(usage_error(format!("{name} is given more than once")));
    }
    *slot = Some(value);
    Ok(())
}

/// Adds an argument-keyed option.
fn keyed<T>(
    map: &mut BTreeMap<usize, T>,
    name: &str,
    arg: usize,
    value: T,
) -> Result<(), UsageError> {
    if map.insert(arg, value).is_some() {
        return Err(usage_error(format!(
            "{name} is given more than once for argument {arg}"
        )));
    }
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

/// The `ARG` of `ARG=...`, or of `--print ARG`.
fn arg_position(name: &str, text: &str) -> Result<usize, UsageError> {
    if !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && let Ok(arg) = text.parse()
    {
        return Ok(arg);
    }
    Err(usage_error(format!(
        "{name}: ARG must be a 0-based argument position, got `{text}`"
    )))
}

/// Splits `ARG=VALUE`.
fn assignment<'a>(
    name: &str,
    value: &'a OsStr,
    what: &str,
) -> Result<(usize, &'a OsStr), UsageError> {
    let (arg, rest) = crate::os_str::split_once(value, b'=').ok_or_else(|| {
        usage_error(format!(
            "{name} expects ARG={what}, got `{}`",
            value.to_string_lossy()
        ))
    })?;
    Ok((arg_position(name, utf8(name, arg)?)?, rest))
}

fn expression(name: &str, arg: usize, text: &str) -> Result<Expr, UsageError> {
    Expr::parse(text).map_err(|e| usage_error(format!("{name} {arg}={text}: {}", e.render(text))))
}

fn dims(name: &str, arg: usize, text: &str) -> Result<Vec<usize>, UsageError> {
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

impl Builder {
    fn positional(&mut self, arg: OsString) -> Result<(), UsageError> {
        if self.input.is_some() {
            let text = arg.to_string_lossy();
            let hint = if self.last_flag == Some(Flag::Stats) && (text == "json" || text == "table")
            {
                format!(" (write --stats={text})")
            } else {
                String::new()
            };
            return Err(usage_error(format!(
                "unexpected argument `{text}`: only one FILE.mlir is run{hint}"
            )));
        }
        self.input = Some(path("FILE.mlir", &arg)?);
        self.last_flag = None;
        Ok(())
    }

    fn apply(&mut self, flag: Flag, name: &str, value: Option<OsString>) -> Result<(), UsageError> {
        self.last_flag = Some(flag);
        let Some(value) = value else {
            debug_assert_eq!(flag, Flag::Stats);
            return once(&mut self.stats, name, StatsFormat::Table);
        };
        let value = value.as_os_str();
        match flag {
            Flag::Ranks => {
                let ranks = number(name, value, 1, MAX_RANKS, "a number of ranks in 1..=64")?;
                once(&mut self.ranks, name, ranks)
            }
            Flag::Entry => once(&mut self.entry, name, non_empty(name, value)?),
            Flag::Blocks => {
                let blocks = number(name, value, 1, u32::MAX, "a number of blocks >= 1")?;
                once(&mut self.blocks, name, blocks)
            }
            Flag::Init | Flag::Expect => {
                let (arg, text) = assignment(name, value, "EXPR")?;
                let expr = expression(name, arg, utf8(name, text)?)?;
                let map = if flag == Flag::Init {
                    &mut self.init
                } else {
                    &mut self.expect
                };
                keyed(map, name, arg, expr)
            }
            Flag::Load => {
                let (arg, file) = assignment(name, value, "PATH")?;
                let file = path(name, file)?;
                keyed(&mut self.load, name, arg, file)
            }
            Flag::Shape => {
                let (arg, text) = assignment(name, value, "D0xD1...")?;
                let shape = dims(name, arg, utf8(name, text)?)?;
                keyed(&mut self.shape, name, arg, shape)
            }
            Flag::Rtol => once(&mut self.rtol, name, tolerance(name, value)?),
            Flag::Atol => once(&mut self.atol, name, tolerance(name, value)?),
            Flag::Print => {
                let arg = arg_position(name, utf8(name, value)?)?;
                if self.print.contains(&arg) {
                    return Err(usage_error(format!(
                        "{name} is given more than once for argument {arg}"
                    )));
                }
                self.print.push(arg);
                Ok(())
            }
            Flag::Dump => once(&mut self.dump, name, path(name, value)?),
            Flag::Stats => {
                let format = match utf8(name, value)? {
                    "json" => StatsFormat::Json,
                    "table" => StatsFormat::Table,
                    other => {
                        return Err(usage_error(format!(
                            "--stats takes no value or =json, got `{other}`"
                        )));
                    }
                };
                once(&mut self.stats, name, format)
            }
            Flag::Timeout => {
                let secs = number(name, value, 1, u64::MAX, "a whole number of seconds >= 1")?;
                once(&mut self.timeout_secs, name, secs)
            }
            Flag::Sanitize => {
                let sanitizer = match utf8(name, value)? {
                    "race" => Sanitizer::Race,
                    "thread" => Sanitizer::Thread,
                    "address" => Sanitizer::Address,
                    other => {
                        return Err(usage_error(format!(
                            "--sanitize expects race, thread or address, got `{other}`"
                        )));
                    }
                };
                once(&mut self.sanitize, name, sanitizer)
            }
            Flag::Pipeline => once(&mut self.pipeline, name, non_empty(name, value)?),
            Flag::Keep => once(&mut self.keep, name, path(name, value)?),
            Flag::Help => unreachable!("--help is handled first"),
        }
    }

    fn finish(self) -> Result<Options, UsageError> {
        let input = self
            .input
            .ok_or_else(|| usage_error("missing FILE.mlir (see --help)"))?;
        let ranks = self
            .ranks
            .ok_or_else(|| usage_error("--ranks N is required"))?;
        if let Some(arg) = self.init.keys().find(|arg| self.load.contains_key(arg)) {
            return Err(usage_error(format!(
                "argument {arg} has both --init and --load; give one"
            )));
        }
        Ok(Options {
            input,
            ranks,
            entry: self.entry,
            blocks: self.blocks.unwrap_or(1),
            init: self.init,
            load: self.load,
            shape: self.shape,
            expect: self.expect,
            rtol: self.rtol,
            atol: self.atol,
            print: self.print,
            dump: self.dump,
            stats: self.stats,
            timeout_secs: self.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS),
            sanitize: self.sanitize,
            pipeline: self.pipeline,
            keep: self.keep,
        })
    }
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
        assert_eq!(o.init[&0].source(), "r*100+i");
        assert_eq!(o.load[&1], PathBuf::from("in/x{rank}.npy"));
        assert_eq!(o.shape[&0], [4, 17]);
        assert_eq!(o.expect[&0].source(), "sum_r(r*100+i)");
        assert_eq!((o.rtol, o.atol), (Some(1e-3), Some(0.0)));
        assert_eq!(o.print, [0, 2]);
        assert_eq!(o.dump, Some(PathBuf::from("out")));
        assert_eq!(o.stats, Some(StatsFormat::Table));
        assert_eq!(o.timeout_secs, 5);
        assert_eq!(o.sanitize, Some(Sanitizer::Thread));
        assert_eq!(o.pipeline.as_deref(), Some("pld-to-cce-pipeline"));
        assert_eq!(o.keep, Some(PathBuf::from("kept")));
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
        assert_eq!(o.init.keys().copied().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(o.expect.keys().copied().collect::<Vec<_>>(), [0, 1]);
        assert_eq!(o.shape[&0], [5]);
        assert_eq!(o.shape[&3], [2, 2]);
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
        assert_eq!(o.init[&0].source(), "-r");
        assert_eq!(o.expect[&0].source(), "(r == 0) - r");
        let o = run(&["a", "--ranks", "2", "--load", "0=dir=x/{rank}.npy"]);
        assert_eq!(o.load[&0], PathBuf::from("dir=x/{rank}.npy"));
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
        assert!(USAGE.contains("--sanitize race|thread|address"));
        for (flag, _) in FLAGS {
            assert!(USAGE.contains(flag), "{flag} is not in the usage text");
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
                &["a", "--ranks", "2", "--init", "x=1"],
                "--init: ARG must be a 0-based argument position, got `x`",
            ),
            (
                &["a", "--ranks", "2", "--init", "-1=1"],
                "--init: ARG must be a 0-based argument position, got `-1`",
            ),
            (
                &["a", "--ranks", "2", "--print", "a"],
                "--print: ARG must be a 0-based argument position, got `a`",
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
                &["a", "--ranks", "2", "--init", "0=1", "--load", "0=x.npy"],
                "argument 0 has both --init and --load; give one",
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
        assert_eq!(o.load[&0].as_os_str().as_bytes(), b"\xfe{rank}.npy");
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
