//! pld-verify, the CCE lowering and pld-run on a module's text, through
//! pld-run as a library ([`pld_run::Session`]), with what they say as
//! values for Python.

use pld_run::{
    CompileOptions, Diagnostic, Error, Message, RunSpec, Session, Source, UNVERIFIED_PIPELINE,
};
use pld_run_core::{
    cli::{Arg, Timing},
    npy::Array,
    status::ExitStatus,
};
use std::{collections::BTreeMap, fs, path::PathBuf};

/// The diagnostics of a session, in the order they came.
pub fn diagnostics(session: &Session) -> Vec<Diagnostic> {
    session
        .messages()
        .into_iter()
        .filter_map(|message| match message {
            Message::Diagnostic(diagnostic) => Some(diagnostic),
            Message::Note(_) | Message::CompilerOutput(_) => None,
        })
        .collect()
}

/// pld-verify on `text` (its entry `entry`), on `ranks` (pld-verify's
/// default rank counts when empty): its diagnostics.
pub fn verify(text: &str, entry: &str, ranks: &[u32]) -> Result<Vec<Diagnostic>, String> {
    let session = Session::new();
    let outcome = (|| {
        let mut parsed = session.parse(Source::Text(text), Some(entry))?;
        let ranks: Vec<String> = ranks.iter().map(u32::to_string).collect();
        let pipeline = if ranks.is_empty() {
            "builtin.module(pld-verify)".to_owned()
        } else {
            format!("builtin.module(pld-verify{{ranks={}}})", ranks.join(","))
        };
        parsed.check(&pipeline)
    })();
    match outcome {
        Ok(()) | Err(Error::Lower) => Ok(diagnostics(&session)),
        Err(error) => Err(report(&session, &error)),
    }
}

/// The C++ pld-to-cce-pipeline emits for `text`.
pub fn to_cce(text: &str, entry: &str) -> Result<String, String> {
    let session = Session::new();
    let cpp = session
        .parse(Source::Text(text), Some(entry))
        .and_then(|parsed| parsed.to_cpp(None));
    cpp.map_err(|error| report(&session, &error))
}

/// The diagnostics of `session` and then `error`, as pld-run prints them.
fn report(session: &Session, error: &Error) -> String {
    let mut text: String = diagnostics(session)
        .iter()
        .map(|diagnostic| diagnostic.text.clone())
        .collect();
    text.push_str(&error.to_string());
    text
}

/// What Python asks of a run.
pub struct RunRequest<'a> {
    pub text: &'a str,
    pub entry: &'a str,
    pub ranks: usize,
    pub blocks: u32,
    /// Argument position and one `.npy` file per rank.
    pub inputs: Vec<(usize, Vec<Vec<u8>>)>,
    pub race: bool,
    pub timing: bool,
    pub verify: bool,
    pub timeout_secs: u64,
    /// Launches of the entry, windows kept between them unless
    /// `reset_windows` (`pld-run --launches`).
    pub launches: usize,
    pub reset_windows: bool,
}

/// How a run ended, in the words Python's exceptions use.
pub enum RunStatus {
    Ok,
    /// pld-verify or a lowering pass rejected the module.
    Rejected,
    Deadlock,
    Trap,
    Race,
    Error,
}

impl RunStatus {
    pub fn name(&self) -> &'static str {
        match self {
            RunStatus::Ok => "ok",
            RunStatus::Rejected => "verify",
            RunStatus::Deadlock => "deadlock",
            RunStatus::Trap => "trap",
            RunStatus::Race => "race",
            RunStatus::Error => "error",
        }
    }
}

pub struct RunResult {
    pub status: RunStatus,
    pub report: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Per rank, every array argument's final value as a `.npy` file, by
    /// position.
    pub outputs: Vec<BTreeMap<usize, Vec<u8>>>,
    pub timing: Option<String>,
}

