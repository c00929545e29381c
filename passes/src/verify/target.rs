//! Rules that depend on the target: the chip profile a module names
//! (`pld.target`, default Ascend910B) and the limits of the HOST builtin rail
//! of collectives.

use super::{
    ir,
    ops::{REMOTE_WRITES, table_operand},
    placement::{CodeKind, scope_of},
};
use crate::report::Report;
use melior::ir::{ValueLike, operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::{AtomicType, ReduceOp, TargetProfile};

/// The profile `op` is compiled for: the `pld.target` of its nearest
/// enclosing module that has one (with that module), else Ascend910B.
fn profile_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> (TargetProfile, Option<OperationRef<'c, 'a>>) {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if let Some(profile) = ancestor
            .discardable_attribute("pld.target")
            .ok()
            .and_then(TargetProfile::of)
        {
            return (profile, Some(ancestor));
        }
        current = ancestor.parent_operation();
    }
    (TargetProfile::Ascend910B, None)
}

pub fn check(ops: &[OperationRef], default_kind: CodeKind, report: &mut Report) {
    for op in ops {
        let name = ir::name(op);
        // Remote writes may accumulate atomically into their window.
        if let Some(target) = table_operand(op, REMOTE_WRITES) {
            let is_add = AtomicType::of_op(op, "atomic") == Some(AtomicType::Add);
            if !is_add || !ir::element_type(target.r#type()).is_some_and(ir::is_bf16) {
                continue;
            }
            let (profile, module) = profile_of(op);
            if profile != TargetProfile::Ascend910B {
                let profile = profile.keyword();
                // Only a module that names a profile can be pointed at; the
                // default profile allows bf16 atomics.
                let notes: Vec<_> = module
                    .map(|module| {
                        (
                            module.location(),
                            format!("the module targets {profile} here"),
                        )
                    })
                    .into_iter()
                    .collect();
                report.error(
                    op,
                    &format!(
                        "bf16 atomic add needs the Ascend910B target profile, but the module \
                         targets {profile}"
                    ),
                    &notes,
                );
            }
        }
        if name == "pld.tensor.reduce_scatter" {
            let Some(operator) = ReduceOp::of_op(op, "op") else {
                continue;
            };
            let Some(scope) = scope_of(op, default_kind) else {
                continue;
            };
            if scope.kind == CodeKind::Host && operator != ReduceOp::Sum {
                let operator = operator.keyword();
                report.error(
                    op,
                    &format!(
                        "reduce_scatter with op {operator} is not supported on the host rail, \
                         which lowers only sum; the InCore rail supports sum, max, min and prod \
                         (call it from an InCore kernel or a task)"
                    ),
                    &[(scope.location, scope.why.to_owned())],
                );
            }
        }
    }
}
