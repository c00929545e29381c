//! A notify that fires twice, or an atomic add made twice (a remote store
//! or put that adds; in a region, sharded by the place it adds into):
//! outside a vector-only region in a mixed kernel,
//! one with cube and vector work (its vector half runs on both vector cores
//! of the block; a kernel whose tile work is all cube work runs on the cube
//! alone, so its notify fires once), outside the regions of a kernel that
//! has `pl.split_aiv` regions (it is launched on both AIV sub-lanes of each
//! block, and each runs the whole kernel: docs/lowering.md, "Split AIV
//! regions"); or a notify inside a
//! `pl.split_aiv mode none` region (both AIV sub-lanes) without sharding by
//! `pl.get_aiv_id` (the cell or the peer depends on the lane id) or a
//! one-lane guard (an `scf.if` whose condition does).

use super::signals::notify_peer;
use crate::verify::declarations::Declarations;
use crate::verify::ops::index_list_operands;
use melior::ir::{operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::SplitMode;
use pld_dialect::interfaces::{self, AccessKind};
use pld_dialect::ops::pld;
use pld_dialect::ops::{pl, scf};
use pld_ir::OpKey;
use pld_ir::analysis::place::{kernel_of, mixed_work};
use pld_ir::pass::report::{Note, Report};
use pld_ir::read as ir;
use std::collections::HashMap;

/// Whether some `scf.if` between `op` and `region` branches on the lane id.
fn guarded_by_lane(op: &OperationRef, region: &OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if ancestor == *region {
            return false;
        }
        if scf::IfOp::operands(&ancestor)
            .is_some_and(|branch| ir::depends_on_op(branch.condition, pl::GetAivIdOp::NAME))
        {
            return true;
        }
        current = ancestor.parent_operation();
    }
    false
}

/// Whether each sub-lane's copy of `notify` writes a different cell: the
/// cell (the notify's dynamic offsets) or the peer depends on the lane id
/// (and is not one known value however computed).
/// The value written does not count: two lanes writing different values
/// into one cell still fire twice (an AtomicAdd adds both, a Set keeps the
/// later one).
fn sharded_by_lane(notify: &OperationRef) -> bool {
    let cell = index_list_operands(notify, "static_offsets").unwrap_or_default();
    cell.into_iter()
        .chain(notify_peer(notify))
        .any(depends_on_lane)
}

/// Whether `operand` takes a value of its own on each sub-lane: it is
/// computed from the lane id and does not fold to one value (`lane * 0`).
fn depends_on_lane(operand: melior::ir::Value) -> bool {
    ir::depends_on_op(operand, pl::GetAivIdOp::NAME)
        && pld_ir::analysis::facts::constant_int(operand).is_none()
}

/// The first `pl.split_aiv` region of `kernel`, if it has one.
fn first_split_region<'c, 'a>(kernel: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    pld_ir::nested_ops(*kernel)
        .into_iter()
        .find(|op| ir::name(op) == pl::SplitAivOp::NAME)
}

/// Why the vector code of `kernel` outside its split regions runs on both
/// AIV sub-lanes of a block, with notes at what shows it; `None` when it
/// runs on one.
struct TwoLanes<'c, 'a> {
    mixed: HashMap<OpKey, Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)>>,
    split: HashMap<OpKey, Option<OperationRef<'c, 'a>>>,
}

impl<'c, 'a> TwoLanes<'c, 'a> {
    fn new() -> Self {
        Self {
            mixed: HashMap::new(),
            split: HashMap::new(),
        }
    }

