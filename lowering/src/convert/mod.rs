//! `convert-pld-to-ascend`: pld and pl (after `pld-to-ascend-pipeline`) to
//! the ascend target dialect.
//!
//! - Every function takes the CommContext (`!ascend.ctx`) first; a window
//!   tensor or memref argument becomes a `__gm__` pointer followed by one
//!   `index` per dynamic dimension ([`buffer::Buffer`]).
//! - Task bodies (`pl.at`, `pl.spmd`) in host orchestrators become kernels
//!   that the host submits with their `deps`; `pl.split_aiv` bodies become
//!   functions run on both AIV sub-lanes; a host's call of a kernel is a
//!   launch.
//! - Every pld and pl op becomes ascend ops (`ops.rs`); the enums map by
//!   name. A put or get with `engine sdma` becomes SDMA transfers
//!   (`sdma.rs`): a kernel that has one takes the SDMA workspace and a sync
//!   id after its context and builds its SDMA session once.
//! - Every public function gets an entry wrapper `@<name>__entry(ctx,
//!   args)` that reads its arguments from a runtime's argument array.
//! - The module includes `pld/runtime.h`; kernels come first (callees before
//!   callers), host code and entry wrappers last, between
//!   `#if PLD_HOST_CODE` and `#endif` (a device build compiles kernels only).

/// Why an op cannot be lowered, as the located error says it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConvertError(pub String);

impl From<String> for ConvertError {
    fn from(message: String) -> Self {
        ConvertError(message)
    }
}

impl From<&str> for ConvertError {
    fn from(message: &str) -> Self {
        ConvertError(message.to_owned())
    }
}

mod buffer;
mod cube;
mod elements;
mod entry;
mod handoff;
mod mixed;
pub mod names;
mod ops;
mod outline;
mod sdma;
mod signature;

use melior::ir::{
    BlockLike, RegionLike,
    attribute::StringAttribute,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::enums::{KernelKind, TransferEngine};
use pld_dialect::ops::{ascend, emitc, func, pl, pld, pld::PldOp};
use pld_ir::pass::bridge::OptionError;
use pld_ir::pass::declared::convert_pld_to_ascend as declared;
use pld_ir::pass::report::Report;
use pld_ir::{
    Builder, OpKey, OpRef,
    analysis::place::{runs_on_core, scope_of},
    build::context_of,
    nested_ops,
    pass::bridge::{Pass, PassFailed, PassOption, Statistics},
    read::{self, callee_name, name, op_key, symbol_name},
};
use std::collections::{HashMap, HashSet};

/// The `convert-pld-to-ascend` pass.
pub struct ConvertPldToAscend {
    default_kind: KernelKind,
}

impl Pass for ConvertPldToAscend {
    const ARGUMENT: &'static str = declared::ARGUMENT;
    const DESCRIPTION: &'static str = declared::SUMMARY;
    const OPTIONS: &'static [PassOption] = declared::OPTIONS;

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        Ok(Self {
            default_kind: pld_ir::analysis::place::parse_default_kind(
                &declared::Options::parse(values)?.default_kind,
            )?,
        })
    }

    fn run(&self, root: OperationRef, _: &Statistics) -> Result<(), PassFailed> {
        // SAFETY: see the documentation of `pld_ir`.
        let module: OpRef = unsafe { OpRef::from_raw(root.to_raw()) };
        let mut report = Report::default();
        reject_unexpanded(module, &mut report);
        elements::check(module, &mut report);
        if report.failed() {
            return Err(PassFailed);
        }
        names::rename_functions(module);
        handoff::insert(module);
        let mut functions = Functions::collect(module, self.default_kind);
        functions.outline_regions(&mut report);
        if report.failed() {
            return Err(PassFailed);
        }
        functions.mark_device_functions(&mut report);
        functions.mark_payload_takers();
        functions.mark_sdma_users();
        functions.mark_mixed_kernels();
        functions.mark_handoffs(&mut report);
        if report.failed() {
            return Err(PassFailed);
        }
        let symbols: Vec<String> = functions.order.clone();
        let mut mixed = Vec::new();
        for symbol in &symbols {
            let function = functions.by_symbol[symbol].clone();
            if signature::FunctionConverter::new(&functions, &function, &mut report).convert() {
                mixed.push(symbol.clone());
            }
        }
        if report.failed() {
            return Err(PassFailed);
        }
        mixed::split(&mut functions, &mixed, &mut report);
        if report.failed() {
            return Err(PassFailed);
        }
        entry::add_entry_wrappers(&mut functions);
        functions.arrange(module);
        reject_leftovers(module, &mut report);
        if report.failed() {
            return Err(PassFailed);
        }
        Ok(())
    }
}

