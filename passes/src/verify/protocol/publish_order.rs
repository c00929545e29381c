//! A payload write that is not ordered before the notify that publishes it
//! (notify-before-data): a write into a window that follows a notify in the
//! same phase (no wait in between) and that no later notify publishes.
//!
//! "Follows" is program order on every path: the notify stands before the
//! write in the write's block or in a block around it. A notify in one
//! branch of an `scf.if` (on the rank, say) comes before nothing in the
//! other branch or after the `if`; a later notify publishes a write only
//! where it too stands on every path after it.
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
//! - semantics §4's epilogue (a self-notify that atomically adds a negative
//!   amount) publishes nothing: it lowers this rank's own counter, which
//!   releases no waiter. A write after it belongs to the phase it follows.
//!   (A collective is a synchronisation, not a notify; its decomposition
//!   ends with such an epilogue.)

use super::{signals::SignalAccess, windows::WindowRoots};
use crate::verify::ops::{
    COLLECTIVE_SIGNALS, LOCAL_WRITES, REMOTE_WRITES, WINDOW_READS, table_operand,
};
use melior::ir::{
    BlockLike, RegionLike, Value, ValueLike, operation::OperationLike, operation::OperationRef,
};
use pld_dialect::ops::pld;
use pld_ir::ValueKey;
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use std::collections::HashMap;

/// Ops that read a peer's window (among [`WINDOW_READS`]).
const REMOTE_READS: &[&str] = &[pld::TileRemoteLoadOp::NAME, pld::TensorGetOp::NAME];

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
    name == pld::SystemWaitOp::NAME
        || name == pld::SystemDeferWaitOp::NAME
        || COLLECTIVE_SIGNALS
            .iter()
            .any(|(collective, _)| *collective == name)
}

/// Whether `op` is a notify that publishes (not an epilogue).
fn is_publishing_notify(op: &OperationRef) -> bool {
    ir::name(op) == pld::SystemNotifyOp::NAME
        && !SignalAccess::of(*op).is_some_and(|notify| notify.is_epilogue())
}

/// The window buffers peers read remotely, each with its first remote read.
struct RemoteReads<'c, 'a> {
    roots: WindowRoots<'c, 'a>,
    first_read: HashMap<ValueKey, OperationRef<'c, 'a>>,
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

/// What the last notify or synchronisation on the path to an op was.
#[derive(Clone, Copy)]
enum Last<'c, 'a> {
    Nothing,
    Notify(OperationRef<'c, 'a>),
    Synchronisation,
}

/// One block being walked: what came last on the path into it, and the
/// writes since its start that a notify came before and none after.
struct Frame<'c, 'a> {
    last: Last<'c, 'a>,
    unpublished: Vec<(OperationRef<'c, 'a>, Payload<'c, 'a>, OperationRef<'c, 'a>)>,
}

/// Walks `block`'s ops in order. An op runs after another on every path
/// only if the other stands in its block or an enclosing one: a notify in
/// one branch of an `scf.if` (one rank's, say) is not program order for a
/// write in the other branch or after the `if`. A notify publishes the
/// writes of its block and of the regions nested in it before it.
fn walk<'c: 'a, 'a>(block: melior::ir::BlockRef<'c, 'a>, frames: &mut Vec<Frame<'c, 'a>>) {
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = ir::name(op);
        let frame = frames.last_mut().expect("a frame per block");
        if name == pld::SystemNotifyOp::NAME {
            if is_publishing_notify(&op) {
                frame.unpublished.clear();
                frame.last = Last::Notify(op);
            }
        } else if is_synchronisation(name) {
            frame.last = Last::Synchronisation;
        } else if let (Last::Notify(notify), Some(payload)) = (frame.last, payload(&op)) {
            frame.unpublished.push((op, payload, notify));
        }
        // Tasks are kernels of their own (walked from their scope).
        if pld_ir::analysis::place::TASK_SCOPES.contains(&name) {
            continue;
        }
        for region in op.regions() {
            let mut inner = region.first_block();
            while let Some(current) = inner {
                let last = frames.last().expect("a frame").last;
                frames.push(Frame {
                    last,
                    unpublished: Vec::new(),
                });
                walk(current, frames);
                let done = frames.pop().expect("pushed above");
                frames
                    .last_mut()
                    .expect("a frame")
                    .unpublished
                    .extend(done.unpublished);
                inner = current.next_in_region();
            }
        }
    }
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    // Found on first need: most modules write nothing after a notify.
    let mut remote_reads: Option<RemoteReads> = None;
    let kernels = ops.iter().filter(|op| {
        ir::is_function(op) || pld_ir::analysis::place::TASK_SCOPES.contains(&ir::name(op))
    });
    for kernel in kernels {
        let mut frames = Vec::new();
        for region in kernel.regions() {
            if let Some(block) = region.first_block() {
                frames.push(Frame {
                    last: Last::Nothing,
                    unpublished: Vec::new(),
                });
                walk(block, &mut frames);
            }
        }
        for (write, payload, notify) in frames.into_iter().flat_map(|frame| frame.unpublished) {
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
