//! What a run gives back: how it ended, the values every rank computed,
//! the checks of the expectations, and what the spec asked to record.

use pld_run_core::{check::Report, stats::Stats, status::ExitStatus, values::Values};

/// How a run ended and what it computed.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    /// [`ExitStatus::Ok`], [`ExitStatus::ExpectationFailed`], or why the
    /// program stopped early (deadlock or timeout, trap, sanitizer, an
    /// `mpirun` that failed).
    pub status: ExitStatus,
    /// Why the program stopped early, in pld-run's words; empty when the
    /// program's own report (its stderr) says it all. `None` when it
    /// finished.
    pub stopped: Option<String>,
    /// Every rank's final values, when the program finished.
    pub values: Option<Values>,
    /// The expectations checked against `values`, when the program
    /// finished.
    pub checks: Option<Report>,
    /// The spec's `print` arguments, each as pld-run's `--print` shows it.
    pub printed: Vec<String>,
    /// The run's counters, when the spec asked for them and the program
    /// finished.
    pub stats: Option<Stats>,
    /// What every thread did, as Chrome trace-event JSON, when the spec
    /// asked for it (as far as the run got, even when it stopped early).
    pub trace: Option<String>,
    /// The choices of a serialized run, which replay it
    /// ([`pld_run_core::cli::Schedule::Replay`]), when the program finished.
    pub schedule: Option<Vec<u32>>,
    /// What the program printed, when the spec captured it.
    pub output: Option<Output>,
}

/// A program's captured output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
}

impl RunOutcome {
    /// An outcome of `status` that records nothing yet.
    pub(crate) fn new(status: ExitStatus) -> RunOutcome {
        RunOutcome {
            status,
            stopped: None,
            values: None,
            checks: None,
            printed: Vec::new(),
            stats: None,
            trace: None,
            schedule: None,
            output: None,
        }
    }

    /// The program ran and every expectation held.
    pub fn passed(&self) -> bool {
        self.status == ExitStatus::Ok
    }
}
