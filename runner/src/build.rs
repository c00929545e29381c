//! Compiling a lowered module against the simulator, with every build
//! cached by content ([`crate::cache`]): the runtime (embedded in this
//! library) is written out and built into a library once per runtime and
//! flavour, and a program once per emitted file, entry and flavour. A
//! program for `--backend mpi` links the plain simulator library, a second
//! library of the MPI backend's sources (`lowering/runtime/mpi`) and MPI
//! ([`crate::mpi`]).

use crate::cache::{self, Cache, CacheError};
use crate::messages::{Message, Sink};
use crate::mpi::MpiCompiler;
use std::{
    ffi::OsString,
    fs,
    io::{Read as _, Seek as _},
    path::{Path, PathBuf},
    process::{Child, Command},
    time::{Duration, Instant},
};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/runtime_files.rs"));
}

/// How a program is built: plain, or with the simulator itself under a
/// sanitizer (`--sanitize thread|address`; pld's own race checker is a
/// run option, [`crate::RunSpec::race`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flavour {
    #[default]
    Plain,
    Thread,
    Address,
}

impl Flavour {
    fn name(self) -> &'static str {
        match self {
            Flavour::Plain => "plain",
            Flavour::Thread => "tsan",
            Flavour::Address => "asan",
        }
    }

    fn library_flags(self) -> &'static [&'static str] {
        match self {
            Flavour::Plain => &["-O2"],
            Flavour::Thread => &["-O1", "-g", "-fsanitize=thread"],
            Flavour::Address => &["-O1", "-g", "-fsanitize=address"],
        }
    }

    fn program_flags(self) -> &'static [&'static str] {
        match self {
            Flavour::Plain => &["-O1"],
            Flavour::Thread => &["-O1", "-g", "-fsanitize=thread"],
            Flavour::Address => &["-O1", "-g", "-fsanitize=address"],
        }
    }
}

/// A build that did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error("cannot start {program}: {source}")]
    Start {
        program: String,
        source: std::io::Error,
    },
    #[error("{what} failed ({status})")]
    Failed {
        what: &'static str,
        status: std::process::ExitStatus,
    },
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> BuildError {
    let what = what.into();
    move |source| BuildError::Io { what, source }
}

/// A compiled program and the cache entry that holds it.
pub struct Binary {
    pub path: PathBuf,
    /// The program's directory in the cache.
    pub entry: PathBuf,
    /// The runtime's directory in the cache (its library is linked in).
    pub runtime: PathBuf,
    /// The compiler and its arguments that build the program from
    /// [`Binary::SOURCE`] into [`Binary::OUTPUT`] in the working directory
    /// (`--keep`'s `rebuild.sh`).
    pub compile: Vec<OsString>,
}

impl Binary {
    pub const SOURCE: &'static str = "emitted.cpp";
    pub const OUTPUT: &'static str = "prog";
}

/// The compiler and the cache, and where the builds' notes go.
pub struct Toolchain<'a> {
    cxx: PathBuf,
    cache: &'a Cache,
    notes: Sink,
}

const COMMON_FLAGS: &[&str] = &["-std=c++20", "-pthread", "-w"];

