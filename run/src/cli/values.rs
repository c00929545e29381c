//! Each option's value read into its type, as clap value parsers.
//!
//! A check takes the option's name as the user wrote it (`--ranks`, or
//! `FILE.mlir` for the file) and the value as given, not necessarily UTF-8,
//! and says what is wrong in a sentence that names the option and what it
//! expects; [`Checked`] hands that sentence to clap unchanged.

use super::arg::Arg;
use super::choices::StatsFormat;
use super::error::{UsageError, usage_error};
use super::schedule::Schedule;
use crate::expr::Expr;
use clap::ValueEnum;
use clap::builder::TypedValueParser;
use std::ffi::OsStr;
use std::path::PathBuf;

/// A value parser made of a check (see the module's documentation).
#[derive(Clone)]
pub(super) struct Checked<T>(pub(super) fn(&str, &OsStr) -> Result<T, UsageError>);

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Checked<T> {
    type Value = T;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let name = arg.map(option_name).unwrap_or_default();
        (self.0)(&name, value).map_err(|error| error.into_clap(command))
    }
}

/// `--ranks` for an option, `FILE.mlir` for the positional file.
fn option_name(arg: &clap::Arg) -> String {
    match (arg.get_long(), arg.get_value_names()) {
        (Some(long), _) => format!("--{long}"),
        (None, Some([name, ..])) => name.to_string(),
        (None, _) => arg.get_id().to_string(),
    }
}

/// An option that names an entry argument: `ARG=VALUE`.
#[derive(Clone, Debug)]
pub(super) struct Keyed<T> {
    pub arg: Arg,
    pub value: T,
}

fn utf8<'a>(name: &str, value: &'a OsStr) -> Result<&'a str, UsageError> {
    value
        .to_str()
        .ok_or_else(|| usage_error(format!("{name}: value is not valid UTF-8")))
}

/// Any text but the empty one: `--entry`, `--pipeline`, `--timing`, `--model`.
pub(super) fn text(name: &str, value: &OsStr) -> Result<String, UsageError> {
    let text = utf8(name, value)?;
    if text.is_empty() {
        return Err(usage_error(format!("{name} needs a non-empty value")));
    }
    Ok(text.to_owned())
}

/// A path, any bytes but none.
pub(super) fn path(name: &str, value: &OsStr) -> Result<PathBuf, UsageError> {
    if value.is_empty() {
        return Err(usage_error(format!("{name} needs a non-empty path")));
    }
    Ok(PathBuf::from(value))
}

/// An unsigned decimal number in `min..=max` (no sign, no fraction).
fn number<T>(name: &str, value: &OsStr, min: T, max: T, what: &str) -> Result<T, UsageError>
where
    T: std::str::FromStr + PartialOrd + Copy,
{
    let text = utf8(name, value)?;
    text.parse::<T>()
        .ok()
        .filter(|n| *n >= min && *n <= max && text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| usage_error(format!("{name} expects {what}, got `{text}`")))
}

/// `--ranks`: 1..=[`super::MAX_RANKS`].
pub(super) fn ranks(name: &str, value: &OsStr) -> Result<usize, UsageError> {
    let what = format!("a number of ranks in 1..={}", super::MAX_RANKS);
    number(name, value, 1, super::MAX_RANKS, &what)
}

/// `--blocks`: at least 1.
pub(super) fn blocks(name: &str, value: &OsStr) -> Result<u32, UsageError> {
    number(name, value, 1, u32::MAX, "a number of blocks >= 1")
}

/// `--launches`: in 1..=[`super::MAX_LAUNCHES`].
pub(super) fn launches(name: &str, value: &OsStr) -> Result<usize, UsageError> {
    let what = format!("a number of launches in 1..={}", super::MAX_LAUNCHES);
    number(name, value, 1, super::MAX_LAUNCHES, &what)
}

/// `--timeout`: whole seconds, at least 1.
pub(super) fn seconds(name: &str, value: &OsStr) -> Result<u64, UsageError> {
    number(name, value, 1, u64::MAX, "a whole number of seconds >= 1")
}

