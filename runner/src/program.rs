//! A compiled program: built once, run any number of times
//! ([`Program::run`], [`Program::explore`]), each run in a work directory
//! of its own.

use crate::{Backend, CollectiveSite, Error, build::Binary, cache::Cache, entry::EntryFunction};
use pld_run_core::args::EntryArg;
use std::path::{Path, PathBuf};

/// A module lowered, printed as C++ and built against the simulator.
pub struct Program {
    pub(crate) cpp: String,
    pub(crate) binary: Binary,
    pub(crate) entry: EntryFunction,
    /// A collective the entry kernel runs on every block, which refuses a
    /// run on several ([`crate::Parsed::check_blocks`]).
    /// The collectives the entry kernel runs on every block it is
    /// launched with (none for a host entry).
    pub(crate) collectives: Vec<CollectiveSite>,
    pub(crate) backend: Backend,
    /// Holds the build when the environment names no cache (a temporary
    /// one goes with the program).
    pub(crate) _cache: Cache,
}

impl Program {
    /// The entry's arguments, as a [`crate::RunSpec`] names them.
    pub fn arguments(&self) -> &[EntryArg] {
        &self.entry.args
    }

    /// The emitted C++.
    pub fn cpp(&self) -> &str {
        &self.cpp
    }
}

/// Where a run's files are (its job, input, output, counters, trace) and
/// which copy of the program it runs.
pub(crate) struct Workspace {
    pub directory: PathBuf,
    pub program: PathBuf,
    /// A private directory removed with the run.
    _temporary: Option<tempfile::TempDir>,
}

impl Workspace {
    /// A private temporary directory, running the program in the cache.
    pub fn temporary(program: &Program) -> Result<Workspace, Error> {
        let temporary = tempfile::Builder::new()
            .prefix("pld-run-")
            .tempdir()
            .map_err(Error::WorkDirectory)?;
        Ok(Workspace {
            directory: temporary.path().to_owned(),
            program: program.binary.path.clone(),
            _temporary: Some(temporary),
        })
    }

    /// `directory` (absolute), which holds a copy of the program
    /// (`--keep`).
    pub fn kept(directory: &Path) -> Workspace {
        Workspace {
            directory: directory.to_owned(),
            program: directory.join(Binary::OUTPUT),
            _temporary: None,
        }
    }
}