impl<'a> Toolchain<'a> {
    /// `PLD_CXX` or the LLVM clang++ this library was built with.
    pub fn new(cache: &'a Cache, notes: Sink) -> Self {
        let cxx = std::env::var_os("PLD_CXX")
            .filter(|cxx| !cxx.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("PLD_DEFAULT_CXX")));
        Self { cxx, cache, notes }
    }

    /// The runtime's files, written out once per runtime.
    fn runtime(&self) -> Result<PathBuf, BuildError> {
        let parts: Vec<&[u8]> = embedded::FILES
            .iter()
            .flat_map(|(path, contents)| [path.as_bytes(), *contents])
            .collect();
        let directory = self
            .cache
            .root()
            .join(format!("runtime-{}", cache::key(&parts)));
        if directory.join("complete").exists() {
            return Ok(directory);
        }
        let staging = self.cache.staging(self.cache.root())?;
        for (path, contents) in embedded::FILES {
            cache::write_new(&staging.path().join(path), contents)?;
        }
        cache::write_new(&staging.path().join("complete"), b"")?;
        cache::publish(&staging.keep(), &directory)?;
        Ok(directory)
    }

    /// The simulator library of `flavour`.
    fn library(&self, runtime: &Path, flavour: Flavour) -> Result<PathBuf, BuildError> {
        let archive = runtime.join(format!("libpld_sim_{}.a", flavour.name()));
        self.archive(
            runtime,
            "sim",
            &archive,
            flavour.library_flags(),
            &[],
            "building the simulator library (once per runtime)",
        )
    }

    /// The MPI backend's library, for the MPI that `mpi` compiles with.
    fn mpi_library(&self, runtime: &Path, mpi: &MpiCompiler) -> Result<PathBuf, BuildError> {
        let flags = mpi.compile_flags();
        let parts: Vec<&[u8]> = flags.iter().map(|flag| flag.as_bytes()).collect();
        let archive = runtime.join(format!("libpld_mpi_{}.a", &cache::key(&parts)[..16]));
        self.archive(
            runtime,
            "mpi",
            &archive,
            Flavour::Plain.library_flags(),
            &flags,
            "building the MPI backend's library (once per runtime)",
        )
    }

    /// `archive`: every source of the runtime's `directory` but its
    /// harness, compiled as one unit with `flags` and `extra`.
    fn archive(
        &self,
        runtime: &Path,
        directory: &str,
        archive: &Path,
        flags: &[&str],
        extra: &[String],
        what: &'static str,
    ) -> Result<PathBuf, BuildError> {
        if archive.exists() {
            return Ok(archive.to_owned());
        }
        // One translation unit: the standard headers are parsed once.
        let mut unity = String::new();
        let mut sources: Vec<_> = fs::read_dir(runtime.join(directory))
            .map_err(io(format!("cannot read {}", runtime.display())))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "cpp"))
            .filter(|path| path.file_name().is_some_and(|name| name != "harness.cpp"))
            .collect();
        sources.sort();
        for source in sources {
            unity.push_str(&format!("#include \"{}\"\n", source.display()));
        }
        let staging = self.cache.staging(runtime)?;
        let unity_path = staging.path().join("unity.cpp");
        let object = staging.path().join("unity.o");
        cache::write_new(&unity_path, unity.as_bytes())?;
        let mut compile = Command::new(&self.cxx);
        compile
            .args(COMMON_FLAGS)
            .args(flags)
            .args(extra)
            .arg("-I")
            .arg(runtime.join("include"))
            .arg("-c")
            .arg(&unity_path)
            .arg("-o")
            .arg(&object);
        self.run_with_progress(compile, what)?;
        let built = staging.path().join("library.a");
        let archiver = self.cxx.with_file_name("llvm-ar");
        let mut archive_command = Command::new(if archiver.exists() {
            archiver
        } else {
            "ar".into()
        });
        archive_command.arg("rcs").arg(&built).arg(&object);
        self.run_with_progress(archive_command, "archiving a runtime library")?;
        cache::publish(&built, archive)?;
        Ok(archive.to_owned())
    }

    /// The program that runs `cpp` with `entry` (the entry wrapper's name):
    /// on the thread simulator, or with `mpi` on MPI processes.
    pub fn program(
        &self,
        cpp: &str,
        entry: &str,
        flavour: Flavour,
        mpi: Option<&MpiCompiler>,
    ) -> Result<Binary, BuildError> {
        let runtime = self.runtime()?;
        self.cache.touch(&runtime, &self.notes);
        let library = self.library(&runtime, flavour)?;
        // The MPI library first: it uses the simulator's.
        let mut libraries = Vec::new();
        let (harness, extra) = match mpi {
            None => ("sim/harness.cpp", Vec::new()),
            Some(mpi) => {
                libraries.push(self.mpi_library(&runtime, mpi)?);
                ("mpi/harness.cpp", mpi.compile_flags())
            }
        };
        libraries.push(library);
        let link = mpi.map(MpiCompiler::link_flags).unwrap_or_default();
        let mut parts = vec![
            cpp.as_bytes(),
            entry.as_bytes(),
            flavour.name().as_bytes(),
            runtime.as_os_str().as_encoded_bytes(),
            self.cxx.as_os_str().as_encoded_bytes(),
            harness.as_bytes(),
        ];
        parts.extend(extra.iter().chain(&link).map(|flag| flag.as_bytes()));
        let key = cache::key(&parts);
        let directory = self.cache.root().join(format!("program-{key}"));
        let program = directory.join(Binary::OUTPUT);
        // Relative to the directory it runs in: the staging one here, the
        // kept one for `rebuild.sh`.
        let mut compile: Vec<OsString> = vec![self.cxx.clone().into()];
        compile.extend(
            COMMON_FLAGS
                .iter()
                .chain(flavour.program_flags())
                .map(OsString::from),
        );
        // bf16 conversions need compiler-rt (Debian's libgcc lacks them).
        compile.push("--rtlib=compiler-rt".into());
        compile.push("-I".into());
        compile.push(runtime.join("include").into());
        compile.extend(extra.iter().map(OsString::from));
        compile.push(format!("-DPLD_ENTRY={entry}").into());
        compile.push(Binary::SOURCE.into());
        compile.push(runtime.join(harness).into());
        compile.extend(libraries.iter().map(OsString::from));
        compile.extend(link.iter().map(OsString::from));
        compile.push("-o".into());
        compile.push(Binary::OUTPUT.into());
        if !program.exists() {
            let staging = self.cache.staging(self.cache.root())?;
            cache::write_new(&staging.path().join(Binary::SOURCE), cpp.as_bytes())?;
            let mut command = Command::new(&compile[0]);
            command.args(&compile[1..]).current_dir(staging.path());
            self.run_with_progress(
                command,
                "compiling the emitted C++ (cached by content afterwards)",
            )?;
            cache::publish(&staging.keep(), &directory)?;
        }
        self.cache.touch(&directory, &self.notes);
        Ok(Binary {
            path: program,
            entry: directory,
            runtime,
            compile,
        })
    }

    /// Runs a build step; says what it does when it takes over a second;
    /// hands on its output when it fails.
    fn run_with_progress(
        &self,
        mut command: Command,
        what: &'static str,
    ) -> Result<(), BuildError> {
        let started = Instant::now();
        // A file, not a pipe: a compiler that writes a lot must not block on a
        // reader that is waiting for it to finish. Anonymous: nothing to clean
        // up, nothing another user can guess.
        let mut log = tempfile::tempfile().map_err(io("cannot create the build log"))?;
        let mut child: Child = command
            .stdout(log.try_clone().map_err(io("cannot create the build log"))?)
            .stderr(log.try_clone().map_err(io("cannot create the build log"))?)
            .spawn()
            .map_err(|source| BuildError::Start {
                program: command.get_program().to_string_lossy().into_owned(),
                source,
            })?;
        let mut announced = false;
        let status = loop {
            if let Some(status) = child.try_wait().map_err(io("waiting for the build"))? {
                break status;
            }
            if !announced && started.elapsed() > Duration::from_secs(1) {
                (self.notes)(Message::Note(format!("{what}...")));
                announced = true;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if announced {
            (self.notes)(Message::Note(format!(
                "done in {:.1} s",
                started.elapsed().as_secs_f64()
            )));
        }
        if status.success() {
            return Ok(());
        }
        let mut output = Vec::new();
        let _ = log.rewind().and_then(|()| log.read_to_end(&mut output));
        (self.notes)(Message::CompilerOutput(
            String::from_utf8_lossy(&output).into_owned(),
        ));
        Err(BuildError::Failed { what, status })
    }
}