    /// The reason (the words after "outside ... region") and its notes.
    fn of(&mut self, kernel: &OperationRef<'c, 'a>) -> Option<(&'static str, Vec<Note<'c>>)> {
        let mixed = *self
            .mixed
            .entry(ir::op_key(*kernel))
            .or_insert_with(|| mixed_work(&pld_ir::nested_ops(*kernel)));
        if let Some((cube, vector)) = mixed {
            return Some((
                "outside a pl.split_aiv region of a kernel that does cube and vector work it \
                 runs on both vector cores of the block (the vector half of a mixed kernel runs \
                 on each)",
                vec![
                    (cube.location(), "cube work here".to_owned()),
                    (vector.location(), "vector work here".to_owned()),
                ],
            ));
        }
        let split = *self
            .split
            .entry(ir::op_key(*kernel))
            .or_insert_with(|| first_split_region(kernel));
        split.map(|split| {
            (
                "outside its pl.split_aiv regions a kernel that has them runs on both AIV \
                 sub-lanes of the block (each sub-lane runs the whole kernel)",
                vec![(
                    split.location(),
                    "a pl.split_aiv region of the kernel".to_owned(),
                )],
            )
        })
    }
}

/// The split region of its kernel that `op` stands in, if any.
fn region_of<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    kernel: &OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    ir::enclosing(op, &[pl::SplitAivOp::NAME]).filter(|split| ir::is_inside(split, kernel))
}

pub fn check<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
    declared: &mut Declarations<'c, 'a>,
    report: &mut Report,
) {
    let mut two_lanes = TwoLanes::new();
    // An atomic add is made twice where a notify fires twice: outside the
    // regions of a kernel both sub-lanes run, or in a mode none region
    // without a lane's own place or a one-lane guard.
    for op in ops {
        let accesses = declared.accesses(op);
        let adds: Vec<_> = accesses
            .iter()
            .flat_map(|accesses| accesses.iter())
            .filter(|access| access.kind == AccessKind::AtomicAdd)
            .collect();
        let Some(kernel) = kernel_of(op).filter(|_| !adds.is_empty()) else {
            continue;
        };
        if let Some(split) = region_of(op, &kernel) {
            let sharded = adds.iter().any(|access| {
                let offsets = access.region.iter().flat_map(|(offsets, _)| offsets.iter());
                offsets
                    .filter_map(|index| match index {
                        interfaces::Index::Value(value) => Some(*value),
                        _ => None,
                    })
                    .chain(access.peer)
                    .any(depends_on_lane)
            });
            if pl::SplitAivOp::get_mode(&split) == Some(SplitMode::None)
                && !sharded
                && !guarded_by_lane(op, &split)
            {
                report.error(
                    op,
                    &format!(
                        "'{}' adds twice: a pl.split_aiv mode none region runs on both AIV \
                         sub-lanes; shard it by pl.get_aiv_id or guard it to one lane",
                        ir::name(op)
                    ),
                    &[(
                        split.location(),
                        "the region runs on both sub-lanes".to_owned(),
                    )],
                );
            }
            continue;
        }
        if let Some((why, notes)) = two_lanes.of(&kernel) {
            report.error(
                op,
                &format!(
                    "'{}' adds twice: {why}; put it in a pl.split_aiv region and guard it to \
                     one lane",
                    ir::name(op)
                ),
                &notes,
            );
        }
    }
    for notify in ops
        .iter()
        .filter(|op| ir::name(op) == pld::SystemNotifyOp::NAME)
    {
        let Some(kernel) = kernel_of(notify) else {
            continue;
        };
        match region_of(notify, &kernel) {
            None => {
                if let Some((why, notes)) = two_lanes.of(&kernel) {
                    report.error(
                        notify,
                        &format!(
                            "notify fires twice: {why}; put it in a pl.split_aiv region and \
                             guard it to one lane"
                        ),
                        &notes,
                    );
                }
            }
            Some(split) => {
                if pl::SplitAivOp::get_mode(&split) != Some(SplitMode::None) {
                    continue;
                }
                if !sharded_by_lane(notify) && !guarded_by_lane(notify, &split) {
                    report.error(
                        notify,
                        "notify fires twice: a pl.split_aiv mode none region runs on both AIV \
                         sub-lanes; shard the notify by pl.get_aiv_id or guard it to one lane",
                        &[(
                            split.location(),
                            "the region runs on both sub-lanes".to_owned(),
                        )],
                    );
                }
            }
        }
    }
}
