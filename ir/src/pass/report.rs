//! Collects what the rules find: located diagnostics with notes, and how
//! many errors and warnings they were.

use crate::OpKey;
use melior::ir::{Location, operation::OperationLike, operation::OperationRef};
use pld_dialect::diagnostics::{Severity, emit};
use std::collections::HashSet;

/// A note on a related op.
pub type Note<'c> = (Location<'c>, String);

#[derive(Default)]
pub struct Report {
    errors: u64,
    warnings: u64,
    /// The ops an error was reported at, so that a later rule does not
    /// report what an earlier one explained.
    rejected: HashSet<OpKey>,
}

impl Report {
    /// An error at `op`, with notes pointing at related ops.
    pub fn error(&mut self, op: &OperationRef, message: &str, notes: &[Note]) {
        self.rejected.insert(OpKey::of(*op));
        self.error_at(op.location(), message, notes);
    }

    /// Whether an error was reported at `op`.
    pub fn rejected(&self, op: OpKey) -> bool {
        self.rejected.contains(&op)
    }

    /// An error at a location (what a run of the program found there).
    pub fn error_at(&mut self, location: Location, message: &str, notes: &[Note]) {
        self.errors += 1;
        Self::emit(Severity::Error, location, message, notes);
    }

    /// A warning at `op`: something the pass cannot decide statically.
    pub fn warning(&mut self, op: &OperationRef, message: &str, notes: &[Note]) {
        self.warning_at(op.location(), message, notes);
    }

    pub fn warning_at(&mut self, location: Location, message: &str, notes: &[Note]) {
        self.warnings += 1;
        Self::emit(Severity::Warning, location, message, notes);
    }

    fn emit(severity: Severity, location: Location, message: &str, notes: &[Note]) {
        let notes: Vec<(Location, &str)> = notes
            .iter()
            .map(|(location, text)| (*location, text.as_str()))
            .collect();
        emit(severity, location, message, &notes);
    }

    pub fn failed(&self) -> bool {
        self.errors > 0
    }

    pub fn errors(&self) -> u64 {
        self.errors
    }

    pub fn warnings(&self) -> u64 {
        self.warnings
    }
}
