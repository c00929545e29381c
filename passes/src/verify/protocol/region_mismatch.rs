//! remote_load / remote_store offsets or shapes that provably disagree between
//! the rank that writes a window region and the rank that reads it ("a
//! one-element misalignment is silent corruption"): a read that overlaps what
//! the writers write must be covered by it entirely. Rows of the read that no
//! write touches hold what the host put there: a warning.

use crate::verify::declarations::Declarations;
use melior::ir::{Value, ValueLike, operation::OperationLike, operation::OperationRef};
use pld_dialect::interfaces::Index;
use pld_ir::ValueKey;
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
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

/// The union of the regions a window's writers write, for the two questions
/// a read asks: does it meet the writes, and do they cover it? Asking every
/// writer for every read is quadratic, and the grid check of
/// [`Region::covered_by`] cubic, when thousands of reads each meet thousands
/// of writes (row stripes written, column stripes read: `bench/verify-cost.py`).
/// So the union is built once per window, as slabs along the first dimension
/// (between consecutive region boundaries), each holding the union of the
/// regions that span it in the remaining dimensions, neighbours with equal
/// contents merged; a read looks up only the slabs it spans.
#[derive(PartialEq)]
enum Union {
    /// Every point (no dimension left).
    Full,
    /// Disjoint slabs `[start, end)` of one dimension, ascending, none empty.
    Slabs(Vec<(i64, i64, Union)>),
}

impl Union {
    /// The union of `regions` (of one rank, none empty) in dimensions `dim..`.
    fn of(regions: &[&Region], dim: usize) -> Union {
        if regions
            .first()
            .is_some_and(|region| dim == region.start.len())
        {
            return Union::Full;
        }
        let mut cuts: Vec<i64> = regions
            .iter()
            .flat_map(|region| [region.start[dim], region.end[dim]])
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut by_start = regions.to_vec();
        by_start.sort_by_key(|region| region.start[dim]);
        let mut entering = by_start.into_iter().peekable();
        let mut spanning: Vec<&Region> = Vec::new();
        let mut slabs: Vec<(i64, i64, Union)> = Vec::new();
        for cut in cuts.windows(2) {
            let (low, high) = (cut[0], cut[1]);
            // Every boundary is a cut: a region that reaches past `low` spans
            // all of `[low, high)`.
            spanning.retain(|region| region.end[dim] > low);
            while let Some(region) = entering.next_if(|region| region.start[dim] <= low) {
                spanning.push(region);
            }
            if spanning.is_empty() {
                continue;
            }
            let inner = Union::of(&spanning, dim + 1);
            match slabs.last_mut() {
                Some((_, end, previous)) if *end == low && *previous == inner => *end = high,
                _ => slabs.push((low, high, inner)),
            }
        }
        Union::Slabs(slabs)
    }

    /// The slabs that meet `[start, end)`.
    fn meeting(&self, start: i64, end: i64) -> &[(i64, i64, Union)] {
        let Union::Slabs(slabs) = self else {
            return &[];
        };
        let first = slabs.partition_point(|(_, high, _)| *high <= start);
        let count = slabs[first..].partition_point(|(low, _, _)| *low < end);
        &slabs[first..first + count]
    }

    /// Whether `region` shares a point with the union, from dimension `dim` on.
    fn meets(&self, region: &Region, dim: usize) -> bool {
        match self {
            Union::Full => true,
            Union::Slabs(_) => self
                .meeting(region.start[dim], region.end[dim])
                .iter()
                .any(|(_, _, inner)| inner.meets(region, dim + 1)),
        }
    }

    /// Whether the union holds every point of `region`, from dimension `dim` on.
    fn covers(&self, region: &Region, dim: usize) -> bool {
        if matches!(self, Union::Full) {
            return true;
        }
        let mut reached = region.start[dim];
        for (low, high, inner) in self.meeting(region.start[dim], region.end[dim]) {
            if *low > reached || !inner.covers(region, dim + 1) {
                return false;
            }
            reached = *high;
        }
        reached >= region.end[dim]
    }
}

impl Region {
    /// Whether the region holds no point.
    fn is_empty(&self) -> bool {
        self.start
            .iter()
            .zip(&self.end)
            .any(|(start, end)| start >= end)
    }
}

/// The union of `writes` and their rank, when the union decides exactly
/// what [`Region::intersects`] and [`Region::covered_by`] do: every region
/// of one rank (at least 1) and none empty (an empty region still
/// "intersects" a read it lies in, yet covers nothing of it).
fn union_of(writes: &[(Region, OperationRef)]) -> Option<(usize, Union)> {
    let rank = writes.first()?.0.start.len();
    let regions: Vec<&Region> = writes.iter().map(|(region, _)| region).collect();
    (rank > 0
        && regions
            .iter()
            .all(|region| region.start.len() == rank && !region.is_empty()))
    .then(|| (rank, Union::of(&regions, 0)))
}