/// Every `pl` or `pld` op the conversion left behind (one outside any
/// function, say): an error at it, so that nothing unlowered reaches the
/// C++ printer.
fn reject_leftovers(module: OpRef, report: &mut Report) {
    for op in nested_ops(module) {
        let name = name(op);
        let dialect = name.split('.').next().unwrap_or_default();
        if dialect == "pl" || dialect == "pld" {
            report.error(
                &op,
                &format!(
                    "'{name}' is left after convert-pld-to-ascend: only ops inside a function \
                     are lowered"
                ),
                &[],
            );
        }
    }
}

/// What a function becomes in C++ (where it runs is
/// `pld_ir::analysis::place`: host code, or an AI core's, which is a kernel
/// or a device function by how it is reached).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Host orchestrator code (plain C++ on the host).
    Host,
    /// A kernel: launched, submitted or run as an entry
    /// (`extern "C" __global__ __aicore__`).
    Kernel,
    /// An InCore function called from InCore code (`__aicore__`).
    Device,
}

/// One function of the module and what it becomes.
#[derive(Clone)]
pub struct Function<'c> {
    pub op: OpRef<'c>,
    pub symbol: String,
    pub kind: Kind,
    /// Outlined by this pass or generated by an earlier one (private): no
    /// entry wrapper.
    pub private: bool,
    /// The pld-level parameter types (what an entry wrapper reads).
    pub inputs: Vec<melior::ir::Type<'c>>,
    /// It moves data with the SDMA engine (a put or get with `engine
    /// sdma`): a kernel then takes the SDMA workspace and a sync id after
    /// its context (the kernel ABI), which its callers pass.
    pub sdma: bool,
    /// A kernel with cube and vector work (`ascend.run_mixed` once split):
    /// it takes the FFTS base address after its context (and its dispatch
    /// payload) (the kernel ABI), which its callers pass.
    pub mixed: bool,
    /// The bytes of hand-off space a block of this kernel needs for the
    /// `pl.matmul` products its vector work uses (`handoff.rs`), 0 for none:
    /// it then takes the space after the FFTS base address (the kernel ABI),
    /// which its callers pass.
    pub handoff_bytes: i64,
    /// It takes the task's dispatch payload after its context (the kernel
    /// ABI): a task's kernel, which the task runtime dispatches with it (it
    /// holds the block and lane the runtime dispatched the kernel for, and
    /// what deferred completions register with), and a device function
    /// that reads the block or lane index and that such a kernel reaches
    /// (`mark_payload_takers`).
    pub payload: bool,
}

/// How an outlined region op is replaced.
#[derive(Clone)]
pub struct Outlined<'c> {
    pub symbol: String,
    pub captures: Vec<pld_ir::Val<'c>>,
}

/// The module's functions, in module order, and the outlined regions.
pub struct Functions<'c> {
    pub by_symbol: HashMap<String, Function<'c>>,
    pub order: Vec<String>,
    pub outlined: HashMap<OpKey, Outlined<'c>>,
    /// The entry wrappers, once made.
    pub wrappers: Vec<OpRef<'c>>,
    default_kind: KernelKind,
}

