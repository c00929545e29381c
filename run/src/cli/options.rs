//! What a run is asked to do, and the rules between options that no single
//! value can check.

use super::arg::Arg;
use super::choices::{Backend, MpiMode, Sanitizer, StatsFormat};
use super::error::{UsageError, usage_error};
use super::line::{DEFAULT_MODEL, Line};
use super::schedule::Schedule;
use super::values::{self, Keyed};
use crate::expr::Expr;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::mem::take;
use std::path::PathBuf;

/// A `pld-run` invocation. Argument-keyed maps are ordered by argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// FILE.mlir.
    pub input: PathBuf,
    /// `--ranks`, in 1..=[`super::MAX_RANKS`].
    pub ranks: usize,
    pub entry: Option<String>,
    /// `--blocks`, at least 1 (default 1).
    pub blocks: u32,
    /// `--launches`, in 1..=[`super::MAX_LAUNCHES`] (default 1).
    pub launches: usize,
    /// `--reset-windows`: each launch starts with the windows as the first.
    pub reset_windows: bool,
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
    /// `--timeout`, at least 1 (default [`super::DEFAULT_TIMEOUT_SECS`]).
    pub timeout_secs: u64,
    /// `--sanitize`; `--explore` implies [`Sanitizer::Race`].
    pub sanitize: Option<Sanitizer>,
    pub schedule: Option<Schedule>,
    /// `--explore`: the most schedules to run, at least 1.
    pub explore: Option<u64>,
    /// `--timing` (or `--timing-only`): the machine model's name and the
    /// `--model` overrides (`KEY=VALUE` items, in order), checked against
    /// the model by whoever builds it.
    pub timing: Option<Timing>,
    /// `--trace`: where the trace events go.
    pub trace: Option<PathBuf>,
    /// `--timeline`: where their picture goes.
    pub timeline: Option<PathBuf>,
    pub pipeline: Option<String>,
    /// `--no-verify`: the default pipeline without pld-verify.
    pub no_verify: bool,
    pub keep: Option<PathBuf>,
    /// `--backend`; [`Backend::Thread`] unless given.
    pub backend: Backend,
    /// `--mpirun` and `--hostfile`, only with [`Backend::Mpi`].
    pub mpi: Mpi,
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
    /// `--timing-only`: the same modelled run without the bulk values (tile
    /// math, matmuls, element copies); what reads the final values
    /// (expectations, printing, dumps) has nothing to read.
    pub skip_values: bool,
}

/// The options of `line` (the command line `args`), if they go together.
pub(super) fn check(mut line: Line, args: &[OsString]) -> Result<Options, UsageError> {
    let input = one_file(take(&mut line.input), args)?;
    let init = per_argument("--init", take(&mut line.init))?;
    let expect = per_argument("--expect", take(&mut line.expect))?;
    let load = per_argument("--load", take(&mut line.load))?;
    let shape = per_argument("--shape", take(&mut line.shape))?;
    for (at, arg) in line.print.iter().enumerate() {
        if line.print[..at].contains(arg) {
            return Err(twice("--print", arg));
        }
    }
    let sanitize = explore_rules(&line)?;
    timing_rules(&line)?;
    timing_only_rules(&line, !expect.is_empty(), sanitize)?;
    backend_rules(&line, sanitize)?;
    launch_rules(&line)?;
    let mpi = Mpi {
        // A hostfile may span machines, which only rma mode reaches.
        mode: line.mpi_mode.unwrap_or(if line.hostfile.is_some() {
            MpiMode::Rma
        } else {
            MpiMode::Node
        }),
        mpirun: line.mpirun,
        hostfile: line.hostfile,
    };
    Ok(Options {
        input,
        ranks: line.ranks,
        entry: line.entry,
        blocks: line.blocks,
        launches: line.launches,
        reset_windows: line.reset_windows,
        init,
        load,
        shape,
        expect,
        rtol: line.rtol,
        atol: line.atol,
        print: line.print,
        dump: line.dump,
        stats: line.stats,
        timeout_secs: line.timeout,
        sanitize,
        schedule: line.schedule,
        explore: line.explore,
        timing: (line.timing.is_some() || line.timing_only).then(|| Timing {
            model: line.timing.unwrap_or_else(|| DEFAULT_MODEL.to_owned()),
            overrides: line.model,
            skip_values: line.timing_only,
        }),
        trace: line.trace,
        timeline: line.timeline,
        pipeline: line.pipeline,
        no_verify: line.no_verify,
        keep: line.keep,
        backend: line.backend,
        mpi,
    })
}

/// FILE.mlir, which clap requires: only one.
fn one_file(files: Vec<PathBuf>, args: &[OsString]) -> Result<PathBuf, UsageError> {
    let mut files = files.into_iter();
    let file = files.next().unwrap_or_default();
    let Some(extra) = files.next() else {
        return values::path("FILE.mlir", file.as_os_str());
    };
    let text = extra.to_string_lossy();
    // `--stats json` leaves json as a second FILE.
    let after_stats = args
        .windows(2)
        .any(|pair| pair[0] == "--stats" && pair[1].as_os_str() == extra.as_os_str());
    let hint = if after_stats && (text == "json" || text == "table") {
        format!(" (write --stats={text})")
    } else {
        String::new()
    };
    Err(usage_error(format!(
        "unexpected argument `{text}`: only one FILE.mlir is run{hint}"
    )))
}