/// The regions `op` writes and reads, each with its memory, where every
/// offset and size is known (however computed): read through the op's
/// `MemoryAccessOpInterface`, so a put or a get counts as the tile loads and
/// stores it expands into.
fn accesses<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    declared: &mut Declarations<'c, 'a>,
) -> Vec<(Value<'c, 'a>, Region, bool)> {
    let Some(accesses) = declared.accesses(op) else {
        return Vec::new();
    };
    let known = |index: &Index| match index {
        Index::Constant(value) => Some(*value),
        Index::Value(value) => pld_ir::analysis::facts::constant_int(*value),
        Index::Unknown => None,
    };
    accesses
        .iter()
        .filter_map(|access| {
            let (start, sizes): (Vec<i64>, Vec<i64>) = match &access.region {
                Some((offsets, sizes)) => (
                    offsets.iter().map(known).collect::<Option<_>>()?,
                    sizes.iter().map(known).collect::<Option<_>>()?,
                ),
                None => {
                    let shape = pld_ir::types::shape(access.memory.r#type())?;
                    if shape.contains(&pld_ir::types::DYNAMIC) {
                        return None;
                    }
                    (vec![0; shape.len()], shape)
                }
            };
            let end = start.iter().zip(&sizes).map(|(s, n)| s + n).collect();
            Some((access.memory, Region { start, end }, access.kind.writes()))
        })
        .collect()
}

pub fn check<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
    declared: &mut Declarations<'c, 'a>,
    report: &mut Report,
) {
    let mut writes_of_window: HashMap<ValueKey, Vec<(Region, OperationRef)>> = HashMap::new();
    let mut reads: Vec<(OperationRef, Value, Region)> = Vec::new();
    for op in ops {
        for (memory, region, writes) in accesses(op, declared) {
            if writes {
                writes_of_window
                    .entry(ir::value_key(memory))
                    .or_default()
                    .push((region, *op));
            } else {
                reads.push((*op, memory, region));
            }
        }
    }
    // The union of each window's writes, made on first need.
    let mut unions: HashMap<ValueKey, Option<(usize, Union)>> = HashMap::new();
    for (op, window, wanted) in &reads {
        let (op, window, wanted) = (op, *window, wanted.clone());
        if !pld_dialect::types::is_distributed_tensor(window.r#type()) {
            continue;
        }
        let Some(writes) = writes_of_window.get(&ir::value_key(window)) else {
            continue;
        };
        let overlapping = || -> Vec<_> {
            writes
                .iter()
                .filter(|(region, _)| region.intersects(&wanted))
                .collect()
        };
        let union = unions
            .entry(ir::value_key(window))
            .or_insert_with(|| union_of(writes));
        let disagree = match union {
            Some((rank, union)) if *rank == wanted.start.len() && !wanted.is_empty() => {
                union.meets(&wanted, 0) && !union.covers(&wanted, 0)
            }
            _ => {
                let overlapping = overlapping();
                let regions: Vec<&Region> = overlapping.iter().map(|(region, _)| region).collect();
                !regions.is_empty() && !wanted.covered_by(&regions)
            }
        };
        if !disagree {
            continue;
        }
        let overlapping = overlapping();
        let notes: Vec<_> = overlapping
            .iter()
            .map(|(region, writer)| (writer.location(), format!("writes {} here", region.text())))
            .collect();
        let regions: Vec<&Region> = overlapping.iter().map(|(region, _)| region).collect();
        if only_unwritten_rows(&wanted, &regions) {
            report.warning(
                op,
                &format!(
                    "'{}' reads {} of the window, but the writes into it cover only some of \
                     its rows, and no op writes the others: they hold what the host put \
                     there; if a peer should write them, the reader and the writer disagree",
                    ir::name(op),
                    wanted.text()
                ),
                &notes,
            );
            continue;
        }
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

/// The most rows [`only_unwritten_rows`] looks at one by one.
const MAX_ROWS: i64 = 4096;

/// Whether what the writes leave uncovered of `wanted` (2-D or more) is
/// whole rows that no write touches: rows written by nobody in the module
/// hold what the host put there, where a misaligned writer leaves part of a
/// row it writes.
fn only_unwritten_rows(wanted: &Region, writes: &[&Region]) -> bool {
    if wanted.start.len() < 2 || wanted.end[0] - wanted.start[0] > MAX_ROWS {
        return false;
    }
    (wanted.start[0]..wanted.end[0]).all(|row| {
        let mut slice = wanted.clone();
        slice.start[0] = row;
        slice.end[0] = row + 1;
        let meeting: Vec<&Region> = writes
            .iter()
            .copied()
            .filter(|write| write.intersects(&slice))
            .collect();
        meeting.is_empty() || slice.covered_by(&meeting)
    })
}

#[cfg(test)]
mod tests {
    use super::{Region, Union};

    /// The union answers exactly what the pairwise checks answer, on random
    /// non-empty regions of ranks 1 to 3 in a small space (so that they
    /// touch, overlap, nest and leave gaps).
    #[test]
    fn union_agrees_with_the_pairwise_checks() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |below: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as i64
        };
        for round in 0..3000 {
            let rank = 1 + round % 3;
            let mut random_region = |_| {
                let start: Vec<i64> = (0..rank).map(|_| next(6)).collect();
                let end = start.iter().map(|start| start + 1 + next(4)).collect();
                Region { start, end }
            };
            let count = 1 + (round * 7 + round / 5) % 5;
            let writes: Vec<Region> = (0..count).map(&mut random_region).collect();
            let reads: Vec<Region> = (0..8).map(&mut random_region).collect();
            let refs: Vec<&Region> = writes.iter().collect();
            let union = Union::of(&refs, 0);
            for read in &reads {
                let overlapping: Vec<&Region> = writes
                    .iter()
                    .filter(|write| write.intersects(read))
                    .collect();
                assert_eq!(
                    union.meets(read, 0),
                    !overlapping.is_empty(),
                    "{writes:?} {read:?}"
                );
                if !overlapping.is_empty() {
                    assert_eq!(
                        union.covers(read, 0),
                        read.covered_by(&overlapping),
                        "{writes:?} {read:?}"
                    );
                }
            }
        }
    }
}
