//! A tile-level signal reused across loop iterations or calls without a
//! rising expected value: notify/wait counters never reset, so every
//! iteration (or call) after the first passes its wait at once.

use super::signals::{SignalAccess, accesses};
use melior::ir::{Value, operation::OperationLike, operation::OperationRef};
use pld_dialect::ops::{func, pld, scf};
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use pld_ir::{OpKey, ValueKey};
use std::collections::{HashMap, HashSet};

const LOOPS: &[&str] = &[scf::ForOp::NAME, scf::WhileOp::NAME];

/// Whether `value` is defined inside `loop_op` (by an op in it, or as a block
/// argument of one of its regions).
fn defined_inside(value: Value, loop_op: &OperationRef) -> bool {
    if let Some(definition) = ir::defining_op(value) {
        return ir::is_inside(&definition, loop_op);
    }
    ir::argument_owner(value)
        .is_some_and(|owner| owner == *loop_op || ir::is_inside(&owner, loop_op))
}

/// The self-notifies that atomically add a negative amount, by signal: the
/// epilogues of semantics §4, which make a signal reusable with the same expected
/// values on the next iteration or call, and the self-subtractions of a
/// counted barrier (docs/pld-decompose-collectives.md, "Counted barriers"),
/// which rearm its counter before the wait on every iteration or call.
struct Restorers<'s, 'c, 'a> {
    /// With their positions in program order, ascending.
    by_signal: HashMap<ValueKey, Vec<(usize, &'s SignalAccess<'c, 'a>)>>,
    order: HashMap<OpKey, usize>,
}

impl<'s, 'c, 'a> Restorers<'s, 'c, 'a> {
    fn new(ops: &[OperationRef<'c, 'a>], signals: &'s [SignalAccess<'c, 'a>]) -> Self {
        let order: HashMap<OpKey, usize> = ops
            .iter()
            .enumerate()
            .map(|(position, op)| (ir::op_key(op), position))
            .collect();
        let mut by_signal: HashMap<ValueKey, Vec<(usize, &SignalAccess)>> = HashMap::new();
        for notify in signals.iter().filter(|access| access.is_epilogue()) {
            if let Some(position) = order.get(&ir::op_key(notify.op)) {
                by_signal
                    .entry(ir::value_key(notify.signal))
                    .or_default()
                    .push((*position, notify));
            }
        }
        for restorers in by_signal.values_mut() {
            restorers.sort_by_key(|(position, _)| *position);
        }
        Self { by_signal, order }
    }

    /// The nearest restorers of `wait`'s cells before and after it in
    /// program order; before it only for a wait for at most 0 (a counted
    /// barrier's): a counter that must fall below the threshold to hold the
    /// wait falls only by a subtraction of the same run of the scope, while
    /// one subtracted before a wait for a positive count may still hold it
    /// from the run before. A scope around the wait (a loop, its function)
    /// holds some restorer of its cells exactly when it holds one of these:
    /// the ops inside a scope follow it contiguously in pre-order, the wait
    /// among them. So two restorers per wait are looked at, not every
    /// restorer of the signal for every wait and every loop around it
    /// (quadratic in a loop of thousands of barriers with their epilogues).
    fn nearest(&self, wait: &SignalAccess) -> Vec<&'s SignalAccess<'c, 'a>> {
        let (Some(wait_at), Some(restorers)) = (
            self.order.get(&ir::op_key(wait.op)),
            self.by_signal.get(&ir::value_key(wait.signal)),
        ) else {
            return Vec::new();
        };
        let after = restorers.partition_point(|(position, _)| position <= wait_at);
        let overlapping =
            |(_, notify): &&(usize, &'s SignalAccess<'c, 'a>)| notify.may_overlap(wait);
        let rearms = pld_ir::analysis::facts::constant_int(wait.scalar)
            .is_some_and(|expected| expected <= 0);
        let before = restorers[..after]
            .iter()
            .rev()
            .find(overlapping)
            .filter(|_| rearms);
        let later = restorers[after..].iter().find(overlapping);
        before
            .into_iter()
            .chain(later)
            .map(|(_, notify)| *notify)
            .collect()
    }

    /// Whether `wait`'s counter is brought back down (after the wait) or
    /// rearmed (before it) inside `scope`, which holds the wait: then every
    /// run of the scope needs fresh notifies to pass it.
    fn restores(&self, wait: &SignalAccess, scope: &OperationRef) -> bool {
        self.nearest(wait)
            .iter()
            .any(|notify| ir::is_inside(&notify.op, scope))
    }

