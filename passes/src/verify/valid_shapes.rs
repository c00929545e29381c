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
    Location, Value,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::interfaces::{self, Index};
use pld_dialect::ops::{pl, pld};
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use pld_ir::{PtrMap, ValueKey};

/// Rows and columns, each known or not.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Shape {
    rows: Option<i64>,
    cols: Option<i64>,
}

impl Shape {
    fn of_sizes(sizes: &[Index]) -> Self {
        let known = |index: &Index| match index {
            Index::Constant(value) => Some(*value),
            Index::Value(value) => pld_ir::analysis::facts::constant_int(*value),
            Index::Unknown => None,
        };
        match sizes.split_last() {
            None => Self {
                rows: Some(1),
                cols: Some(1),
            },
            Some((last, leading)) => Self {
                rows: leading
                    .iter()
                    .try_fold(1, |rows, size| Some(rows * known(size)?)),
                cols: known(last),
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

/// The region a tile load or store covers, as its interface declares it.
fn region(op: &OperationRef) -> Option<Shape> {
    let access = interfaces::memory_accesses(op)?.into_iter().next()?;
    let (_, sizes) = access.region?;
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
                let (Some(shape), Ok(result)) = (region(op), op.result(0)) else {
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
                let (Some(stored), Some(written)) = (stored, region(op)) else {
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
