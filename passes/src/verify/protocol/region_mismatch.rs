//! remote_load / remote_store offsets or shapes that provably disagree between
//! the rank that writes a window region and the rank that reads it ("a
//! one-element misalignment is silent corruption"): a read that overlaps what
//! the writers write must be covered by it entirely.

use crate::{
    report::Report,
    verify::{ir, ops::resolved_index_list},
};
use melior::ir::{
    Type, TypeLike, Value, ValueLike, operation::OperationLike, operation::OperationRef,
};
use std::collections::HashMap;

/// A box of window elements: `[start, end)` per dimension.
#[derive(Clone, Debug)]
struct Region {
    start: Vec<i64>,
    end: Vec<i64>,
}

impl Region {
    fn intersects(&self, other: &Region) -> bool {
        self.start
            .iter()
            .zip(&self.end)
            .zip(other.start.iter().zip(&other.end))
            .all(|((a0, a1), (b0, b1))| a0 < b1 && b0 < a1)
    }

    fn text(&self) -> String {
        let dims: Vec<String> = self
            .start
            .iter()
            .zip(&self.end)
            .map(|(start, end)| format!("[{start}, {end})"))
            .collect();
        dims.join(" x ")
    }

    /// Whether `self` lies inside the union of `cover`: every cell of the
    /// grid that the boxes' boundaries cut `self` into is in some box.
    fn covered_by(&self, cover: &[&Region]) -> bool {
        let rank = self.start.len();
        let cuts: Vec<Vec<i64>> = (0..rank)
            .map(|dim| {
                let mut points: Vec<i64> = cover
                    .iter()
                    .flat_map(|region| [region.start[dim], region.end[dim]])
                    .chain([self.start[dim], self.end[dim]])
                    .filter(|point| *point >= self.start[dim] && *point <= self.end[dim])
                    .collect();
                points.sort();
                points.dedup();
                points
            })
            .collect();
        let mut index = vec![0usize; rank];
        loop {
            let cell: Vec<i64> = (0..rank).map(|dim| cuts[dim][index[dim]]).collect();
            let inside = cover.iter().any(|region| {
                (0..rank).all(|dim| region.start[dim] <= cell[dim] && cell[dim] < region.end[dim])
            });
            if !inside {
                return false;
            }
            // Next grid cell (each dimension stops before its last cut).
            let mut dim = 0;
            loop {
                if dim == rank {
                    return true;
                }
                index[dim] += 1;
                if index[dim] + 1 < cuts[dim].len() {
                    break;
                }
                index[dim] = 0;
                dim += 1;
            }
        }
    }
}

/// The static shape of a shaped type, if fully static.
fn static_shape(r#type: Type) -> Option<Vec<i64>> {
    let raw = r#type.to_raw();
    unsafe {
        if !mlir_sys::mlirTypeIsAShaped(raw) || !mlir_sys::mlirShapedTypeHasStaticShape(raw) {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(raw);
        Some(
            (0..rank)
                .map(|dim| mlir_sys::mlirShapedTypeGetDimSize(raw, dim as isize))
                .collect(),
        )
    }
}

/// The index list `attribute` of `op`, when every entry is known (however
/// it is computed).
fn known_list(op: &OperationRef, attribute: &str) -> Option<Vec<i64>> {
    resolved_index_list(op, attribute)?.into_iter().collect()
}

/// A box at `offsets` with `extents` aligned to the trailing dimensions.
fn region(offsets: Vec<i64>, extents: &[i64]) -> Region {
    let rank = offsets.len();
    let mut sizes = vec![1; rank];
    let trailing = &extents[extents.len().saturating_sub(rank)..];
    sizes[rank - trailing.len()..].copy_from_slice(trailing);
    let end = offsets
        .iter()
        .zip(&sizes)
        .map(|(offset, size)| offset + size)
        .collect();
    Region {
        start: offsets,
        end,
    }
}

/// What `op` writes into a window: (window, region).
fn written<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<(Value<'c, 'a>, Region)> {
    match ir::name(op) {
        "pld.tile.remote_store" | "pld.tensor.remote_store" | "pl.store" => {
            let extents = static_shape(ir::operand(op, 0)?.r#type())?;
            Some((
                ir::operand(op, 1)?,
                region(known_list(op, "static_offsets")?, &extents),
            ))
        }
        "pld.tensor.put" => {
            let dst = ir::operand(op, 0)?;
            match resolved_index_list(op, "static_sizes") {
                Some(sizes) => Some((
                    dst,
                    region(
                        known_list(op, "static_dst_offsets")?,
                        &sizes.into_iter().collect::<Option<Vec<_>>>()?,
                    ),
                )),
                None => {
                    let extents = static_shape(ir::operand(op, 2)?.r#type())?;
                    Some((dst, region(vec![0; extents.len()], &extents)))
                }
            }
        }
        _ => None,
    }
}

/// What `op` reads from a window: (window, region).
fn read<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<(Value<'c, 'a>, Region)> {
    if !matches!(ir::name(op), "pld.tile.remote_load" | "pl.load") {
        return None;
    }
    let mut extents = static_shape(op.result(0).ok()?.r#type())?;
    if let Some(valid) = resolved_index_list(op, "static_valid_sizes") {
        extents = valid.into_iter().collect::<Option<_>>()?;
    }
    Some((
        ir::operand(op, 0)?,
        region(known_list(op, "static_offsets")?, &extents),
    ))
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    let mut writes_of_window: HashMap<usize, Vec<(Region, OperationRef)>> = HashMap::new();
    for op in ops {
        if let Some((window, region)) = written(op) {
            writes_of_window
                .entry(ir::value_key(window))
                .or_default()
                .push((region, *op));
        }
    }
    for op in ops {
        let Some((window, wanted)) = read(op) else {
            continue;
        };
        if !pld_dialect::types::is_distributed_tensor(window.r#type()) {
            continue;
        }
        let overlapping: Vec<_> = writes_of_window
            .get(&ir::value_key(window))
            .into_iter()
            .flatten()
            .filter(|(region, _)| region.intersects(&wanted))
            .collect();
        if overlapping.is_empty() {
            continue;
        }
        let regions: Vec<&Region> = overlapping.iter().map(|(region, _)| region).collect();
        if wanted.covered_by(&regions) {
            continue;
        }
        let notes: Vec<_> = overlapping
            .iter()
            .map(|(region, writer)| (writer.location(), format!("writes {} here", region.text())))
            .collect();
        report.error(
            op,
            &format!(
                "'{}' reads {} of the window, but the writes into it cover only part of that \
                 region: the reader and the writer disagree on offsets or shapes (a one-element \
                 misalignment is silent corruption)",
                ir::name(op),
                wanted.text()
            ),
            &notes,
        );
    }
}
