//! What one run of a program is asked to do ([`RunSpec`]), and the spec
//! checked against the entry's arguments with every input computed
//! ([`Prepared`]), so that every input error is found before a run (and,
//! in pld-run, before anything is compiled).

use crate::Error;
use pld_run_core::{
    args::{ArgLayout, Bound, EntryArg, Naming, bind, resolve, shapes_with_loads, validate},
    check::{Report, compare},
    cli::{Arg, DEFAULT_TIMEOUT_SECS, MAX_LAUNCHES, MAX_RANKS, Schedule, Timing},
    expr::Expr,
    values::{Expected, Values},
};
use std::{collections::BTreeMap, path::PathBuf};

/// One run: how many ranks, what goes in, what is expected, what to record.
/// Arguments are named by position or by the name the source gives them
/// ([`Arg`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    /// In 1..=[`MAX_RANKS`].
    pub ranks: usize,
    /// Blocks per kernel launch, at least 1.
    pub blocks: u32,
    /// How many times the entry runs, at least 1 (`pld-run --launches`):
    /// every rank finishes one launch before any starts the next, the
    /// windows keep their contents (or start each launch as the first did,
    /// with `reset_windows`), and everything else is set anew from `init`
    /// and `load`, where `l` is the launch.
    pub launches: usize,
    pub reset_windows: bool,
    /// Inputs as EXPRs evaluated per rank and element (`r * 10 + i`);
    /// what neither this nor `load` gives is 0.
    pub init: BTreeMap<Arg, Expr>,
    /// Inputs from `.npy` files (`{rank}` in a path is the rank).
    pub load: BTreeMap<Arg, PathBuf>,
    /// The shapes of arguments with dynamic dimensions.
    pub shape: BTreeMap<Arg, Vec<usize>>,
    /// What the final values must be, as EXPRs.
    pub expect: BTreeMap<Arg, Expr>,
    /// Tolerances that replace the element types' defaults.
    pub rtol: Option<f64>,
    pub atol: Option<f64>,
    /// Arguments whose final values [`crate::RunOutcome::printed`] shows
    /// as pld-run's `--print` does.
    pub print: Vec<Arg>,
    /// Seconds before the run is stopped as a timeout, at least 1.
    pub timeout_secs: u64,
    /// Check pld's happens-before (`--sanitize race`).
    pub race: bool,
    /// Serialize the run with these choices.
    pub schedule: Option<Schedule>,
    /// Advance a modelled clock by this machine model; without the values
    /// with [`Timing::skip_values`] (`--timing-only`: no expectations or
    /// printing then, and [`crate::RunOutcome::values`] is `None`).
    pub timing: Option<Timing>,
    /// Read the run's counters back ([`crate::RunOutcome::stats`]).
    pub stats: bool,
    /// Record what every thread did ([`crate::RunOutcome::trace`]).
    pub trace: bool,
    pub output: ProgramOutput,
}

/// Where the simulated program's own output (its reports of a deadlock,
/// a trap, a race) goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProgramOutput {
    /// Into [`crate::RunOutcome::output`].
    #[default]
    Capture,
    /// To this process's stdout and stderr, as it happens.
    Inherit,
}

impl Default for RunSpec {
    /// One rank, one block, no inputs or checks, pld-run's timeout.
    fn default() -> Self {
        RunSpec {
            ranks: 1,
            blocks: 1,
            launches: 1,
            reset_windows: false,
            init: BTreeMap::new(),
            load: BTreeMap::new(),
            shape: BTreeMap::new(),
            expect: BTreeMap::new(),
            rtol: None,
            atol: None,
            print: Vec::new(),
            timeout_secs: DEFAULT_TIMEOUT_SECS,
            race: false,
            schedule: None,
            timing: None,
            stats: false,
            trace: false,
            output: ProgramOutput::default(),
        }
    }
}

/// A spec checked against an entry, its inputs and expectations computed.
pub struct Prepared<'s> {
    pub(crate) spec: &'s RunSpec,
    pub(crate) bound: Bound,
    pub(crate) layouts: Vec<ArgLayout>,
    /// The first launch's inputs and expectations.
    pub(crate) initial: Values,
    pub(crate) expected: Expected,
    /// Those of the later launches, in order.
    pub(crate) later: Vec<(Values, Expected)>,
}

