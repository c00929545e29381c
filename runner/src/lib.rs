//! pld-run as a library: compile a pld module once, run it on N simulated
//! ranks as often as you like, and get back what every rank computed, the
//! checks of your expectations, the counters and traces you asked for, as
//! values (docs/pld-run.md, "As a library").
//!
//! ```no_run
//! use pld_run::{CompileOptions, RunSpec, Session, Source};
//! use pld_run_core::{cli::Arg, expr::Expr};
//!
//! let session = Session::new();
//! let program = session
//!     .compile(Source::File("examples/allreduce.mlir".as_ref()), &CompileOptions::default())
//!     .expect("the example compiles");
//! let outcome = program
//!     .run(&RunSpec {
//!         ranks: 4,
//!         init: [(Arg::Name("data".into()), Expr::parse("r * 10 + i").unwrap())].into(),
//!         expect: [(Arg::Position(0), Expr::parse("sum_r(r * 10 + i)").unwrap())].into(),
//!         ..RunSpec::default()
//!     })
//!     .expect("the run starts");
//! assert!(outcome.passed());
//! ```
//!
//! | module | does |
//! |---|---|
//! | [`session`] | the MLIR context; parsing a module and finding its entry, or checking it (pld-verify alone) |
//! | [`compile`](mod@compile) | lowering to C++ and building it against the simulator |
//! | `blocks` | collectives run on one block per rank: launches of several refused |
//! | `build`, `cache`, `mpi` | the C++ build, its content-addressed cache, the MPI backend's build and launch |
//! | [`spec`] | what a run is asked to do, checked against the entry |
//! | `run`, `execute` | the job file, the program started on it, its results read back |
//! | [`explore`] | every interleaving of a serialized run |
//! | [`outcome`] | what a run gives back |
//! | [`messages`] | diagnostics and build notes as values |
//! | [`cli`] | the `pld-run` command: argv to a spec, the outcome printed |
//!
//! The rest (EXPR, `.npy`, job files, checks, statistics) is
//! `pld-run-core`, which needs no MLIR.

mod blocks;
mod build;
mod cache;
pub mod cli;
pub mod compile;
mod entry;
mod error;
mod execute;
pub mod explore;
pub mod messages;
mod mpi;
pub mod outcome;
mod program;
mod run;
pub mod session;
pub mod spec;

pub use blocks::CollectiveSite;
pub use build::{BuildError, Flavour};
pub use cache::CacheError;
pub use cli::main as cli_main;
pub use compile::{Backend, CompileOptions, DEFAULT_PIPELINE, UNVERIFIED_PIPELINE};
pub use entry::EntryError;
pub use error::Error;
pub use explore::Exploration;
pub use messages::{Diagnostic, Message, Note, Severity};
pub use outcome::{Output, RunOutcome};
pub use program::Program;
pub use session::{Parsed, Session, Source, TEXT_BUFFER};
pub use spec::{Prepared, ProgramOutput, RunSpec};