/// `--explore=MAX`: at least 1.
pub(super) fn schedules(name: &str, value: &OsStr) -> Result<u64, UsageError> {
    let what = "a number of schedules >= 1 (as --explore=MAX)";
    number(name, value, 1, u64::MAX, what)
}

/// `--rtol`, `--atol`: finite and not negative.
pub(super) fn tolerance(name: &str, value: &OsStr) -> Result<f64, UsageError> {
    let text = utf8(name, value)?;
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| usage_error(format!("{name} expects a number >= 0, got `{text}`")))
}

/// One of a [`ValueEnum`]'s words: `--sanitize`, `--backend`, `--mpi-mode`.
pub(super) fn choice<E: ValueEnum>(name: &str, value: &OsStr) -> Result<E, UsageError> {
    let text = utf8(name, value)?;
    E::from_str(text, false).map_err(|_| {
        let words: Vec<String> = E::value_variants()
            .iter()
            .filter_map(E::to_possible_value)
            .map(|word| word.get_name().to_owned())
            .collect();
        let choices = match words.as_slice() {
            [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
            _ => words.concat(),
        };
        usage_error(format!("{name} expects {choices}, got `{text}`"))
    })
}

/// `--stats=FORMAT`, whose bare form is the table.
pub(super) fn stats_format(name: &str, value: &OsStr) -> Result<StatsFormat, UsageError> {
    let text = utf8(name, value)?;
    StatsFormat::from_str(text, false)
        .map_err(|_| usage_error(format!("{name} takes no value or =json, got `{text}`")))
}

/// `--schedule CHOICES|pct:SEED[:DEPTH]`.
pub(super) fn schedule(name: &str, value: &OsStr) -> Result<Schedule, UsageError> {
    Schedule::parse(utf8(name, value)?)
}

/// `--print ARG`.
pub(super) fn arg(name: &str, value: &OsStr) -> Result<Arg, UsageError> {
    Arg::parse(name, utf8(name, value)?)
}

/// `--init ARG=EXPR`, `--expect ARG=EXPR`.
pub(super) fn expression(name: &str, value: &OsStr) -> Result<Keyed<Expr>, UsageError> {
    let (arg, text) = assignment(name, value, "EXPR")?;
    let text = utf8(name, text)?;
    let value = Expr::parse(text)
        .map_err(|e| usage_error(format!("{name} {arg}={text}: {}", e.render(text))))?;
    Ok(Keyed { arg, value })
}

/// `--load ARG=PATH`.
pub(super) fn load(name: &str, value: &OsStr) -> Result<Keyed<PathBuf>, UsageError> {
    let (arg, file) = assignment(name, value, "PATH")?;
    let value = path(name, file)?;
    Ok(Keyed { arg, value })
}

/// `--shape ARG=D0xD1...`.
pub(super) fn shape(name: &str, value: &OsStr) -> Result<Keyed<Vec<usize>>, UsageError> {
    let (arg, text) = assignment(name, value, "D0xD1...")?;
    let text = utf8(name, text)?;
    let value = text
        .split('x')
        .map(|d| {
            d.parse::<usize>()
                .ok()
                .filter(|_| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            usage_error(format!(
                "{name} {arg}={text}: expected dimensions like 4x8 (decimal sizes joined by x)"
            ))
        })?;
    Ok(Keyed { arg, value })
}

/// Splits `ARG=VALUE` at the first `=`.
fn assignment<'a>(
    name: &str,
    value: &'a OsStr,
    what: &str,
) -> Result<(Arg, &'a OsStr), UsageError> {
    let (arg, rest) = crate::os_str::split_once(value, b'=').ok_or_else(|| {
        usage_error(format!(
            "{name} expects ARG={what}, got `{}`",
            value.to_string_lossy()
        ))
    })?;
    Ok((Arg::parse(name, utf8(name, arg)?)?, rest))
}
