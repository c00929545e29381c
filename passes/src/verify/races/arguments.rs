//! Values for an entry's integer arguments, which the host computes per
//! rank (PyPTO's host loop passes each rank its peer and `my_rank`; the
//! seed's `handshake_step(out, signal, peer, tag)` takes a peer and a tag).
//! A run that needs one asks for it (`Stop::Argument`) with what the value
//! decides there, and the rule runs the program once per candidate the host
//! would pass for that role:
//!
//! - a peer: another rank, as a host loop computes it: `(r + k) mod n` for
//!   `k` in `1..n`, and the pairings `r xor k` that stay in `0..n`; then the
//!   rank itself (a `my_rank` first used as a peer);
//! - a broadcast's root: the same rank on every rank, each of `0..n`;
//! - a signal's value or expected value (an epoch, a tag): 1 on every rank
//!   (protocols compare an epoch with itself);
//! - a loop's upper bound (a number of steps, the rank count a host passes):
//!   the same on every rank, `n`, 1 and 2 (one step, and a second that
//!   reuses what the first used);
//! - anything else (a row, a branch): the rank itself (`my_rank`) or a
//!   constant of `0..n`;
//! - a dynamic dimension of an entry's tensor or memref (inputs.rs): the
//!   same on every rank, `n` and `2n + 1` (a multiple of the rank count and
//!   one that is not, each at least a row per rank).
//!
//! The first role that needs an argument decides its candidates. A program
//! races when a run under some assignment that completes (no trap, no wait
//! that never returns) races: an assignment that hangs or traps is not one
//! a host means.

use melior::ir::operation::OperationRef;
use pld_dialect::ops::pld;
use pld_ir::read as ir;
use rustc_hash::FxHashSet as HashSet;
use std::cell::RefCell;

/// The most runs one rank count may take over all assignments.
pub const MAX_ASSIGNMENTS: usize = 64;

/// What an argument's value decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A remote access's or a notify's peer.
    Peer,
    /// A broadcast's root.
    Root,
    /// A signal's value or expected value.
    Value,
    /// The upper bound of a loop.
    Bound,
    /// Anything else an integer decides: an index, a branch.
    Index,
    /// A dynamic dimension of an entry's tensor or memref.
    Extent,
}

/// One argument's value on each rank; for the elements one read of an
/// array reads (inputs.rs), possibly a value per element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    values: Vec<i64>,
    /// Element `i` (its row-major position in the array) holds `i mod m`
    /// on every rank, a spread of the values over `0..m`.
    spread: Option<i64>,
}

impl Binding {
    /// `values[r]` on rank `r`.
    pub fn new(values: Vec<i64>) -> Self {
        Self {
            values,
            spread: None,
        }
    }

    /// Element `i` holds `i mod modulus` on every one of `ranks` ranks.
    pub fn spread(modulus: i64, ranks: usize) -> Self {
        Self {
            values: vec![0; ranks],
            spread: Some(modulus),
        }
    }

    pub fn at(&self, rank: usize) -> i64 {
        self.values[rank]
    }

    /// The value of the element at row-major `position` on `rank`.
    pub fn at_element(&self, rank: usize, position: i64) -> i64 {
        match self.spread {
            Some(modulus) => position.rem_euclid(modulus),
            None => self.values[rank],
        }
    }

    /// `1 on every rank`, `1, 0 on ranks 0, 1`, `its position mod 8 on
    /// every rank`.
    pub fn text(&self) -> String {
        if let Some(modulus) = self.spread {
            return format!("its position mod {modulus} on every rank");
        }
        if self.values.windows(2).all(|pair| pair[0] == pair[1]) {
            return format!("{} on every rank", self.values[0]);
        }
        let values: Vec<String> = self.values.iter().map(i64::to_string).collect();
        let ranks: Vec<String> = (0..self.values.len()).map(|r| r.to_string()).collect();
        format!("{} on ranks {}", values.join(", "), ranks.join(", "))
    }
}

/// The positions of `entry`'s arguments that a notify's value or a wait's
/// expected value is computed from (an epoch, a tag). Such an argument takes a value's candidates whatever its
/// first use: an epoch allreduce picks its workspace row by the epoch's
/// parity before it notifies the epoch, and an epoch of 0, a row's
/// candidate, is one no host passes.
pub fn signal_values(entry: &OperationRef) -> HashSet<usize> {
    let found = RefCell::new(HashSet::default());
    let record = |value: melior::ir::Value| {
        let owned_by_entry = ir::argument_owner(value).is_some_and(|owner| owner == *entry);
        if let (true, Some(argument)) = (owned_by_entry, pld_ir::read::block_argument(value)) {
            found.borrow_mut().insert(argument.argument_number());
        }
        // Keep walking: every argument the value is computed from counts.
        false
    };
    for op in &pld_ir::nested_ops(*entry) {
        let scalar = pld::SystemNotifyOp::operands(op)
            .map(|notify| notify.value)
            .or_else(|| pld::SystemWaitOp::operands(op).map(|wait| wait.expected))
            .or_else(|| pld::SystemDeferWaitOp::operands(op).map(|wait| wait.expected));
        if let Some(scalar) = scalar {
            ir::depends_on(scalar, &record);
        }
    }
    found.into_inner()
}

