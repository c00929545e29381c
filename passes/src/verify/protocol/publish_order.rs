//! A payload write that is not ordered before the notify that publishes it
//! (notify-before-data): a write into a window that follows a notify in the
//! same phase (no wait in between) and that no later notify publishes.
//!
//! What a notify publishes: the payloads peers read after waiting on it.
//! - A remote write (`remote_store`, `put`) pushes data into a peer's window
//!   for the peer to read there: it is always a payload.
//! - A local write (`pl.store`, `pl.write`) into this rank's own window is a
//!   payload only when peers read that window remotely (`remote_load`,
//!   `get`): somewhere in the module a remote read names the same window
//!   buffer (the same value, a view of the same buffer, or the buffer passed
//!   to another kernel through calls). A local write into a window no one
//!   reads remotely (a statistics or output window the host collects after
//!   the kernel) is visible to no peer, so no notify can publish it early.
//! - SPEC §4's epilogue (a self-notify that atomically adds a negative
//!   amount) publishes nothing: it lowers this rank's own counter, which
//!   releases no waiter. A write after it belongs to the phase it follows.
//!   (A collective is a synchronisation, not a notify; its decomposition
//!   ends with such an epilogue.)

use super::{signals::SignalAccess, windows::WindowRoots};
use crate::report::Report;
use crate::verify::{
    ir,
    ops::{
        COLLECTIVE_SIGNALS, DEFER_WAIT, LOCAL_WRITES, NOTIFY, REMOTE_WRITES, WAIT, WINDOW_READS,
        table_operand,
    },
    placement::kernels_of,
};
use melior::ir::{Value, ValueLike, operation::OperationLike, operation::OperationRef};
use std::collections::HashMap;

/// Ops that read a peer's window (among [`WINDOW_READS`]).
const REMOTE_READS: &[&str] = &["pld.tile.remote_load", "pld.tensor.get"];

/// A payload write: the window it writes, and whether it writes a peer's
/// window (remote) or this rank's own (local).
struct Payload<'c, 'a> {
    window: Value<'c, 'a>,
    remote: bool,
}

/// The window `op` writes, if it writes one.
fn payload<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Payload<'c, 'a>> {
    let (window, remote) = match table_operand(op, REMOTE_WRITES) {
        Some(window) => (window, true),
        None => (table_operand(op, LOCAL_WRITES)?, false),
    };
    pld_dialect::types::is_distributed_tensor(window.r#type()).then_some(Payload { window, remote })
}

fn is_synchronisation(name: &str) -> bool {
    name == WAIT
        || name == DEFER_WAIT
        || COLLECTIVE_SIGNALS
            .iter()
            .any(|(collective, _)| *collective == name)
}

/// Whether `op` is a notify that publishes (not an epilogue).
fn is_publishing_notify(op: &OperationRef) -> bool {
    ir::name(op) == NOTIFY && !SignalAccess::of(*op).is_some_and(|notify| notify.is_epilogue())
}

/// The window buffers peers read remotely, each with its first remote read.
struct RemoteReads<'c, 'a> {
    roots: WindowRoots<'c, 'a>,
    first_read: HashMap<usize, OperationRef<'c, 'a>>,
}

impl<'c: 'a, 'a> RemoteReads<'c, 'a> {
    fn new(ops: &[OperationRef<'c, 'a>]) -> Self {
        let mut roots = WindowRoots::new(ops);
        let mut first_read = HashMap::new();
        for read in ops.iter().filter(|op| REMOTE_READS.contains(&ir::name(op))) {
            let Some(window) = table_operand(read, WINDOW_READS) else {
                continue;
            };
            for root in roots.of(window).iter() {
                first_read.entry(ir::value_key(*root)).or_insert(*read);
            }
        }
        Self { roots, first_read }
    }

    /// A remote read of a window buffer `window` may be.
    fn of(&mut self, window: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
        self.roots
            .of(window)
            .iter()
            .find_map(|root| self.first_read.get(&ir::value_key(*root)).copied())
    }
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    // Each kernel's own ops in program order (not those of nested tasks).
    let sequences = ir::group_in_order(ops.iter().copied().zip(kernels_of(ops)), |(_, kernel)| {
        kernel.map(|kernel| ir::op_key(&kernel))
    });
    // Found on first need: most modules write nothing after a notify.
    let mut remote_reads: Option<RemoteReads> = None;
    for sequence in &sequences {
        let mut pending_notify: Option<OperationRef> = None;
        let mut unpublished: Vec<(OperationRef, Payload, OperationRef)> = Vec::new();
        for (op, _) in sequence {
            let name = ir::name(op);
            if name == NOTIFY {
                if is_publishing_notify(op) {
                    // This notify publishes every write before it.
                    unpublished.clear();
                    pending_notify = Some(*op);
                }
            } else if is_synchronisation(name) {
                // A new phase: later writes belong to it, not to the notify.
                pending_notify = None;
            } else if let Some(notify) = pending_notify
                && let Some(payload) = payload(op)
            {
                unpublished.push((*op, payload, notify));
            }
        }
        for (write, payload, notify) in unpublished {
            if payload.remote {
                report_write(&write, &notify, None, report);
                continue;
            }
            let reads = remote_reads.get_or_insert_with(|| RemoteReads::new(ops));
            if let Some(read) = reads.of(payload.window) {
                report_write(&write, &notify, Some(&read), report);
            }
        }
    }
}

fn report_write(
    write: &OperationRef,
    notify: &OperationRef,
    remote_read: Option<&OperationRef>,
    report: &mut Report,
) {
    let mut notes = vec![(notify.location(), "the notify that publishes it".to_owned())];
    if let Some(read) = remote_read {
        notes.push((
            read.location(),
            "a peer reads the window remotely here".to_owned(),
        ));
    }
    report.error(
        write,
        &format!(
            "'{}' writes a payload after the notify that publishes it: a peer may see the \
             signal before the data; write the payload first, then notify",
            ir::name(write)
        ),
        &notes,
    );
}
