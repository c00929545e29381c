//! Collective operands the op verifiers can judge only when they are
//! literals (semantics §3): a broadcast's root lies in [0, N), N the rank count
//! its signal is shaped for. Here the root is judged by its value however
//! it is computed: folded from constants, bounded by ranges, or passed in by
//! the module's calls (`host` calling a kernel with root 4).

use melior::ir::{Value, ValueLike, operation::OperationLike, operation::OperationRef};
use pld_dialect::ops::pld;
use pld_ir::pass::report::{Note, Report};
use pld_ir::read as ir;
use pld_ir::types;

/// Where a root value comes from, for the note.
fn origin<'c>(root: Value<'c, '_>) -> Option<Note<'c>> {
    if let Some(definition) = ir::defining_op(root) {
        return Some((
            definition.location(),
            "the root is computed here".to_owned(),
        ));
    }
    let owner = ir::argument_owner(root)?;
    let why = if ir::is_function(&owner) {
        "the root is an argument of this function, which the module's calls decide"
    } else {
        "the root is carried by this op's region"
    };
    Some((owner.location(), why.to_owned()))
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    for op in ops {
        let Some(pld::TensorBroadcastOpOperands { root, signal, .. }) =
            pld::TensorBroadcastOp::operands(op)
        else {
            continue;
        };
        let Some(ranks) = types::shape(signal.r#type())
            .and_then(|shape| shape.first().copied())
            .filter(|ranks| *ranks != types::DYNAMIC)
        else {
            continue;
        };
        // Out of range for sure: every value the root may hold is.
        let Some((min, max)) = pld_ir::analysis::facts::int_range(root) else {
            continue;
        };
        if max >= 0 && min < ranks {
            continue;
        }
        let found = if min == max {
            format!("{min}")
        } else {
            format!("a value in [{min}, {max}]")
        };
        report.error(
            op,
            // The op verifier's words for a literal root.
            &format!(
                "'pld.tensor.broadcast' op expected root in [0, N) = [0, {ranks}), found {found}"
            ),
            &origin(root).into_iter().collect::<Vec<_>>(),
        );
    }
}
