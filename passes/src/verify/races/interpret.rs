//! Every rank's run of an entry function on a given rank count, computed
//! from the IR: the rank's id and the rank count are known, so each rank's
//! branches, loop bounds, peers, cells and regions are evaluated (with
//! `verify::fold` for arithmetic), loops unrolled, calls inlined, tasks and
//! lanes started as threads. What the IR leaves unknown (an entry
//! argument's value, data read from memory, a dynamic shape) stops the run
//! as undecided, and the rule says so instead of guessing.

mod memory;

use super::arguments::{Binding, Role};
use super::footprint::Footprint;
use super::inputs::{self, InputRead, Inputs};
use super::run::{BufferId, Cell, EventId, EventKind, Place, Run, ThreadId, UnknownValue};
use super::window_values::{Assumed, WindowRead};
use crate::verify::declarations::{Declaration, Declarations};
use melior::ir::{
    BlockLike, Location, RegionLike, Value, ValueLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::{func, memref, scf};
use pld_dialect::{
    interfaces::{self, Index, MemoryAccess, SignalEffect},
    ops::{pl, pld},
    types,
};
use pld_ir::analysis::{fold, place::runs_on_core};
use pld_ir::read::{self as ir, callee_name, symbol_name};
use pld_ir::{OpKey, ValueKey};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

mod fused;

/// Why a run stops before its end.
pub enum Stop<'c> {
    /// The IR does not say enough: the reason and where.
    Undecided(String, Location<'c>),
    /// The program traps on this rank count: an access outside its memory
    /// or a peer outside `0..n`. What traps, where, and the op.
    Trap(String, Location<'c>, OpKey),
    /// The run needs the value of the entry's integer argument: its index,
    /// and what the value decides.
    Argument(usize, Role),
}

type Flow<'c, T> = Result<T, Stop<'c>>;

/// How much one run may take before it is undecided: the rule stays
/// near-linear in the module, however long its loops.
const MAX_STEPS: usize = 1_000_000;
const MAX_EVENTS: usize = 200_000;
/// The most byte intervals one access may have (a region of many short
/// rows of a wide tensor).
const MAX_INTERVALS: usize = 4096;
const MAX_CALL_DEPTH: usize = 64;

#[derive(Clone, Debug)]
enum Val {
    Int(i64),
    /// A tensor or memref: its buffer, shape (row-major) and element size.
    Memory {
        buffer: BufferId,
        shape: Vec<i64>,
        element_bytes: i64,
    },
    /// A window buffer (`alloc_window_buffer`).
    Buffer(BufferId),
    /// The communication context of a window over this buffer
    /// (`get_comm_ctx`): its comm group's, or the world's.
    Ctx(BufferId),
    /// The threads of a task (one per block).
    Task(Vec<ThreadId>),
    /// An integer the entry's scalar argument of this index decides (the
    /// argument, or a value computed from it) while it has no value.
    Arg(usize),
    Unknown,
}

/// Where code runs: its thread, and what `get_block_idx` and `get_aiv_id`
/// answer there.
#[derive(Clone, Copy)]
struct Context {
    thread: ThreadId,
    block: i64,
    lane: i64,
    incore: bool,
}

type Env = HashMap<ValueKey, Val>;

/// Where an access landed: its event, the place, its first byte, and
/// whether the place is a window (which peers write too).
struct Touched {
    event: EventId,
    place: Place,
    byte: i64,
    window: bool,
}

/// Runs `entry` on every rank of `ranks`, its integer arguments given by
/// `bindings` (by argument index; an unbound one stops the run with
/// [`Stop::Argument`] where its value is needed), and so the elements of
/// its memory it reads as integers, numbered after them in `inputs`.
pub fn run<'c, 'a>(
    entry: OperationRef<'c, 'a>,
    program: &mut Program<'_, 'c, 'a>,
    ranks: usize,
    launches: &Launches,
    bindings: &[Option<Binding>],
    inputs: &mut Inputs,
    assumed: &Assumed,
) -> Result<Run<'c, 'a>, Stop<'c>> {
    let mut run = Run::new(ranks);
    let mut buffers = Buffers::default();
    let incore = runs_on_core(&entry, program.default_kind);
    let mut steps = 0;
    // A rank counts its collectives on over the launches: the k-th call on
    // a signal is one instance across the ranks, whatever launch makes it.
    let mut collectives: Vec<HashMap<BufferId, usize>> = vec![HashMap::default(); ranks];
    // Every rank finishes a launch before any starts the next (pld-run
    // --launches); the windows, the same buffers, keep what it left.
    let mut previous: Vec<ThreadId> = Vec::new();
    for launch in 0..launches.count {
        let mut started = Vec::new();
        for (rank, counted) in collectives.iter_mut().enumerate() {
            let mut rank_run = RankRun {
                run: &mut run,
                functions: program.functions,
                default_kind: program.default_kind,
                declared: &mut *program.declared,
                rank,
                steps: &mut steps,
                buffers: &mut buffers,
                bindings,
                inputs: &mut *inputs,
                launch,
                rising: launches.rising,
                labels: launches.labels,
                allocations: HashMap::default(),
                collectives: std::mem::take(counted),
                collective_blocks: HashMap::default(),
                deferred: Vec::new(),
                depth: 0,
                location: entry.location(),
                assumed,
                scalars: BTreeMap::new(),
            };
            let label = if launches.count > 1 {
                format!("rank {rank} launch {launch}")
            } else {
                format!("rank {rank}")
            };
            let thread = rank_run.run.thread(rank, label);
            let outcome = rank_run.run_entry(&entry, thread, &previous, incore, launches.blocks);
            *counted = std::mem::take(&mut rank_run.collectives);
            match outcome {
                Ok(()) => {}
                // A trap where the run read integers from windows, which
                // may not have settled: the other ranks run on, so that the
                // reads can be checked (window_values.rs); the rank stops.
                Err(Stop::Trap(reason, location, op)) if !run.window_reads.is_empty() => {
                    run.trapped.get_or_insert((reason, location, op));
                }
                Err(stop) => return Err(stop),
            }
            started.push(thread);
        }
        previous = started;
    }
    Ok(run)
}

impl<'c, 'a> RankRun<'_, 'c, 'a> {
    /// Runs `entry` on this rank in `thread`, started after `previous`
    /// (the last launch's threads), on `blocks` blocks if it is a kernel.
    fn run_entry(
        &mut self,
        entry: &OperationRef<'c, 'a>,
        thread: ThreadId,
        previous: &[ThreadId],
        incore: bool,
        blocks: usize,
    ) -> Flow<'c, ()> {
        self.push(
            thread,
            None,
            EventKind::Start {
                spawned_by: None,
                deps: previous.to_vec(),
            },
        )?;
        let arguments = self.entry_arguments(entry)?;
        let mut tasks = Vec::new();
        if incore && blocks > 1 {
            // An entry kernel on several blocks (pld-run --blocks): a
            // thread per block, each with its block index, started by
            // the rank's and joined before its end.
            let spawn = self.push(thread, None, EventKind::Spawn)?;
            for block in 0..blocks {
                let label = format!("{} block {block}", self.run.threads[thread].label);
                let block_thread = self.start_thread(label, spawn, Vec::new())?;
                let context = Context {
                    thread: block_thread,
                    block: block as i64,
                    lane: 0,
                    incore,
                };
                let mut nested = Vec::new();
                self.call(entry, arguments.clone(), context, &mut nested)?;
                if !nested.is_empty() {
                    self.push(block_thread, None, EventKind::Join(nested))?;
                }
                self.push(block_thread, None, EventKind::End)?;
                tasks.push(block_thread);
            }
        } else {
            let context = Context {
                thread,
                block: 0,
                lane: 0,
                incore,
            };
            self.call(entry, arguments, context, &mut tasks)?;
        }
        if !tasks.is_empty() {
            self.push(thread, None, EventKind::Join(tasks))?;
        }
        self.push(thread, None, EventKind::End)?;
        Ok(())
    }
}

