//! `pld-run --explore`: the compiled program, run once per schedule that
//! [`Explorer`] asks for, until every class of interleavings ran, MAX
//! schedules ran, or one run fails (docs/pld-run.md, "Exploration").

use super::{Failure, check, fail, run_program};
use pld_run_core::{
    args::Bound,
    cli::{Options, Schedule, choice_list},
    explore::{Explorer, Next, Trace},
    job::{self, Job},
    status::ExitStatus,
    values::{Expected, Values},
};
use std::{fs, path::Path};

/// The trace a serialized run wrote.
pub fn read_trace(path: &Path) -> Result<Trace, pld_run_core::Error> {
    let text = fs::read_to_string(path).map_err(|error| {
        pld_run_core::Error::new(format!("cannot read the trace {}: {error}", path.display()))
    })?;
    Trace::parse(&text)
        .map_err(|error| pld_run_core::Error::new(format!("{}: {error}", path.display())))
}

/// Explores `job` (its input already written) with at most `max` runs.
#[allow(clippy::too_many_arguments)]
pub fn run(
    options: &Options,
    bound: &Bound,
    program: &Path,
    work: &Path,
    mut job: Job,
    max: u64,
    initial: &Values,
    expected: &Expected,
) -> Result<ExitStatus, Failure> {
    let bad = |message: String| fail(ExitStatus::BadInput, message);
    let job_path = work.join(super::JOB);
    let trace_path = work.join("trace.txt");
    let stdout = work.join("run.out");
    let stderr = work.join("run.err");
    job.trace = Some("trace.txt".into());
    let mut explorer = Explorer::new();
    let mut next = Next::default();
    let mut runs = 0u64;
    let mut cut_short = 0u64;
    loop {
        job.schedule = Some(Schedule::Replay(next.choices));
        job.asleep = next.asleep;
        job.write(&job_path)
            .map_err(|error| bad(error.to_string()))?;
        runs += 1;
        let failure = run_program(program, work, options, Some((&stdout, &stderr)))?;
        // What a failing run printed is the report; a passing run's output
        // is dropped with the run.
        let replay = || {
            out!("{}", fs::read_to_string(&stdout).unwrap_or_default());
            err!("{}", fs::read_to_string(&stderr).unwrap_or_default());
        };
        if let Some(failure) = failure {
            replay();
            err!("pld-run: explore: schedule {runs} fails (replay it with the --schedule above)\n");
            return Err(failure);
        }
        let trace = read_trace(&trace_path).map_err(|error| bad(error.to_string()))?;
        if trace.asleep {
            // The run stopped where it could only repeat an explored order.
            cut_short += 1;
            explorer
                .record(&trace)
                .map_err(|error| bad(format!("explore: {error}")))?;
            match explorer.next_schedule() {
                Some(following) if runs < max => {
                    next = following;
                    continue;
                }
                following => {
                    summary(runs, cut_short, following.is_none(), max);
                    return Ok(ExitStatus::Ok);
                }
            }
        }
        let final_values = job::read_output(initial, &work.join(&job.output))
            .map_err(|error| bad(error.to_string()))?;
        let report = check(options, bound, &final_values, expected);
        if !report.passed() {
            replay();
            err!("{report}");
            err!("  schedule: {}\n", choice_list(&trace.choices()));
            err!("pld-run: explore: schedule {runs}: {}\n", report.summary());
            return Ok(report.status());
        }
        explorer
            .record(&trace)
            .map_err(|error| bad(format!("explore: {error}")))?;
        match explorer.next_schedule() {
            Some(following) if runs < max => next = following,
            following => {
                summary(runs, cut_short, following.is_none(), max);
                return Ok(ExitStatus::Ok);
            }
        }
    }
}

/// `explored N schedules (complete)`, or bounded by `--explore=MAX`.
fn summary(runs: u64, cut_short: u64, complete: bool, max: u64) {
    let cut = if cut_short > 0 {
        format!(", {cut_short} of them cut short as repeats")
    } else {
        String::new()
    };
    if complete {
        out!("pld-run: explored {runs} schedules{cut} (complete)\n");
    } else {
        out!(
            "pld-run: explored {runs} schedules{cut} (bounded: --explore={max} reached before every interleaving ran)\n"
        );
    }
}
