//! Rank counts a program does not complete on: it traps there (an access
//! outside its memory, a peer outside `0..n`) or one of its waits never
//! returns. On a count the user named (`ranks=`) the program must run, so a
//! trap is a warning and a hang an error; among the default counts, one it
//! fails on is a count it is not written for (a 2-rank handshake computes
//! its peer as `1 - rank`), said in a remark. A program that completes on
//! none of the counts is an error either way.

use super::hangs::Hang;
use super::run::{EventId, Run};
use super::{place_text, region};
use melior::ir::{Location, operation::OperationLike};
use pld_dialect::diagnostics::{Severity, emit};
use pld_ir::OpKey;
use pld_ir::pass::report::{Note, Report};
use pld_ir::read as ir;

pub struct Failure<'c> {
    ranks: usize,
    /// The op that traps or waits.
    op: OpKey,
    hang: bool,
    /// What happens, in the program's terms.
    message: String,
    location: Location<'c>,
    notes: Vec<Note<'c>>,
}

impl<'c> Failure<'c> {
    pub fn trap(ranks: usize, message: String, location: Location<'c>, op: OpKey) -> Self {
        Self {
            ranks,
            op,
            hang: false,
            message,
            location,
            notes: Vec::new(),
        }
    }

    /// The wait of `hang`, with notes at the notifies that may reach its
    /// cell (the first few).
    pub fn hang(run: &Run<'c, '_>, hang: &Hang) -> Self {
        let thread = |e: EventId| &run.threads[run.events[e].thread].label;
        let wait = run.events[hang.wait].op.expect("hangs are waits of ops");
        let notes = hang
            .notifies
            .iter()
            .filter_map(|n| {
                let notify = run.events[*n].op?;
                Some((
                    notify.location(),
                    format!("a {} on {} may come first", ir::name(notify), thread(*n)),
                ))
            })
            .take(4)
            .collect();
        Self {
            ranks: run.ranks,
            op: ir::op_key(wait),
            hang: true,
            message: format!(
                "{} on {} never returns: it waits on {} of {}, and {}{}",
                ir::name(wait),
                thread(hang.wait),
                region(&run.events[hang.wait].kind),
                place_text(run, hang.wait),
                hang.reason,
                run.bound
            ),
            location: wait.location(),
            notes,
        }
    }
}

impl Failure<'_> {
    /// `on 3 ranks it hangs: ...`.
    fn summary(&self) -> String {
        let what = if self.hang { "hangs" } else { "traps" };
        format!("on {} ranks it {what}: {}", self.ranks, self.message)
    }
}

pub fn report(
    name: &str,
    ranks: &[usize],
    given: bool,
    remarks: bool,
    failures: &[Failure],
    report: &mut Report,
) {
    let Some(first) = failures.first() else {
        return;
    };
    // An op another rule already rejected (a root outside the ranks by
    // value, a wait no notify in the module writes) is explained there.
    if failures.iter().any(|f| report.rejected(f.op)) {
        return;
    }
    if failures.len() == ranks.len() {
        let counts = ranks
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let mut notes = first.notes.clone();
        notes.extend(
            failures[1..]
                .iter()
                .map(|f| (f.location, format!("on {} ranks, {}", f.ranks, f.message))),
        );
        report.error_at(
            first.location,
            &format!(
                "@{name} completes on none of the rank counts tried ({counts}): on {} ranks, {}",
                first.ranks, first.message
            ),
            &notes,
        );
        return;
    }
    if !given {
        if remarks {
            let counts: Vec<String> = failures.iter().map(|f| f.ranks.to_string()).collect();
            let notes: Vec<(Location, String)> = failures[1..]
                .iter()
                .map(|f| (f.location, f.summary()))
                .collect();
            let notes: Vec<(Location, &str)> =
                notes.iter().map(|(l, t)| (*l, t.as_str())).collect();
            emit(
                Severity::Remark,
                first.location,
                &format!(
                    "@{name} does not complete on {} ranks (name them in ranks= if it must): {}",
                    counts.join(" or "),
                    first.summary()
                ),
                &notes,
            );
        }
        return;
    }
    for failure in failures {
        let (n, message) = (failure.ranks, &failure.message);
        if failure.hang {
            report.error_at(
                failure.location,
                &format!("on {n} ranks, {message}"),
                &failure.notes,
            );
        } else {
            report.warning_at(
                failure.location,
                &format!("@{name} traps on {n} ranks: {message}"),
                &failure.notes,
            );
        }
    }
}