    /// The ops inside which a restorer brings `wait`'s counter back down or
    /// rearms it: [`Self::restores`] for every scope around the wait at
    /// once.
    fn scopes_restoring(&self, wait: &SignalAccess) -> HashSet<OpKey> {
        self.nearest(wait)
            .iter()
            .flat_map(|notify| ancestors(&notify.op))
            .collect()
    }
}

/// The keys of the proper ancestors of `op`.
fn ancestors(op: &OperationRef) -> Vec<OpKey> {
    std::iter::successors(op.parent_operation(), |parent| parent.parent_operation())
        .map(ir::op_key)
        .collect()
}

/// The ops `value` is defined inside: [`defined_inside`] for every loop at
/// once.
fn scopes_around_definition(value: Value) -> HashSet<OpKey> {
    if let Some(definition) = ir::defining_op(value) {
        return ancestors(&definition).into_iter().collect();
    }
    ir::argument_owner(value)
        .map(|owner| {
            let mut scopes: HashSet<OpKey> = ancestors(&owner).into_iter().collect();
            scopes.insert(ir::op_key(owner));
            scopes
        })
        .unwrap_or_default()
}

/// The bounds and step of an `scf.for`, when `value` is its induction
/// variable: the values the induction variable is computed from.
fn induction_bounds<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
    let owner = ir::argument_owner(value)?;
    let argument = pld_ir::read::block_argument(value)?;
    (ir::name(owner) == scf::ForOp::NAME && argument.argument_number() == 0).then(|| {
        (0..3)
            .filter_map(|index| ir::operand_at(&owner, index))
            .collect()
    })
}

/// The ops whose block arguments (induction variables, carried values) any
/// of `values` is computed from. A value changes from one iteration of a
/// loop to the next when the loop is among them; values of inner loops
/// repeat on every iteration of an outer one, unless the inner loop's
/// bounds come from the outer one (`scf.for %src = %base to %end` with
/// `%base` from the outer index visits fresh cells on every outer
/// iteration), so an induction variable also depends on its bounds.
fn argument_owners<'c: 'a, 'a>(values: Vec<Value<'c, 'a>>) -> HashSet<OpKey> {
    let mut owners = HashSet::new();
    let mut seen = HashSet::new();
    let mut work = values;
    while let Some(current) = work.pop() {
        if !seen.insert(ir::value_key(current)) {
            continue;
        }
        if let Some(owner) = ir::argument_owner(current) {
            owners.insert(ir::op_key(owner));
            work.extend(induction_bounds(current).unwrap_or_default());
        }
        if let Some(op) = ir::defining_op(current) {
            work.extend(ir::operands(&op));
        }
    }
    owners
}

/// What a value of a function is made of, for every call alike: the indices
/// of the function's arguments it is computed from, or `None` when it may
/// differ between two calls with the same arguments (it is read from memory,
/// carried by a loop, or the result of a region or a call).
///
/// Constants (however computed), the rank and the rank count are the same on
/// every call; so is a loop's induction variable, given its bounds: a
/// barrier's wait on `[%src, 0]` in a peer loop waits on the same cells on
/// every call.
fn call_inputs<'c: 'a, 'a>(
    values: Vec<Value<'c, 'a>>,
    function: &OperationRef<'c, 'a>,
) -> Option<Vec<usize>> {
    let mut arguments = Vec::new();
    let mut seen = HashSet::new();
    let mut work = values;
    while let Some(current) = work.pop() {
        if !seen.insert(ir::value_key(current)) {
            continue;
        }
        let Some(op) = ir::defining_op(current) else {
            // An argument is judged at each call, by what the call passes
            // (so no analysis runs for it here).
            if ir::argument_owner(current)? == *function {
                arguments.push(pld_ir::read::block_argument(current)?.argument_number());
            } else if let Some(bounds) = induction_bounds(current) {
                work.extend(bounds);
            } else if pld_ir::analysis::facts::constant_int(current).is_none() {
                // A carried value the analysis does not pin down.
                return None;
            }
            continue;
        };
        if pld_ir::analysis::facts::constant_int(current).is_some() {
            continue;
        }
        match ir::name(op) {
            pld::SystemRankOp::NAME | pld::SystemNranksOp::NAME => {}
            name if name.starts_with("arith.") => work.extend(ir::operands(&op)),
            _ => return None,
        }
    }
    arguments.sort_unstable();
    arguments.dedup();
    Some(arguments)
}

