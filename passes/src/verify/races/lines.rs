//! Scalar writes of two AI cores into one 64-byte cache line that
//! happens-before leaves unordered. A core's scalar stores (`pl.write`) go
//! through its data cache, which writes whole lines back (`dcci`), so the
//! core that flushes last overwrites the other's bytes with what it held
//! (hw-native-sys/simpler, `docs/aicore-kernel-programming.md`, section 2;
//! docs/target/pto-isa.md). Tile stores go through the MTE, not the cache;
//! host code is not on a core. Lines count from the buffer's start, which
//! the runtime aligns to at least 64 bytes. `pld-run --sanitize race`
//! reports the same pairs at run time.

use super::order::Order;
use super::run::{EventId, EventKind, OpPair, Place, Run};
use melior::ir::operation::OperationRef;
use pld_dialect::interfaces::AccessKind;
use pld_dialect::ops::pl;
use pld_ir::read as ir;
use rustc_hash::FxHashMap as HashMap;

/// The bytes a core's data cache writes back at once.
pub const LINE_BYTES: i64 = 64;

/// A scalar write and the bytes `[start, end)` it writes.
type Write = (EventId, (i64, i64));

/// Per pair of ops, one pair of scalar writes on cores (`on_core` says
/// which ops run on one) of different threads into one line of one buffer
/// that no order puts one before the other, and whose bytes differ (writes
/// of the same bytes are a data race, reported as one).
pub fn shared_lines(
    run: &Run,
    order: &Order,
    on_core: impl Fn(&OperationRef) -> bool,
) -> Vec<(EventId, EventId)> {
    let mut writes: Vec<(EventId, Place, (i64, i64))> = Vec::new();
    for (id, event) in run.events.iter().enumerate() {
        let EventKind::Access {
            place,
            footprint,
            kind: AccessKind::Write,
        } = &event.kind
        else {
            continue;
        };
        let Some(op) = event.op else { continue };
        if ir::name(op) != pl::WriteOp::NAME || !on_core(&op) {
            continue;
        }
        writes.extend(
            footprint
                .bytes()
                .into_iter()
                .map(|bytes| (id, *place, bytes)),
        );
    }
    // In an order that extends happens-before, per line the last write of
    // each thread: a write unordered with an earlier one of another thread
    // is unordered with that thread's last before it too, or ordered after
    // it and so after the earlier one.
    writes.sort_by_key(|(id, ..)| (order.weight(*id), *id));
    let thread = |e: EventId| run.events[e].thread;
    // Per (buffer, line), per thread.
    let mut last: HashMap<(Place, i64), HashMap<usize, Write>> = HashMap::default();
    let mut found: HashMap<OpPair, (EventId, EventId)> = HashMap::default();
    for (id, place, (start, end)) in writes {
        for line in start / LINE_BYTES..=(end - 1) / LINE_BYTES {
            let writers = last.entry((place, line)).or_default();
            for (&other_thread, &(other, (other_start, other_end))) in writers.iter() {
                let overlap = other_start < end && start < other_end;
                if other_thread == thread(id) || overlap || order.ordered(other, id) {
                    continue;
                }
                found.entry(run.op_pair(other, id)).or_insert((other, id));
            }
            writers.insert(thread(id), (id, (start, end)));
        }
    }
    let mut found: Vec<(EventId, EventId)> = found.into_values().collect();
    found.sort();
    found
}
