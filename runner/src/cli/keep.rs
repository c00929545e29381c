//! `--keep DIR`: the emitted C++ and a copy of the program in DIR (the
//! cache may evict its own), a script that reruns the program on the job
//! and input the run writes there, and one that rebuilds the program from
//! the (perhaps edited) C++. The rerun script quotes pld-run's own command
//! line, which is why this is the command's, not the library's.

use super::{Failure, fail};
use crate::{
    Backend, Program, RunSpec,
    build::Binary,
    execute::{self, ASAN_EXIT, JOB, TSAN_EXIT},
    mpi,
    program::Workspace,
};
use pld_run_core::status::ExitStatus;
use std::{fs, os::unix::fs::PermissionsExt, path::Path};

/// The scripts `--keep` leaves beside the program.
pub const RERUN: &str = "rerun.sh";
pub const REBUILD: &str = "rebuild.sh";

/// Fills `directory` and returns it as the run's workspace.
pub fn keep(directory: &Path, program: &Program, spec: &RunSpec) -> Result<Workspace, Failure> {
    // Absolute: the program runs inside the directory, so a relative path
    // to it would name the wrong file.
    std::path::absolute(directory)
        .and_then(|absolute| {
            write(&absolute, program, spec)?;
            Ok(Workspace::kept(&absolute))
        })
        .map_err(|error| {
            fail(
                ExitStatus::BadInput,
                format!("--keep {}: {error}", directory.display()),
            )
        })
}

fn write(directory: &Path, program: &Program, spec: &RunSpec) -> std::io::Result<()> {
    fs::create_dir_all(directory)?;
    fs::write(directory.join(Binary::SOURCE), &program.cpp)?;
    let copy = directory.join(Binary::OUTPUT);
    let _ = fs::remove_file(&copy);
    fs::copy(&program.binary.path, &copy)?;
    let compile: Vec<String> = program
        .binary
        .compile
        .iter()
        .map(|word| shell_quote(&word.to_string_lossy()))
        .collect();
    let rebuild = format!(
        "#!/bin/sh
# Rebuilds {output} from {source} here, as pld-run built it, with the
# runtime in pld-run's cache (a later pld-run rebuilds that if the cache
# evicted it).
cd \"$(dirname \"$0\")\" || exit 2
exec {}
",
        compile.join(" "),
        output = Binary::OUTPUT,
        source = Binary::SOURCE,
    );
    let path = directory.join(REBUILD);
    fs::write(&path, rebuild)?;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
    let command: Vec<String> = std::iter::once("pld-run".to_owned())
        .chain(
            std::env::args_os()
                .skip(1)
                .map(|arg| shell_quote(&arg.to_string_lossy())),
        )
        .collect();
    let script = format!(
        "#!/bin/sh
# Reruns the simulated program of
#   {}
# on the job ({JOB}) and input (input.bin) kept beside this script; it
# writes output.bin and stats.json here, prints what the simulator reports
# (a deadlock, a trap, a race) and exits as pld-run would for them (3, 4, 5).
# --expect, --print and --dump are pld-run's: the script does not check them.
cd \"$(dirname \"$0\")\" || exit 2
TSAN_OPTIONS='exitcode={TSAN_EXIT} halt_on_error=1' ASAN_OPTIONS='exitcode={ASAN_EXIT} detect_leaks=0' exec {launcher}./prog {JOB} \"$@\"
",
        command.join(" ").replace('\n', "\\n"),
        launcher = launcher(&program.backend, spec.ranks)
    );
    let path = directory.join(RERUN);
    fs::write(&path, script)?;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))
}

/// What starts the kept program in its script: nothing for the thread
/// simulator, mpirun and its options (environment included) for MPI.
fn launcher(backend: &Backend, ranks: usize) -> String {
    let Backend::Mpi(settings) = backend else {
        return String::new();
    };
    let command = execute::command(backend, ranks, Path::new(Binary::OUTPUT));
    let mut words: Vec<String> = command
        .get_envs()
        .filter_map(|(name, value)| {
            Some(format!(
                "{}={}",
                name.to_string_lossy(),
                shell_quote(&value?.to_string_lossy())
            ))
        })
        .collect();
    if !words.is_empty() {
        words.insert(0, "env".to_owned());
    }
    words.push(shell_quote(&command.get_program().to_string_lossy()));
    words.extend(
        mpi::launch_arguments(settings, ranks)
            .iter()
            .map(|argument| shell_quote(&argument.to_string_lossy())),
    );
    words.join(" ") + " "
}

/// `text` as one shell word.
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