/// An argument-keyed option's values, each argument named once.
fn per_argument<T>(name: &str, values: Vec<Keyed<T>>) -> Result<BTreeMap<Arg, T>, UsageError> {
    let mut map = BTreeMap::new();
    for Keyed { arg, value } in values {
        if map.contains_key(&arg) {
            return Err(twice(name, &arg));
        }
        map.insert(arg, value);
    }
    Ok(map)
}

fn twice(name: &str, arg: &Arg) -> UsageError {
    usage_error(format!("{name} is given more than once for argument {arg}"))
}

/// What `--explore` does not combine with; the sanitizer the run uses
/// (`--explore` implies `--sanitize race`).
fn explore_rules(line: &Line) -> Result<Option<Sanitizer>, UsageError> {
    if line.explore.is_none() {
        return Ok(line.sanitize);
    }
    if line.schedule.is_some() {
        return Err(usage_error(
            "--explore chooses the schedules itself; give --schedule or --explore",
        ));
    }
    if matches!(line.sanitize, Some(Sanitizer::Thread | Sanitizer::Address)) {
        return Err(usage_error(
            "--explore checks pld's happens-before (--sanitize race); it does not run under another sanitizer",
        ));
    }
    for (given, name) in [
        (!line.print.is_empty(), "--print"),
        (line.dump.is_some(), "--dump"),
        (line.stats.is_some(), "--stats"),
    ] {
        if given {
            return Err(usage_error(format!(
                "{name} describes one run and --explore makes many: replay one with --schedule"
            )));
        }
    }
    Ok(Some(Sanitizer::Race))
}

/// `--model` needs `--timing` (or `--timing-only`), which orders the run
/// itself; `--trace` and `--timeline` describe one run.
fn timing_rules(line: &Line) -> Result<(), UsageError> {
    if line.timing.is_none() && !line.timing_only && !line.model.is_empty() {
        return Err(usage_error(
            "--model changes the model of --timing; give --timing too",
        ));
    }
    if line.timing.is_some() || line.timing_only {
        let timing = if line.timing.is_some() {
            "--timing"
        } else {
            "--timing-only"
        };
        for (given, name) in [
            (line.schedule.is_some(), "--schedule"),
            (line.explore.is_some(), "--explore"),
        ] {
            if given {
                return Err(usage_error(format!(
                    "{timing} orders the run by modelled time; it does not combine with {name}"
                )));
            }
        }
    }
    if line.explore.is_some() && (line.trace.is_some() || line.timeline.is_some()) {
        return Err(usage_error(
            "--trace and --timeline describe one run and --explore makes many: replay one with --schedule",
        ));
    }
    Ok(())
}

/// `--timing-only` computes no values: what reads the final values has
/// nothing to read, and the simulator's own sanitizers would check little
/// of what it does. `--sanitize race` needs only the accesses, which run
/// as in a timed run, and stays.
fn timing_only_rules(
    line: &Line,
    expects: bool,
    sanitize: Option<Sanitizer>,
) -> Result<(), UsageError> {
    if !line.timing_only {
        return Ok(());
    }
    for (given, name, verb) in [
        (expects, "--expect", "check"),
        (!line.print.is_empty(), "--print", "print"),
        (line.dump.is_some(), "--dump", "dump"),
    ] {
        if given {
            return Err(usage_error(format!(
                "{name} reads the final values, but --timing-only skips the values, so there is nothing to {verb}; run with --timing to {verb} them"
            )));
        }
    }
    if let Some(sanitizer @ (Sanitizer::Thread | Sanitizer::Address)) = sanitize {
        return Err(usage_error(format!(
            "--sanitize {} checks the simulator's own memory accesses, and --timing-only skips most of them (the values), so there is little to check; run it with --timing (--sanitize race works with --timing-only)",
            sanitizer.name()
        )));
    }
    Ok(())
}

/// The MPI options need `--backend mpi`, which cannot run what needs every
/// rank's threads in one process.
/// Launches after the first run on the thread backend, freely or timed:
/// a schedule (given or explored) and an MPI job describe one launch.
fn launch_rules(line: &Line) -> Result<(), UsageError> {
    if line.launches == 1 {
        if line.reset_windows {
            return Err(usage_error(
                "--reset-windows resets the windows between launches; give --launches too",
            ));
        }
        return Ok(());
    }
    for (given, name) in [
        (line.explore.is_some(), "--explore"),
        (line.schedule.is_some(), "--schedule"),
        (line.backend == Backend::Mpi, "--backend mpi"),
    ] {
        if given {
            return Err(usage_error(format!(
                "{name} runs one launch; --launches runs several on --backend thread"
            )));
        }
    }
    Ok(())
}

fn backend_rules(line: &Line, sanitize: Option<Sanitizer>) -> Result<(), UsageError> {
    if line.backend == Backend::Thread {
        for (given, name) in [
            (line.mpirun.is_some(), "--mpirun"),
            (line.hostfile.is_some(), "--hostfile"),
            (line.mpi_mode.is_some(), "--mpi-mode"),
        ] {
            if given {
                return Err(usage_error(format!(
                    "{name} configures --backend mpi; give --backend mpi too"
                )));
            }
        }
        return Ok(());
    }
    for (given, name) in [
        // First: --explore implies --sanitize race.
        (line.explore.is_some(), "--explore"),
        (sanitize.is_some(), "--sanitize"),
        (line.schedule.is_some(), "--schedule"),
        (line.timing.is_some(), "--timing"),
        (line.timing_only, "--timing-only"),
        (line.trace.is_some(), "--trace"),
        (line.timeline.is_some(), "--timeline"),
    ] {
        if given {
            return Err(usage_error(format!(
                "{name} needs every rank in one process: it runs on --backend thread, not mpi"
            )));
        }
    }
    Ok(())
}