/// A wait of a function on one of its own signal arguments that waits on
/// the same cells for the same expected value on every call with the same
/// arguments.
struct FixedWait<'c, 'a> {
    wait: OperationRef<'c, 'a>,
    /// The index of the signal argument.
    signal: usize,
    /// The indices of the other arguments its cell and expected value are
    /// computed from.
    inputs: Vec<usize>,
}

/// The waits of `function` on its signal arguments that a second call with
/// the same signal (and the same values for the arguments they are
/// computed from) repeats, and that no epilogue restores.
fn fixed_waits_on_arguments<'c, 'a>(function: &OperationRef<'c, 'a>) -> Vec<FixedWait<'c, 'a>> {
    let ops = pld_ir::nested_ops(*function);
    let signals = accesses(&ops);
    let restorers = Restorers::new(&ops, &signals);
    signals
        .iter()
        .filter(|access| access.is_wait())
        .filter(|access| !restorers.restores(access, function))
        .filter_map(|access| {
            let owner = ir::argument_owner(access.signal)?;
            if owner != *function {
                return None;
            }
            let signal = pld_ir::read::block_argument(access.signal)?.argument_number();
            // The dynamic offsets and the expected value.
            let inputs = call_inputs(ir::operands(&access.op).split_off(1), function)?;
            Some(FixedWait {
                wait: access.op,
                signal,
                inputs,
            })
        })
        .collect()
}

/// What a call passes for one input of a wait: a known integer, or a value.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum CallInput {
    Known(i64),
    Value(ValueKey),
}

/// Calls of a kernel that waits with a fixed expected value on a signal
/// argument (on fixed cells, or on cells a loop of the kernel visits alike
/// on every call, as a barrier's peer loop does): a second call with the
/// same signal, or a call in a loop, reuses the counter unless the kernel
/// restores it with an epilogue after the wait.
fn check_calls(ops: &[OperationRef], report: &mut Report) {
    let module = match ops.first() {
        Some(op) => ir::root(*op),
        None => return,
    };
    // Functions by their symbol name.
    let functions: HashMap<String, OperationRef> = pld_ir::nested_ops(module)
        .into_iter()
        .filter(ir::is_function)
        .filter_map(|function| Some((pld_ir::read::symbol_name(&function)?, function)))
        .collect();
    let mut fixed_waits: HashMap<String, Vec<FixedWait>> = HashMap::new();
    // The first call of (callee, wait, signal, the inputs of the wait) in
    // each function.
    let mut first_calls: HashMap<(String, OpKey, Vec<CallInput>), OperationRef> = HashMap::new();
    for call in ops.iter().filter(|op| ir::name(op) == func::CallOp::NAME) {
        let Some(callee_name) = pld_ir::read::callee_name(call) else {
            continue;
        };
        let Some(callee) = functions.get(&callee_name) else {
            continue;
        };
        let waits = fixed_waits
            .entry(callee_name.clone())
            .or_insert_with(|| fixed_waits_on_arguments(callee));
        for fixed in waits.iter() {
            let Some(signal) = ir::operand_at(call, fixed.signal) else {
                continue;
            };
            let Some(inputs) = fixed
                .inputs
                .iter()
                .map(|index| ir::operand_at(call, *index))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            // Signals are values of the calling function, so the key also
            // tells calls of different functions apart; the wait's own
            // inputs (an epoch or a base cell passed in) must be the same
            // too: the same constant, or else the same value.
            let key = (
                callee_name.clone(),
                ir::op_key(fixed.wait),
                std::iter::once(CallInput::Value(ir::value_key(signal)))
                    .chain(inputs.iter().map(|input| {
                        pld_ir::analysis::facts::constant_int(*input).map_or_else(
                            || CallInput::Value(ir::value_key(*input)),
                            CallInput::Known,
                        )
                    }))
                    .collect(),
            );
            let earlier = first_calls.get(&key).copied();
            first_calls.entry(key).or_insert(*call);
            let in_loop = ir::enclosing(call, LOOPS).filter(|loop_op| {
                std::iter::once(signal)
                    .chain(inputs.iter().copied())
                    .all(|value| !defined_inside(value, loop_op))
            });
            let (reason, related) = match (earlier, in_loop) {
                (Some(earlier), _) => ("an earlier call", earlier.location()),
                (None, Some(loop_op)) => ("the enclosing loop", loop_op.location()),
                (None, None) => continue,
            };
            report.error(
                call,
                &format!(
                    "this call reuses a signal whose cell @{callee_name} waits on with a fixed \
                     expected value, as {reason} does; tile-level signals are monotonic \
                     counters that never reset, so the wait passes at once: pass a fresh \
                     signal or a rising expected value"
                ),
                &[
                    (related, format!("{reason} with the same signal")),
                    (
                        fixed.wait.location(),
                        "the wait with a fixed expected value".to_owned(),
                    ),
                ],
            );
            // One diagnostic per call, for its first reused wait.
            break;
        }
    }
}

