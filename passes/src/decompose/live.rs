//! The unified buffer a collective's chunk tiles may use: `ub-bytes` less
//! the tiles of the surrounding code that are live across the collective
//! (made before it and used after it, or carried by a loop around it),
//! which `ascend-plan-ub` must keep in the buffer at the same time.

use melior::ir::{BlockLike, RegionLike, ValueLike, operation::OperationLike};
use pld_dialect::ops::scf;
use pld_ir::read::enclosing_function;
use pld_ir::{OpKey, OpRef, PtrMap, Val, nested_ops, read::name, read::op_key as key, types, uses};

/// The bytes a `!pl.tile` value takes in the unified buffer (rows padded to
/// 32 bytes, as the target lays them out); 0 for any other value.
fn tile_bytes(value: Val) -> i64 {
    let r#type = value.r#type();
    if !pld_dialect::types::is_tile(r#type) {
        return 0;
    }
    let (Some(shape), Some(element)) = (types::shape(r#type), types::element_type(r#type)) else {
        return 0;
    };
    let Some((cols, rows)) = shape.split_last() else {
        return 0;
    };
    let padded = pld_dialect::target::padded_cols(*cols, element);
    rows.iter().product::<i64>() * padded * types::byte_width(element).unwrap_or(1)
}

fn is_loop(op: OpRef) -> bool {
    matches!(name(op), scf::ForOp::NAME | scf::WhileOp::NAME)
}

/// The bytes of the tiles live across `op`.
pub fn bytes_live_across(op: OpRef) -> i64 {
    let Some(function) = enclosing_function(&op) else {
        return 0;
    };
    // SAFETY: see the documentation of `pld_ir`.
    let function: OpRef = unsafe { OpRef::from_raw(function.to_raw()) };
    let ops = nested_ops(function);
    let position: PtrMap<OpKey, usize> = ops
        .iter()
        .enumerate()
        .map(|(at, op)| (key(*op), at))
        .collect();
    let at = position[&key(op)];
    // The loops around `op`: a value made before one of them and used in
    // it is read again by the next iteration.
    let loops: Vec<OpRef> = ops[..at]
        .iter()
        .copied()
        .filter(|candidate| is_loop(*candidate) && pld_ir::read::is_inside(&op, candidate))
        .collect();
    let live = |value: Val, made: usize| {
        uses(value).into_iter().any(|(user, _)| {
            let used = position.get(&key(user)).copied().unwrap_or(0);
            used > at
                || loops
                    .iter()
                    .any(|l| position[&key(*l)] > made && pld_ir::read::is_inside(&user, l))
        })
    };
    let mut bytes = 0;
    for (made, definer) in ops[..at].iter().enumerate() {
        for index in 0..definer.result_count() {
            let value = pld_ir::Builder::result_at(*definer, index);
            let size = tile_bytes(value);
            if size > 0 && live(value, made) {
                bytes += size;
            }
        }
    }
    // Tiles a loop around `op` carries.
    for l in &loops {
        if let Some(block) = l.region(0).ok().and_then(|region| region.first_block()) {
            for index in 0..block.argument_count() {
                let argument = block.argument(index).expect("an argument");
                // SAFETY: see the documentation of `pld_ir`.
                bytes += tile_bytes(unsafe { Val::from_raw(argument.to_raw()) });
            }
        }
    }
    bytes
}
