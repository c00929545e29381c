//! Rules that depend on the target: the chip profile a module names
//! (`pld.target`, default Ascend910B), the element types its PTO ISA moves
//! and computes on (read from the C++ half, `pld_dialect::target`), and the
//! limits of the HOST builtin rail of collectives.

use super::ops::{REDUCING_COLLECTIVES, REMOTE_WRITES, TILE_TRANSFERS, table_operand};
use melior::ir::{ValueLike, operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::{pl, pld};
use pld_dialect::{
    enums::{AtomicType, ReduceOp, TargetProfile},
    target::{self, TileMath},
};
use pld_ir::analysis::place::scope_of;
use pld_ir::pass::report::Report;
use pld_ir::read as ir;

/// The note that points at the module naming the profile, if one does.
fn profile_notes<'c>(
    module: Option<OperationRef<'c, '_>>,
    profile: TargetProfile,
) -> Vec<(melior::ir::Location<'c>, String)> {
    module
        .map(|module| {
            (
                module.location(),
                format!("the module targets {} here", profile.keyword()),
            )
        })
        .into_iter()
        .collect()
}

/// The vector instruction a reduction's combine becomes.
fn combine(operator: ReduceOp) -> TileMath {
    match operator {
        ReduceOp::Sum => TileMath::Add,
        ReduceOp::Max => TileMath::Max,
        ReduceOp::Min => TileMath::Min,
        ReduceOp::Prod => TileMath::Mul,
    }
}

