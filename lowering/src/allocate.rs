//! First-fit allocation of buffers in the core's memories, over the live
//! ranges `pld_ir::analysis::liveness` computes: two buffers of one memory
//! share bytes only when they are never live at once, and a buffer live
//! across a call sits above everything the callee may use of that memory.
//!
//! Each memory is planned on its own: the vector core's unified buffer,
//! and the cube's L1, L0A, L0B and L0C.

use std::collections::BTreeMap;

/// Offsets and sizes are multiples of this many bytes (a UB block).
pub const ALIGNMENT: i64 = 32;

/// A memory of the AI core that buffers are allocated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Memory {
    /// The unified buffer of a vector core (`vec` tiles).
    Ub,
    /// The cube's L1 (`mat` tiles).
    L1,
    /// The cube's left-operand buffer (`left` tiles).
    L0a,
    /// The cube's right-operand buffer (`right` tiles).
    L0b,
    /// The cube's accumulator buffer (`acc` tiles).
    L0c,
}

impl Memory {
    /// The memory tiles of `kind` live in.
    pub fn of_kind(kind: pld_dialect::enums::ascend::TileKind) -> Self {
        use pld_dialect::enums::ascend::TileKind;
        match kind {
            TileKind::Vec => Self::Ub,
            TileKind::Mat => Self::L1,
            TileKind::Left => Self::L0a,
            TileKind::Right => Self::L0b,
            TileKind::Acc => Self::L0c,
        }
    }
}

/// Bytes used per memory.
pub type Footprint = BTreeMap<Memory, i64>;

/// A buffer to place.
pub struct Buffer {
    pub memory: Memory,
    pub bytes: i64,
    /// Where it is live: `[start, end]` in program order.
    pub live: (usize, usize),
}

/// A call at position `at`, whose callee (and its callees) may use
/// `footprint`.
pub struct Call {
    pub at: usize,
    pub footprint: Footprint,
}

/// Where every buffer went, and the bytes the function (with its callees)
/// may use in each memory.
pub struct Placed {
    pub offsets: Vec<i64>,
    pub footprint: Footprint,
}

/// A buffer that does not fit in its memory beside those live with it.
pub struct Overflow {
    /// The buffer (an index into the buffers).
    pub buffer: usize,
    /// The bytes its memory would need.
    pub needed: i64,
    /// The buffers already placed that are live with it.
    pub live: Vec<usize>,
    /// What was placed before it.
    pub footprint: Footprint,
}

/// `bytes` rounded up to the alignment.
pub fn aligned(bytes: i64) -> i64 {
    (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT
}

/// Places `buffers` first-fit, in order of their start (then of their
/// index), each memory within `budget(memory)` bytes.
pub fn first_fit(
    buffers: &[Buffer],
    calls: &[Call],
    budget: impl Fn(Memory) -> i64,
) -> Result<Placed, Overflow> {
    let mut footprint = Footprint::new();
    for call in calls {
        for (memory, bytes) in &call.footprint {
            let used = footprint.entry(*memory).or_insert(0);
            *used = (*used).max(*bytes);
        }
    }
    let overlaps = |a: &Buffer, b: &Buffer| a.live.0 <= b.live.1 && b.live.0 <= a.live.1;
    let mut order: Vec<usize> = (0..buffers.len()).collect();
    order.sort_by_key(|index| (buffers[*index].live.0, *index));
    let mut offsets: Vec<Option<i64>> = vec![None; buffers.len()];
    for index in order {
        let buffer = &buffers[index];
        let size = aligned(buffer.bytes);
        let live: Vec<usize> = (0..buffers.len())
            .filter(|other| {
                offsets[*other].is_some()
                    && buffers[*other].memory == buffer.memory
                    && overlaps(&buffers[*other], buffer)
            })
            .collect();
        let mut busy: Vec<(i64, i64)> = live
            .iter()
            .map(|other| {
                let offset = offsets[*other].expect("placed");
                (offset, offset + aligned(buffers[*other].bytes))
            })
            .collect();
        busy.sort();
        // Live across a call: above what the callee may use.
        let (start, end) = buffer.live;
        let mut offset = calls
            .iter()
            .filter(|call| start < call.at && call.at <= end)
            .filter_map(|call| call.footprint.get(&buffer.memory).copied())
            .max()
            .unwrap_or(0);
        for (from, to) in busy {
            if offset + size <= from {
                break;
            }
            offset = offset.max(to);
        }
        if offset + size > budget(buffer.memory) {
            return Err(Overflow {
                buffer: index,
                needed: offset + size,
                live,
                footprint,
            });
        }
        offsets[index] = Some(offset);
        let used = footprint.entry(buffer.memory).or_insert(0);
        *used = (*used).max(offset + size);
    }
    Ok(Placed {
        offsets: offsets
            .into_iter()
            .map(|offset| offset.expect("every buffer is placed"))
            .collect(),
        footprint,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ub(bytes: i64, live: (usize, usize)) -> Buffer {
        Buffer {
            memory: Memory::Ub,
            bytes,
            live,
        }
    }

    #[test]
    fn buffers_never_live_together_share_bytes() {
        let placed = first_fit(&[ub(64, (0, 2)), ub(64, (3, 5))], &[], |_| 64)
            .ok()
            .unwrap();
        assert_eq!(placed.offsets, [0, 0]);
        assert_eq!(placed.footprint[&Memory::Ub], 64);
    }

    #[test]
    fn overlapping_buffers_stack_and_round_up() {
        let placed = first_fit(&[ub(10, (0, 4)), ub(64, (2, 6))], &[], |_| 1024)
            .ok()
            .unwrap();
        assert_eq!(placed.offsets, [0, 32]);
        assert_eq!(placed.footprint[&Memory::Ub], 96);
    }

    #[test]
    fn a_buffer_live_across_a_call_sits_above_the_callee() {
        let call = Call {
            at: 3,
            footprint: Footprint::from([(Memory::Ub, 128)]),
        };
        let placed = first_fit(&[ub(32, (0, 1)), ub(32, (2, 4))], &[call], |_| 1024)
            .ok()
            .unwrap();
        assert_eq!(placed.offsets, [0, 128]);
    }

    #[test]
    fn an_overflow_names_the_live_buffers() {
        let Err(overflow) = first_fit(&[ub(64, (0, 4)), ub(64, (1, 4))], &[], |_| 96) else {
            panic!("two 64-byte tiles do not fit in 96 bytes");
        };
        assert_eq!(
            (overflow.buffer, overflow.needed, overflow.live),
            (1, 128, vec![0])
        );
    }
}