/// The module the runs interpret.
pub struct Program<'r, 'c, 'a> {
    /// Its functions, by symbol name.
    pub functions: &'r HashMap<String, OperationRef<'c, 'a>>,
    /// Where a function that names no kernel kind runs.
    pub default_kind: KernelKind,
    /// What its ops declare, asked once for all the runs.
    pub declared: &'r mut Declarations<'c, 'a>,
}

/// The launches of an entry the rule runs in sequence (pld-verify's
/// `launches`): every rank finishes one before any starts the next, and the
/// windows keep what it left. An argument in `rising` (one a notify's value
/// or a wait's expected value is computed from: an epoch) takes one more in
/// each launch, as a host that calls the program again passes the next
/// epoch; every other argument keeps its value.
pub struct Launches<'r> {
    pub count: usize,
    /// Blocks an entry kernel runs on (host code runs once per rank).
    pub blocks: usize,
    pub rising: &'r HashSet<usize>,
    /// What each of the entry's arguments is called in a diagnostic, made
    /// once for all its runs ([`argument_labels`]).
    pub labels: &'r [String],
}

/// What each of `entry`'s arguments (of symbol `name`) is called in a
/// diagnostic: `argument 1 of @f`, or the name its location gives it.
pub fn argument_labels(entry: &OperationRef, name: &str) -> Vec<String> {
    let Some(body) = entry.region(0).ok().and_then(|region| region.first_block()) else {
        return Vec::new();
    };
    (0..body.argument_count())
        .map(|index| {
            let argument = body.argument(index).expect("in range");
            pld_ir::location::argument_label(name, index, argument.location())
        })
        .collect()
}

/// Buffer ids shared by all ranks: an entry argument, or the n-th window
/// buffer an allocation op makes on a rank (the same on every rank).
#[derive(Default)]
struct Buffers {
    /// By the allocation op (none for an entry argument) and the count.
    ids: HashMap<(Option<OpKey>, usize), BufferId>,
    /// Collective instances by (signal buffer, how many came before on
    /// the rank).
    instances: HashMap<(BufferId, usize), usize>,
    /// The entry argument each argument buffer is.
    arguments: HashMap<BufferId, usize>,
    /// The entry arguments whose type leaves a dimension to the host.
    leaves_extent: HashSet<BufferId>,
    /// The world ranks of the comm group of each window buffer that has
    /// one (`alloc_window_buffer ... ranks [...]`), ascending.
    groups: HashMap<BufferId, Vec<usize>>,
}

struct RankRun<'r, 'c, 'a> {
    run: &'r mut Run<'c, 'a>,
    /// What the run assumes the windows' integers it reads hold
    /// (window_values.rs).
    assumed: &'r Assumed,
    /// The integers this rank wrote into its memory that is not a window
    /// (no peer writes there), by place and first byte: its bytes and the
    /// value. A count a kernel keeps in a scratch argument and reads back.
    /// `None`: it wrote a value the run does not know.
    scalars: BTreeMap<(Place, i64), (i64, Option<i64>)>,
    functions: &'r HashMap<String, OperationRef<'c, 'a>>,
    default_kind: KernelKind,
    declared: &'r mut Declarations<'c, 'a>,
    rank: usize,
    steps: &'r mut usize,
    buffers: &'r mut Buffers,
    /// The entry's integer arguments and the elements read as such.
    bindings: &'r [Option<Binding>],
    inputs: &'r mut Inputs,
    /// The launch this run of the entry is, from 0, and the arguments that
    /// rise by one per launch ([`Launches`]).
    launch: usize,
    rising: &'r HashSet<usize>,
    labels: &'r [String],
    /// How often each allocation op ran on this rank.
    allocations: HashMap<OpKey, usize>,
    /// How many collectives this rank called on each signal buffer.
    collectives: HashMap<BufferId, usize>,
    /// The block that first ran a one-core collective on each signal
    /// buffer, per group of blocks (the spawn that started them).
    collective_blocks: HashMap<(BufferId, Option<EventId>), i64>,
    /// `defer_wait` conditions, kept for their task's end.
    deferred: Vec<(ThreadId, OperationRef<'c, 'a>, EventKind)>,
    depth: usize,
    /// The entry's location, for what has no op of its own.
    location: Location<'c>,
}

fn undecided<'c, T>(reason: impl Into<String>, op: &OperationRef<'c, '_>) -> Flow<'c, T> {
    Err(Stop::Undecided(reason.into(), op.location()))
}

/// `[r0, r1) x [c0, c1)`.
pub fn region_text(offsets: &[i64], sizes: &[i64]) -> String {
    offsets
        .iter()
        .zip(sizes)
        .map(|(offset, size)| format!("[{offset}, {})", offset + size))
        .collect::<Vec<_>>()
        .join(" x ")
}

