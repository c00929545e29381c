//! Valid shapes, judged by value: a tile's valid shape is the region its
//! load read (its `valid` list, else its shape), and outside it the tile is
//! undefined. The target computes and stores exactly that region: tile
//! math asserts that both operands have the destination's valid shape
//! (pto-isa `cpu/ElementTileOp.h:26-29`), and TSTORE that the view is the
//! tile's valid shape (`common/arch/memory/tstore_common.hpp:361-370`). So a
//! store of a region other than its tile's valid shape (larger: it would
//! write what the tile does not hold; smaller: PTO asserts), or tile math
//! on two valid shapes, is an error where both are known; the simulator
//! traps on the rest at run time.
//!
//! Shapes are compared as the lowering sees them: rows (every dimension but
//! the last, multiplied) by columns.

use melior::ir::{
    Location, Value, ValueLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::ops::{pl, pld};
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use pld_ir::{Ix, PtrMap, ValueKey, build::mixed_list};

/// Rows and columns, each known or not.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Shape {
    rows: Option<i64>,
    cols: Option<i64>,
}

impl Shape {
    /// Rows (the leading sizes multiplied) by columns (the last size).
    fn of_sizes(sizes: &[Option<i64>]) -> Self {
        match sizes.split_last() {
            None => Self {
                rows: Some(1),
                cols: Some(1),
            },
            Some((last, leading)) => Self {
                rows: leading
                    .iter()
                    .try_fold(1, |rows, size| Some(rows * (*size)?)),
                cols: *last,
            },
        }
    }

    /// Whether the two surely differ: a dimension both know, unequal.
    fn differs(self, other: Shape) -> bool {
        let differ =
            |a: Option<i64>, b: Option<i64>| matches!((a, b), (Some(a), Some(b)) if a != b);
        differ(self.rows, other.rows) || differ(self.cols, other.cols)
    }

    fn describe(self) -> String {
        let dim = |value: Option<i64>| value.map_or("?".to_owned(), |value| value.to_string());
        format!("{} x {}", dim(self.rows), dim(self.cols))
    }
}

/// A tile's valid shape and where it comes from.
#[derive(Clone, Copy)]
struct Valid<'c> {
    shape: Shape,
    origin: Location<'c>,
    origin_op: &'static str,
}

/// The region a tile load or store covers: its `valid` list (an entry
/// known when it folds to a constant), else its tile's shape.
fn region(op: &OperationRef, tile: Value) -> Option<Shape> {
    let (statics, dynamic) = match ir::name(op) {
        pl::LoadOp::NAME => (
            pl::LoadOp::get_static_valid_sizes(op)?,
            pl::LoadOp::operands(op)?.valid_sizes,
        ),
        pl::StoreOp::NAME => (
            pl::StoreOp::get_static_valid_sizes(op)?,
            pl::StoreOp::operands(op)?.valid_sizes,
        ),
        pld::TileRemoteLoadOp::NAME => (
            pld::TileRemoteLoadOp::get_static_valid_sizes(op)?,
            pld::TileRemoteLoadOp::operands(op)?.valid_sizes,
        ),
        pld::TileRemoteStoreOp::NAME => (
            pld::TileRemoteStoreOp::get_static_valid_sizes(op)?,
            pld::TileRemoteStoreOp::operands(op)?.valid_sizes,
        ),
        _ => return None,
    };
    let sizes: Vec<Option<i64>> = match statics {
        None => pld_ir::types::shape(tile.r#type())?
            .into_iter()
            .map(Some)
            .collect(),
        Some(statics) => mixed_list(&statics, &dynamic)
            .into_iter()
            .map(|size| match size {
                Ix::Const(value) => Some(value),
                Ix::Dyn(value) => pld_ir::analysis::facts::constant_int(value),
            })
            .collect(),
    };
    Some(Shape::of_sizes(&sizes))
}

fn valid_of<'c>(known: &PtrMap<ValueKey, Valid<'c>>, value: Value<'c, '_>) -> Option<Valid<'c>> {
    known.get(&ValueKey::of(value)).copied()
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    let mut known: PtrMap<ValueKey, Valid> = PtrMap::default();
    for op in ops {
        let name = ir::name(op);
        match name {
            pl::LoadOp::NAME | pld::TileRemoteLoadOp::NAME => {
                let Ok(result) = op.result(0) else {
                    continue;
                };
                let Some(shape) = region(op, result.into()) else {
                    continue;
                };
                let origin_op = if name == pl::LoadOp::NAME {
                    pl::LoadOp::NAME
                } else {
                    pld::TileRemoteLoadOp::NAME
                };
                known.insert(
                    ValueKey::of(result),
                    Valid {
                        shape,
                        origin: op.location(),
                        origin_op,
                    },
                );
            }
            pl::AddOp::NAME | pl::MaxOp::NAME | pl::MinOp::NAME | pl::MulOp::NAME => {
                let (Ok(lhs), Ok(rhs), Ok(result)) = (op.operand(0), op.operand(1), op.result(0))
                else {
                    continue;
                };
                let (lhs, rhs) = (valid_of(&known, lhs), valid_of(&known, rhs));
                if let (Some(lhs), Some(rhs)) = (lhs, rhs)
                    && lhs.shape.differs(rhs.shape)
                {
                    report.error(
                        op,
                        &format!(
                            "'{name}' combines a tile whose valid shape is {} with one whose \
                             valid shape is {}: the target's tile math computes over one valid \
                             shape, which both operands must have",
                            lhs.shape.describe(),
                            rhs.shape.describe()
                        ),
                        &[
                            (lhs.origin, format!("the left operand's {}", lhs.origin_op)),
                            (rhs.origin, format!("the right operand's {}", rhs.origin_op)),
                        ],
                    );
                    continue;
                }
                // The result has the left operand's valid shape.
                if let Some(lhs) = lhs {
                    known.insert(ValueKey::of(result), lhs);
                }
            }
            pl::StoreOp::NAME | pld::TileRemoteStoreOp::NAME => {
                let stored = if name == pl::StoreOp::NAME {
                    pl::StoreOp::operands(op).map(|store| store.value)
                } else {
                    pld::TileRemoteStoreOp::operands(op).map(|store| store.source)
                };
                let Some(stored) = stored else {
                    continue;
                };
                let Some(written) = region(op, stored) else {
                    continue;
                };
                let Some(valid) = valid_of(&known, stored) else {
                    continue;
                };
                if valid.shape.differs(written) {
                    report.error(
                        op,
                        &format!(
                            "'{name}' writes a {} region of a tile whose valid shape is {}: \
                             outside its valid shape a tile is undefined, and the target's \
                             TSTORE writes exactly the valid shape (store with a `valid` list \
                             equal to it)",
                            written.describe(),
                            valid.shape.describe()
                        ),
                        &[(
                            valid.origin,
                            format!("the valid shape is what this {} read", valid.origin_op),
                        )],
                    );
                }
            }
            _ => {}
        }
    }
}
