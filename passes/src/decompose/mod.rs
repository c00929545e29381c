//! `pld-decompose-collectives`: every collective becomes an algorithm
//! written with pld-level ops (notify/wait, tile loads, remote loads, puts
//! and gets, tile math, scf, arith), so the result can be printed, read
//! next to `docs/pld-decompose-collectives.md` and checked by `pld-verify`
//! like hand-written code. The seed's algorithms of semantics §4 stay as the
//! reference; the faster ones pull from all peers at once and synchronize
//! per call, or per chunk with flags, instead of per chunk with barriers.

mod broadcast;
mod choice;
mod cost;
mod credits;
mod direct;
mod epoch;
mod fused;
mod host_rail;
mod live;
mod mesh;
mod oneshot;
mod pull;
mod ring;
mod rows;
mod segments;
mod stream;
mod twoshot;

use crate::model::Model;
use choice::{Choice, Chooser, Facts};
use credits::{Cells, Credits};
use host_rail::HostRailKernels;
use melior::{
    dialect::{arith::CmpiPredicate, func},
    ir::{
        Type, TypeLike, ValueLike,
        operation::{OperationLike, OperationRef},
    },
};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::pld;
use pld_dialect::{
    diagnostics::{Severity, emit},
    enums::{CollectiveAlgorithm, CollectiveMode, ReduceOp},
};
use pld_ir::location::implementing;
use pld_ir::pass::bridge::OptionError;
use pld_ir::pass::declared::pld_decompose_collectives as declared;
use pld_ir::{
    Builder, Ix, OpRef, Val,
    analysis::place::scope_of,
    build::replace_op,
    nested_ops,
    pass::bridge::{Pass, PassFailed, PassOption, PassStatistic, Statistics},
    read::{name, operand},
    types,
};
use pull::Peers;
use stream::Stream;

/// The `pld-decompose-collectives` pass.
pub struct DecomposeCollectives {
    chunk_bytes: i64,
    ub_bytes: i64,
    algorithm: CollectiveAlgorithm,
    model: Model,
    remarks: bool,
    default_kind: KernelKind,
}

/// The largest `chunk-bytes`: a seed collective stages two chunk tiles,
/// which must fit the 192 KiB unified buffer with room to spare.
const MAX_CHUNK_BYTES: i64 = 65536;

/// The unified buffer of a core.
const UB_BYTES: i64 = 196608;

/// The `algorithm` option's value: an algorithm's keyword, with `-` for `_`
/// allowed (`seed-mesh`).
fn parse_algorithm(text: &str) -> Result<CollectiveAlgorithm, String> {
    let keyword = text.replace('-', "_");
    CollectiveAlgorithm::ALL
        .iter()
        .copied()
        .find(|algorithm| algorithm.keyword() == keyword)
        .ok_or_else(|| {
            let known: Vec<&str> = CollectiveAlgorithm::ALL
                .iter()
                .map(|algorithm| algorithm.keyword())
                .collect();
            format!(
                "expected algorithm to be one of {} ('-' for '_' too), found '{text}'",
                known.join(", ")
            )
        })
}

