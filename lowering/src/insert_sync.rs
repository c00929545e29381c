//! `ascend-insert-sync`: the ordering the target needs around communication.
//!
//! - **release** (payload accesses complete): a payload access (`tstore`,
//!   `tload`, `tput`, `tget`, `write`, `read`, a call) that may reach a
//!   `tnotify` (or a `cross_core_signal` to the block's other core) with
//!   no `release` in between gets one right before the notify. Reads count too: a notify that says "I have read this" must
//!   not overtake a load still in flight on the MTE2 pipe;
//!   What a `cross_core_wait` hands over (the other core's writes) counts
//!   as a payload access: it is released again before a notify passes it
//!   on;
//! - **acquire** (data cache invalidated, later accesses ordered after the
//!   wait): a `twait` (or `cross_core_wait`) that may reach a payload access (`tload`, `tstore`,
//!   `read`, `write`, `tput`, `tget`, a call) with no `acquire` in between
//!   gets one right before the access. Writes count too: a wait that says
//!   "the peers have read this" must order the write that overwrites it;
//! - **pipe syncs**: the load (MTE2), vector (V) and store (MTE3) pipes run
//!   concurrently, so a vector op after a load, a store after a vector op or
//!   a load, and a load after a store or a vector op wait for the other pipe
//!   (`ascend.pipe_sync`), conservatively (any tile). The cube's pipes are
//!   kept the same way: L1 to L0 (MTE1, `textract`), the matrix unit (M,
//!   `tmatmul`) and the fixpipe (FIX, `tstore_acc`).
//!
//! - **SDMA transfers**: the SDMA engine reads and writes global memory
//!   behind the core's data cache and pipes, like a peer: a post
//!   (`tget_async`, `tput_async`) that a payload access may reach with no
//!   `release` in between gets one right before it (what the core wrote
//!   must be in memory before the engine reads it, what it loads must be
//!   read before the engine overwrites it), and its `wait_async` counts as
//!   a wait (an `acquire` before the payload accesses after it). The posts
//!   and waits are on no pipe of the core. A notify, a cross-core signal, a
//!   call or the function's return that a post may reach before its wait
//!   is an error in both modes: nothing the pass could insert would make
//!   the transfer complete (the lowering waits right after each post).
//!
//! The analysis follows structured control flow: both branches of an
//! `scf.if` may run, a loop body may follow itself. Running it twice
//! changes nothing. With `mode=check` it inserts nothing and reports a
//! module that notifies after a payload access without a release or
//! accesses a payload after a wait without an acquire, naming both ops (the original toolchain accepts
//! such modules: a data race on hardware).

