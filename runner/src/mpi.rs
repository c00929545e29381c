//! `--backend mpi`: how a program is built against MPI and started with
//! `mpirun` (docs/pld-run.md, "Ranks as MPI processes").
//!
//! The program is the emitted C++ with the MPI backend's harness
//! (`lowering/runtime/mpi`): one process per rank, the windows in MPI
//! shared memory. MPI's compile and link flags come from its compiler
//! wrapper, `mpicxx --showme`, so that the program is built with pld-run's
//! own clang++ (the emitted code needs it) against whatever MPI `mpirun`
//! belongs to.

use crate::{Error, build::BuildError};
use pld_run_core::{
    cli::{Mpi, MpiMode},
    status::ExitStatus,
};
use std::{
    ffi::OsString,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

/// MPI's flags, as its compiler wrapper reports them.
pub struct MpiCompiler {
    compile: Vec<String>,
    link: Vec<String>,
}

impl MpiCompiler {
    /// The flags of the `mpicxx` beside `mpirun` (`--mpirun`), else of the
    /// `mpicxx` on PATH.
    pub fn find(mpirun: Option<&Path>) -> Result<MpiCompiler, BuildError> {
        let wrapper = mpirun
            .and_then(Path::parent)
            .map(|directory| directory.join("mpicxx"))
            .filter(|wrapper| wrapper.exists())
            .unwrap_or_else(|| PathBuf::from("mpicxx"));
        let showme = |what: &str| -> Result<Vec<String>, BuildError> {
            let output = Command::new(&wrapper)
                .arg(format!("--showme:{what}"))
                .output()
                .map_err(|source| BuildError::Start {
                    program: format!(
                        "{} (Open MPI's compiler wrapper; Debian: apt-get install libopenmpi-dev)",
                        wrapper.display()
                    ),
                    source,
                })?;
            if !output.status.success() {
                return Err(BuildError::Failed {
                    what: "mpicxx --showme",
                    status: output.status,
                });
            }
            Ok(String::from_utf8_lossy(&output.stdout)
                .split_whitespace()
                .map(str::to_owned)
                .collect())
        };
        let compile = showme("compile")?;
        let mut link = Vec::new();
        for flag in showme("link")? {
            // The deprecated C++ bindings are not used (OMPI_SKIP_MPICXX).
            if flag == "-lmpi_cxx" {
                continue;
            }
            // An MPI outside the linker's default paths is found at run time too.
            if let Some(directory) = flag.strip_prefix("-L") {
                link.push(format!("-Wl,-rpath,{directory}"));
            }
            link.push(flag);
        }
        Ok(MpiCompiler { compile, link })
    }

    /// The flags that compile a file including `mpi.h`.
    pub fn compile_flags(&self) -> Vec<String> {
        let mut flags = vec!["-DOMPI_SKIP_MPICXX".to_owned()];
        flags.extend(self.compile.iter().cloned());
        flags
    }

    /// The flags that link MPI.
    pub fn link_flags(&self) -> Vec<String> {
        self.link.clone()
    }
}

/// The command that runs `program` on `job` as `ranks` processes.
pub fn launch(mpi: &Mpi, ranks: usize, program: &Path, job: &str) -> Command {
    let mut command = Command::new(
        mpi.mpirun
            .clone()
            .unwrap_or_else(|| PathBuf::from("mpirun")),
    );
    command
        .args(launch_arguments(mpi, ranks))
        .arg(program)
        .arg(job);
    // Open MPI refuses root unless told twice; containers and CI run as root.
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        command
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    command
}

/// mpirun's options before the program: quiet (a failing rank's status is
/// the run's status, without mpirun's explanation), as many processes as
/// ranks even on fewer cores, unbound (a rank has several threads), and the
/// one-sided component of the mode. Node mode takes the shared-memory one
/// (others hang or crawl on one machine); rma mode the point-to-point one,
/// which works over any transport (Open MPI 4.1.4 here: the default, rdma,
/// hangs over TCP) and serves a peer's operation inside the target's MPI
/// calls, which the harness's MPI thread makes (lowering/runtime/README.md).
pub fn launch_arguments(mpi: &Mpi, ranks: usize) -> Vec<OsString> {
    let osc = match mpi.mode {
        MpiMode::Node => "sm",
        MpiMode::Rma => "pt2pt",
    };
    let mut arguments: Vec<OsString> = [
        "-q",
        "--oversubscribe",
        "--bind-to",
        "none",
        "--mca",
        "osc",
        osc,
        "-n",
    ]
    .map(OsString::from)
    .to_vec();
    arguments.push(ranks.to_string().into());
    if let Some(hostfile) = &mpi.hostfile {
        // Absolute: mpirun runs in the run's working directory.
        arguments.push("--hostfile".into());
        arguments.push(
            std::path::absolute(hostfile)
                .unwrap_or_else(|_| hostfile.clone())
                .into_os_string(),
        );
    }
    arguments
}

/// `--hostfile`'s file is readable, before anything is built (mpirun's own
/// complaint would be hidden by `-q`).
pub fn check_hostfile(mpi: &Mpi) -> Result<(), Error> {
    match &mpi.hostfile {
        Some(hostfile) => fs::File::open(hostfile)
            .map(drop)
            .map_err(|source| Error::Hostfile {
                path: hostfile.clone(),
                source,
            }),
        None => Ok(()),
    }
}

/// What mpirun's exit status `code` means: the harness's own statuses pass
/// through; a process killed by a signal is a crash; anything else is
/// mpirun's own failure (its message is above).
pub fn failure(code: i32) -> (ExitStatus, String) {
    match code {
        2..=4 => (
            ExitStatus::from_code(code).unwrap_or(ExitStatus::Trap),
            String::new(),
        ),
        129.. => (
            ExitStatus::Trap,
            format!("a rank's process was killed by signal {}", code - 128),
        ),
        _ => (
            ExitStatus::BadInput,
            format!("mpirun failed with exit status {code} (see its messages above)"),
        ),
    }
}