impl Pass for DecomposeCollectives {
    const ARGUMENT: &'static str = declared::ARGUMENT;
    const DESCRIPTION: &'static str = declared::SUMMARY;
    const OPTIONS: &'static [PassOption] = declared::OPTIONS;
    const STATISTICS: &'static [PassStatistic] = declared::STATISTICS;

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        let options = declared::Options::parse(values)?;
        let chunk_bytes = options.chunk_bytes;
        if chunk_bytes <= 0 || chunk_bytes % 32 != 0 || chunk_bytes > MAX_CHUNK_BYTES {
            return Err(format!(
                "expected chunk-bytes to be a positive multiple of 32 of at most {MAX_CHUNK_BYTES}, \
                 found {chunk_bytes}"
            ).into());
        }
        if !(32..=UB_BYTES).contains(&options.ub_bytes) {
            return Err(format!(
                "expected ub-bytes to be an integer in [32, {UB_BYTES}], found '{}'",
                options.ub_bytes
            )
            .into());
        }
        let model = Model::named(&options.model)
            .map_err(|error| error.to_string())?
            .with_overrides(&options.model_overrides)
            .map_err(|error| format!("model-overrides: {error}"))?;
        Ok(Self {
            chunk_bytes,
            ub_bytes: options.ub_bytes,
            algorithm: parse_algorithm(&options.algorithm)?,
            model,
            remarks: options.remarks,
            default_kind: pld_ir::analysis::place::parse_default_kind(&options.default_kind)?,
        })
    }

    fn run(&self, root: OperationRef, statistics: &Statistics) -> Result<(), PassFailed> {
        // SAFETY: see the documentation of `pld_ir`.
        let root: OpRef = unsafe { OpRef::from_raw(root.to_raw()) };
        // A fused op's unfused form calls an allreduce, decomposed below.
        self.decompose_fused(root, statistics)?;
        let collectives: Vec<OpRef> = nested_ops(root)
            .into_iter()
            .filter(|op| Collective::of(*op).is_some())
            .collect();
        // Decide and check everything before rewriting anything.
        let chooser = self.chooser();
        let mut decided = Vec::new();
        let mut failed = false;
        for op in collectives {
            let checked = check(op).and_then(|facts| {
                if facts.cores > 1 && self.in_host_code(op) {
                    return Err(format!(
                        "core_num {} runs a collective on several blocks of a kernel, but this \
                         one is in host code, which runs it on the HOST rail in a kernel of one \
                         block: call it from an InCore kernel launched with {} blocks",
                        facts.cores, facts.cores
                    ));
                }
                Ok(facts)
            });
            match checked.and_then(|facts| Ok((facts, chooser.decide(op, &facts)?))) {
                Ok((facts, decision)) => {
                    if let (Some(remark), true) = (&decision.remark, self.remarks) {
                        emit(Severity::Remark, op.location(), remark, &[]);
                    }
                    decided.push((op, facts, decision.choice));
                }
                Err(message) => {
                    emit(Severity::Error, op.location(), &message, &[]);
                    failed = true;
                }
            }
        }
        if failed {
            return Err(PassFailed);
        }
        statistics.add(&declared::COLLECTIVES, decided.len() as u64);
        let mut kernels = HostRailKernels::new(root);
        for (op, facts, choice) in decided {
            self.decompose(op, &facts, choice, &mut kernels);
        }
        Ok(())
    }
}

/// The collectives, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Collective {
    Allreduce,
    ReduceScatter,
    Allgather,
    Broadcast,
    Barrier,
    AllToAll,
    AllToAllV,
}

impl Collective {
    fn of(op: OpRef) -> Option<Self> {
        Some(match name(op) {
            pld::TensorAllreduceOp::NAME => Self::Allreduce,
            pld::TensorReduceScatterOp::NAME => Self::ReduceScatter,
            pld::TensorAllgatherOp::NAME => Self::Allgather,
            pld::TensorBroadcastOp::NAME => Self::Broadcast,
            pld::TensorBarrierOp::NAME => Self::Barrier,
            pld::TensorAllToAllOp::NAME => Self::AllToAll,
            pld::TensorAllToAllVOp::NAME => Self::AllToAllV,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Allreduce => "allreduce",
            Self::ReduceScatter => "reduce_scatter",
            Self::Allgather => "allgather",
            Self::Broadcast => "broadcast",
            Self::Barrier => "barrier",
            Self::AllToAll => "all_to_all",
            Self::AllToAllV => "all_to_all_v",
        }
    }
}

/// A collective's attributes by their ODS names: the reduction of an
/// allreduce or reduce_scatter, whether an allreduce's signal is in ring
/// mode, the algorithm the op asks for and the cores it runs on.
#[derive(Clone, Copy)]
struct CollectiveAttributes {
    reduce: Option<ReduceOp>,
    ring: bool,
    algorithm: Option<CollectiveAlgorithm>,
    cores: i64,
}

impl CollectiveAttributes {
    /// The attributes of `op`, a collective.
    fn of(op: OpRef) -> Self {
        const VERIFIED: &str = "a verified collective";
        let cores = pld_dialect::interfaces::collective_cores(&op).expect("a collective");
        let asks = |algorithm| Self {
            reduce: None,
            ring: false,
            algorithm,
            cores,
        };
        match Collective::of(op).expect("a collective") {
            Collective::Allreduce => {
                let attributes = pld::TensorAllreduceOp::attributes(&op).expect(VERIFIED);
                Self {
                    reduce: Some(attributes.op),
                    ring: attributes.mode == CollectiveMode::Ring,
                    algorithm: attributes.algorithm,
                    cores,
                }
            }
            Collective::ReduceScatter => {
                let attributes = pld::TensorReduceScatterOp::attributes(&op).expect(VERIFIED);
                Self {
                    reduce: Some(attributes.op),
                    ..asks(attributes.algorithm)
                }
            }
            Collective::Allgather => asks(
                pld::TensorAllgatherOp::attributes(&op)
                    .expect(VERIFIED)
                    .algorithm,
            ),
            Collective::Broadcast => asks(
                pld::TensorBroadcastOp::attributes(&op)
                    .expect(VERIFIED)
                    .algorithm,
            ),
            Collective::AllToAll => asks(
                pld::TensorAllToAllOp::attributes(&op)
                    .expect(VERIFIED)
                    .algorithm,
            ),
            Collective::AllToAllV => asks(
                pld::TensorAllToAllVOp::attributes(&op)
                    .expect(VERIFIED)
                    .algorithm,
            ),
            Collective::Barrier => asks(None),
        }
    }
}

/// A collective's operands by their ODS names: its signal, and where it has
/// them its target, an allgather's local, an all_to_all's input, a
/// broadcast's root, an allreduce's epoch and workspace and an
/// all_to_all_v's counts.
#[derive(Clone, Copy)]
struct CollectiveOperands<'c> {
    signal: Val<'c>,
    target: Option<Val<'c>>,
    local: Option<Val<'c>>,
    input: Option<Val<'c>>,
    root: Option<Val<'c>>,
    epoch: Option<Val<'c>>,
    workspace: Option<Val<'c>>,
    send_counts: Option<Val<'c>>,
    recv_counts: Option<Val<'c>>,
}

