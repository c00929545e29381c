//! What pld-verify knows of integer values: constants folded however they
//! are computed, and the module's value facts (ranges of rank ids, what
//! flows through regions, calls and function arguments) for one module at a
//! time ([`FactsScope`]).

use super::fold;
use crate::read::{
    argument_owner, defining_op, is_function, name, operand_at, symbol_name, value_key,
};
use crate::{
    keys::{PtrMap, ValueKey},
    nested_ops,
    read::callee_name,
};
use melior::ir::{
    Value, ValueLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::analysis::ValueFacts;
use pld_dialect::ops::{func, scf};
use std::collections::HashSet;

/// The integer `value` always holds, when it is known: folded from known
/// operands (however computed), or from the module's value facts where it
/// flows through a region, a call or a function's arguments.
pub fn constant_int(value: Value) -> Option<i64> {
    let key = value_key(value);
    if let Some(known) = SCOPE.with_borrow(|scope| scope.as_ref()?.folded.get(&key).copied()) {
        return known;
    }
    let known = match defining_op(value) {
        Some(op) if op.region_count() > 0 || name(op) == func::CallOp::NAME => {
            with_facts(|facts| facts.constant(value)).flatten()
        }
        Some(op) => fold::fold(&op, constant_int),
        None if is_decided_by_callers(value) => with_facts(|facts| facts.constant(value)).flatten(),
        None => None,
    };
    SCOPE.with_borrow_mut(|scope| {
        if let Some(scope) = scope {
            scope.folded.insert(key, known);
        }
    });
    known
}

/// Whether the value facts may know block argument `value`: an iteration
/// argument or region argument, or an argument of a function the module
/// calls (its callers decide it). Not a loop's induction variable (never one
/// constant) nor an entry point's argument (anything).
fn is_decided_by_callers(value: Value) -> bool {
    let Some(owner) = argument_owner(value) else {
        return false;
    };
    // SAFETY: `value` is a block argument (it has an owner op).
    let index = unsafe { mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) };
    if name(owner) == scf::ForOp::NAME {
        return index != 0;
    }
    if !is_function(&owner) {
        return true;
    }
    symbol_name(&owner).is_some_and(|name| {
        SCOPE.with_borrow(|scope| {
            scope
                .as_ref()
                .is_some_and(|scope| scope.called.contains(&name))
        })
    })
}

/// The signed bounds of an integer or index value, when known (rank ids and
/// counts always are: semantics §1).
pub fn int_range(value: Value) -> Option<(i64, i64)> {
    constant_int(value)
        .map(|known| (known, known))
        .or_else(|| with_facts(|facts| facts.range(value)).flatten())
}

/// The module pld-verify is checking, while it runs (see [`FactsScope`]):
/// its value facts (made on first need: most modules decide every rule
/// without them) and what has been folded.
struct Scope {
    module: melior::ir::operation::OperationRef<'static, 'static>,
    facts: std::cell::OnceCell<Option<ValueFacts<'static>>>,
    folded: PtrMap<ValueKey, Option<i64>>,
    /// The functions the module calls, by name.
    called: HashSet<String>,
}

thread_local! {
    static SCOPE: std::cell::RefCell<Option<Scope>> = const { std::cell::RefCell::new(None) };
}

/// Makes `module` the one `constant_int` and `int_range` judge values in,
/// on this thread, until dropped.
pub struct FactsScope<'m> {
    module: std::marker::PhantomData<&'m ()>,
}

impl<'m> FactsScope<'m> {
    /// # Safety
    ///
    /// The guard must be dropped (not leaked, e.g. by `mem::forget`) before
    /// `module` is destroyed: until then the thread keeps a handle to it.
    pub unsafe fn enter(module: OperationRef<'_, 'm>) -> Self {
        let called = nested_ops(module)
            .iter()
            .filter(|op| name(*op) == func::CallOp::NAME)
            .filter_map(callee_name)
            .collect();
        // SAFETY: the module outlives the scope (`'m`), and the scope is
        // cleared when this guard drops, which the caller guarantees happens
        // before the module can go.
        let module = unsafe { OperationRef::from_raw(module.to_raw()) };
        SCOPE.with_borrow_mut(|scope| {
            debug_assert!(scope.is_none(), "one pld-verify run at a time per thread");
            *scope = Some(Scope {
                module,
                facts: std::cell::OnceCell::new(),
                folded: Default::default(),
                called,
            });
        });
        Self {
            module: std::marker::PhantomData,
        }
    }
}

impl Drop for FactsScope<'_> {
    fn drop(&mut self) {
        SCOPE.with_borrow_mut(|scope| *scope = None);
    }
}

fn with_facts<R>(query: impl FnOnce(&ValueFacts) -> R) -> Option<R> {
    SCOPE.with_borrow(|scope| {
        let scope = scope.as_ref()?;
        let facts = scope
            .facts
            .get_or_init(|| ValueFacts::of(&scope.module))
            .as_ref()?;
        Some(query(facts))
    })
}

/// The static trip count of an `scf.for`, when its bounds and step are constants.
pub fn constant_trip_count(for_op: &OperationRef) -> Option<i64> {
    let lower = constant_int(operand_at(for_op, 0)?)?;
    let upper = constant_int(operand_at(for_op, 1)?)?;
    let step = constant_int(operand_at(for_op, 2)?)?;
    trips(lower, upper, step)
}

/// How often a loop from `lower` to `upper` by `step` runs.
fn trips(lower: i64, upper: i64, step: i64) -> Option<i64> {
    let span = upper.saturating_sub(lower).max(0);
    (step > 0).then(|| span / step + i64::from(span % step != 0))
}

/// The most times an `scf.for` can run, from the ranges of its bounds (a
/// loop to `nranks` runs at most 64 times) and a constant step; `None` when
/// a bound or the step is unknown.
pub fn trip_count_bound(for_op: &OperationRef) -> Option<i64> {
    let (lower, _) = int_range(operand_at(for_op, 0)?)?;
    let (_, upper) = int_range(operand_at(for_op, 1)?)?;
    let step = constant_int(operand_at(for_op, 2)?)?;
    trips(lower, upper, step)
}
