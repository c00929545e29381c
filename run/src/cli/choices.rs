//! The options that choose one of a few words: `--stats`, `--sanitize`,
//! `--backend`, `--mpi-mode`. Their words are the variants' names in
//! kebab case (clap's [`ValueEnum`]); `values::choice` reads them.

use clap::ValueEnum;

/// How `--stats` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// `--stats`: an aligned table with totals.
    Table,
    /// `--stats=json`.
    Json,
}

/// `--sanitize`'s choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sanitizer {
    /// pld's own happens-before, checked by the simulator.
    Race,
    Thread,
    Address,
}

impl Sanitizer {
    /// The name `--sanitize` takes.
    pub fn name(self) -> &'static str {
        match self {
            Sanitizer::Race => "race",
            Sanitizer::Thread => "thread",
            Sanitizer::Address => "address",
        }
    }
}

/// `--backend`'s choice: how ranks are hosted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// Every rank a thread of one simulator process.
    #[default]
    Thread,
    /// Every rank an MPI process (`mpirun`), its windows held as
    /// [`MpiMode`] says.
    Mpi,
}

/// `--mpi-mode`'s choice: how the MPI processes hold the windows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MpiMode {
    /// Every rank's window mapped into every process (MPI shared memory).
    #[default]
    Node,
    /// Each process its own rank's window; the others through MPI one-sided
    /// operations.
    Rma,
}
