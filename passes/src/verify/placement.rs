//! The ops that exist on one side only (semantics §1: `world_size` and
//! `world_rank` are host-only, as is a GEMM fused with communication, which
//! launches tasks;
//! `rank`, `nranks`, `notify`, `wait` and `defer_wait` exist only in InCore
//! code), and the split-AIV regions the lowering cannot split. Where code runs is `pld_ir::analysis::place`.

use melior::ir::{ValueLike, operation::OperationRef};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::{pl, pld};
use pld_ir::analysis::place::{Place, scope_of};
use pld_ir::pass::report::Report;
use pld_ir::read as ir;

const HOST_ONLY: &[&str] = &[
    pld::SystemWorldSizeOp::NAME,
    pld::SystemWorldRankOp::NAME,
    pld::TensorMatmulAllreduceOp::NAME,
    pld::TensorMatmulReduceScatterOp::NAME,
    pld::TensorAllgatherMatmulOp::NAME,
];
const INCORE_ONLY: &[&str] = &[
    pld::SystemRankOp::NAME,
    pld::SystemNranksOp::NAME,
    pld::SystemNotifyOp::NAME,
    pld::SystemWaitOp::NAME,
    pld::SystemDeferWaitOp::NAME,
];

/// A `pl.split_aiv` region runs on an AI core's AIV sub-lanes, each with a
/// unified buffer of its own: not in host code, and no tile from outside
/// but a `pl.matmul` product (which leaves the cube through global memory,
/// and which the lowering loads inside the region).
fn check_split(split: &OperationRef, default_kind: KernelKind, report: &mut Report) {
    if let Some(scope) = scope_of(split, default_kind)
        && !scope.place.is_core()
    {
        report.error(
            split,
            "'pl.split_aiv' is only legal in InCore code, but it stands in host code: it \
             splits an AI core's work between its AIV sub-lanes",
            &[(scope.location, scope.why.to_owned())],
        );
        return;
    }
    for inner in pld_ir::nested_ops(*split) {
        for value in ir::operands(&inner) {
            if !pld_dialect::types::is_tile(value.r#type()) {
                continue;
            }
            let owner = ir::defining_op(value).or_else(|| ir::argument_owner(value));
            if owner.is_some_and(|owner| ir::name(owner) == pl::MatmulOp::NAME) {
                continue;
            }
            let inside = owner.is_some_and(|owner| owner == *split || ir::is_inside(&owner, split));
            if !inside {
                report.error(
                    split,
                    "a tile cannot cross into a pl.split_aiv region: each AIV sub-lane has \
                     its own unified buffer (load it inside the region)",
                    &[(value.location(), "the tile".to_owned())],
                );
                return;
            }
        }
    }
}

/// Reports every host-only op in InCore code and every InCore-only op in
/// host code (or outside any function), and the split-AIV regions the
/// lowering cannot split.
pub fn check(ops: &[OperationRef], default_kind: KernelKind, report: &mut Report) {
    for split in ops
        .iter()
        .filter(|op| ir::name(op) == pld_dialect::ops::pl::SplitAivOp::NAME)
    {
        check_split(split, default_kind, report);
    }
    for op in ops {
        let name = ir::name(op);
        let required = if HOST_ONLY.contains(&name) {
            Place::Host
        } else if INCORE_ONLY.contains(&name) {
            Place::Aiv
        } else {
            continue;
        };
        let Some(scope) = scope_of(op, default_kind) else {
            report.error(
                op,
                &format!(
                    "'{name}' stands outside any function: it is only legal in {}, and \
                     nothing would run it",
                    required.describe()
                ),
                &[],
            );
            continue;
        };
        if scope.place.is_core() != required.is_core() {
            report.error(
                op,
                &format!(
                    "'{name}' is only legal in {}, but it stands in {}",
                    required.describe(),
                    scope.place.describe()
                ),
                &[(scope.location, scope.why.to_owned())],
            );
        }
    }
}