impl<'c> Functions<'c> {
    fn collect(module: OpRef<'c>, default_kind: KernelKind) -> Self {
        let mut functions = Self {
            by_symbol: HashMap::new(),
            order: Vec::new(),
            outlined: HashMap::new(),
            wrappers: Vec::new(),
            default_kind,
        };
        let body = module.region(0).expect("a module has a body");
        let mut next = body.first_block().and_then(|block| block.first_operation());
        while let Some(op) = next {
            next = op.next_in_block();
            // SAFETY: see the documentation of `pld_ir`.
            let op: OpRef = unsafe { OpRef::from_raw(op.to_raw()) };
            if name(op) != func::FuncOp::NAME {
                continue;
            }
            let kind = if runs_on_core(&op, default_kind) {
                Kind::Kernel
            } else {
                Kind::Host
            };
            let private = func::FuncOp::get_sym_visibility(&op) == Some(Some("private"));
            functions.add(op, kind, private);
        }
        functions
    }

    fn add(&mut self, op: OpRef<'c>, kind: Kind, private: bool) {
        let symbol = symbol_name(&op).expect("a function has a name");
        let inputs = signature::function_type(op)
            .map(|function_type| {
                (0..function_type.input_count())
                    .map(|index| function_type.input(index).expect("an input"))
                    .collect()
            })
            .unwrap_or_default();
        self.order.push(symbol.clone());
        self.by_symbol.insert(
            symbol.clone(),
            Function {
                op,
                symbol,
                kind,
                private,
                inputs,
                sdma: false,
                mixed: false,
                handoff_bytes: 0,
                payload: false,
            },
        );
    }

    /// A function this pass made at the ascend level (a half of a mixed
    /// kernel), whose pld-level parameters were `inputs`.
    fn add_converted(
        &mut self,
        op: OpRef<'c>,
        symbol: &str,
        kind: Kind,
        inputs: Vec<melior::ir::Type<'c>>,
    ) {
        self.order.push(symbol.to_owned());
        self.by_symbol.insert(
            symbol.to_owned(),
            Function {
                op,
                symbol: symbol.to_owned(),
                kind,
                private: true,
                inputs,
                sdma: false,
                mixed: false,
                handoff_bytes: 0,
                payload: false,
            },
        );
    }

    /// A symbol not yet taken, from `base`, that C++ can spell: what is not
    /// a letter or digit becomes one '_' (never "__", which C++ reserves).
    fn fresh_symbol(&self, base: &str) -> String {
        let base: String = base
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("_");
        (0..)
            .map(|index| {
                if index == 0 {
                    base.clone()
                } else {
                    format!("{base}_{index}")
                }
            })
            .find(|symbol| !self.by_symbol.contains_key(symbol))
            .expect("some suffix is free")
    }