impl RunSpec {
    /// Checks the spec against the entry's `arguments` (every named
    /// argument exists, shapes fit, values fit their element types) and
    /// computes every rank's inputs and expected values.
    pub fn prepare(&self, arguments: &[EntryArg]) -> Result<Prepared<'_>, Error> {
        if !(1..=MAX_RANKS).contains(&self.ranks) {
            return Err(Error::Ranks(self.ranks));
        }
        if self.blocks == 0 {
            return Err(Error::NoBlocks);
        }
        if !(1..=MAX_LAUNCHES).contains(&self.launches) {
            return Err(Error::Launches(self.launches));
        }
        if self.skips_values() && !(self.expect.is_empty() && self.print.is_empty()) {
            return Err(Error::TimingOnly);
        }
        let bound = bind(arguments, self.naming())?;
        let layouts = resolve(arguments, &shapes_with_loads(arguments, &bound)?)?;
        validate(&layouts, &bound)?;
        let initial = Values::initial(&layouts, self.ranks, &bound.init, &bound.load)?;
        let expected = Expected::new(&layouts, self.ranks, &bound.expect)?;
        let later = (1..self.launches)
            .map(|launch| {
                Ok((
                    Values::initial_at(&layouts, self.ranks, launch, &bound.init, &bound.load)?,
                    Expected::at(&layouts, self.ranks, launch, &bound.expect)?,
                ))
            })
            .collect::<Result<_, Error>>()?;
        Ok(Prepared {
            spec: self,
            bound,
            layouts,
            initial,
            expected,
            later,
        })
    }

    /// Whether the run skips the bulk values (`--timing-only`).
    pub fn skips_values(&self) -> bool {
        self.timing
            .as_ref()
            .is_some_and(|timing| timing.skip_values)
    }

    fn naming(&self) -> Naming<'_> {
        Naming {
            init: &self.init,
            load: &self.load,
            shape: &self.shape,
            expect: &self.expect,
            print: &self.print,
        }
    }
}

impl Prepared<'_> {
    /// The expectations compared with a run's final values.
    pub(crate) fn check(&self, got: &Values) -> Report {
        self.check_with(got, &self.expected)
    }

    fn check_with(&self, got: &Values, expected: &Expected) -> Report {
        compare(
            got,
            expected,
            self.bound.expect.keys().copied(),
            self.spec.rtol,
            self.spec.atol,
        )
    }

    /// Every launch's inputs, in order.
    pub(crate) fn inputs(&self) -> Vec<&Values> {
        std::iter::once(&self.initial)
            .chain(self.later.iter().map(|(initial, _)| initial))
            .collect()
    }

    /// The expectations compared with what each launch left (`got`, one
    /// per launch): the report of the first launch that missed them, else
    /// of the last; in a run of several, it names its launch.
    pub(crate) fn check_launches(&self, got: &[Values]) -> Report {
        let expectations =
            std::iter::once(&self.expected).chain(self.later.iter().map(|(_, expected)| expected));
        let mut last = Report::default();
        for (launch, (values, expected)) in got.iter().zip(expectations).enumerate() {
            last = self.check_with(values, expected);
            if got.len() > 1 {
                last.launch = Some(launch);
            }
            if !last.passed() {
                break;
            }
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_without_the_values_has_nothing_to_check_or_print() {
        let timing_only = Some(Timing {
            model: "910b".into(),
            overrides: Vec::new(),
            skip_values: true,
        });
        let expect = RunSpec {
            timing: timing_only.clone(),
            expect: [(Arg::Position(0), Expr::parse("1").unwrap())].into(),
            ..RunSpec::default()
        };
        assert!(expect.skips_values());
        assert!(matches!(expect.prepare(&[]), Err(Error::TimingOnly)));
        let print = RunSpec {
            timing: timing_only,
            print: vec![Arg::Position(0)],
            ..RunSpec::default()
        };
        assert!(matches!(print.prepare(&[]), Err(Error::TimingOnly)));
        assert!(!RunSpec::default().skips_values());
    }
}
