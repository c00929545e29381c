//! Why a module cannot be compiled or run. Every one is pld-run's exit
//! status 2 ([`ExitStatus::BadInput`]); a program that runs and then
//! deadlocks, traps or races is a [`crate::RunOutcome`], not an error. The
//! messages are pld-run's own, so they name its options where an option
//! was at fault (`--pipeline: ...`, `--init dat: ...`).

use crate::{blocks::CollectiveSite, build::BuildError, cache::CacheError, entry::EntryError};
use pld_run_core::{explore::ExploreError, status::ExitStatus};
use std::{io, path::PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {}", .0.display())]
    Unreadable(PathBuf),
    /// MLIR's diagnostics say why (pld-run printed them already).
    #[error("the module does not parse (see the diagnostics)")]
    Parse,
    #[error(transparent)]
    Entry(#[from] EntryError),
    /// An input, expectation or option that does not fit the entry, a file
    /// the run cannot read or write.
    #[error(transparent)]
    Input(#[from] pld_run_core::Error),
    #[error("ranks: {0} is not in 1..={max}", max = pld_run_core::cli::MAX_RANKS)]
    Ranks(usize),
    #[error("blocks: a run needs at least one block")]
    NoBlocks,
    #[error("launches: {0} is not in 1..={max}", max = pld_run_core::cli::MAX_LAUNCHES)]
    Launches(usize),
    /// Expectations or printing asked of a run that skips the values.
    #[error(
        "--timing-only skips the values, so there is nothing to check or print: run with --timing for --expect and --print"
    )]
    TimingOnly,
    /// The entry kernel runs a collective, which runs on one block per
    /// rank, and the run asks for several blocks: the first such
    /// collective ([`crate::Parsed::check_blocks`] emits an error at each,
    /// with the calls that lead to it, before it returns this).
    #[error(
        "--blocks {blocks}: {} at {} runs on {} core(s) (blocks) per rank; run with --blocks {}",
        .site.op,
        .site.location,
        .site.cores,
        .site.cores
    )]
    Blocks { blocks: u32, site: CollectiveSite },
    /// A `pl.spmd` task of a constant number of blocks above 1 runs a
    /// collective: the first such ([`crate::Parsed::build`] emits an error
    /// at each, with a note at its task, before it returns this).
    #[error(
        "{} at {} stands in a pl.spmd task of {blocks} blocks, but it runs on one core (block) per rank",
        .site.op,
        .site.location
    )]
    SpmdCollective { blocks: i64, site: CollectiveSite },
    #[error("--pipeline: {0}")]
    Pipeline(String),
    #[error(
        "the module does not lower: pld-verify or a lowering pass rejects it (see the errors \
         above; --no-verify lowers what only pld-verify rejects)"
    )]
    Lower,
    #[error("the lowered module does not print as C++ (see the errors above)")]
    Translate,
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error("--hostfile {}: {source}", path.display())]
    Hostfile { path: PathBuf, source: io::Error },
    #[error("cannot create a work directory: {0}")]
    WorkDirectory(io::Error),
    #[error("cannot write {}: {source}", path.display())]
    Capture { path: PathBuf, source: io::Error },
    #[error("cannot start {}: {source}", program.display())]
    Start { program: PathBuf, source: io::Error },
    #[error("{0}")]
    Wait(io::Error),
    #[error("explore: {0}")]
    Explore(#[from] ExploreError),
}

impl Error {
    /// The exit status pld-run reports this error with.
    pub fn status(&self) -> ExitStatus {
        ExitStatus::BadInput
    }
}
