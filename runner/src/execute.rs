//! Starting a built program on its job file (a simulator process, or
//! `mpirun` for the MPI backend) and telling its exit status apart.

use crate::{Backend, Error, mpi};
use pld_run_core::status::ExitStatus;
use std::{
    fs,
    path::Path,
    process::Command,
    time::{Duration, Instant},
};

/// The job file's name in the work directory.
pub(crate) const JOB: &str = "job.txt";

// TSan and ASan exit with these when they report, so that a report is
// told apart from the harness's own statuses.
pub(crate) const TSAN_EXIT: i32 = 66;
pub(crate) const ASAN_EXIT: i32 = 67;

/// A program that did not finish: the status it means and pld-run's words
/// for it (empty when the program's own report says it).
pub(crate) struct Stop {
    pub status: ExitStatus,
    pub message: String,
}

fn stop(status: ExitStatus, message: impl Into<String>) -> Stop {
    Stop {
        status,
        message: message.into(),
    }
}

/// A built program, where it runs and how.
pub(crate) struct Launch<'a> {
    pub program: &'a Path,
    pub work: &'a Path,
    pub backend: &'a Backend,
    pub ranks: usize,
    pub timeout_secs: u64,
}

/// The command that starts `program` on [`JOB`]: itself, or `mpirun`.
pub(crate) fn command(backend: &Backend, ranks: usize, program: &Path) -> Command {
    match backend {
        Backend::Thread => {
            let mut command = Command::new(program);
            command.arg(JOB);
            command
        }
        Backend::Mpi(settings) => mpi::launch(settings, ranks, program, JOB),
    }
}

/// Runs the program in its work directory on its [`JOB`]; `Some` stop for
/// every outcome but a finished run. With `captured`, the program's stdout
/// and stderr go to those files instead of this process's.
pub(crate) fn run_program(
    launch: &Launch,
    captured: Option<(&Path, &Path)>,
) -> Result<Option<Stop>, Error> {
    let mut command = command(launch.backend, launch.ranks, launch.program);
    command
        .current_dir(launch.work)
        .env(
            "TSAN_OPTIONS",
            format!("exitcode={TSAN_EXIT} halt_on_error=1"),
        )
        .env(
            "ASAN_OPTIONS",
            format!("exitcode={ASAN_EXIT} detect_leaks=0"),
        );
    if let Some((stdout, stderr)) = captured {
        let file = |path: &Path| {
            fs::File::create(path).map_err(|source| Error::Capture {
                path: path.to_owned(),
                source,
            })
        };
        command.stdout(file(stdout)?).stderr(file(stderr)?);
    }
    let mut child = command.spawn().map_err(|source| Error::Start {
        program: command.get_program().into(),
        source,
    })?;
    // The harness stops itself at the timeout; this is the backstop for a
    // program that cannot.
    let backstop = Duration::from_secs(launch.timeout_secs + 30);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(Error::Wait)? {
            break status;
        }
        if started.elapsed() > backstop {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Some(stop(
                ExitStatus::DeadlockOrTimeout,
                format!(
                    "timeout: the simulated program did not stop within {} s",
                    backstop.as_secs()
                ),
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stopped = match status.code() {
        Some(0) => None,
        Some(code) if matches!(launch.backend, Backend::Mpi(_)) => {
            let (status, message) = mpi::failure(code);
            Some(stop(status, message))
        }
        Some(TSAN_EXIT) | Some(ASAN_EXIT) => Some(stop(
            ExitStatus::Sanitizer,
            "the sanitizer reported a problem (above)",
        )),
        Some(code) => match ExitStatus::from_code(code) {
            Some(status) => Some(stop(status, "")),
            None => Some(stop(
                ExitStatus::Trap,
                format!("the simulated program failed with exit status {code}"),
            )),
        },
        None => Some(stop(
            ExitStatus::Trap,
            format!("the simulated program crashed ({status})"),
        )),
    };
    Ok(stopped)
}