    /// Moves task and split-AIV bodies into functions of their own, function
    /// by function, the new ones included (a split region in a task body).
    fn outline_regions(&mut self, report: &mut Report) {
        let mut index = 0;
        while index < self.order.len() {
            let function = self.by_symbol[&self.order[index]].clone();
            index += 1;
            for op in nested_ops(function.op) {
                // Ops moved into a function outlined earlier belong to it.
                if read::enclosing_function(&op) != Some(function.op) {
                    continue;
                }
                let region_name = name(op);
                let (kind, hint) = match region_name {
                    pl::AtOp::NAME | pl::SpmdOp::NAME => {
                        if scope_of(&op, self.default_kind)
                            .is_some_and(|scope| scope.place.is_core())
                            || function.kind != Kind::Host
                        {
                            report.error(
                                &op,
                                &format!(
                                    "'{region_name}' inside InCore code cannot be lowered: tasks \
                                     are submitted by host orchestrators"
                                ),
                                &[(function.op.location(), "the enclosing function".to_owned())],
                            );
                            continue;
                        }
                        let hint = pld_ir::attributes::task_name(&op)
                            .unwrap_or_default()
                            .to_owned();
                        (Kind::Kernel, hint)
                    }
                    pl::SplitAivOp::NAME => {
                        if function.kind == Kind::Host {
                            report.error(
                                &op,
                                "'pl.split_aiv' in host code cannot be lowered: it splits an \
                                 AI core's work between its AIV sub-lanes",
                                &[],
                            );
                            continue;
                        }
                        if let Some(matmul) = nested_ops(op)
                            .into_iter()
                            .find(|inner| name(*inner) == pl::MatmulOp::NAME)
                        {
                            report.error(
                                &matmul,
                                "a pl.matmul inside a pl.split_aiv region cannot be lowered: \
                                 the region runs on the vector sub-lanes, and cube work goes \
                                 outside regions",
                                &[(op.location(), "the region".to_owned())],
                            );
                            continue;
                        }
                        (Kind::Device, "lanes".to_owned())
                    }
                    _ => continue,
                };
                let captured = outline::captures(op);
                // Each AIV sub-lane has its own unified buffer.
                if kind == Kind::Device
                    && let Some(tile) = captured.iter().find(|value| {
                        pld_dialect::types::is_tile(melior::ir::ValueLike::r#type(*value))
                    })
                {
                    report.error(
                        &op,
                        "a tile cannot cross into a split_aiv region: each AIV sub-lane has its \
                         own unified buffer (load it inside the region)",
                        &[(melior::ir::ValueLike::location(tile), "the tile".to_owned())],
                    );
                    continue;
                }
                let symbol = self.fresh_symbol(&format!("{}_{hint}", function.symbol));
                let last = self.order.last().expect("at least this function").clone();
                let after = self.by_symbol[&last].op;
                let kernel_kind = KernelKind::InCore;
                let new = outline::outline(op, after, &symbol, kernel_kind, &captured);
                self.add(new, kind, true);
                if kind == Kind::Kernel {
                    // A task's kernel: the task runtime dispatches it.
                    self.by_symbol.get_mut(&symbol).expect("just added").payload = true;
                }
                self.outlined.insert(
                    op_key(op),
                    Outlined {
                        symbol,
                        captures: captured,
                    },
                );
            }
        }
    }

    /// Marks the functions that move data with the SDMA engine (once every
    /// task and split region is a function of its own).
    fn mark_sdma_users(&mut self) {
        for function in self.by_symbol.values_mut() {
            function.sdma = nested_ops(function.op).into_iter().any(|op| {
                is_sdma_transfer(op) && read::enclosing_function(&op) == Some(function.op)
            });
        }
    }

    /// Marks the kernels with cube and vector work, which `mixed.rs` splits
    /// (the same test `cube::find` makes).
    fn mark_mixed_kernels(&mut self) {
        for function in self.by_symbol.values_mut() {
            function.mixed = function.kind == Kind::Kernel
                && pld_ir::analysis::place::mixed_work(&nested_ops(function.op)).is_some();
        }
    }

    /// Gives every hand-off its place in its kernel's hand-off space; only a
    /// kernel has one (its callers pass it).
    fn mark_handoffs(&mut self, report: &mut Report) {
        for function in self.by_symbol.values_mut() {
            function.handoff_bytes = handoff::assign(function.op);
            if function.handoff_bytes > 0 && function.kind != Kind::Kernel {
                let matmul = nested_ops(function.op)
                    .into_iter()
                    .find(|op| name(*op) == pl::MatmulOp::NAME)
                    .unwrap_or(function.op);
                report.error(
                    &matmul,
                    "the product of a pl.matmul that vector work uses cannot be lowered in a \
                     function InCore code calls: it goes through the hand-off space that \
                     host code passes a kernel (call the function from host code, or store \
                     the product and load it yourself)",
                    &[(function.op.location(), "the function".to_owned())],
                );
            }
        }
    }

    /// InCore functions called from InCore code are device functions.
    fn mark_device_functions(&mut self, report: &mut Report) {
        let mut device = HashSet::new();
        for symbol in &self.order {
            let caller = &self.by_symbol[symbol];
            for op in nested_ops(caller.op) {
                if name(op) != func::CallOp::NAME {
                    continue;
                }
                let Some(callee) = callee_name(&op).and_then(|callee| self.by_symbol.get(&callee))
                else {
                    continue;
                };
                match (caller.kind, callee.kind) {
                    (Kind::Kernel | Kind::Device, Kind::Kernel | Kind::Device) => {
                        device.insert(callee.symbol.clone());
                    }
                    (Kind::Kernel | Kind::Device, Kind::Host) => report.error(
                        &op,
                        &format!(
                            "InCore code cannot call the host orchestrator @{}",
                            callee.symbol
                        ),
                        &[(callee.op.location(), "the host function".to_owned())],
                    ),
                    _ => {}
                }
            }
        }
        for symbol in device {
            if let Some(function) = self.by_symbol.get_mut(&symbol) {
                function.kind = Kind::Device;
            }
        }
    }

    /// The InCore functions each InCore function runs: its calls and its
    /// split regions (outlined by now), by symbol.
    fn incore_callees(&self) -> HashMap<String, Vec<String>> {
        let mut callees: HashMap<String, Vec<String>> = HashMap::new();
        for (symbol, function) in &self.by_symbol {
            if function.kind == Kind::Host {
                continue;
            }
            let runs = nested_ops(function.op).into_iter().filter_map(|op| {
                if name(op) == func::CallOp::NAME {
                    callee_name(&op)
                } else if name(op) == pl::SplitAivOp::NAME {
                    self.outlined
                        .get(&op_key(op))
                        .map(|outlined| outlined.symbol.clone())
                } else {
                    None
                }
            });
            callees.insert(
                symbol.clone(),
                runs.filter(|callee| {
                    self.by_symbol
                        .get(callee)
                        .is_some_and(|callee| callee.kind != Kind::Host)
                })
                .collect(),
            );
        }
        callees
    }

    /// Marks the functions that take the task's dispatch payload: task
    /// kernels (marked when outlined), a kernel that defers its completion,
    /// and the device functions reachable from those that read the block or
    /// lane index, themselves or through their callees. Under the task
    /// runtime those indices are in the payload, not in the registers
    /// (docs/lowering.md, the kernel ABI); a kernel launched without it
    /// passes such a function a null payload, from which they are read from
    /// the registers.
    fn mark_payload_takers(&mut self) {
        for function in self.by_symbol.values_mut() {
            if function.kind == Kind::Kernel
                && nested_ops(function.op)
                    .into_iter()
                    .any(|op| name(op) == pld::SystemDeferWaitOp::NAME)
            {
                function.payload = true;
            }
        }
        let callees = self.incore_callees();
        let mut reads_indices: HashSet<String> = self
            .by_symbol
            .iter()
            .filter(|(_, function)| {
                nested_ops(function.op).into_iter().any(|op| {
                    matches!(name(op), pl::GetBlockIdxOp::NAME | pl::GetAivIdOp::NAME)
                        && read::enclosing_function(&op) == Some(function.op)
                })
            })
            .map(|(symbol, _)| symbol.clone())
            .collect();
        let mut reached: HashSet<String> = self
            .by_symbol
            .iter()
            .filter(|(_, function)| function.payload)
            .map(|(symbol, _)| symbol.clone())
            .collect();
        // Both grow to their fixed points over the call graph.
        let mut changed = true;
        while changed {
            changed = false;
            for (caller, runs) in &callees {
                if !reads_indices.contains(caller)
                    && runs.iter().any(|callee| reads_indices.contains(callee))
                {
                    changed |= reads_indices.insert(caller.clone());
                }
                if reached.contains(caller) {
                    for callee in runs {
                        changed |= reached.insert(callee.clone());
                    }
                }
            }
        }
        for (symbol, function) in self.by_symbol.iter_mut() {
            if function.kind == Kind::Device
                && reached.contains(symbol)
                && reads_indices.contains(symbol)
            {
                function.payload = true;
            }
        }
    }

    /// Puts the module in the order C++ needs, with the prologue: the
    /// runtime header, device functions (callees first), kernels, then host
    /// code and entry wrappers between `#if PLD_HOST_CODE` and `#endif`.
    fn arrange(&self, module: OpRef<'c>) {
        let body = module
            .region(0)
            .expect("a module has a body")
            .first_block()
            .expect("a module has a block");
        // SAFETY: see the documentation of `pld_ir`.
        let body = unsafe { melior::ir::BlockRef::from_raw(body.to_raw()) };
        let context = context_of(module);
        let builder = Builder::at_end(context, module.location(), body);
        let include = builder.insert(include_op(&builder, "pld/runtime.h"));
        // Only a module that reads its dispatch payload (a deferred
        // completion, a block or lane index a task was dispatched for, an
        // SDMA session on its lane's channel)
        // depends on the task runtime's API (pld/runtime/task_runtime.h);
        // a kernel that only passes it on needs no more than its type.
        let reads_payload = nested_ops(module).into_iter().any(|op| {
            name(op) == ascend::DeferCompletionOp::NAME
                || ascend::BlockIdxOp::operands(&op).is_some_and(|query| query.payload.is_some())
                || ascend::SubblockIdxOp::operands(&op).is_some_and(|query| query.payload.is_some())
                || ascend::SdmaSessionOp::operands(&op)
                    .is_some_and(|session| session.payload.is_some())
        });
        let task_runtime = reads_payload
            .then(|| builder.insert(include_op(&builder, "pld/runtime/task_runtime.h")));
        let host_begin = verbatim(&builder, "#if PLD_HOST_CODE");
        let host_end = verbatim(&builder, "#endif  // PLD_HOST_CODE");
        let first = body.first_operation().expect("the include at least");
        // SAFETY: all three are ops of the module's block.
        unsafe { mlir_sys::mlirOperationMoveBefore(include.to_raw(), first.to_raw()) };

        let mut anchor = include;
        let place = |op: OpRef<'c>, anchor: &mut OpRef<'c>| {
            // SAFETY: both are ops of the module's block.
            unsafe { mlir_sys::mlirOperationMoveAfter(op.to_raw(), anchor.to_raw()) };
            *anchor = op;
        };
        if let Some(task_runtime) = task_runtime {
            place(task_runtime, &mut anchor);
        }
        for kind in [Kind::Device, Kind::Kernel] {
            for symbol in self.callees_first(kind) {
                place(self.by_symbol[&symbol].op, &mut anchor);
            }
        }
        place(host_begin, &mut anchor);
        for symbol in self.callees_first(Kind::Host) {
            place(self.by_symbol[&symbol].op, &mut anchor);
        }
        for op in &self.wrappers {
            place(*op, &mut anchor);
        }
        place(host_end, &mut anchor);
    }

    /// The functions of `kind` in an order where every callee of the same
    /// kind comes before its callers.
    fn callees_first(&self, kind: Kind) -> Vec<String> {
        let mut done = HashSet::new();
        let mut order = Vec::new();
        fn visit(
            functions: &Functions,
            kind: Kind,
            symbol: &str,
            done: &mut HashSet<String>,
            order: &mut Vec<String>,
        ) {
            if !done.insert(symbol.to_owned()) {
                return;
            }
            let function = &functions.by_symbol[symbol];
            for op in nested_ops(function.op) {
                if name(op) == func::CallOp::NAME
                    && let Some(callee) = callee_name(&op)
                    && functions
                        .by_symbol
                        .get(&callee)
                        .is_some_and(|f| f.kind == kind)
                {
                    visit(functions, kind, &callee, done, order);
                }
            }
            order.push(symbol.to_owned());
        }
        for symbol in &self.order {
            if self.by_symbol[symbol].kind == kind {
                visit(self, kind, symbol, &mut done, &mut order);
            }
        }
        order
    }
}

fn verbatim<'c>(builder: &Builder<'c>, text: &str) -> OpRef<'c> {
    let verbatim = emitc::VerbatimOp {
        value: StringAttribute::new(builder.context, text).into(),
        fmt_args: &[],
    };
    builder.insert(verbatim.build(builder.context, builder.location))
}