pub fn check(ops: &[OperationRef], signals: &[SignalAccess], report: &mut Report) {
    check_calls(ops, report);
    let restorers = Restorers::new(ops, signals);
    let mut notifies: HashMap<ValueKey, Vec<&SignalAccess>> = HashMap::new();
    for notify in signals
        .iter()
        .filter(|access| access.is_notify() && !access.is_epilogue())
    {
        notifies
            .entry(ir::value_key(notify.signal))
            .or_default()
            .push(notify);
    }
    for wait in signals.iter().filter(|access| access.is_wait()) {
        let Some(function) = ir::enclosing_function(&wait.op) else {
            continue;
        };
        // Whether each loop around the wait varies its operands, holds the
        // definition of its signal or restores its counter after it: found
        // once for all the loops (on first need), since asking per loop walks
        // the nest again for every loop, quadratic in a wait hundreds of
        // loops deep.
        let mut varying: Option<HashSet<OpKey>> = None;
        let mut holding: Option<HashSet<OpKey>> = None;
        let mut restoring: Option<HashSet<OpKey>> = None;
        let mut current = wait.op.parent_operation();
        while let Some(ancestor) = current {
            if ancestor == function {
                break;
            }
            if LOOPS.contains(&ir::name(ancestor)) {
                let key = ir::op_key(ancestor);
                // The signal operand and every dynamic offset, plus the expected value.
                let rising = varying
                    .get_or_insert_with(|| {
                        argument_owners(ir::operands(&wait.op).into_iter().skip(1).collect())
                    })
                    .contains(&key)
                    || holding
                        .get_or_insert_with(|| scopes_around_definition(wait.signal))
                        .contains(&key)
                    || restoring
                        .get_or_insert_with(|| restorers.scopes_restoring(wait))
                        .contains(&key);
                if !rising && !fans_out(wait, &ancestor, &notifies) {
                    report.error(
                        &wait.op,
                        &format!(
                            "{} reuses signal{} with the same expected value on every iteration \
                             of the enclosing loop; tile-level signals are monotonic counters \
                             that never reset, so every iteration after the first passes at \
                             once: use a rising expected value (an epoch derived from the loop) \
                             or a fresh cell per iteration",
                            ir::keyword(wait.op),
                            wait.cell_text()
                        ),
                        &[(ancestor.location(), "the loop".to_owned())],
                    );
                    break;
                }
            }
            current = ancestor.parent_operation();
        }
    }
}

/// Whether the iterations of `loop_op` all wait for the same events: the
/// notifies of `wait`'s cells are in its function (a peer runs them as
/// this rank does) and none of them is in the loop, so the loop does not
/// repeat them. Then waiting for the same value on every iteration is a
/// fan-out of one event (PyPTO's deferred-completion test registers 16 or
/// 48 waiters for one notify), not a reuse. Notifies elsewhere (another
/// kernel's, a host's) may run once per iteration: then it is a reuse.
fn fans_out(
    wait: &SignalAccess,
    loop_op: &OperationRef,
    notifies: &HashMap<ValueKey, Vec<&SignalAccess>>,
) -> bool {
    let Some(notifies) = notifies.get(&ir::value_key(wait.signal)) else {
        return false;
    };
    let mut overlapping = notifies
        .iter()
        .filter(|notify| wait.may_overlap(notify))
        .peekable();
    overlapping.peek().is_some() && overlapping.all(|notify| !ir::is_inside(&notify.op, loop_op))
}
