//! `--schedule`: the choices of a serialized run.

use super::error::{UsageError, usage_error};

/// `--schedule`'s choice: the run is serialized and the simulator decides
/// every interleaving (docs/pld-run.md, "Schedules").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// These choices, by scheduler thread id; past their end the lowest
    /// thread id that can run.
    Replay(Vec<u32>),
    /// PCT: random thread priorities and `depth - 1` priority change points.
    Pct { seed: u64, depth: u32 },
}

/// PCT's depth when `pct:SEED` gives none.
const DEFAULT_PCT_DEPTH: u32 = 3;

impl Schedule {
    /// The words of the job file's `schedule` directive.
    pub fn directive(&self) -> String {
        match self {
            Schedule::Replay(choices) => format!("replay {}", choice_list(choices)),
            Schedule::Pct { seed, depth } => format!("pct {seed} {depth}"),
        }
        .trim_end()
        .to_owned()
    }

    /// `CHOICES` or `pct:SEED[:DEPTH]`, as `--schedule` takes them.
    pub(super) fn parse(text: &str) -> Result<Schedule, UsageError> {
        let bad = || {
            usage_error(format!(
                "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `{text}`"
            ))
        };
        let decimal = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if let Some(rest) = text.strip_prefix("pct:") {
            let mut parts = rest.split(':');
            let seed = parts
                .next()
                .filter(|t| decimal(t))
                .and_then(|t| t.parse().ok());
            let depth = match parts.next() {
                None => Some(DEFAULT_PCT_DEPTH),
                Some(t) => Some(t)
                    .filter(|t| decimal(t))
                    .and_then(|t| t.parse().ok())
                    .filter(|d| *d >= 1),
            };
            return match (seed, depth, parts.next()) {
                (Some(seed), Some(depth), None) => Ok(Schedule::Pct { seed, depth }),
                _ => Err(bad()),
            };
        }
        text.split(',')
            .map(|t| t.parse::<u32>().ok().filter(|_| decimal(t)))
            .collect::<Option<Vec<_>>>()
            .map(Schedule::Replay)
            .ok_or_else(bad)
    }
}

/// Choices as `--schedule` takes them: `0,2,1`.
pub fn choice_list(choices: &[u32]) -> String {
    choices
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}