impl<'c> CollectiveOperands<'c> {
    /// The operands of `op`, a `collective`.
    fn of(op: OpRef<'c>, collective: Collective) -> Self {
        const RECOGNISED: &str = "Collective::of recognised the op";
        let only = |signal, target| Self {
            signal,
            target,
            local: None,
            input: None,
            root: None,
            epoch: None,
            workspace: None,
            send_counts: None,
            recv_counts: None,
        };
        match collective {
            Collective::Allreduce => {
                let ops = pld::TensorAllreduceOp::operands(&op).expect(RECOGNISED);
                Self {
                    epoch: ops.epoch,
                    workspace: ops.workspace,
                    ..only(ops.signal, Some(ops.target))
                }
            }
            Collective::ReduceScatter => {
                let ops = pld::TensorReduceScatterOp::operands(&op).expect(RECOGNISED);
                only(ops.signal, Some(ops.target))
            }
            Collective::Allgather => {
                let ops = pld::TensorAllgatherOp::operands(&op).expect(RECOGNISED);
                Self {
                    local: Some(ops.local),
                    ..only(ops.signal, Some(ops.target))
                }
            }
            Collective::Broadcast => {
                let ops = pld::TensorBroadcastOp::operands(&op).expect(RECOGNISED);
                Self {
                    root: Some(ops.root),
                    ..only(ops.signal, Some(ops.target))
                }
            }
            Collective::Barrier => {
                let ops = pld::TensorBarrierOp::operands(&op).expect(RECOGNISED);
                only(ops.signal, None)
            }
            Collective::AllToAll => {
                let ops = pld::TensorAllToAllOp::operands(&op).expect(RECOGNISED);
                Self {
                    input: Some(ops.input),
                    ..only(ops.signal, Some(ops.target))
                }
            }
            Collective::AllToAllV => {
                let ops = pld::TensorAllToAllVOp::operands(&op).expect(RECOGNISED);
                Self {
                    input: Some(ops.input),
                    send_counts: Some(ops.send_counts),
                    recv_counts: Some(ops.recv_counts),
                    ..only(ops.signal, Some(ops.target))
                }
            }
        }
    }

