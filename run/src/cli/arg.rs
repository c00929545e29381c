//! ARG: how the command line names an entry argument.

use super::error::{UsageError, usage_error};
use std::fmt;

/// An entry argument as the command line names it: by its 0-based
/// position, or by its SSA name as the source writes it (`data` or
/// `%data`), which pld-run reads from the entry's signature.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arg {
    Position(usize),
    /// Without the `%`.
    Name(String),
}

impl Arg {
    /// The `ARG` of `ARG=...`, or of `--print ARG`, given to option `name`:
    /// a position or a name.
    pub(super) fn parse(name: &str, text: &str) -> Result<Arg, UsageError> {
        if !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit())
            && let Ok(position) = text.parse()
        {
            return Ok(Arg::Position(position));
        }
        let bare = text.strip_prefix('%').unwrap_or(text);
        if is_ssa_name(bare) {
            return Ok(Arg::Name(bare.to_owned()));
        }
        Err(usage_error(format!(
            "{name}: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `{text}`"
        )))
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Position(position) => write!(f, "{position}"),
            Arg::Name(name) => f.write_str(name),
        }
    }
}

/// Whether `text` is an SSA name MLIR accepts after `%` (digits alone are
/// a position).
pub fn is_ssa_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || "_$.-".contains(c))
        && chars.all(|c| c.is_ascii_alphanumeric() || "_$.-".contains(c))
}
