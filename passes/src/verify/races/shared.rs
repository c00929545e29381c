//! Verdicts shared between entries of one structure (docs/pld-verify.md
//! "Cost"): a module generated from a template repeats its kernels and
//! hosts under other names, and deciding each copy again is most of the
//! rule's cost on such a module. Two entries of one class
//! (`pld_ir::analysis::structure`) launched alike run alike, so the second
//! takes the first's verdict. What the first found is worded at its own
//! ops, so a twin re-runs just the runs that found something it reports
//! as a rank count it fails on or cannot decide, each from the state it
//! started in, and words them at its own ops. A verdict with a race, a
//! mixing, a shared line or a lost wait (reported by op pair, across many
//! runs) is not shared, nor one whose replay would need the host values
//! earlier runs numbered (inputs.rs): its twins are decided in full.

use super::arguments::Binding;
use super::window_values::Assumed;
use rustc_hash::FxHashMap as HashMap;

/// Where a run starts: the entry's argument bindings, the values its
/// window reads assume, and how many runs those took.
pub type State = (Vec<Option<Binding>>, Assumed, usize);

/// An entry's class, with how it is launched and whether its hangs are
/// judged: what its verdict depends on besides its structure.
pub type Key = (usize, (usize, usize), bool);

/// What deciding one entry found, as a twin replays it.
#[derive(Clone, Default)]
pub struct Verdict {
    /// Per rank count it fails on, the run that showed it.
    pub failures: Vec<(usize, State)>,
    /// The run that left it undecided.
    pub undecided: Option<(usize, State)>,
}

impl Verdict {
    /// The states to run on `ranks` ranks.
    pub fn states(&self, ranks: usize) -> Vec<State> {
        self.failures
            .iter()
            .chain(&self.undecided)
            .filter(|(n, _)| *n == ranks)
            .map(|(_, state)| state.clone())
            .collect()
    }

    /// Whether a twin has nothing to re-run.
    pub fn is_clean(&self) -> bool {
        self.failures.is_empty() && self.undecided.is_none()
    }
}

/// The verdicts of the classes decided so far.
pub type Verdicts = HashMap<Key, Verdict>;
