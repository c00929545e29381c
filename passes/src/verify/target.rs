//! Rules that depend on the target: the chip profile a module names
//! (`pld.target`, default Ascend910B) and the limits of the HOST builtin rail
//! of collectives.

use super::{
    ir,
    placement::{CodeKind, scope_of},
    report::Report,
};
use melior::ir::{ValueLike, operation::OperationLike, operation::OperationRef};

/// The profile a module without a `pld.target` attribute targets.
pub const DEFAULT_PROFILE: &str = "Ascend910B";

/// Ops that can atomically add into a window, with the index of the operand
/// whose element type is accumulated into.
const ATOMIC_WRITERS: &[(&str, usize)] = &[
    ("pld.tensor.put", 0),
    ("pld.tile.remote_store", 1),
    ("pld.tensor.remote_store", 1),
];

/// The module's profile name, and whether the module set it.
fn profile(module: &OperationRef) -> (String, bool) {
    match module.discardable_attribute("pld.target") {
        Ok(attribute) => {
            let text = attribute.to_string();
            let name = text
                .trim_start_matches("#pld.target<")
                .trim_end_matches('>')
                .to_owned();
            (name, true)
        }
        Err(_) => (DEFAULT_PROFILE.to_owned(), false),
    }
}

pub fn check(
    root: &OperationRef,
    ops: &[OperationRef],
    default_kind: CodeKind,
    report: &mut Report,
) {
    let module = ir::root(*root);
    let (profile, explicit) = profile(&module);
    for op in ops {
        let name = ir::name(op);
        if let Some((_, target_index)) = ATOMIC_WRITERS.iter().find(|(writer, _)| *writer == name) {
            let is_add = ir::enum_keyword(op, "atomic").as_deref() == Some("add");
            let Some(target) = ir::operand(op, *target_index) else {
                continue;
            };
            if is_add && ir::is_bf16(ir::element_type(target.r#type())) && profile != "Ascend910B" {
                let note = if explicit {
                    format!("the module targets {profile} here")
                } else {
                    format!("the module targets {profile}")
                };
                report.error(
                    op,
                    &format!(
                        "bf16 atomic add needs the Ascend910B target profile, but the module \
                         targets {profile}"
                    ),
                    &[(module.location(), note)],
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
