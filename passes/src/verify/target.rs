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

/// The profile a module without a `pld.target` attribute targets.
pub const DEFAULT_PROFILE: &str = "Ascend910B";

/// The profile `op` is compiled for: the `pld.target` of its nearest
/// enclosing module that has one (with that module), else the default.
fn profile_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> (String, Option<OperationRef<'c, 'a>>) {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if let Ok(attribute) = ancestor.discardable_attribute("pld.target") {
            let text = attribute.to_string();
            let name = text
                .trim_start_matches("#pld.target<")
                .trim_end_matches('>');
            return (name.to_owned(), Some(ancestor));
        }
        current = ancestor.parent_operation();
    }
    (DEFAULT_PROFILE.to_owned(), None)
}

pub fn check(ops: &[OperationRef], default_kind: CodeKind, report: &mut Report) {
    for op in ops {
        let name = ir::name(op);
        // Remote writes may accumulate atomically into their window.
        if let Some(target) = table_operand(op, REMOTE_WRITES) {
            let is_add = ir::enum_keyword(op, "atomic") == Some("add");
            if !is_add || !ir::element_type(target.r#type()).is_some_and(ir::is_bf16) {
                continue;
            }
            let (profile, module) = profile_of(op);
            if profile != "Ascend910B" {
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
            let operator = ir::enum_keyword(op, "op").unwrap_or_default();
            let Some(scope) = scope_of(op, default_kind) else {
                continue;
            };
            if scope.kind == CodeKind::Host && operator != "sum" {
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