use melior::ir::{
    BlockLike, BlockRef, RegionLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::enums::ascend::Pipe;
use pld_dialect::interfaces::ascend as traits;
use pld_dialect::ops::{ascend, func, scf};
use pld_ir::pass::bridge::OptionError;
use pld_ir::pass::declared::ascend_insert_sync as declared;
use pld_ir::{
    Builder, OpRef, nested_ops,
    pass::bridge::{Pass, PassFailed, PassOption, PassStatistic, Statistics},
    read::name,
};
use pld_ir::{
    build::ascend::{AscendBuilder, specifiers},
    pass::report::Report,
};

/// The `ascend-insert-sync` pass.
pub struct InsertSync {
    check_only: bool,
}

impl Pass for InsertSync {
    const ARGUMENT: &'static str = declared::ARGUMENT;
    const DESCRIPTION: &'static str = declared::SUMMARY;
    const OPTIONS: &'static [PassOption] = declared::OPTIONS;
    const STATISTICS: &'static [PassStatistic] = declared::STATISTICS;

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        match declared::Options::parse(values)?.mode.as_str() {
            "insert" => Ok(Self { check_only: false }),
            "check" => Ok(Self { check_only: true }),
            other => {
                Err(format!("expected mode to be 'insert' or 'check', found '{other}'").into())
            }
        }
    }

    fn run(&self, root: OperationRef, statistics: &Statistics) -> Result<(), PassFailed> {
        // SAFETY: see the documentation of `pld_ir`.
        let root: OpRef = unsafe { OpRef::from_raw(root.to_raw()) };
        let mut walker = Walker {
            check_only: self.check_only,
            report: Report::default(),
            inserted: 0,
            pipes: VECTOR_PIPES,
            posts: Vec::new(),
        };
        for function in nested_ops(root)
            .into_iter()
            .filter(|op| is_core_function(*op))
        {
            walker.pipes = pipes_of(function);
            walker.posts = nested_ops(function)
                .into_iter()
                .filter(|op| is_post(*op))
                .collect();
            if let Some(body) = entry_block(function, 0) {
                walker.block(body, State::default(), true);
            }
        }
        statistics.add(&declared::SYNCS, walker.inserted);
        if walker.report.failed() {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

/// The pipes whose ordering the pass keeps on a vector core: load, vector,
/// store.
const VECTOR_PIPES: &[Pipe] = &[Pipe::Mte2, Pipe::V, Pipe::Mte3];

/// The pipes whose ordering the pass keeps on the cube: load into L1, L1 to
/// L0, the matrix unit and the fixpipe.
const CUBE_PIPES: &[Pipe] = &[Pipe::Mte2, Pipe::Mte1, Pipe::M, Pipe::Fix];

/// Every pipe either core has, for the bits of [`pair_bit`].
const ALL_PIPES: [Pipe; 6] = [
    Pipe::Mte2,
    Pipe::V,
    Pipe::Mte3,
    Pipe::Mte1,
    Pipe::M,
    Pipe::Fix,
];

/// A bit per ordered pair of pipes: `src` did work that `dst` has not
/// synchronised with yet.
fn pair_bit(src: Pipe, dst: Pipe) -> u64 {
    let index = |pipe: Pipe| ALL_PIPES.iter().position(|candidate| *candidate == pipe);
    match (index(src), index(dst)) {
        (Some(src), Some(dst)) => 1 << (src * ALL_PIPES.len() + dst),
        _ => 0,
    }
}

/// The pipes of the core `function` runs on: the cube's when it holds an
/// op on a pipe only the cube has.
fn pipes_of(function: OpRef) -> &'static [Pipe] {
    let on_cube = nested_ops(function).into_iter().any(|op| {
        traits::pipe(&op).is_some_and(|pipe| matches!(pipe, Pipe::Mte1 | Pipe::M | Pipe::Fix))
    });
    if on_cube { CUBE_PIPES } else { VECTOR_PIPES }
}

/// What may be pending at a point of the program.
#[derive(Clone, Copy, Default)]
struct State<'c> {
    /// A payload access not yet released.
    unreleased: Option<OpRef<'c>>,
    /// A wait not yet acquired.
    unacquired: Option<OpRef<'c>>,
    /// Pipe pairs not synchronised since the source pipe worked.
    pending: u64,
    /// SDMA posts not waited for yet: a bit per post of the function
    /// ([`post_bit`]).
    in_flight: u64,
}

impl<'c> State<'c> {
    /// Either of two paths may have been taken.
    fn join(self, other: Self) -> Self {
        Self {
            unreleased: self.unreleased.or(other.unreleased),
            unacquired: self.unacquired.or(other.unacquired),
            pending: self.pending | other.pending,
            in_flight: self.in_flight | other.in_flight,
        }
    }

    /// `pipe` worked: every other pipe of the core must sync with it before
    /// relying on its results or reusing its inputs.
    fn worked(&mut self, pipe: Pipe, pipes: &[Pipe]) {
        for &other in pipes {
            if other != pipe {
                self.pending |= pair_bit(pipe, other);
            }
        }
    }
}

struct Walker<'c> {
    check_only: bool,
    report: Report,
    /// The releases, acquires and pipe syncs inserted (a statistic).
    inserted: u64,
    /// The pipes of the core the function walked runs on.
    pipes: &'static [Pipe],
    /// The SDMA posts of the function walked, in program order.
    posts: Vec<OpRef<'c>>,
}

