//! A tile-level signal reused across loop iterations without a rising
//! expected value: notify/wait counters never reset, so every iteration after
//! the first passes its wait at once.

use super::signals::accesses;
use crate::verify::{ir, report::Report};
use melior::ir::{Value, operation::OperationLike, operation::OperationRef};

const LOOPS: &[&str] = &["scf.for", "scf.while"];

/// Whether `value` is defined inside `loop_op` (by an op in it, or as a block
/// argument of one of its regions).
fn defined_inside(value: Value, loop_op: &OperationRef) -> bool {
    if let Some(definition) = ir::defining_op(value) {
        return ir::is_inside(&definition, loop_op);
    }
    ir::argument_owner(value)
        .is_some_and(|owner| owner == *loop_op || ir::is_inside(&owner, loop_op))
}

/// Whether `value` changes from one iteration of `loop_op` to the next: it is
/// computed from the loop's own block arguments (induction variable, carried
/// values). Values of inner loops repeat on every iteration of this one.
fn varies_with(value: Value, loop_op: &OperationRef) -> bool {
    ir::depends_on(value, &|current| {
        ir::argument_owner(current).is_some_and(|owner| owner == *loop_op)
    })
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    for wait in accesses(ops).iter().filter(|access| access.is_wait()) {
        let Some(function) = ir::enclosing_function(&wait.op) else {
            continue;
        };
        let mut current = wait.op.parent_operation();
        while let Some(ancestor) = current {
            if ancestor == function {
                break;
            }
            if LOOPS.contains(&ir::name(&ancestor).as_str()) {
                // The signal operand and every dynamic offset, plus the expected value.
                let rising = ir::operands(&wait.op)
                    .into_iter()
                    .skip(1)
                    .any(|operand| varies_with(operand, &ancestor))
                    || defined_inside(wait.signal, &ancestor);
                if !rising {
                    report.error(
                        &wait.op,
                        &format!(
                            "{} reuses signal{} with the same expected value on every iteration \
                             of the enclosing loop; tile-level signals are monotonic counters \
                             that never reset, so every iteration after the first passes at \
                             once: use a rising expected value (an epoch derived from the loop) \
                             or a fresh cell per iteration",
                            ir::name(&wait.op).trim_start_matches("pld.system."),
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
