//! Exploration: the compiled program, run once per schedule that
//! [`Explorer`] asks for, until every class of interleavings ran, a bound
//! of schedules ran, or one run fails (docs/pld-run.md, "Exploration").

use crate::{
    Error, Prepared, Program, RunOutcome,
    execute::{JOB, run_program},
    program::Workspace,
    run::{STDERR, STDOUT, TRACE, read_output, read_trace},
};
use pld_run_core::{
    cli::Schedule,
    explore::{Explorer, Next},
    job,
};

/// What an exploration found.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploration {
    /// Schedules run, the failing one included.
    pub runs: u64,
    /// Of them, runs stopped where they could only repeat an explored
    /// order.
    pub cut_short: u64,
    /// Every class of interleavings ran (else the bound stopped it, or a
    /// schedule failed).
    pub complete: bool,
    /// The first schedule that failed (a deadlock, trap, race or failed
    /// expectation), with its output and the choices that replay it.
    pub failed: Option<RunOutcome>,
}

impl Program {
    /// Runs every distinct interleaving of the scheduling points (the
    /// spec's `schedule` is ignored; its `race` should be on), at most
    /// `max` of them, and stops at the first that fails.
    pub fn explore(&self, prepared: &Prepared, max: u64) -> Result<Exploration, Error> {
        self.explore_in(prepared, max, &Workspace::temporary(self)?)
    }

    pub(crate) fn explore_in(
        &self,
        prepared: &Prepared,
        max: u64,
        workspace: &Workspace,
    ) -> Result<Exploration, Error> {
        let work = &workspace.directory;
        let mut job = self.job(prepared, workspace)?;
        let (stdout, stderr) = (work.join(STDOUT), work.join(STDERR));
        job.trace = Some(TRACE.into());
        let launch = self.launch(prepared.spec, workspace);
        let mut explorer = Explorer::new();
        let mut next = Next::default();
        let mut found = Exploration {
            runs: 0,
            cut_short: 0,
            complete: false,
            failed: None,
        };
        loop {
            job.schedule = Some(Schedule::Replay(next.choices));
            job.asleep = next.asleep;
            job.write(&work.join(JOB))?;
            found.runs += 1;
            let stopped = run_program(&launch, Some((&stdout, &stderr)))?;
            // What a failing run printed is its report; a passing run's
            // output goes with the run.
            let failed = |outcome: RunOutcome| RunOutcome {
                output: Some(read_output(&stdout, &stderr)),
                ..outcome
            };
            if let Some(stop) = stopped {
                found.failed = Some(failed(RunOutcome {
                    stopped: Some(stop.message),
                    ..RunOutcome::new(stop.status)
                }));
                return Ok(found);
            }
            let trace = read_trace(&work.join(TRACE))?;
            if trace.asleep {
                // The run stopped where it could only repeat an explored order.
                found.cut_short += 1;
            } else {
                let values = job::read_output(&prepared.initial, &work.join(&job.output))?;
                let checks = prepared.check(&values);
                if !checks.passed() {
                    let status = checks.status();
                    found.failed = Some(failed(RunOutcome {
                        checks: Some(checks),
                        values: Some(values),
                        schedule: Some(trace.choices()),
                        ..RunOutcome::new(status)
                    }));
                    return Ok(found);
                }
            }
            explorer.record(&trace)?;
            match explorer.next_schedule() {
                Some(following) if found.runs < max => next = following,
                following => {
                    found.complete = following.is_none();
                    return Ok(found);
                }
            }
        }
    }
}