/// The candidates for an argument of `role` on `ranks` ranks.
pub fn candidates(role: Role, ranks: usize) -> Vec<Binding> {
    let n = ranks as i64;
    let mut out: Vec<Binding> = Vec::new();
    let mut add = |values: Vec<i64>| {
        let binding = Binding::new(values);
        if !out.contains(&binding) {
            out.push(binding);
        }
    };
    match role {
        Role::Peer => {
            for k in 1..n {
                add((0..n).map(|r| (r + k) % n).collect());
            }
            for k in 1..n {
                let pairs: Vec<i64> = (0..n).map(|r| r ^ k).collect();
                if pairs.iter().all(|v| *v < n) {
                    add(pairs);
                }
            }
            // Last, the rank itself: a `my_rank` argument whose first use
            // is a notify's peer (PyPTO's credit reset notifies itself).
            add((0..n).collect());
        }
        Role::Root => (0..n).for_each(|c| add(vec![c; ranks])),
        Role::Value => add(vec![1; ranks]),
        Role::Bound => [n, 1, 2].into_iter().for_each(|c| add(vec![c; ranks])),
        Role::Index => {
            add((0..n).collect());
            (0..n).for_each(|c| add(vec![c; ranks]));
        }
        Role::Extent => {
            add(vec![n; ranks]);
            add(vec![2 * n + 1; ranks]);
        }
    }
    out
}

/// The candidates for the elements one read of an array reads, as an
/// index (a route, a bucket, a row): 0 everywhere, the one value every
/// index allows; then spread over `0..m` by their position, for `m` from
/// `n` to `32n`, as data that lands in many places does (one value
/// everywhere piles everything into one place).
pub fn spreads(ranks: usize) -> Vec<Binding> {
    std::iter::once(Binding::new(vec![0; ranks]))
        .chain((0..=5).map(|j| Binding::spread((ranks as i64) << j, ranks)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Binding, Role, candidates};

    #[test]
    fn peers_are_other_ranks_as_host_loops_compute_them_then_the_rank_itself() {
        assert_eq!(
            candidates(Role::Peer, 2,),
            vec![Binding::new(vec![1, 0]), Binding::new(vec![0, 1])]
        );
        assert_eq!(
            candidates(Role::Peer, 3),
            vec![
                Binding::new(vec![1, 2, 0]),
                Binding::new(vec![2, 0, 1]),
                Binding::new(vec![0, 1, 2])
            ]
        );
        // Shifts by 1, 2, 3 and the pairings xor 1 and xor 3 (xor 2 is the
        // shift by 2), then the identity, last.
        let four = candidates(Role::Peer, 4);
        assert_eq!(four.len(), 6);
        assert!(four.contains(&Binding::new(vec![1, 0, 3, 2])));
        let (identity, others) = four.split_last().unwrap();
        assert!(others.iter().all(|b| (0..4).all(|r| b.at(r) != r as i64)));
        assert_eq!(identity, &Binding::new(vec![0, 1, 2, 3]));
    }

    #[test]
    fn arrays_take_zero_then_spreads_over_n_to_32n() {
        let spreads = super::spreads(2);
        assert_eq!(spreads[0], Binding::new(vec![0, 0]));
        assert_eq!(spreads.len(), 7);
        assert_eq!(spreads[1].at_element(1, 5), 1);
        assert_eq!(spreads[6].at_element(0, 70), 70 % 64);
        assert_eq!(spreads[6].text(), "its position mod 64 on every rank");
    }

    #[test]
    fn roots_values_and_indices() {
        assert_eq!(
            candidates(Role::Root, 2),
            vec![Binding::new(vec![0, 0]), Binding::new(vec![1, 1])]
        );
        assert_eq!(
            candidates(Role::Value, 3),
            vec![Binding::new(vec![1, 1, 1])]
        );
        assert_eq!(
            candidates(Role::Bound, 2),
            vec![Binding::new(vec![2, 2]), Binding::new(vec![1, 1])]
        );
        assert_eq!(candidates(Role::Bound, 4).len(), 3);
        assert_eq!(
            candidates(Role::Extent, 2),
            vec![Binding::new(vec![2, 2]), Binding::new(vec![5, 5])]
        );
        assert_eq!(
            candidates(Role::Index, 2),
            vec![
                Binding::new(vec![0, 1]),
                Binding::new(vec![0, 0]),
                Binding::new(vec![1, 1])
            ]
        );
        assert_eq!(Binding::new(vec![1, 1]).text(), "1 on every rank");
        assert_eq!(Binding::new(vec![1, 0]).text(), "1, 0 on ranks 0, 1");
    }
}
