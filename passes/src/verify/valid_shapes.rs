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
//! the last, multiplied) by columns. A tile loaded whole has its whole shape
//! valid; a store of it names a smaller region only with a `valid` list,
//! which the simulator checks (the rule follows ragged tiles alone, so that
//! it costs nothing where there are none).

use melior::ir::{
    Location, Value, ValueLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::ops::{pl, pld};
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use pld_ir::{Ix, OpKey, PtrMap, PtrSet, ValueKey, build::mixed_list};

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

/// The `valid` list a tile load or store has, if any.
fn valid_list<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<(Vec<i64>, Vec<Value<'c, 'a>>)> {
    pld_ir::attributes::valid_sizes(op).flatten()
}

/// The shape a `valid` list gives (an entry known when it folds to a
/// constant).
fn shape_of_list(statics: &[i64], dynamic: &[Value]) -> Shape {
    let sizes: Vec<Option<i64>> = mixed_list(statics, dynamic)
        .into_iter()
        .map(|size| match size {
            Ix::Const(value) => Some(value),
            Ix::Dyn(value) => pld_ir::analysis::facts::constant_int(value),
        })
        .collect();
    Shape::of_sizes(&sizes)
}

/// A tile's whole shape.
fn whole(tile: Value) -> Option<Shape> {
    let sizes: Vec<Option<i64>> = pld_ir::types::shape(tile.r#type())?
        .into_iter()
        .map(Some)
        .collect();
    Some(Shape::of_sizes(&sizes))
}

/// The op a tile comes from, as a valid shape's origin: a load, or
/// `pl.full` (a whole tile).
fn origin_name(op: &OperationRef) -> Option<&'static str> {
    [
        pl::LoadOp::NAME,
        pld::TileRemoteLoadOp::NAME,
        pl::FullOp::NAME,
    ]
    .into_iter()
    .find(|name| pld_dialect::has_name(op, name))
}

/// What is known of a tile's valid shape: recorded (a ragged load, tile
/// math on one), or the whole tile of a load without a `valid` list.
fn valid_of<'c>(known: &PtrMap<ValueKey, Valid<'c>>, value: Value<'c, '_>) -> Option<Valid<'c>> {
    if let Some(valid) = known.get(&ValueKey::of(value)) {
        return Some(*valid);
    }
    let load = ir::defining_op(value)?;
    let origin_op = origin_name(&load)?;
    Some(Valid {
        shape: whole(value)?,
        origin: load.location(),
        origin_op,
    })
}

/// The tile a store writes, if `op` is a tile store.
fn stored_tile<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    pl::StoreOp::operands(op)
        .map(|store| store.value)
        .or_else(|| pld::TileRemoteStoreOp::operands(op).map(|store| store.source))
}

/// Follows every ragged tile (a load with a `valid` list) through the tile
/// math that keeps its valid shape, to the stores and tile math that use
/// it: the rest of the program, tiles loaded whole, is not visited.
pub fn check(ops: &[OperationRef], report: &mut Report) {
    let mut known: PtrMap<ValueKey, Valid> = PtrMap::default();
    let mut ragged: Vec<Value> = Vec::new();
    for op in ops {
        let Some(origin_op) = origin_name(op) else {
            continue;
        };
        let (Some((statics, dynamic)), Ok(result)) = (valid_list(op), op.result(0)) else {
            continue;
        };
        let valid = Valid {
            shape: shape_of_list(&statics, &dynamic),
            origin: op.location(),
            origin_op,
        };
        known.insert(ValueKey::of(result), valid);
        ragged.push(result.into());
    }
    let mut checked: PtrSet<OpKey> = PtrSet::default();
    while let Some(tile) = ragged.pop() {
        // SAFETY: see the documentation of `pld_ir`.
        let tile: pld_ir::Val = unsafe { pld_ir::Val::from_raw(tile.to_raw()) };
        for (user, _) in pld_ir::uses(tile) {
            if !checked.insert(OpKey::of(user)) {
                continue;
            }
            // A scalar operand (`pl.adds`) has no valid shape: the result
            // keeps its tile's.
            if let Some((lhs, rhs)) = ir::elementwise_operands(&user) {
                let (lhs, rhs) = (valid_of(&known, lhs), valid_of(&known, rhs));
                if let (Some(lhs), Some(rhs)) = (lhs, rhs)
                    && lhs.shape.differs(rhs.shape)
                {
                    report.error(
                        &user,
                        &format!(
                            "'{}' combines a tile whose valid shape is {} with one whose \
                             valid shape is {}: the target's tile math computes over one valid \
                             shape, which both operands must have",
                            ir::name(user),
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
                if let (Some(lhs), Ok(result)) = (lhs, user.result(0)) {
                    known.insert(ValueKey::of(result), lhs);
                    ragged.push(result.into());
                }
            } else if let Some(stored) = stored_tile(&user)
                && stored == tile
                && let Some(valid) = valid_of(&known, stored)
            {
                let written = match valid_list(&user) {
                    Some((statics, dynamic)) => shape_of_list(&statics, &dynamic),
                    None => match whole(stored) {
                        Some(shape) => shape,
                        None => continue,
                    },
                };
                if valid.shape.differs(written) {
                    report.error(
                        &user,
                        &format!(
                            "'{}' writes a {} region of a tile whose valid shape is {}: \
                             outside its valid shape a tile is undefined, and the target's \
                             TSTORE writes exactly the valid shape (store with a `valid` list \
                             equal to it)",
                            ir::name(user),
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
        }
    }
}