/// A `pl.cast` converts between element types the chip's TCVT has.
fn check_conversion(op: &OperationRef, report: &mut Report) {
    let Some(cast) = pl::CastOp::operands(op) else {
        return;
    };
    let (Some(source), Some(result)) = (
        pld_ir::types::element_type(cast.source.r#type()),
        op.result(0)
            .ok()
            .and_then(|result| pld_ir::types::element_type(result.r#type())),
    ) else {
        return;
    };
    let (profile, module) = ir::target_profile(op);
    if target::is_conversion(profile, source, result) {
        return;
    }
    report.error(
        op,
        &format!(
            "'pl.cast' from {source} to {result} cannot run on {}: its vector unit's TCVT \
             converts {}",
            profile.keyword(),
            target::conversion_names(profile)
        ),
        &profile_notes(module, profile),
    );
}

/// Element types the target's TLOAD/TSTORE move and its vector unit
/// computes on: a program pld-verify accepts must compile against PTO.
fn check_element_types(op: &OperationRef, report: &mut Report) {
    check_conversion(op, report);
    let name = ir::name(op);
    if let Some(moved) = table_operand(op, TILE_TRANSFERS)
        && let Some(element) = pld_ir::types::element_type(moved.r#type())
        && !target::is_tile_element(element)
    {
        report.error(
            op,
            &format!(
                "'{name}' moves {element} elements through the unified buffer, but the target's \
                 TLOAD and TSTORE move only {} (f64 never reaches the device)",
                target::tile_element_names()
            ),
            &[],
        );
        return;
    }
    let math = TileMath::of_op_name(name).or_else(|| {
        REDUCING_COLLECTIVES
            .contains(&name)
            .then(|| pld_ir::attributes::reduction(op).map(combine))
            .flatten()
    });
    let Some(math) = math else {
        return;
    };
    let computed = (0..op.result_count())
        .filter_map(|index| op.result(index).ok())
        .find_map(|result| pld_ir::types::element_type(result.r#type()));
    let Some(element) = computed else {
        return;
    };
    let (profile, module) = ir::target_profile(op);
    if target::is_tile_math_element(profile, math, element) {
        return;
    }
    let types = target::tile_math_element_names(profile, math);
    // The op's own instruction (TADDS for pl.adds); a collective's is its
    // combine's.
    let instruction = TileMath::of_op(name).map_or(math.instruction(), |(math, operands)| {
        math.instruction_with(operands)
    });
    let message = if REDUCING_COLLECTIVES.contains(&name) {
        format!(
            "'{name}' on {element} cannot run on {}: it combines tiles with {}, which its \
             vector unit has for {types}",
            profile.keyword(),
            instruction
        )
    } else {
        format!(
            "'{name}' on {element} tiles cannot run on {}: its vector unit's {} takes {types}",
            profile.keyword(),
            instruction
        )
    };
    report.error(op, &message, &profile_notes(module, profile));
}

/// A tile that TLOAD or TSTORE moves has fewer rows than the chip's limit
/// (its leading dimensions count as rows, as the lowering folds them). Every
/// tile comes from a load (tile math keeps its operands' type), so the
/// loads are the ones to check. A GEMM's loads are the cube's, which the
/// lowering tiles.
fn check_tile_rows(op: &OperationRef, smallest_limit: Option<i64>, report: &mut Report) {
    let Some(smallest_limit) = smallest_limit else {
        return;
    };
    let Ok(tile) = op.result(0).map(|result| result.r#type()) else {
        return;
    };
    let Some(shape) = pld_ir::types::shape(tile) else {
        return;
    };
    let rows: i64 = shape[..shape.len().saturating_sub(1)].iter().product();
    // Most tiles are within every chip's limit: only the rest look up the
    // module's chip.
    if rows <= smallest_limit {
        return;
    }
    let (profile, module) = ir::target_profile(op);
    if let Some(most) = target::max_tile_rows(profile)
        && rows > most
        && !pld_ir::analysis::place::is_cube_work(op)
    {
        report.error(
            op,
            &format!(
                "'{}' moves a tile of {rows} rows ('{tile}'), but {}'s TLOAD and TSTORE move \
                 at most {most} rows: split it into tiles of fewer rows",
                ir::name(op),
                profile.keyword()
            ),
            &profile_notes(module, profile),
        );
    }
}

/// The element types of a `pl.matmul`: one of the (accumulator, lhs, rhs)
/// triples the cube's TMATMUL has.
fn check_matmul(op: &OperationRef, report: &mut Report) {
    let Some(matmul) = pl::MatmulOp::operands(op) else {
        return;
    };
    let (Some(lhs), Some(rhs), Some(result)) = (
        pld_ir::types::element_type(matmul.lhs.r#type()),
        pld_ir::types::element_type(matmul.rhs.r#type()),
        op.result(0)
            .ok()
            .and_then(|result| pld_ir::types::element_type(result.r#type())),
    ) else {
        return;
    };
    if target::cube::matmul_accumulator(lhs, rhs) == Some(result) {
        return;
    }
    report.error(
        op,
        &format!(
            "'{}' of {lhs} x {rhs} into {result} cannot run on the cube: TMATMUL's \
             (accumulator, lhs, rhs) element types are {}",
            pl::MatmulOp::NAME,
            target::cube::matmul_element_names()
        ),
        &[],
    );
}

pub fn check(ops: &[OperationRef], default_kind: KernelKind, report: &mut Report) {
    // The strictest chip's row limit (a tile within it is within every
    // chip's), read once.
    let smallest_limit = TargetProfile::ALL
        .iter()
        .filter_map(|profile| target::max_tile_rows(*profile))
        .min();
    for op in ops {
        check_element_types(op, report);
        let name = ir::name(op);
        match name {
            pl::LoadOp::NAME | pld::TileRemoteLoadOp::NAME => {
                check_tile_rows(op, smallest_limit, report)
            }
            pl::MatmulOp::NAME => check_matmul(op, report),
            _ => {}
        }
        // Remote writes may accumulate atomically into their window.
        if let Some(target) = table_operand(op, REMOTE_WRITES) {
            let is_add = pld_ir::attributes::atomic(op) == Some(AtomicType::Add);
            if !is_add || !pld_ir::types::element_type(target.r#type()).is_some_and(ir::is_bf16) {
                continue;
            }
            let (profile, module) = ir::target_profile(op);
            if profile != TargetProfile::Ascend910B {
                // Only a module that names a profile can be pointed at; the
                // default profile allows bf16 atomics.
                report.error(
                    op,
                    &format!(
                        "bf16 atomic add needs the Ascend910B target profile, but the module \
                         targets {}",
                        profile.keyword()
                    ),
                    &profile_notes(module, profile),
                );
            }
        }
        if name == pld::TensorReduceScatterOp::NAME {
            let Some(operator) = pld_ir::attributes::reduction(op) else {
                continue;
            };
            let Some(scope) = scope_of(op, default_kind) else {
                continue;
            };
            if !scope.place.is_core() && operator != ReduceOp::Sum {
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