fn shape_text(shape: &[i64]) -> String {
    shape
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

impl<'c, 'a> RankRun<'_, 'c, 'a> {
    fn push(
        &mut self,
        thread: ThreadId,
        op: Option<OperationRef<'c, 'a>>,
        kind: EventKind,
    ) -> Flow<'c, EventId> {
        if self.run.events.len() >= MAX_EVENTS {
            return Err(Stop::Undecided(
                format!("the run has more than {MAX_EVENTS} accesses and signal operations"),
                op.map_or(self.location, |op| op.location()),
            ));
        }
        Ok(self.run.push(thread, op, kind))
    }

    fn buffer(&mut self, key: (Option<OpKey>, usize), label: impl FnOnce() -> String) -> BufferId {
        if let Some(id) = self.buffers.ids.get(&key) {
            return *id;
        }
        self.run.buffers.push(label());
        let id = self.run.buffers.len() - 1;
        self.buffers.ids.insert(key, id);
        id
    }

    /// The entry's arguments: each tensor and memref its own buffer, an
    /// integer its binding's value on this rank (or a value to ask for),
    /// any other scalar unknown.
    fn entry_arguments(&mut self, entry: &OperationRef<'c, 'a>) -> Flow<'c, Vec<Val>> {
        let body = entry.region(0).ok().and_then(|region| region.first_block());
        let Some(body) = body else {
            return undecided("the entry has no body", entry);
        };
        let mut values = Vec::new();
        for index in 0..body.argument_count() {
            let argument: Value = body.argument(index).expect("in range").into();
            values.push(match self.declared.layout(argument) {
                Some((mut shape, element_bytes)) => {
                    let buffer = self.buffer((None, index), || self.labels[index].clone());
                    self.buffers.arguments.insert(buffer, index);
                    if shape.contains(&types::DYNAMIC) {
                        self.buffers.leaves_extent.insert(buffer);
                    }
                    if let Some(bound) = self.bound_extent() {
                        for extent in shape.iter_mut().filter(|dim| **dim == types::DYNAMIC) {
                            *extent = bound;
                        }
                    }
                    Val::Memory {
                        buffer,
                        shape,
                        element_bytes,
                    }
                }
                None => match self.bindings.get(index) {
                    Some(Some(binding)) => {
                        let rise = if self.rising.contains(&index) {
                            self.launch as i64
                        } else {
                            0
                        };
                        Val::Int(binding.at(self.rank) + rise)
                    }
                    _ if is_integer(argument.r#type()) => Val::Arg(index),
                    _ => Val::Unknown,
                },
            });
        }
        Ok(values)
    }

    /// The extent a binding gives the entry's dynamic dimensions, once
    /// bound (inputs.rs).
    fn bound_extent(&self) -> Option<i64> {
        let slot = self.inputs.known_extent()?;
        let binding = self.bindings.get(slot)?.as_ref()?;
        Some(binding.at(self.rank))
    }

    /// The extents as a host value to ask for (`Stop::Argument` with
    /// `Role::Extent`), where `buffer` is an entry argument whose type
    /// leaves a dimension to the host and no binding fixes them yet.
    fn ask_extent(&mut self, buffer: BufferId) -> Option<Stop<'c>> {
        (self.buffers.leaves_extent.contains(&buffer) && self.bound_extent().is_none())
            .then(|| Stop::Argument(self.inputs.extent(), Role::Extent))
    }

    /// What a dynamic shape of `buffer` stops the run for: the extents
    /// (`ask_extent`), or, where no binding can fix it (a view whose size
    /// the IR does not give), undecided for `reason`.
    fn dynamic_shape<T>(
        &mut self,
        buffer: BufferId,
        reason: impl Into<String>,
        op: &OperationRef<'c, 'a>,
    ) -> Flow<'c, T> {
        match self.ask_extent(buffer) {
            Some(stop) => Err(stop),
            None => undecided(reason, op),
        }
    }

    /// The box `offsets`/`sizes` of `buffer`, or the trap of an access
    /// that leaves it.
    fn footprint(
        &self,
        op: &OperationRef<'c, 'a>,
        place: Place,
        shape: &[i64],
        offsets: Vec<i64>,
        sizes: Vec<i64>,
        element_bytes: i64,
    ) -> Flow<'c, Footprint> {
        // The region is put into words only for a trap: this runs for
        // every access of a run.
        Footprint::new(shape, offsets, sizes, element_bytes).map_err(|outside| {
            Stop::Trap(
                format!(
                    "rank {}'s {} touches {} of rank {}'s {}, whose shape is {}",
                    self.rank,
                    ir::name(op),
                    region_text(&outside.offsets, &outside.sizes),
                    place.owner,
                    self.run.buffers[place.buffer],
                    shape_text(shape)
                ),
                op.location(),
                ir::op_key(op),
            )
        })
    }

    fn step(&mut self, op: &OperationRef<'c, 'a>) -> Flow<'c, ()> {
        *self.steps += 1;
        if *self.steps > MAX_STEPS {
            return undecided(format!("the run takes more than {MAX_STEPS} steps"), op);
        }
        Ok(())
    }

    /// Runs `function` with `arguments` in `context`; its results.
    fn call(
        &mut self,
        function: &OperationRef<'c, 'a>,
        arguments: Vec<Val>,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, Vec<Val>> {
        if self.depth >= MAX_CALL_DEPTH {
            return undecided(format!("calls nest deeper than {MAX_CALL_DEPTH}"), function);
        }
        self.depth += 1;
        let mut env = Env::default();
        let results = self.region(function, 0, arguments, &mut env, context, tasks);
        self.depth -= 1;
        results
    }

    /// Runs region `index` of `op` with `arguments` for its block's
    /// arguments; the operands of its terminator.
    fn region(
        &mut self,
        op: &OperationRef<'c, 'a>,
        index: usize,
        arguments: Vec<Val>,
        env: &mut Env,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, Vec<Val>> {
        let Ok(region) = op.region(index) else {
            return Ok(Vec::new());
        };
        let Some(block) = region.first_block() else {
            return Ok(Vec::new());
        };
        if block.next_in_region().is_some() {
            return undecided("a region with more than one block", op);
        }
        for (index, value) in arguments.into_iter().enumerate() {
            if let Ok(argument) = block.argument(index) {
                env.insert(ir::value_key(argument.into()), value);
            }
        }
        let mut next = block.first_operation();
        while let Some(current) = next {
            next = current.next_in_block();
            if next.is_none() && is_terminator(&current) {
                return Ok(ir::operands(&current)
                    .into_iter()
                    .map(|value| lookup(env, value))
                    .collect());
            }
            self.op(&current, env, context, tasks)?;
        }
        Ok(Vec::new())
    }

    fn int(&self, env: &Env, value: Value, op: &OperationRef<'c, 'a>, what: &str) -> Flow<'c, i64> {
        match lookup(env, value) {
            Val::Int(known) => Ok(known),
            Val::Arg(index) => Err(Stop::Argument(index, Role::Index)),
            _ => undecided(format!("{what} of {} is not known", ir::name(op)), op),
        }
    }

    fn set_results(&self, op: &OperationRef<'c, 'a>, env: &mut Env, values: Vec<Val>) {
        for (index, value) in values.into_iter().enumerate() {
            if let Ok(result) = op.result(index) {
                env.insert(ir::value_key(result.into()), value);
            }
        }
    }

    fn op(
        &mut self,
        op: &OperationRef<'c, 'a>,
        env: &mut Env,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, ()> {
        self.step(op)?;
        let declaration = self.declared.of(op);
        if let Declaration::Accesses(accesses) = &declaration {
            let mut touched = Vec::with_capacity(accesses.len());
            for access in accesses.iter() {
                touched.push(self.access(op, access, env, context)?);
            }
            self.remember_writes(op, accesses, &touched, env);
            if let Some(value) = self.input(op, accesses, &touched, env)? {
                self.set_results(op, env, vec![value]);
                return Ok(());
            }
            return self.unknown_results(op, env);
        }
        if let Declaration::Signal(signal) = &declaration {
            return self.signal(op, signal, env, context);
        }
        if let Declaration::Collective(call) = &declaration {
            let Val::Memory { buffer, .. } = lookup(env, call.collective.signal) else {
                return undecided("the signal of the collective is not known", op);
            };
            self.meet_collective(op, call.cores, buffer, context)?;
            // A rank's own final writes come after the call's reads, ordered
            // with its own later accesses only.
            if let Some(target) = call.target {
                self.collective_write(op, target, env, context)?;
            }
            // A collective's result is its target, updated in place (the
            // ODS ties their types: AllTypesMatch<["target", "result"]>).
            if let Some(target) = call.target
                && op.result_count() == 1
            {
                let updated = lookup(env, target);
                self.set_results(op, env, vec![updated]);
                return Ok(());
            }
            return self.unknown_results(op, env);
        }
        if let Some(gemm) = fused::fused_gemm(op) {
            return self.run_fused_gemm(op, gemm, env, context, tasks);
        }
        let name = ir::name(op);
        let value = if name == pld::SystemWorldRankOp::NAME {
            Val::Int(self.rank as i64)
        } else if name == pld::SystemWorldSizeOp::NAME {
            Val::Int(self.run.ranks as i64)
        } else if let Some(rank) = pld::SystemRankOp::operands(op) {
            let group = self.ctx_group(op, rank.ctx, env)?;
            Val::Int(group.map_or(self.rank, |(_, position)| position) as i64)
        } else if let Some(nranks) = pld::SystemNranksOp::operands(op) {
            // Only a member asks (a rank outside has no size to learn).
            let group = self.ctx_group(op, nranks.ctx, env)?;
            Val::Int(group.map_or(self.run.ranks, |(group, _)| group.len()) as i64)
        } else if let Some(get) = pld::SystemGetCommCtxOp::operands(op) {
            match lookup(env, get.tensor) {
                Val::Memory { buffer, .. } => Val::Ctx(buffer),
                _ => Val::Unknown,
            }
        } else if name == pl::GetBlockIdxOp::NAME {
            Val::Int(context.block)
        } else if name == pl::GetAivIdOp::NAME {
            Val::Int(context.lane)
        } else if name == pld::TensorAllocWindowBufferOp::NAME {
            let key = (Some(ir::op_key(op)), {
                let count = self.allocations.entry(ir::op_key(op)).or_insert(0);
                *count += 1;
                *count
            });
            let label = pld::TensorAllocWindowBufferOp::get_name(op)
                .map(|name| format!("window buffer \"{name}\""))
                .unwrap_or_else(|| "a window buffer".to_owned());
            let buffer = self.buffer(key, || label);
            if let Some(Some(ranks)) = pld::TensorAllocWindowBufferOp::get_ranks(op) {
                self.comm_group(op, buffer, &ranks)?;
            }
            Val::Buffer(buffer)
        } else if name == pld::TensorWindowOp::NAME
            || name == pld::TensorReshapeOp::NAME
            || name == memref::ExpandShapeOp::NAME
            || name == memref::CollapseShapeOp::NAME
        {
            self.view(op, env)?
        } else if name == pld::TensorDimOp::NAME || name == memref::DimOp::NAME {
            let (source, dim) = match memref::DimOp::operands(op) {
                Some(dim_op) => (
                    dim_op.source,
                    match lookup(env, dim_op.index) {
                        Val::Int(index) => Some(index),
                        _ => None,
                    },
                ),
                None => (
                    pld::TensorDimOp::operands(op).expect("a tensor.dim").source,
                    pld::TensorDimOp::get_dim(op),
                ),
            };
            match (lookup(env, source), dim) {
                (Val::Memory { buffer, shape, .. }, Some(dim)) => match shape.get(dim as usize) {
                    // A dimension the host fixes is asked for; one of a
                    // view the IR does not size stays unknown.
                    Some(&types::DYNAMIC) => match self.ask_extent(buffer) {
                        Some(stop) => return Err(stop),
                        None => Val::Unknown,
                    },
                    Some(extent) => Val::Int(*extent),
                    None => Val::Unknown,
                },
                _ => Val::Unknown,
            }
        } else if name == pl::AtOp::NAME || name == pl::SpmdOp::NAME {
            return self.task(op, env, context, tasks);
        } else if name == pl::SplitAivOp::NAME {
            return self.lanes(op, env, context, tasks);
        } else {
            return self.structured(op, env, context, tasks);
        };
        self.set_results(op, env, vec![value]);
        Ok(())
    }

    /// What a collective finally writes on this rank: its target, whole;
    /// the own row of a reduce_scatter's target; nothing on a broadcast's
    /// root (its target is the source) or for a barrier.
    fn collective_write(
        &mut self,
        op: &OperationRef<'c, 'a>,
        target: Value<'c, 'a>,
        env: &Env,
        context: Context,
    ) -> Flow<'c, ()> {
        let name = ir::name(op);
        if let Some(broadcast) = pld::TensorBroadcastOp::operands(op) {
            if let Val::Arg(index) = lookup(env, broadcast.root) {
                return Err(Stop::Argument(index, Role::Root));
            }
            let root = self.int(env, broadcast.root, op, "the root")?;
            if !(0..self.run.ranks as i64).contains(&root) {
                return Err(Stop::Trap(
                    format!(
                        "rank {}'s {} names root {root}, outside 0..{}",
                        self.rank,
                        ir::name(op),
                        self.run.ranks
                    ),
                    op.location(),
                    ir::op_key(op),
                ));
            }
            if root == self.rank as i64 {
                return Ok(());
            }
        }
        // A reduce_scatter leaves this rank its own row.
        let row = (name == pld::TensorReduceScatterOp::NAME).then_some(self.rank as i64);
        self.own_access(
            op,
            lookup(env, target),
            "the collective's target",
            row,
            interfaces::AccessKind::Write,
            context.thread,
        )
    }

    /// `kind` by `thread` of `memory` (`what`, for a diagnostic) on this
    /// rank: the whole of it, or row `row` alone of a two-dimensional one.
    fn own_access(
        &mut self,
        op: &OperationRef<'c, 'a>,
        memory: Val,
        what: &str,
        row: Option<i64>,
        kind: interfaces::AccessKind,
        thread: ThreadId,
    ) -> Flow<'c, ()> {
        let Val::Memory {
            buffer,
            shape,
            element_bytes,
        } = memory
        else {
            return undecided(format!("{what} is not known"), op);
        };
        if shape.contains(&types::DYNAMIC) {
            return self.dynamic_shape(buffer, format!("the shape of {what} is dynamic"), op);
        }
        let (offsets, sizes) = match row {
            Some(row) if shape.len() == 2 => (vec![row, 0], vec![1, shape[1]]),
            _ => (vec![0; shape.len()], shape.clone()),
        };
        let place = Place {
            owner: self.rank,
            buffer,
        };
        let footprint = self.footprint(op, place, &shape, offsets, sizes, element_bytes)?;
        self.push(
            thread,
            Some(*op),
            EventKind::Access {
                place,
                footprint,
                kind,
            },
        )?;
        Ok(())
    }

    /// `thread` meets every rank's k-th call on `signal` (docs/design/
    /// races.md, rule 3): every rank's accesses before the call come before
    /// its reads (the first barrier), its reads before every rank's
    /// accesses after it (the read-complete barrier).
    fn meet_collective(
        &mut self,
        op: &OperationRef<'c, 'a>,
        cores: i64,
        signal: BufferId,
        context: Context,
    ) -> Flow<'c, ()> {
        // A collective runs on one core (block) per rank, or on its
        // `core_num` blocks, part b on block b: two blocks of one launch
        // running a one-core collective on one signal would each run the
        // whole algorithm on it (pld-run refuses to launch that).
        if cores > 1 && context.block > 0 {
            // Each block runs its part of the algorithm; which part of the
            // target each writes is the decomposition's (not modelled).
            return undecided(
                format!(
                    "{} runs on {cores} cores (blocks) per rank, and the parts the blocks \
                     run are not modelled",
                    ir::name(op)
                ),
                op,
            );
        }
        if cores == 1 {
            // The blocks of one launch (an entry's, a pl.spmd task's) are
            // threads one spawn started: two of them on one signal clash;
            // blocks of tasks in sequence do not.
            let first_event = self.run.threads[context.thread].events[0];
            let group = match &self.run.events[first_event].kind {
                EventKind::Start { spawned_by, .. } => *spawned_by,
                _ => None,
            };
            let first = *self
                .collective_blocks
                .entry((signal, group))
                .or_insert(context.block);
            if first != context.block {
                return Err(Stop::Trap(
                    format!(
                        "{} runs on one core (block) per rank, but blocks {first} and {} of rank \
                         {} both run it on {}: each would run the whole algorithm on the same \
                         signal (guard it to one block with an scf.if on pl.get_block_idx)",
                        ir::name(op),
                        context.block,
                        self.rank,
                        self.run.buffers[signal]
                    ),
                    op.location(),
                    ir::op_key(op),
                ));
            }
        }
        let thread = context.thread;
        let count = *self.collectives.entry(signal).or_insert(0);
        *self.collectives.get_mut(&signal).expect("inserted") += 1;
        let entry = self.collective_instance(signal, 2 * count);
        let exit = self.collective_instance(signal, 2 * count + 1);
        self.push(thread, Some(*op), EventKind::Collective { instance: entry })?;
        self.push(thread, Some(*op), EventKind::Collective { instance: exit })?;
        Ok(())
    }

    /// The k-th collective on a signal is one instance across the ranks.
    fn collective_instance(&mut self, signal: BufferId, count: usize) -> usize {
        let next = self.buffers.instances.len();
        *self
            .buffers
            .instances
            .entry((signal, count))
            .or_insert(next)
    }

    fn unknown_results(&self, op: &OperationRef<'c, 'a>, env: &mut Env) -> Flow<'c, ()> {
        let unknown = vec![Val::Unknown; op.result_count()];
        self.set_results(op, env, unknown);
        Ok(())
    }

    /// `pld.tensor.window`, `pld.tensor.reshape`, `memref.expand_shape` or
    /// `memref.collapse_shape`: the same buffer in the result's shape.
    fn view(&mut self, op: &OperationRef<'c, 'a>, env: &Env) -> Flow<'c, Val> {
        // The viewed buffer is the first operand of each (a window's buffer,
        // a reshape's source, a memref's to expand or collapse); the others
        // are the dynamic sizes of the result, in order.
        let source = ir::operands(op)[0];
        let source = lookup(env, source);
        let buffer = match source {
            Val::Buffer(buffer) | Val::Memory { buffer, .. } => buffer,
            _ => return Ok(Val::Unknown),
        };
        let result: Value = op.result(0).expect("a view has a result").into();
        let Some((mut shape, element_bytes)) = self.declared.layout(result) else {
            return Ok(Val::Unknown);
        };
        let mut dynamic = ir::operands(op).into_iter().skip(1);
        for dim in shape.iter_mut().filter(|dim| **dim == types::DYNAMIC) {
            if let Some(Val::Int(size)) = dynamic.next().map(|value| lookup(env, value)) {
                *dim = size;
            }
        }
        Ok(Val::Memory {
            buffer,
            shape,
            element_bytes,
        })
    }

    /// Records `access` of `op`: its event, the place and its first byte
    /// (`None` for memory of its own, which no other thread sees).
    fn access(
        &mut self,
        op: &OperationRef<'c, 'a>,
        access: &MemoryAccess<'c, 'a>,
        env: &Env,
        context: Context,
    ) -> Flow<'c, Option<Touched>> {
        let Val::Memory {
            buffer,
            shape,
            element_bytes,
        } = lookup(env, access.memory)
        else {
            // Scratch memory of its own (a tile, a local memref): private.
            return match lookup(env, access.memory) {
                Val::Unknown if pld_ir::types::shape(access.memory.r#type()).is_some() => {
                    undecided(
                        format!("the memory {} accesses is not known", ir::name(op)),
                        op,
                    )
                }
                _ => Ok(None),
            };
        };
        let owner = self.owner(op, buffer, access.peer, env)?;
        if shape.contains(&types::DYNAMIC) {
            return self.dynamic_shape(
                buffer,
                format!(
                    "the shape of the memory {} accesses is dynamic",
                    ir::name(op)
                ),
                op,
            );
        }
        let (offsets, sizes) = match &access.region {
            None => (vec![0; shape.len()], shape.clone()),
            Some((offsets, sizes)) => (
                self.indices(offsets, env, op, "an offset")?,
                self.sizes(sizes, access.sized_by, env, op)?,
            ),
        };
        let footprint = self.footprint(
            op,
            Place { owner, buffer },
            &shape,
            offsets,
            sizes,
            element_bytes,
        )?;
        if footprint.runs() > MAX_INTERVALS {
            return undecided(
                format!(
                    "{} touches more than {MAX_INTERVALS} separate ranges",
                    ir::name(op)
                ),
                op,
            );
        }
        let place = Place { owner, buffer };
        let byte = footprint.start();
        if access.kind != interfaces::AccessKind::Read && !self.scalars.is_empty() {
            self.forget_scalars(place, &footprint);
        }
        let event = self.push(
            context.thread,
            Some(*op),
            EventKind::Access {
                place,
                footprint,
                kind: access.kind,
            },
        )?;
        Ok(Some(Touched {
            event,
            place,
            byte,
            window: types::is_distributed_tensor(access.memory.r#type()),
        }))
    }

    /// The integer a scalar read (`pl.read`) gives: from a window, the
    /// value the run assumes (window_values.rs); from this rank's other
    /// memory, what it wrote there, or in an entry argument at known offsets
    /// the value a host put there, run as an argument (inputs.rs); `None`
    /// for any other access.
    fn input(
        &mut self,
        op: &OperationRef<'c, 'a>,
        accesses: &[MemoryAccess<'c, 'a>],
        touched: &[Option<Touched>],
        env: &Env,
    ) -> Flow<'c, Option<Val>> {
        // The count first: melior's `result` prints the op into the error
        // it makes for an index out of range (a store has no result).
        let ([access], [Some(touched)]) = (accesses, touched) else {
            return Ok(None);
        };
        if op.result_count() != 1 {
            return Ok(None);
        }
        let result = op.result(0).expect("one result");
        if access.kind != interfaces::AccessKind::Read
            || access.peer.is_some()
            || !is_integer(result.r#type())
        {
            return Ok(None);
        }
        if touched.window {
            let occurrence = {
                let count = self
                    .run
                    .window_occurrences
                    .entry((touched.place, touched.byte))
                    .or_insert(0);
                *count += 1;
                *count - 1
            };
            let assumed = self
                .assumed
                .get(&(touched.place, touched.byte, occurrence))
                .copied()
                .unwrap_or(Some(0));
            self.run.window_reads.push(WindowRead {
                event: touched.event,
                place: touched.place,
                byte: touched.byte,
                occurrence,
                assumed,
            });
            return Ok(Some(assumed.map_or(Val::Unknown, Val::Int)));
        }
        if let Some(&(_, value)) = self.scalars.get(&(touched.place, touched.byte)) {
            return Ok(Some(value.map_or(Val::Unknown, Val::Int)));
        }
        let Val::Memory {
            buffer,
            element_bytes,
            ..
        } = lookup(env, access.memory)
        else {
            return Ok(None);
        };
        let (Some(&argument), Some((offsets, _))) =
            (self.buffers.arguments.get(&buffer), &access.region)
        else {
            return Ok(None);
        };
        let offsets = self.indices(offsets, env, op, "an offset")?;
        let in_loop = ir::enclosing(op, &[scf::ForOp::NAME, scf::WhileOp::NAME]).is_some();
        let index = self
            .inputs
            .index(argument, &offsets, ir::op_key(op), in_loop);
        // The access above has placed the element: its own place, its byte.
        if let Entry::Vacant(entry) = self.run.input_reads.entry((touched.place, touched.byte)) {
            entry.insert(InputRead {
                index,
                location: op.location(),
                text: inputs::element_text(&offsets, &self.run.buffers[buffer]),
            });
        }
        Ok(Some(match self.bindings.get(index) {
            // Its row-major position in the argument.
            Some(Some(binding)) => {
                Val::Int(binding.at_element(self.rank, touched.byte / element_bytes))
            }
            _ => Val::Arg(index),
        }))
    }

    /// Records the comm group of a window buffer, whose ranks must exist in
    /// this run.
    fn comm_group(
        &mut self,
        op: &OperationRef<'c, 'a>,
        buffer: BufferId,
        ranks: &[i64],
    ) -> Flow<'c, ()> {
        if let Some(&outside) = ranks.iter().find(|&&rank| rank >= self.run.ranks as i64) {
            return Err(Stop::Trap(
                format!(
                    "the comm group {ranks:?} of {} names rank {outside}, outside 0..{}",
                    self.run.buffers[buffer], self.run.ranks
                ),
                op.location(),
                ir::op_key(op),
            ));
        }
        let ranks = ranks.iter().map(|&rank| rank as usize).collect();
        self.buffers.groups.entry(buffer).or_insert(ranks);
        Ok(())
    }

    /// The comm group of `buffer` that `op` uses, which only its members
    /// may, and this rank's position in it: `None` when the buffer has no
    /// group.
    fn member(
        &self,
        op: &OperationRef<'c, 'a>,
        buffer: BufferId,
    ) -> Flow<'c, Option<(&[usize], usize)>> {
        let Some(group) = self.buffers.groups.get(&buffer) else {
            return Ok(None);
        };
        match group.iter().position(|&rank| rank == self.rank) {
            Some(position) => Ok(Some((group, position))),
            None => Err(Stop::Trap(
                format!(
                    "rank {} runs {} on {}, whose comm group {group:?} it is not a member of \
                     (guard the group's work with pld.system.world_rank)",
                    self.rank,
                    ir::name(op),
                    self.run.buffers[buffer]
                ),
                op.location(),
                ir::op_key(op),
            )),
        }
    }

    /// The comm group and this rank's position in it of `ctx` (a
    /// `get_comm_ctx` of a window), or `None` for the world's.
    fn ctx_group(
        &self,
        op: &OperationRef<'c, 'a>,
        ctx: Value,
        env: &Env,
    ) -> Flow<'c, Option<(&[usize], usize)>> {
        match lookup(env, ctx) {
            Val::Ctx(buffer) => self.member(op, buffer),
            _ => Ok(None),
        }
    }

    /// The rank an access or notify on `buffer` touches: `peer`, or the
    /// own rank; a peer of a comm group's window is a rank in the group.
    fn owner(
        &self,
        op: &OperationRef<'c, 'a>,
        buffer: BufferId,
        peer: Option<Value>,
        env: &Env,
    ) -> Flow<'c, usize> {
        let group = self.member(op, buffer)?.map(|(group, _)| group);
        let size = group.map_or(self.run.ranks, <[usize]>::len);
        match peer {
            None => Ok(self.rank),
            Some(peer) => {
                if let Val::Arg(index) = lookup(env, peer) {
                    return Err(Stop::Argument(index, Role::Peer));
                }
                let peer = self.int(env, peer, op, "the peer")?;
                if (0..size as i64).contains(&peer) {
                    Ok(group.map_or(peer as usize, |group| group[peer as usize]))
                } else {
                    Err(Stop::Trap(
                        format!(
                            "rank {}'s {} reaches peer {peer}, outside 0..{size}{}",
                            self.rank,
                            ir::name(op),
                            if group.is_some() {
                                " (its comm group's ranks)"
                            } else {
                                ""
                            }
                        ),
                        op.location(),
                        ir::op_key(op),
                    ))
                }
            }
        }
    }

    fn indices(
        &self,
        list: &[Index],
        env: &Env,
        op: &OperationRef<'c, 'a>,
        what: &str,
    ) -> Flow<'c, Vec<i64>> {
        list.iter()
            .map(|index| self.index(index, env, op, what))
            .collect()
    }

    fn index(
        &self,
        index: &Index,
        env: &Env,
        op: &OperationRef<'c, 'a>,
        what: &str,
    ) -> Flow<'c, i64> {
        match index {
            Index::Constant(value) => Ok(*value),
            Index::Value(value) => self.int(env, *value, op, what),
            Index::Unknown => undecided(format!("{what} of {} is not known", ir::name(op)), op),
        }
    }

    /// The sizes of an access's region. A size the op does not know is the
    /// extent of `sized_by`'s dimension at the same distance from the last,
    /// where the op names such a tensor or memref (the source a
    /// `pld.tensor.remote_store` pushes whole): an extent the host fixes is
    /// asked for as the entry's dynamic extents are.
    fn sizes(
        &mut self,
        sizes: &[Index<'c, 'a>],
        sized_by: Option<Value<'c, 'a>>,
        env: &Env,
        op: &OperationRef<'c, 'a>,
    ) -> Flow<'c, Vec<i64>> {
        let known = !sizes.iter().any(|size| matches!(size, Index::Unknown));
        let Some(Val::Memory { buffer, shape, .. }) =
            sized_by.filter(|_| !known).map(|by| lookup(env, by))
        else {
            return self.indices(sizes, env, op, "a size");
        };
        if shape.contains(&types::DYNAMIC) {
            return self.dynamic_shape(
                buffer,
                format!("a size of {} is dynamic", ir::name(op)),
                op,
            );
        }
        // Dimension i of the region is dimension i + lead of `shape`; a size
        // it does not give is undecided as `index` says.
        let lead = shape.len() as i64 - sizes.len() as i64;
        sizes
            .iter()
            .enumerate()
            .map(|(i, size)| {
                let extent = matches!(size, Index::Unknown)
                    .then(|| usize::try_from(i as i64 + lead).ok())
                    .flatten()
                    .and_then(|dim| shape.get(dim).copied());
                extent.map_or_else(|| self.index(size, env, op, "a size"), Ok)
            })
            .collect()
    }

    fn signal(
        &mut self,
        op: &OperationRef<'c, 'a>,
        signal: &interfaces::SignalAccess<'c, 'a>,
        env: &Env,
        context: Context,
    ) -> Flow<'c, ()> {
        let Val::Memory {
            buffer,
            shape,
            element_bytes,
        } = lookup(env, signal.signal)
        else {
            return undecided("the signal is not known", op);
        };
        if shape.contains(&types::DYNAMIC) {
            return self.dynamic_shape(buffer, "the signal's shape is dynamic", op);
        }
        let owner = self.owner(op, buffer, signal.peer, env)?;
        let cell = self.indices(&signal.cell, env, op, "the cell")?;
        let ones = vec![1; cell.len()];
        let footprint = self.footprint(
            op,
            Place { owner, buffer },
            &shape,
            cell.clone(),
            ones,
            element_bytes,
        )?;
        let index = cell;
        let cell = Cell {
            place: Place { owner, buffer },
            byte: footprint.start(),
        };
        let scalar = match lookup(env, signal.scalar) {
            Val::Int(known) => known,
            Val::Arg(index) => {
                return Err(Stop::Argument(index, Role::Value));
            }
            _ => {
                // The cell is known without the value: the run goes on for
                // the mixing rule, and how it orders stays undecided where a
                // wait meets the cell (`Run::undecided_value`).
                self.run.unknown_values.push(UnknownValue {
                    cell,
                    is_wait: matches!(signal.effect, SignalEffect::WaitEq | SignalEffect::WaitGe),
                    reason: format!("the value of {} is not known", ir::name(op)),
                    location: op.location(),
                });
                0
            }
        };
        let kind = match signal.effect {
            SignalEffect::NotifySet | SignalEffect::NotifyAtomicAdd => EventKind::Notify {
                cell,
                value: scalar,
                set: signal.effect == SignalEffect::NotifySet,
                index,
            },
            SignalEffect::WaitEq | SignalEffect::WaitGe => EventKind::Wait {
                cell,
                expected: scalar,
                eq: signal.effect == SignalEffect::WaitEq,
                index,
            },
        };
        if signal.deferred {
            // A completion condition: it orders the task's completion, not
            // what the task does after registering it.
            self.deferred(context.thread, *op, kind);
            return Ok(());
        }
        self.push(context.thread, Some(*op), kind)?;
        Ok(())
    }

    /// Keeps a deferred condition for the end of its task.
    fn deferred(&mut self, thread: ThreadId, op: OperationRef<'c, 'a>, kind: EventKind) {
        self.deferred.push((thread, op, kind));
    }

    /// Pushes `thread`'s deferred conditions, then its end.
    fn end_task(&mut self, thread: ThreadId) -> Flow<'c, ()> {
        let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.deferred)
            .into_iter()
            .partition(|(owner, _, _)| *owner == thread);
        self.deferred = rest;
        for (_, op, kind) in mine {
            self.push(thread, Some(op), kind)?;
        }
        self.push(thread, None, EventKind::End)?;
        Ok(())
    }

    /// The threads of the tasks `values` name (a task's or a fused GEMM's
    /// `deps`, of `what`).
    fn dependencies(
        &self,
        values: Vec<Value<'c, 'a>>,
        env: &Env,
        op: &OperationRef<'c, 'a>,
        what: &str,
    ) -> Flow<'c, Vec<ThreadId>> {
        let mut deps = Vec::new();
        for value in values {
            match lookup(env, value) {
                Val::Task(threads) => deps.extend(threads),
                _ => return undecided(format!("a dependency of {what} is not known"), op),
            }
        }
        Ok(deps)
    }

    /// A new thread of this rank, started at `spawn` once `deps` completed.
    fn start_thread(
        &mut self,
        label: String,
        spawn: EventId,
        deps: Vec<ThreadId>,
    ) -> Flow<'c, ThreadId> {
        let thread = self.run.thread(self.rank, label);
        self.push(
            thread,
            None,
            EventKind::Start {
                spawned_by: Some(spawn),
                deps,
            },
        )?;
        Ok(thread)
    }

    /// `pl.at` or `pl.spmd`: a task of one thread per block, started after
    /// its dependencies, completed at the host's end.
    fn task(
        &mut self,
        op: &OperationRef<'c, 'a>,
        env: &mut Env,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, ()> {
        let name = pld_ir::attributes::task_name(op)
            .unwrap_or_default()
            .to_owned();
        // A pl.spmd: its block count and deps; a pl.at: its deps and
        // dispatch predicate.
        let (blocks, dep_values, predicate) = match pl::SpmdOp::operands(op) {
            Some(spmd) => (Some(spmd.num_blocks), spmd.deps, None),
            None => {
                let at = pl::AtOp::operands(op).expect("a task is a pl.at or a pl.spmd");
                (None, at.deps, at.dispatch_if)
            }
        };
        let deps = self.dependencies(dep_values, env, op, "the task")?;
        if let Some(predicate) = predicate
            && self.int(env, predicate, op, "the dispatch predicate")? == 0
        {
            self.set_results(op, env, vec![Val::Task(Vec::new())]);
            return Ok(());
        }
        let spmd = blocks.is_some();
        let blocks = match blocks {
            Some(count) => self.int(env, count, op, "the block count")?,
            None => 1,
        };
        let spawn = self.push(context.thread, Some(*op), EventKind::Spawn)?;
        let mut threads = Vec::new();
        for block in 0..blocks {
            let label = if spmd {
                format!("rank {} task \"{name}\" block {block}", self.rank)
            } else {
                format!("rank {} task \"{name}\"", self.rank)
            };
            let thread = self.start_thread(label, spawn, deps.clone())?;
            let inner = Context {
                thread,
                block,
                lane: 0,
                incore: true,
            };
            let mut nested = Vec::new();
            self.region(op, 0, Vec::new(), env, inner, &mut nested)?;
            if !nested.is_empty() {
                self.push(thread, None, EventKind::Join(nested))?;
            }
            self.end_task(thread)?;
            threads.push(thread);
        }
        tasks.extend(&threads);
        self.set_results(op, env, vec![Val::Task(threads)]);
        Ok(())
    }

    /// `pl.split_aiv`: the body on both AIV sub-lanes, joined at its end.
    fn lanes(
        &mut self,
        op: &OperationRef<'c, 'a>,
        env: &mut Env,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, ()> {
        let spawn = self.push(context.thread, Some(*op), EventKind::Spawn)?;
        let mut lanes = Vec::new();
        for lane in 0..2 {
            let label = format!("{} lane {lane}", self.run.threads[context.thread].label);
            let thread = self.start_thread(label, spawn, Vec::new())?;
            let inner = Context {
                thread,
                lane,
                ..context
            };
            self.region(op, 0, Vec::new(), env, inner, tasks)?;
            self.push(thread, None, EventKind::End)?;
            lanes.push(thread);
        }
        self.push(context.thread, Some(*op), EventKind::Join(lanes))?;
        Ok(())
    }

    /// `scf`, `func.call`, `arith` and every other op.
    fn structured(
        &mut self,
        op: &OperationRef<'c, 'a>,
        env: &mut Env,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, ()> {
        match ir::name(op) {
            scf::ForOp::NAME => {
                let operands = ir::operands(op);
                let lower = self.int(env, operands[0], op, "the lower bound")?;
                // An argument's first use as a loop's bound asks for the
                // counts a host passes (a number of steps, the ranks).
                if let Val::Arg(index) = lookup(env, operands[1]) {
                    return Err(Stop::Argument(index, Role::Bound));
                }
                let upper = self.int(env, operands[1], op, "the upper bound")?;
                let step = self.int(env, operands[2], op, "the step")?;
                if step <= 0 {
                    return undecided("the step of scf.for is not positive", op);
                }
                let mut carried: Vec<Val> = operands[3..].iter().map(|v| lookup(env, *v)).collect();
                let mut iv = lower;
                while iv < upper {
                    self.step(op)?;
                    let mut arguments = vec![Val::Int(iv)];
                    arguments.extend(carried);
                    carried = self.region(op, 0, arguments, env, context, tasks)?;
                    iv += step;
                }
                self.set_results(op, env, carried);
                Ok(())
            }
            scf::IfOp::NAME => {
                let condition = scf::IfOp::operands(op).expect("an scf.if").condition;
                let taken = if self.int(env, condition, op, "the condition")? != 0 {
                    0
                } else {
                    1
                };
                let results = self.region(op, taken, Vec::new(), env, context, tasks)?;
                self.set_results(op, env, results);
                Ok(())
            }
            scf::WhileOp::NAME => {
                let mut carried: Vec<Val> = ir::operands(op)
                    .into_iter()
                    .map(|v| lookup(env, v))
                    .collect();
                loop {
                    self.step(op)?;
                    let condition = self.region(op, 0, carried, env, context, tasks)?;
                    let Some((first, rest)) = condition.split_first() else {
                        return undecided("scf.while without a condition", op);
                    };
                    match first {
                        Val::Int(0) => {
                            self.set_results(op, env, rest.to_vec());
                            return Ok(());
                        }
                        Val::Int(_) => {
                            carried = self.region(op, 1, rest.to_vec(), env, context, tasks)?
                        }
                        _ => return undecided("the condition of scf.while is not known", op),
                    }
                }
            }
            scf::ExecuteRegionOp::NAME => {
                let results = self.region(op, 0, Vec::new(), env, context, tasks)?;
                self.set_results(op, env, results);
                Ok(())
            }
            func::CallOp::NAME => self.call_op(op, env, context, tasks),
            _ if op.region_count() > 0 => {
                undecided(format!("the rule does not follow {}", ir::name(op)), op)
            }
            _ => {
                let known = |value: Value| match lookup(env, value) {
                    Val::Int(v) => Some(v),
                    _ => None,
                };
                // What an argument without a value decides stays its to
                // decide (a peer cast to index, plus one).
                let unfolded = ir::operands(op)
                    .into_iter()
                    .find_map(|value| match lookup(env, value) {
                        Val::Arg(index) => Some(Val::Arg(index)),
                        _ => None,
                    })
                    .unwrap_or(Val::Unknown);
                let value = if op.result_count() == 1 {
                    fold::fold(op, known).map_or(unfolded, Val::Int)
                } else {
                    Val::Unknown
                };
                let values = std::iter::once(value)
                    .chain(std::iter::repeat(Val::Unknown))
                    .take(op.result_count())
                    .collect();
                self.set_results(op, env, values);
                Ok(())
            }
        }
    }

    fn call_op(
        &mut self,
        op: &OperationRef<'c, 'a>,
        env: &mut Env,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, ()> {
        let Some(callee) = callee_name(op).and_then(|name| self.functions.get(&name).copied())
        else {
            return undecided("the callee has no body in this module", op);
        };
        let arguments: Vec<Val> = ir::operands(op)
            .into_iter()
            .map(|v| lookup(env, v))
            .collect();
        let launches = !context.incore && runs_on_core(&callee, self.default_kind);
        if !launches {
            let results = self.call(&callee, arguments, context, tasks)?;
            self.set_results(op, env, results);
            return Ok(());
        }
        // Host code calling a kernel launches it and waits for it.
        let spawn = self.push(context.thread, Some(*op), EventKind::Spawn)?;
        let label = format!(
            "rank {} kernel @{}",
            self.rank,
            symbol_name(&callee).unwrap_or_default()
        );
        let thread = self.start_thread(label, spawn, Vec::new())?;
        let inner = Context {
            thread,
            block: 0,
            lane: 0,
            incore: true,
        };
        let mut nested = Vec::new();
        let results = self.call(&callee, arguments, inner, &mut nested)?;
        self.push(thread, None, EventKind::End)?;
        self.push(context.thread, Some(*op), EventKind::Join(vec![thread]))?;
        self.set_results(op, env, results);
        Ok(())
    }
}

fn lookup(env: &Env, value: Value) -> Val {
    env.get(&ir::value_key(value))
        .cloned()
        .unwrap_or(Val::Unknown)
}

fn is_terminator(op: &OperationRef) -> bool {
    matches!(
        ir::name(op),
        scf::YieldOp::NAME | scf::ConditionOp::NAME | func::ReturnOp::NAME
    )
}

/// Whether a scalar is an integer or an index (a value an argument may
/// carry per rank).
fn is_integer(r#type: melior::ir::Type) -> bool {
    use melior::ir::TypeLike;
    r#type.is_index() || r#type.is_integer()
}