/// Compiles and runs `request` on simulated ranks.
pub fn run(request: &RunRequest) -> RunResult {
    let session = Session::new();
    let failed = |status: RunStatus, error: &Error| RunResult {
        status,
        report: report(&session, error),
        diagnostics: diagnostics(&session),
        outputs: Vec::new(),
        timing: None,
    };
    let inputs = match write_inputs(&request.inputs) {
        Ok(inputs) => inputs,
        Err(error) => {
            return RunResult {
                status: RunStatus::Error,
                report: format!("cannot write the inputs: {error}"),
                diagnostics: Vec::new(),
                outputs: Vec::new(),
                timing: None,
            };
        }
    };
    let options = CompileOptions {
        entry: Some(request.entry.to_owned()),
        pipeline: (!request.verify).then(|| UNVERIFIED_PIPELINE.to_owned()),
        blocks: request.blocks,
        ..CompileOptions::default()
    };
    let program = match session.compile(Source::Text(request.text), &options) {
        Ok(program) => program,
        Err(error @ Error::Lower) => return failed(RunStatus::Rejected, &error),
        Err(error) => return failed(RunStatus::Error, &error),
    };
    let spec = RunSpec {
        ranks: request.ranks,
        blocks: request.blocks,
        launches: request.launches,
        reset_windows: request.reset_windows,
        load: inputs.load.clone(),
        timeout_secs: request.timeout_secs,
        race: request.race,
        timing: request.timing.then(|| Timing {
            model: "910b".into(),
            overrides: Vec::new(),
            skip_values: false,
        }),
        stats: request.timing,
        ..RunSpec::default()
    };
    let outcome = match program.run(&spec) {
        Ok(outcome) => outcome,
        Err(error) => return failed(RunStatus::Error, &error),
    };
    let status = match outcome.status {
        ExitStatus::Ok | ExitStatus::ExpectationFailed => RunStatus::Ok,
        ExitStatus::DeadlockOrTimeout => RunStatus::Deadlock,
        ExitStatus::Trap => RunStatus::Trap,
        ExitStatus::Sanitizer => RunStatus::Race,
        ExitStatus::BadInput => RunStatus::Error,
    };
    let mut report = outcome.stopped.clone().unwrap_or_default();
    if let Some(output) = &outcome.output {
        report.push_str(&output.stderr);
    }
    let outputs = outcome
        .values
        .as_ref()
        .map(|values| {
            (0..values.ranks())
                .map(|rank| {
                    values
                        .layouts()
                        .iter()
                        .filter(|layout| layout.is_array())
                        .map(|layout| {
                            let arg = layout.index();
                            let array = Array::from_elements(
                                layout.dtype(),
                                layout.shape(),
                                values.bytes(rank, arg),
                            );
                            (arg, array.to_bytes())
                        })
                        .collect()
                })
                .collect()
        })
        .unwrap_or_default();
    RunResult {
        status,
        report,
        diagnostics: diagnostics(&session),
        outputs,
        timing: outcome.stats.as_ref().map(|stats| stats.timing_report()),
    }
}

/// The inputs as `.npy` files in a temporary directory, one per rank
/// (`arg<i>_{rank}.npy`), named for [`RunSpec::load`].
struct Inputs {
    load: BTreeMap<Arg, PathBuf>,
    _directory: tempfile::TempDir,
}

fn write_inputs(inputs: &[(usize, Vec<Vec<u8>>)]) -> std::io::Result<Inputs> {
    let directory = tempfile::Builder::new().prefix("pld-python-").tempdir()?;
    let mut load = BTreeMap::new();
    for (position, per_rank) in inputs {
        for (rank, bytes) in per_rank.iter().enumerate() {
            fs::write(
                directory.path().join(format!("arg{position}_{rank}.npy")),
                bytes,
            )?;
        }
        let template = directory.path().join(format!("arg{position}_{{rank}}.npy"));
        load.insert(Arg::Position(*position), template);
    }
    Ok(Inputs {
        load,
        _directory: directory,
    })
}
