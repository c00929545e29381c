//! Usage errors, and clap's complaints said in pld-run's words.

use crate::status::ExitStatus;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// A command line pld-run cannot follow; exit status 2.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    pub message: String,
}

impl UsageError {
    pub fn status(&self) -> ExitStatus {
        ExitStatus::BadInput
    }

    /// This error as a value parser hands it to clap: the sentence rides
    /// along as the error's custom context, which [`from_clap`] returns
    /// unchanged.
    pub(super) fn into_clap(self, command: &clap::Command) -> clap::Error {
        let mut error = clap::Error::new(ErrorKind::ValueValidation).with_cmd(command);
        error.insert(ContextKind::Custom, ContextValue::String(self.message));
        error
    }
}

pub(super) fn usage_error(message: impl Into<String>) -> UsageError {
    UsageError {
        message: message.into(),
    }
}

/// clap's error in pld-run's words.
pub(super) fn from_clap(error: &clap::Error) -> UsageError {
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => text.clone(),
        _ => String::new(),
    };
    if let Some(ContextValue::String(message)) = error.get(ContextKind::Custom) {
        return usage_error(message.clone());
    }
    // "--ranks <N>" or "--stats[=<FORMAT>]" -> "--ranks", "--stats"
    let flag = || {
        context(ContextKind::InvalidArg)
            .chars()
            .take_while(|c| *c == '-' || c.is_ascii_alphanumeric())
            .collect::<String>()
    };
    match error.kind() {
        // Every word that is not an option is a FILE (`line::Line::input`).
        ErrorKind::UnknownArgument => {
            let arg = context(ContextKind::InvalidArg);
            let name = arg.split('=').next().unwrap_or_default();
            usage_error(format!("unknown option `{name}` (see --help)"))
        }
        ErrorKind::MissingRequiredArgument => {
            // FILE.mlir and --ranks are required; the file is named first.
            let missing = match error.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(missing)) => missing.clone(),
                _ => Vec::new(),
            };
            if missing.iter().all(|arg| arg.starts_with("--")) {
                usage_error("--ranks N is required")
            } else {
                usage_error("missing FILE.mlir (see --help)")
            }
        }
        // clap's own checks of a value are only that there is one: every
        // value parser speaks for itself (the custom context above).
        ErrorKind::InvalidValue | ErrorKind::NoEquals => {
            usage_error(format!("{} needs a value", flag()))
        }
        ErrorKind::TooManyValues if flag() == "--help" => usage_error("--help takes no value"),
        // No option conflicts with another in clap's terms: a conflict is
        // an option given twice.
        ErrorKind::ArgumentConflict => usage_error(format!("{} is given more than once", flag())),
        _ => usage_error(
            error
                .to_string()
                .trim()
                .trim_start_matches("error: ")
                .to_owned(),
        ),
    }
}
