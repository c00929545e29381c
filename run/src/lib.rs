//! Everything `pld-run` does that needs no MLIR.
//!
//! `pld-run` lowers a pld module, compiles it against the host simulator and
//! runs it on N simulated ranks (pipeline §7). The compiling half lives
//! with the binary; this crate is the rest, one module per job:
//!
//! | module | does |
//! |---|---|
//! | [`cli`] | parses the command line into [`cli::Options`] |
//! | [`expr`] | the EXPR language of `--init` and `--expect` |
//! | [`element`] | element types: sizes, encoding values (f16/bf16 rounding included), decoding bytes |
//! | [`npy`] | NumPy `.npy` files for `--load` and `--dump` |
//! | [`args`] | the entry's arguments as pld-run sees them, ARGs bound by position or name, shapes resolved and options checked against them |
//! | [`signature`] | the entry's argument names, read from the source text |
//! | [`values`] | every rank's argument data: initial, expected, final |
//! | [`job`] | the simulator harness's job file, input and output binaries |
//! | [`check`] | `--expect` comparisons and their report |
//! | [`explore`] | serialized runs' traces and `--explore`'s choice of the next schedule |
//! | [`print`](mod@print) | `--print`'s readable arrays |
//! | [`stats`] | the harness's counters, as JSON or as a table |
//! | [`status`] | pld-run's exit statuses |
//!
//! The order of use is: [`cli::parse`]; pld-run reads the entry signature
//! into [`args::EntryArg`]s (names by [`signature::argument_names`]);
//! [`args::bind`], [`args::resolve`] and [`args::validate`];
//! [`values::Values::initial`] and [`values::Values::expected`] (so every
//! input error is reported before anything is compiled); [`job::Job`],
//! [`job::write_input`]; the harness runs; [`job::read_output`];
//! [`check::compare`], [`print::format_arg`], [`values::Values::dump`],
//! [`stats::Stats::parse`].

pub mod args;
pub mod check;
pub mod cli;
pub mod element;
pub mod explore;
pub mod expr;
pub mod job;
pub mod npy;
mod os_str;
pub mod print;
pub mod signature;
pub mod stats;
pub mod status;
pub mod timeline;
pub mod values;

/// An input or a file that pld-run cannot use: an option that does not fit
/// the entry's signature, an unreadable `.npy` file, an expression that
/// fails to evaluate, a malformed harness output. One message, reported
/// with exit status [`status::ExitStatus::BadInput`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    message: String,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The exit status pld-run reports this error with.
    pub fn status(&self) -> status::ExitStatus {
        status::ExitStatus::BadInput
    }
}