    /// The same operands among `standing`, the values that stand for
    /// `op`'s operands position for position (a generated kernel's
    /// arguments).
    fn standing_for(self, op: OpRef<'c>, standing: &[Val<'c>]) -> Self {
        let map = |value: Val<'c>| {
            let position = (0..op.operand_count())
                .position(|index| operand(op, index) == value)
                .expect("an operand of the op");
            standing[position]
        };
        Self {
            signal: map(self.signal),
            target: self.target.map(map),
            local: self.local.map(map),
            input: self.input.map(map),
            root: self.root.map(map),
            epoch: self.epoch.map(map),
            workspace: self.workspace.map(map),
            send_counts: self.send_counts.map(map),
            recv_counts: self.recv_counts.map(map),
        }
    }

    /// An all_to_all_v's send and receive counts.
    fn counts(&self) -> (Val<'c>, Val<'c>) {
        (
            self.send_counts.expect("an all_to_all_v has send counts"),
            self.recv_counts
                .expect("an all_to_all_v has receive counts"),
        )
    }

    /// An allreduce's epoch and workspace (the epoch algorithms').
    fn epoch(&self) -> epoch::Epoch<'c> {
        epoch::Epoch {
            epoch: Ix::Dyn(self.epoch.expect("an epoch algorithm has an epoch")),
            workspace: self.workspace.expect("an epoch algorithm has a workspace"),
        }
    }

    fn target(&self) -> Val<'c> {
        self.target.expect("the collective has a target")
    }

    fn local(&self) -> Val<'c> {
        self.local.expect("an allgather has a local")
    }

    fn input(&self) -> Val<'c> {
        self.input.expect("an all_to_all has an input")
    }

    fn root(&self) -> Val<'c> {
        self.root.expect("a broadcast has a root")
    }
}

/// The element types the vector unit combines.
fn is_combinable(element: Type) -> bool {
    element.is_f16() || element.is_bf16() || element.is_f32() || {
        // SAFETY: a type predicate and, once it holds, a width query.
        unsafe {
            mlir_sys::mlirTypeIsAInteger(element.to_raw())
                && matches!(mlir_sys::mlirIntegerTypeGetWidth(element.to_raw()), 16 | 32)
        }
    }
}

fn reduce_op(op: OpRef) -> ReduceOp {
    CollectiveAttributes::of(op)
        .reduce
        .expect("a reducing collective has a verified reduce_op")
}