/// `#include "<header>"`.
fn include_op<'c>(builder: &Builder<'c>, header: &str) -> melior::ir::Operation<'c> {
    let include = emitc::IncludeOp {
        include: StringAttribute::new(builder.context, header).into(),
        is_standard_include: false,
    };
    include.build(builder.context, builder.location)
}

/// Whether `op` is a put or a get the SDMA engine moves (`engine sdma`),
/// which this pass lowers itself (`pld-expand-transfers` leaves it).
pub fn is_sdma_transfer(op: OpRef) -> bool {
    let engine = pld::TensorPutOp::get_engine(&op).or_else(|| pld::TensorGetOp::get_engine(&op));
    engine == Some(TransferEngine::Sdma)
}

/// Whether `op` is a collective or transfer `pld-to-ascend-pipeline`
/// expands. Every pld op is listed: a new one is a compile error here until
/// it is said whether the conversion must meet it (`convert_pld`) or not.
pub fn is_unexpanded(op: PldOp) -> bool {
    match op {
        PldOp::TensorAllreduce(_)
        | PldOp::TensorReduceScatter(_)
        | PldOp::TensorAllgather(_)
        | PldOp::TensorBroadcast(_)
        | PldOp::TensorBarrier(_)
        | PldOp::TensorAllToAll(_)
        | PldOp::TensorAllToAllV(_)
        | PldOp::TensorMatmulAllreduce(_)
        | PldOp::TensorMatmulReduceScatter(_)
        | PldOp::TensorAllgatherMatmul(_)
        | PldOp::TensorRemoteStore(_) => true,
        // An SDMA put or get is lowered here; the others are staged first.
        PldOp::TensorPut(op) | PldOp::TensorGet(op) => !is_sdma_transfer(op),
        PldOp::SystemGetCommCtx(_)
        | PldOp::SystemRank(_)
        | PldOp::SystemNranks(_)
        | PldOp::SystemWorldSize(_)
        | PldOp::SystemWorldRank(_)
        | PldOp::SystemNotify(_)
        | PldOp::SystemWait(_)
        | PldOp::SystemDeferWait(_)
        | PldOp::TileRemoteLoad(_)
        | PldOp::TileRemoteStore(_)
        | PldOp::TensorAllocWindowBuffer(_)
        | PldOp::TensorWindow(_)
        | PldOp::TensorReshape(_)
        | PldOp::TensorDim(_) => false,
    }
}

fn reject_unexpanded(module: OpRef, report: &mut Report) {
    for op in nested_ops(module) {
        if PldOp::of(op).is_some_and(is_unexpanded) {
            report.error(
                &op,
                &format!(
                    "'{}' must be expanded before convert-pld-to-ascend: run \
                     pld-to-ascend-pipeline first (pld-to-cce-pipeline does)",
                    name(op)
                ),
                &[],
            );
        }
    }
}

/// The C++ specifiers a function of `kind` is emitted with.
pub fn specifiers(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Host => &[],
        Kind::Kernel => &["extern \"C\"", "__global__ __aicore__"],
        Kind::Device => &["static __aicore__ inline"],
    }
}