impl<'c> Walker<'c> {
    /// Walks `block` from `state`; with `apply` false it only computes the
    /// state at the end (for loop fixed points).
    fn block(&mut self, block: BlockRef<'c, 'c>, mut state: State<'c>, apply: bool) -> State<'c> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            // SAFETY: see the documentation of `pld_ir`.
            let op: OpRef = unsafe { OpRef::from_raw(op.to_raw()) };
            state = self.op(op, state, apply);
        }
        state
    }

    /// The state after `op`: its own effect, then the regions it holds.
    fn op(&mut self, op: OpRef<'c>, mut state: State<'c>, apply: bool) -> State<'c> {
        let builder = Builder::before(op);
        self.sync_pipes(op, &builder, &mut state, apply);
        self.acquire(op, &builder, &mut state, apply);
        self.drain_before_call(op, &builder, &mut state, apply);
        self.complete_transfers(op, &mut state, apply);
        self.release(op, &builder, &mut state, apply);
        self.record(op, &mut state);
        self.regions(op, state, apply)
    }

    /// A pipe op waits for the pipes whose pending work it depends on.
    fn sync_pipes(
        &mut self,
        op: OpRef<'c>,
        builder: &Builder<'c>,
        state: &mut State<'c>,
        apply: bool,
    ) {
        if let Some(pipe) = traits::pipe(&op) {
            for &src in self.pipes {
                let bit = pair_bit(src, pipe);
                if src != pipe && state.pending & bit != 0 {
                    if apply && !self.check_only {
                        builder.pipe_sync(src, pipe);
                        self.inserted += 1;
                    }
                    state.pending &= !bit;
                }
            }
            state.worked(pipe, self.pipes);
        }
        if let Some(sync) = ascend::PipeSyncOp::attributes(&op) {
            state.pending &= !pair_bit(sync.src, sync.dst);
        }
    }

    /// Acquire before a payload access that a wait may precede.
    fn acquire(
        &mut self,
        op: OpRef<'c>,
        builder: &Builder<'c>,
        state: &mut State<'c>,
        apply: bool,
    ) {
        let op_name = name(op);
        if (reads_payload(op) || writes_payload(op))
            && let Some(wait) = state.unacquired
        {
            if apply {
                if self.check_only {
                    self.report.error(
                        &op,
                        &format!(
                            "'{op_name}' accesses a payload after a wait without an \
                             ascend.acquire between them: a read may see what was there \
                             before the peer published, a write may land before the \
                             peer has finished with what it overwrites"
                        ),
                        &[(wait.location(), "the wait".to_owned())],
                    );
                } else {
                    builder.acquire();
                    self.inserted += 1;
                }
            }
            state.unacquired = None;
        }
    }

    /// A callee is analysed on its own, from a clean slate: hand it no pipe
    /// work in flight.
    fn drain_before_call(
        &mut self,
        op: OpRef<'c>,
        builder: &Builder<'c>,
        state: &mut State<'c>,
        apply: bool,
    ) {
        if is_call(op) {
            if apply && !self.check_only {
                for &src in self.pipes {
                    for &dst in self.pipes {
                        if src != dst && state.pending & pair_bit(src, dst) != 0 {
                            builder.pipe_sync(src, dst);
                            self.inserted += 1;
                        }
                    }
                }
            }
            state.pending = 0;
        }
    }

    /// A notify, a cross-core signal, a call or the return must not pass an
    /// SDMA transfer still in flight: an error at it, with a note on the
    /// post.
    fn complete_transfers(&mut self, op: OpRef<'c>, state: &mut State<'c>, apply: bool) {
        let op_name = name(op);
        let publishes = matches!(
            op_name,
            ascend::TNotifyOp::NAME | ascend::CrossCoreSignalOp::NAME
        );
        let returns = op_name == func::ReturnOp::NAME;
        if state.in_flight == 0 || !(publishes || returns || is_call(op)) {
            return;
        }
        let bit = state.in_flight.trailing_zeros() as usize;
        if apply && let Some(post) = self.posts.get(bit).or(self.posts.last()) {
            let what = if returns {
                "the function returns while".to_owned()
            } else {
                format!("'{op_name}' follows")
            };
            self.report.error(
                &op,
                &format!(
                    "{what} an SDMA transfer that no ascend.wait_async has completed: the \
                     transfer may still be moving data (wait for its event first)"
                ),
                &[(post.location(), "the SDMA transfer".to_owned())],
            );
        }
        state.in_flight = 0;
    }

    /// Release before a notify (or a call, which may notify) that may
    /// publish a payload or release one that was read.
    fn release(
        &mut self,
        op: OpRef<'c>,
        builder: &Builder<'c>,
        state: &mut State<'c>,
        apply: bool,
    ) {
        let op_name = name(op);
        let publishes = matches!(
            op_name,
            ascend::TNotifyOp::NAME | ascend::CrossCoreSignalOp::NAME
        );
        let posts = is_post(op);
        if (publishes || posts || is_call(op))
            && let Some(access) = state.unreleased
        {
            if apply {
                if self.check_only {
                    let message = if posts {
                        format!(
                            "'{op_name}' follows a payload access without an ascend.release \
                             between them: the SDMA engine may read what the core has not \
                             written back, or overwrite what a load is still reading"
                        )
                    } else {
                        let what = if publishes {
                            format!("'{op_name}' follows")
                        } else {
                            format!("'{op_name}' (whose callee may notify) follows")
                        };
                        format!(
                            "{what} a payload access without an ascend.release between them: \
                             the peer may see the signal before a write has landed or while a \
                             read is still in flight"
                        )
                    };
                    self.report.error(
                        &op,
                        &message,
                        &[(access.location(), "the payload access".to_owned())],
                    );
                } else {
                    builder.release();
                    self.inserted += 1;
                }
            }
            state.unreleased = None;
        }
    }

    /// What `op` leaves pending: the access to release, the wait to acquire
    /// after, the pipes a callee may leave busy.
    fn record(&self, op: OpRef<'c>, state: &mut State<'c>) {
        let op_name = name(op);
        match op_name {
            ascend::ReleaseOp::NAME => state.unreleased = None,
            ascend::AcquireOp::NAME => state.unacquired = None,
            ascend::TWaitOp::NAME => state.unacquired = Some(op),
            // The SDMA engine wrote behind the data cache: what follows reads
            // the destination after an acquire, as after a TWAIT.
            ascend::WaitAsyncOp::NAME => {
                state.unacquired = Some(op);
                state.in_flight &= !self.waited_posts(op);
            }
            ascend::TGetAsyncOp::NAME | ascend::TPutAsyncOp::NAME => {
                state.in_flight |= self.post_bit(op);
            }
            // What the other core of the block wrote, this core may pass on
            // to a peer: it is released again before a notify (or a call)
            // publishes it.
            ascend::CrossCoreWaitOp::NAME => {
                state.unacquired = Some(op);
                state.unreleased = Some(op);
            }
            _ => {}
        }
        if writes_payload(op) || reads_payload(op) {
            state.unreleased = Some(op);
        }
        if is_call(op) {
            // A callee may write payloads, wait, and leave every pipe busy.
            state.unreleased = Some(op);
            state.unacquired = Some(op);
            for &pipe in self.pipes {
                state.worked(pipe, self.pipes);
            }
        }
    }

    /// The state after the regions of `op` (structured control flow), each
    /// walked from the state before it.
    fn regions(&mut self, op: OpRef<'c>, state: State<'c>, apply: bool) -> State<'c> {
        let op_name = name(op);
        match op_name {
            scf::IfOp::NAME | scf::ExecuteRegionOp::NAME | scf::IndexSwitchOp::NAME => {
                let mut joined: Option<State> = None;
                for index in 0..op.region_count() {
                    let exit = match entry_block(op, index) {
                        Some(block) => self.block(block, state, apply),
                        None => state,
                    };
                    joined = Some(joined.map_or(exit, |joined| joined.join(exit)));
                }
                // An `scf.if` without else may skip its only region.
                if op_name == scf::IfOp::NAME && entry_block(op, 1).is_none() {
                    joined = joined.map(|joined| joined.join(state));
                }
                joined.unwrap_or(state)
            }
            scf::ForOp::NAME => {
                let Some(body) = entry_block(op, 0) else {
                    return state;
                };
                // A body may follow itself: its entry state includes its own
                // exit (one dry run reaches the fixed point of this gen/kill
                // lattice).
                let entry = state.join(self.block(body, state, false));
                let exit = self.block(body, entry, apply);
                // Zero iterations leave the state as it was.
                exit.join(state)
            }
            scf::WhileOp::NAME => {
                // `before` runs first and after every `do`; the loop leaves
                // from the end of `before` (scf.condition).
                let (Some(before), Some(after)) = (entry_block(op, 0), entry_block(op, 1)) else {
                    return state;
                };
                let first = self.block(before, state, false);
                let again = self.block(after, first, false);
                let entry = state.join(again);
                let exit = self.block(before, entry, apply);
                self.block(after, exit, apply);
                exit
            }
            _ => state,
        }
    }

    /// The bit of the SDMA post `op` in [`State::in_flight`] (the posts
    /// after the 63rd share the last bit).
    fn post_bit(&self, op: OpRef<'c>) -> u64 {
        let index = self.posts.iter().position(|post| *post == op).unwrap_or(63);
        1 << index.min(63)
    }

    /// The posts a `wait_async` completes: the one that made its event, or
    /// every one when the event came through a block argument.
    fn waited_posts(&self, wait: OpRef<'c>) -> u64 {
        let event = ascend::WaitAsyncOp::operands(&wait).map(|wait| wait.event);
        match event.and_then(pld_ir::read::defining_op) {
            Some(post) if is_post(post) => self.post_bit(post),
            _ => u64::MAX,
        }
    }
}