/// What the op verifiers leave for this pass to reject; the op's facts.
fn check(op: OpRef) -> Result<Facts, String> {
    let collective = Collective::of(op).expect("only collectives are checked");
    let operands = CollectiveOperands::of(op, collective);
    if matches!(
        collective,
        Collective::Allreduce | Collective::ReduceScatter
    ) {
        let target = operands.target();
        let element = types::element_type(target.r#type()).expect("a shaped target");
        if !is_combinable(element) {
            return Err(format!(
                "pld-decompose-collectives cannot combine element type {element} (the vector \
                 unit combines f16, bf16, f32, i16 and i32)"
            ));
        }
    }
    Ok(Facts::of(op, collective, &operands))
}

impl DecomposeCollectives {
    fn chooser(&self) -> Chooser<'_> {
        Chooser {
            chunk_bytes: self.chunk_bytes,
            ub_bytes: self.ub_bytes,
            option: self.algorithm,
            model: &self.model,
        }
    }

    /// Replaces every GEMM fused with communication by its tasks
    /// (`fused/`), after checking them all.
    fn decompose_fused(&self, root: OpRef, statistics: &Statistics) -> Result<(), PassFailed> {
        let mut decided = Vec::new();
        let mut failed = false;
        for op in nested_ops(root) {
            let Some(fused) = fused::Fused::of(op) else {
                continue;
            };
            let problem = if !self.in_host_code(op) {
                Some(format!(
                    "'{}' launches its GEMM and its communication as tasks of a host \
                     orchestrator, but it stands in InCore code: call it from host code",
                    name(op)
                ))
            } else {
                fused.signal_problem().or_else(|| {
                    let fused_asked = self.asked(&fused) == Some(CollectiveAlgorithm::Fused);
                    fused
                        .why_not_fused()
                        .filter(|_| fused_asked)
                        .map(|why| format!("algorithm fused cannot run here: {why}"))
                })
            };
            match problem {
                Some(message) => {
                    emit(Severity::Error, op.location(), &message, &[]);
                    failed = true;
                }
                None => decided.push(op),
            }
        }
        if failed {
            return Err(PassFailed);
        }
        statistics.add(&declared::COLLECTIVES, decided.len() as u64);
        for op in decided {
            // Read again: a dependency may be the task of a fused op
            // replaced above.
            let fused = fused::Fused::of(op).expect("checked above");
            let chosen = self.asked(&fused).unwrap_or_else(|| {
                let (chosen, remark) = self.weigh_fused(&fused);
                if self.remarks {
                    emit(Severity::Remark, op.location(), &remark, &[]);
                }
                chosen
            });
            let builder = Builder::before(op).at(implementing(&op));
            let task = fused.emit(&builder, chosen == CollectiveAlgorithm::Fused);
            replace_op(op, &[task]);
        }
        Ok(())
    }

    /// The form a fused op asks for: its `algorithm`, else the pass option
    /// when that is `fused` or `unfused`; `None` for `auto`.
    fn asked(&self, fused: &fused::Fused) -> Option<CollectiveAlgorithm> {
        fused
            .algorithm()
            .filter(|algorithm| *algorithm != CollectiveAlgorithm::Auto)
            .or(match self.algorithm {
                CollectiveAlgorithm::Fused | CollectiveAlgorithm::Unfused => Some(self.algorithm),
                _ => None,
            })
    }

    /// `auto` for a GEMM fused with communication: the fused form against
    /// the GEMM and the fastest collective on as many cores in sequence,
    /// each modelled (`fused/cost.rs`, `cost.rs`); the choice, and the
    /// remark that says why.
    fn weigh_fused(&self, fused: &fused::Fused) -> (CollectiveAlgorithm, String) {
        match fused {
            fused::Fused::Allreduce(op) => self.weigh_matmul_allreduce(op),
            fused::Fused::ReduceScatter(op) => self.weigh_matmul_reduce_scatter(op),
            fused::Fused::Allgather(op) => self.weigh_allgather_matmul(op),
        }
    }

    fn weigh_matmul_allreduce(
        &self,
        fused: &fused::MatmulAllreduce,
    ) -> (CollectiveAlgorithm, String) {
        use CollectiveAlgorithm as A;
        let (rows, _) = fused.signal_shape();
        let ranks = if rows == types::DYNAMIC {
            choice::ASSUMED_RANKS
        } else {
            rows
        };
        let (tiling, cores) = (&fused.tiling, fused.cores);
        let compute = fused::cost::compute_ns(&self.model, tiling, cores);
        let pipelined = fused::cost::pipelined_ns(&self.model, tiling, ranks, cores);
        let (allreduce, reduced) = self.cheapest_collective(
            Collective::Allreduce,
            tiling.output_bytes,
            ranks,
            tiling.m * tiling.n,
            cores,
            false,
        );
        let unfused = compute + reduced;
        let chosen = if pipelined < unfused {
            A::Fused
        } else {
            A::Unfused
        };
        let remark = format!(
            "matmul_allreduce auto: {} for {ranks} ranks on {cores} cube cores (modelled fused \
             {:.2} us, unfused {:.2} us: the GEMM {:.2} us, then allreduce {} {:.2} us)",
            chosen.keyword(),
            pipelined / 1000.0,
            unfused / 1000.0,
            compute / 1000.0,
            allreduce.keyword(),
            reduced / 1000.0
        );
        (chosen, remark)
    }

    /// The cheapest algorithm of `collective` (allreduce of a stream of
    /// `len` elements, reduce_scatter or allgather of rows of `len`) that
    /// runs on `cores` vector cores, the signal `[R, 2 cores]`, and its
    /// modelled cost.
    fn cheapest_collective(
        &self,
        collective: Collective,
        element_bytes: i64,
        ranks: i64,
        len: i64,
        cores: i64,
        local_in_window: bool,
    ) -> (CollectiveAlgorithm, f64) {
        use CollectiveAlgorithm as A;
        let facts = Facts {
            collective,
            element_bytes,
            ranks: Some(ranks),
            len: Some(match cores {
                1 => len,
                _ => segments::size(len, cores, element_bytes),
            }),
            reserved: 0,
            local_in_window,
            counters: true,
            cores,
            epoch: false,
        };
        // On one core the seed's algorithm too (the partitioned ones
        // otherwise, as `CollectiveOpInterface::getPartitionedAlgorithms`).
        let (mut candidates, seed) = match collective {
            Collective::Allreduce => (vec![A::Oneshot, A::Twoshot, A::TwoshotPush], A::SeedMesh),
            _ => (vec![A::Direct], A::Seed),
        };
        if cores == 1 {
            candidates.push(seed);
        }
        self.chooser().cheapest(&facts, &candidates)
    }

    fn weigh_matmul_reduce_scatter(
        &self,
        fused: &fused::MatmulReduceScatter,
    ) -> (CollectiveAlgorithm, String) {
        use CollectiveAlgorithm as A;
        let (tiling, cores, ranks) = (&fused.tiling, fused.cores, fused.ranks);
        let head =
            format!("matmul_reduce_scatter auto: unfused for {ranks} ranks on {cores} cube cores");
        if let Some(why) = fused.why_not_fused() {
            return (A::Unfused, format!("{head} ({why})"));
        }
        let pipelined = fused::cost::reduce_scatter_fused_ns(&self.model, tiling, ranks, cores);
        let compute = fused::cost::blocks_compute_ns(&self.model, tiling, ranks, cores);
        let vector = fused::collective_cores(fused.signal);
        let (algorithm, reduced) = self.cheapest_collective(
            Collective::ReduceScatter,
            tiling.output_bytes,
            ranks,
            tiling.m * tiling.n,
            vector,
            false,
        );
        let bytes = (tiling.m * tiling.n * tiling.output_bytes) as f64;
        let copied = fused::cost::local_copy_ns(&self.model, bytes, cores);
        let unfused = compute + reduced + copied;
        let chosen = if pipelined < unfused {
            A::Fused
        } else {
            A::Unfused
        };
        let remark = format!(
            "matmul_reduce_scatter auto: {} for {ranks} ranks on {cores} cube cores (modelled \
             fused {:.2} us, unfused {:.2} us: the GEMM {:.2} us, then reduce_scatter {} on \
             {vector} cores {:.2} us, then the copy {:.2} us)",
            chosen.keyword(),
            pipelined / 1000.0,
            unfused / 1000.0,
            compute / 1000.0,
            algorithm.keyword(),
            reduced / 1000.0,
            copied / 1000.0
        );
        (chosen, remark)
    }

    fn weigh_allgather_matmul(
        &self,
        fused: &fused::AllgatherMatmul,
    ) -> (CollectiveAlgorithm, String) {
        use CollectiveAlgorithm as A;
        let (tiling, cores, ranks) = (&fused.tiling, fused.cores, fused.ranks);
        let pipelined = fused::cost::allgather_fused_ns(&self.model, tiling, ranks, cores);
        let compute = fused::cost::blocks_compute_ns(&self.model, tiling, ranks, cores);
        let vector = fused::collective_cores(fused.signal);
        let (algorithm, gathered) = self.cheapest_collective(
            Collective::Allgather,
            tiling.input_bytes,
            ranks,
            tiling.m * tiling.k,
            vector,
            !types::is_memref(fused.a.r#type()),
        );
        let unfused = gathered + compute;
        let chosen = if pipelined < unfused {
            A::Fused
        } else {
            A::Unfused
        };
        let remark = format!(
            "allgather_matmul auto: {} for {ranks} ranks on {cores} cube cores (modelled fused \
             {:.2} us, unfused {:.2} us: allgather {} on {vector} cores {:.2} us, then the GEMM \
             {:.2} us)",
            chosen.keyword(),
            pipelined / 1000.0,
            unfused / 1000.0,
            algorithm.keyword(),
            gathered / 1000.0,
            compute / 1000.0
        );
        (chosen, remark)
    }

    /// Whether `op` is in host code, where it runs on the HOST rail.
    fn in_host_code(&self, op: OpRef) -> bool {
        scope_of(&op, self.default_kind).is_some_and(|scope| !scope.place.is_core())
    }

    /// Replaces `op` by its algorithm: in place in InCore code; in host code
    /// (the HOST rail) as a call of a generated kernel that runs it.
    fn decompose<'c>(
        &self,
        op: OpRef<'c>,
        facts: &Facts,
        choice: Choice,
        kernels: &mut HostRailKernels<'c>,
    ) {
        let collective = facts.collective;
        let operands = CollectiveOperands::of(op, collective);
        // The result is the target's updated value (a barrier has none).
        let target = operands.target;
        if self.in_host_code(op) {
            let (builder, arguments) = kernels.create(op, collective);
            self.choose(
                &builder.at(implementing(&op)),
                op,
                facts,
                choice,
                &operands.standing_for(op, &arguments),
            );
            builder.insert(func::r#return(&[], builder.location));
            // The kernel takes the op's operands, in order.
            let forwarded: Vec<Val> = (0..op.operand_count())
                .map(|index| operand(op, index))
                .collect();
            let call = Builder::before(op);
            call.insert(func::call(
                call.context,
                kernels.last_symbol(),
                &forwarded,
                &[],
                call.location,
            ));
        } else {
            // Located as the collective the user wrote, which the
            // simulator's reports name (pld_ir::location).
            let located = Builder::before(op).at(implementing(&op));
            self.choose(&located, op, facts, choice, &operands);
        }
        replace_op(op, &target.into_iter().collect::<Vec<_>>());
    }

    /// Builds the chosen algorithm of `op` with `builder`, over `operands`
    /// (the op's own, or a generated kernel's arguments standing for them):
    /// one algorithm, or two behind a branch on the size.
    fn choose<'c>(
        &self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        facts: &Facts,
        choice: Choice,
        operands: &CollectiveOperands<'c>,
    ) {
        if facts.cores > 1 {
            // Block b of the launch runs part b on its own columns of the
            // signal. Blocks beyond the collective's cores have none, nor
            // have those whose part is empty (the same blocks on every
            // rank, so no peer waits for them).
            let block = builder.pl_block_idx();
            let len = extent(builder, facts.collective, operands, None);
            let part = segments::Segments::of_len(
                builder,
                len,
                Ix::Const(facts.cores),
                facts.element_bytes,
            )
            .size;
            let parts = builder.ceil_div(len, part);
            let runs = builder.cmp(CmpiPredicate::Slt, block, parts);
            builder.if_then(runs, |builder| {
                self.choose_part(builder, op, facts, choice, operands, Some(block))
            });
        } else {
            self.choose_part(builder, op, facts, choice, operands, None);
        }
    }

    /// [`Self::choose`] on one block: `block` of the collective's cores, or
    /// the whole collective on one core.
    fn choose_part<'c>(
        &self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        facts: &Facts,
        choice: Choice,
        operands: &CollectiveOperands<'c>,
        block: Option<Ix<'c>>,
    ) {
        let signal = operands.signal;
        let ctx = builder.comm_ctx(signal);
        let columns_per_block = if facts.counters { 2 } else { 1 };
        let credits = Credits {
            signal,
            me: builder.rank_index(ctx),
            ranks: builder.nranks_index(ctx),
            cells: if types::shape(signal.r#type()).is_some_and(|shape| shape.len() == 1) {
                Cells::Vector
            } else {
                Cells::Column
            },
            counters: facts.counters,
            column: block.map_or(Ix::Const(0), |block| {
                builder.mul(block, Ix::Const(columns_per_block))
            }),
        };
        let part = block.map(|block| (block, facts.cores));
        let run = |builder: &Builder<'c>, algorithm| {
            self.algorithm(builder, op, facts, algorithm, operands, credits, part)
        };
        match choice {
            Choice::One(algorithm) => run(builder, algorithm),
            Choice::BySize {
                small,
                large,
                up_to,
            } => {
                let len = extent(builder, facts.collective, operands, part);
                let is_small = builder.cmp(CmpiPredicate::Sle, len, Ix::Const(up_to));
                builder.if_else(
                    is_small,
                    &[],
                    |builder| {
                        run(builder, small);
                        vec![]
                    },
                    |builder| {
                        run(builder, large);
                        vec![]
                    },
                );
            }
        }
    }

    /// Builds `algorithm` for `op`, on part `block` of `cores` of its
    /// stream where it runs on several.
    #[allow(clippy::too_many_arguments)]
    fn algorithm<'c>(
        &self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        facts: &Facts,
        algorithm: CollectiveAlgorithm,
        operands: &CollectiveOperands<'c>,
        credits: Credits<'c>,
        part: Option<(Ix<'c>, i64)>,
    ) {
        use CollectiveAlgorithm as A;
        let peers = Peers {
            me: credits.me,
            ranks: credits.ranks,
            unrolled: pull::unrolled(facts.ranks),
            rotation: part.map_or(Ix::Const(0), |(block, _)| block),
        };
        let width = || {
            self.chooser()
                .width(facts, algorithm)
                .expect("checked before rewriting")
        };
        let chunk = self.chunk_bytes;
        // The target as a stream, or this block's part of it.
        let stream = |builder: &Builder<'c>| {
            let whole = Stream::of(builder, operands.target());
            match part {
                Some((block, cores)) => whole.part(builder, block, cores),
                None => whole,
            }
        };
        match (facts.collective, algorithm) {
            (Collective::Allreduce, A::Oneshot) => {
                let stream = stream(builder);
                oneshot::allreduce(builder, &stream, credits, peers, reduce_op(op), width());
            }
            (Collective::Allreduce, A::Twoshot | A::TwoshotPush) => {
                let stream = stream(builder);
                let allgather = match algorithm {
                    A::TwoshotPush => twoshot::Allgather::Push,
                    _ => twoshot::Allgather::Pull,
                };
                let op = reduce_op(op);
                twoshot::allreduce(builder, &stream, credits, peers, op, width(), allgather);
            }
            (Collective::Allreduce, A::OneshotEpoch) => {
                let stream = stream(builder);
                let (op, epoch) = (reduce_op(op), operands.epoch());
                epoch::oneshot(builder, &stream, credits, peers, op, width(), epoch);
            }
            (Collective::Allreduce, A::TwoshotEpoch) => {
                let stream = stream(builder);
                let (op, epoch) = (reduce_op(op), operands.epoch());
                epoch::twoshot(builder, &stream, credits, peers, op, width(), epoch);
            }
            (Collective::Allreduce, A::SeedRing) => {
                let stream = Stream::of(builder, operands.target());
                ring::allreduce(builder, &stream, credits, reduce_op(op), chunk);
            }
            (Collective::Allreduce, _) => {
                let stream = Stream::of(builder, operands.target());
                mesh::allreduce(builder, &stream, credits, reduce_op(op), chunk);
            }
            (Collective::ReduceScatter, A::Direct) => direct::reduce_scatter(
                builder,
                direct::Row::of(builder, operands.target(), width(), part),
                credits,
                peers,
                reduce_op(op),
            ),
            (Collective::ReduceScatter, _) => {
                rows::reduce_scatter(builder, operands.target(), credits, reduce_op(op), chunk)
            }
            (Collective::Allgather, A::Direct) => direct::allgather(
                builder,
                operands.local(),
                facts.local_in_window,
                direct::Row::of(builder, operands.target(), width(), part),
                credits,
                peers,
            ),
            (Collective::Allgather, _) => {
                rows::allgather(builder, operands.local(), operands.target(), credits, chunk)
            }
            (Collective::Broadcast, A::ScatterAllgather) => {
                let stream = stream(builder);
                broadcast::scatter_allgather(
                    builder,
                    &stream,
                    operands.root(),
                    credits,
                    peers,
                    width(),
                );
            }
            (Collective::Broadcast, _) => rows::broadcast(
                builder,
                &stream(builder),
                operands.target(),
                operands.root(),
                credits,
                chunk,
                algorithm == A::Star,
            ),
            (Collective::Barrier, _) => rows::barrier(builder, credits),
            (Collective::AllToAll, A::Direct) => direct::all_to_all(
                builder,
                operands.input(),
                direct::Row::of(builder, operands.target(), width(), part),
                credits,
                peers,
            ),
            (Collective::AllToAllV, _) => rows::all_to_all_v(
                builder,
                operands.input(),
                operands.target(),
                operands.counts(),
                credits,
                chunk,
            ),
            (Collective::AllToAll, _) => {
                rows::all_to_all(builder, operands.input(), operands.target(), credits, chunk)
            }
        }
    }
}

/// The elements a size branch compares: the stream (allreduce, broadcast)
/// or one row (the row collectives), or this block's part of it.
fn extent<'c>(
    builder: &Builder<'c>,
    collective: Collective,
    operands: &CollectiveOperands<'c>,
    part: Option<(Ix<'c>, i64)>,
) -> Ix<'c> {
    let target = operands.target();
    let len = match collective {
        Collective::Allreduce | Collective::Broadcast => {
            let rank = types::shape(target.r#type())
                .expect("a shaped target")
                .len();
            (0..rank).fold(Ix::Const(1), |len, dim| {
                builder.mul(len, builder.dim(target, dim))
            })
        }
        _ => builder.dim(target, 1),
    };
    match part {
        Some((block, cores)) => {
            let element = types::element_type(target.r#type()).expect("a shaped target");
            let element_bytes = types::byte_width(element).expect("a sized element type");
            segments::Segments::of_len(builder, len, Ix::Const(cores), element_bytes)
                .segment(builder, block)
                .1
        }
        None => len,
    }
}
