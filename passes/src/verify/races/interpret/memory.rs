//! The integers the run follows through this rank's memory and its
//! writes into windows: what a `pl.write` of a known integer, or a copy of
//! such integers (a put, a get, a tensor's `remote_store`), leaves there,
//! for this rank's own `pl.read`s of memory that is not a window and for
//! the window reads that see it (window_values.rs).

use super::{Env, EventId, EventKind, Footprint, Place, RankRun, Touched, Val, is_integer, lookup};
use melior::ir::{Value, ValueLike, operation::OperationRef};
use pld_dialect::interfaces::{self, MemoryAccess};
use pld_dialect::ops::pl;

impl<'c, 'a> RankRun<'_, 'c, 'a> {
    /// Forgets the integers this rank wrote where a write of `footprint`
    /// lands.
    pub(super) fn forget_scalars(&mut self, place: Place, footprint: &Footprint) {
        for (start, end) in footprint.bytes() {
            // An element is at most 8 bytes: one that starts 7 before the
            // range may reach into it.
            let overlapping: Vec<(Place, i64)> = self
                .scalars
                .range((place, start - 7)..(place, end))
                .filter(|((_, first), (bytes, _))| first + bytes > start)
                .map(|(key, _)| *key)
                .collect();
            for key in overlapping {
                self.scalars.remove(&key);
            }
        }
    }

    /// The integers a write the run follows leaves in memory: a scalar
    /// write (`pl.write`) of a value the run knows, and a copy (a read and a
    /// plain write of one region, as a put, a get or a tensor's
    /// remote_store make) of integers this rank wrote into its memory. The
    /// window reads that see them take them (window_values.rs), and so do
    /// this rank's own reads of memory that is not a window.
    pub(super) fn remember_writes(
        &mut self,
        op: &OperationRef<'c, 'a>,
        accesses: &[MemoryAccess<'c, 'a>],
        touched: &[Option<Touched>],
        env: &Env,
    ) {
        if let (Some(write), [Some(touched)]) = (pl::WriteOp::operands(op), touched) {
            let Val::Memory { element_bytes, .. } = lookup(env, write.dest) else {
                return;
            };
            // An unknown value is remembered too: what this rank wrote is
            // not a value the host passes.
            let value = match lookup(env, write.value) {
                Val::Int(value) => Some(value),
                _ => None,
            };
            self.wrote(
                touched.event,
                touched.place,
                touched.byte,
                touched.window,
                element_bytes,
                value,
            );
            return;
        }
        let ([first, second], [Some(first_touched), Some(second_touched)]) = (accesses, touched)
        else {
            return;
        };
        // A put names its target first, a get its source.
        let ((from, source), (to, target)) = if first.kind == interfaces::AccessKind::Read {
            ((first, first_touched), (second, second_touched))
        } else {
            ((second, second_touched), (first, first_touched))
        };
        if self.scalars.is_empty()
            || from.kind != interfaces::AccessKind::Read
            || to.kind != interfaces::AccessKind::Write
            || source.window
        {
            return;
        }
        let element_bytes = |value: Value| match lookup(env, value) {
            Val::Memory { element_bytes, .. } => Some(element_bytes),
            _ => None,
        };
        let integers =
            |value: Value| pld_ir::types::element_type(value.r#type()).is_some_and(is_integer);
        let bytes = match (element_bytes(from.memory), element_bytes(to.memory)) {
            (Some(from_bytes), Some(to_bytes))
                if from_bytes == to_bytes && integers(from.memory) && integers(to.memory) =>
            {
                from_bytes
            }
            _ => return,
        };
        let elements = |event: EventId| match &self.run.events[event].kind {
            EventKind::Access { footprint, .. } => footprint
                .bytes()
                .into_iter()
                .flat_map(|(start, end)| (start..end).step_by(bytes as usize))
                .collect::<Vec<i64>>(),
            _ => Vec::new(),
        };
        let (sources, targets) = (elements(source.event), elements(target.event));
        if sources.len() != targets.len() {
            return;
        }
        for (from_byte, to_byte) in sources.into_iter().zip(targets) {
            if let Some(&(width, value)) = self.scalars.get(&(source.place, from_byte))
                && width == bytes
            {
                self.wrote(
                    target.event,
                    target.place,
                    to_byte,
                    target.window,
                    bytes,
                    value,
                );
            }
        }
    }

    /// Records that `event` wrote the integer `value` (`bytes` wide; `None`:
    /// not known) at `byte` of `place`.
    fn wrote(
        &mut self,
        event: EventId,
        place: Place,
        byte: i64,
        window: bool,
        bytes: i64,
        value: Option<i64>,
    ) {
        if let Some(value) = value {
            self.run.written.insert((event, byte), value);
        }
        if !window {
            self.scalars.insert((place, byte), (bytes, value));
        }
    }
}