/// Whether `op` posts a transfer to the SDMA engine.
fn is_post(op: OpRef) -> bool {
    matches!(
        name(op),
        ascend::TGetAsyncOp::NAME | ascend::TPutAsyncOp::NAME
    )
}

/// Whether `op` is a function that runs on an AI core: one emitted with
/// `__aicore__` (host code and entry wrappers order nothing themselves:
/// task and kernel boundaries synchronise).
fn is_core_function(op: OpRef) -> bool {
    name(op) == func::FuncOp::NAME
        && specifiers(op)
            .iter()
            .any(|word| word.contains("__aicore__"))
}

fn entry_block<'c>(op: OpRef<'c>, region: usize) -> Option<BlockRef<'c, 'c>> {
    let block = op.region(region).ok()?.first_block()?;
    // SAFETY: see the documentation of `pld_ir`.
    Some(unsafe { BlockRef::from_raw(block.to_raw()) })
}

/// Whether `op` writes a payload in global memory (ODS: `WritesPayload`).
fn writes_payload(op: OpRef) -> bool {
    traits::writes_payload(&op)
}

/// Whether `op` reads a payload (`ReadsPayload`) or runs a callee, which may.
fn reads_payload(op: OpRef) -> bool {
    traits::reads_payload(&op) || is_call(op)
}

/// Whether `op` calls a function: `func.call`, or an ascend op that runs a
/// callee (ODS: `RunsCallee`).
fn is_call(op: OpRef) -> bool {
    name(op) == func::CallOp::NAME || traits::runs_callee(&op)
}
