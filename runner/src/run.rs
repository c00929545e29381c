//! One run of a program: the job file, the program started on it, and
//! what it wrote read back into a [`RunOutcome`].

use crate::{
    Backend, Error, Prepared, Program, ProgramOutput, RunOutcome, RunSpec,
    execute::{JOB, Launch, run_program},
    outcome::Output,
    program::Workspace,
};
use pld_passes::model::Model;
use pld_run_core::{
    cli::{MpiMode, Timing},
    explore::Trace,
    job::{self, Job},
    print::format_arg,
    stats::Stats,
};
use std::{
    fs,
    path::{Path, PathBuf},
};

/// The files a captured program's stdout and stderr go to, in its work
/// directory.
pub(crate) const STDOUT: &str = "run.out";
pub(crate) const STDERR: &str = "run.err";

/// Where a serialized run writes its trace, in its work directory.
pub(crate) const TRACE: &str = "trace.txt";

impl Program {
    /// Runs the program as `spec` says, in a private temporary directory.
    pub fn run(&self, spec: &RunSpec) -> Result<RunOutcome, Error> {
        self.run_prepared(&spec.prepare(self.arguments())?)
    }

    /// Runs the program on inputs already checked against its entry.
    pub fn run_prepared(&self, prepared: &Prepared) -> Result<RunOutcome, Error> {
        self.run_in(prepared, &Workspace::temporary(self)?)
    }

    /// The job of a run of `prepared` (its input written into `workspace`).
    pub(crate) fn job(&self, prepared: &Prepared, workspace: &Workspace) -> Result<Job, Error> {
        let spec = prepared.spec;
        let blocks = i64::from(spec.blocks);
        if let Some(site) = self.collectives.iter().find(|site| site.conflicts(blocks)) {
            return Err(Error::Blocks {
                blocks: spec.blocks,
                site: site.clone(),
            });
        }
        let job = Job {
            ranks: spec.ranks,
            blocks: spec.blocks,
            entry: self.entry.kind,
            timeout_secs: spec.timeout_secs,
            launches: spec.launches,
            reset_windows: spec.reset_windows,
            race: spec.race,
            schedule: spec.schedule.clone(),
            asleep: Vec::new(),
            mpi_rma: matches!(&self.backend, Backend::Mpi(mpi) if mpi.mode == MpiMode::Rma),
            trace: spec.schedule.is_some().then(|| PathBuf::from(TRACE)),
            timing: spec.timing.as_ref().map(timing_parameters).transpose()?,
            skip_values: spec.skips_values(),
            events: spec.trace.then(|| PathBuf::from("events.json")),
            // Relative: the program runs in its work directory, so a kept
            // directory can move.
            stats: PathBuf::from("stats.json"),
            input: PathBuf::from("input.bin"),
            output: PathBuf::from("output.bin"),
            args: prepared.layouts.clone(),
        };
        job::write_inputs(&prepared.inputs(), &workspace.directory.join(&job.input))?;
        Ok(job)
    }

    /// How the program in `workspace` is started for `spec`.
    pub(crate) fn launch<'a>(&'a self, spec: &RunSpec, workspace: &'a Workspace) -> Launch<'a> {
        Launch {
            program: &workspace.program,
            work: &workspace.directory,
            backend: &self.backend,
            ranks: spec.ranks,
            timeout_secs: spec.timeout_secs,
        }
    }

    /// One run in `workspace`.
    pub(crate) fn run_in(
        &self,
        prepared: &Prepared,
        workspace: &Workspace,
    ) -> Result<RunOutcome, Error> {
        let spec = prepared.spec;
        let work = &workspace.directory;
        let job = self.job(prepared, workspace)?;
        job.write(&work.join(JOB))?;
        let (stdout, stderr) = (work.join(STDOUT), work.join(STDERR));
        let captured = (spec.output == ProgramOutput::Capture).then_some((&*stdout, &*stderr));
        let stopped = run_program(&self.launch(spec, workspace), captured)?;
        let output = captured.map(|(stdout, stderr)| read_output(stdout, stderr));
        // A trace shows most where a run went wrong: read whatever the status.
        let trace = job
            .events
            .as_ref()
            .map(|events| work.join(events))
            .filter(|events| events.exists())
            .map(|events| read_trace_text(&events))
            .transpose()?;
        if let Some(stop) = stopped {
            return Ok(RunOutcome {
                stopped: Some(stop.message),
                trace,
                output,
                ..RunOutcome::new(stop.status)
            });
        }
        let mut launches = job::read_outputs(&prepared.inputs(), &work.join(&job.output))?;
        let checks = prepared.check_launches(&launches);
        // What the last launch left is what the run gives and prints.
        let values = launches.pop().expect("at least one launch");
        let printed = prepared
            .bound
            .print
            .iter()
            .map(|arg| format_arg(&values, *arg))
            .collect();
        let stats = spec
            .stats
            .then(|| Stats::read(&work.join(&job.stats)))
            .transpose()?;
        Ok(RunOutcome {
            status: checks.status(),
            checks: Some(checks),
            // A run that skipped the values has none to give.
            values: (!spec.skips_values()).then_some(values),
            printed,
            stats,
            trace,
            schedule: job
                .trace
                .and_then(|trace| read_trace(&work.join(trace)).ok())
                .map(|trace| trace.choices()),
            output,
            stopped: None,
        })
    }
}

/// What a captured program printed (what it could not write is lost with
/// it).
pub(crate) fn read_output(stdout: &Path, stderr: &Path) -> Output {
    Output {
        stdout: fs::read_to_string(stdout).unwrap_or_default(),
        stderr: fs::read_to_string(stderr).unwrap_or_default(),
    }
}

/// A trace file's text.
fn read_trace_text(path: &Path) -> Result<String, pld_run_core::Error> {
    fs::read_to_string(path).map_err(|error| {
        pld_run_core::Error::new(format!("cannot read the trace {}: {error}", path.display()))
    })
}

/// The trace a serialized run wrote.
pub(crate) fn read_trace(path: &Path) -> Result<Trace, pld_run_core::Error> {
    Trace::parse(&read_trace_text(path)?)
        .map_err(|error| pld_run_core::Error::new(format!("{}: {error}", path.display())))
}

/// The machine model's parameters for the job file (the model with its
/// overrides), or why they are wrong.
fn timing_parameters(timing: &Timing) -> Result<Vec<String>, pld_run_core::Error> {
    let mut model = Model::named(&timing.model)
        .map_err(|error| pld_run_core::Error::new(format!("--timing: {error}")))?;
    for overrides in &timing.overrides {
        model = model
            .with_overrides(overrides)
            .map_err(|error| pld_run_core::Error::new(format!("--model: {error}")))?;
    }
    Ok(model.to_string().split(',').map(str::to_owned).collect())
}
