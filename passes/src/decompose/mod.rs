//! `pld-decompose-collectives`: every collective becomes the algorithm of
//! SPEC §4 written with pld-level ops (notify/wait, tile loads, remote
//! loads, puts and gets, tile math, scf, arith), so the result can be
//! printed, read next to `docs/pld-decompose-collectives.md` and checked by
//! `pld-verify` like hand-written code.

mod cost;
mod credits;
mod host_rail;
mod mesh;
mod ring;
mod rows;
mod stream;

use crate::bridge::OptionError;
use crate::ir::location::implementing;
use crate::{
    bridge::{Pass, PassFailed, PassOption},
    ir::{
        Builder, OpRef, Val,
        builder::replace_op,
        nested_ops,
        ops::{name, named, named_position, operand},
        types,
    },
    verify::{CodeKind, placement::scope_of},
};
pub use cost::CostModel;
use credits::{Cells, Credits};
use host_rail::HostRailKernels;
use melior::ir::{
    Type, TypeLike, ValueLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::{
    diagnostics::{Severity, emit},
    enums::{CollectiveMode, ReduceOp},
};
use stream::Stream;

/// Which allreduce algorithm runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllreduceChoice {
    /// The mode each op names.
    AsWritten,
    /// A ring-signalled allreduce may run the mesh algorithm where the cost
    /// model says it is faster (a ring signal has room for mesh's cells).
    Auto,
}

/// The `pld-decompose-collectives` pass.
pub struct DecomposeCollectives {
    chunk_bytes: i64,
    allreduce: AllreduceChoice,
    costs: CostModel,
    default_kind: CodeKind,
}

/// The largest `chunk-bytes`: a collective stages two chunk tiles, which
/// must fit the 192 KiB unified buffer with room to spare.
const MAX_CHUNK_BYTES: i64 = 65536;

impl Pass for DecomposeCollectives {
    const ARGUMENT: &'static str = "pld-decompose-collectives";
    const DESCRIPTION: &'static str = "Decompose every collective into credit barriers, tile \
                                       loads, remote loads and puts (SPEC §4)";
    const OPTIONS: &'static [PassOption] = &[
        PassOption {
            name: "chunk-bytes",
            description: "Bytes per chunk of the mesh, ring and row collectives (a multiple of 32, \
                          at most 65536); a shorter static stream shrinks it to the smallest \
                          32-byte-aligned width that covers it",
            default: "16384",
        },
        PassOption {
            name: "allreduce",
            description: "as-written: each allreduce runs the mode it names; auto: a ring \
                          allreduce with a static rank count and size runs the mesh algorithm \
                          where the alpha-beta cost model says it is faster (with a remark)",
            default: "as-written",
        },
        PassOption {
            name: "alpha-ns",
            description: "Cost model: nanoseconds per credit barrier (signal latency)",
            default: "1000",
        },
        PassOption {
            name: "beta-ns-per-byte",
            description: "Cost model: nanoseconds per byte moved into a rank",
            default: "0.04",
        },
        PassOption {
            name: "default-kind",
            description: "Kind of a function without a pl.kernel attribute (host or incore): a \
                          collective in host code runs on the HOST rail, as a call of a \
                          generated kernel",
            default: "host",
        },
    ];

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        let chunk_bytes: i64 = values[0].parse().map_err(|_| {
            format!(
                "expected chunk-bytes to be an integer, found '{}'",
                values[0]
            )
        })?;
        if chunk_bytes <= 0 || chunk_bytes % 32 != 0 || chunk_bytes > MAX_CHUNK_BYTES {
            return Err(format!(
                "expected chunk-bytes to be a positive multiple of 32 of at most {MAX_CHUNK_BYTES}, \
                 found {chunk_bytes}"
            ).into());
        }
        let allreduce = match values[1] {
            "as-written" => AllreduceChoice::AsWritten,
            "auto" => AllreduceChoice::Auto,
            other => {
                return Err(format!(
                    "expected allreduce to be 'as-written' or 'auto', found '{other}'"
                )
                .into());
            }
        };
        let number = |index: usize, name: &str| -> Result<f64, String> {
            values[index]
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite() && *value >= 0.0)
                .ok_or_else(|| {
                    format!(
                        "expected {name} to be a non-negative number, found '{}'",
                        values[index]
                    )
                })
        };
        Ok(Self {
            chunk_bytes,
            allreduce,
            costs: CostModel {
                alpha_ns: number(2, "alpha-ns")?,
                beta_ns_per_byte: number(3, "beta-ns-per-byte")?,
            },
            default_kind: CodeKind::parse(values[4])?,
        })
    }

    fn run(&self, root: OperationRef) -> Result<(), PassFailed> {
        // SAFETY: see the documentation of `crate::ir`.
        let root: OpRef = unsafe { OpRef::from_raw(root.to_raw()) };
        let collectives: Vec<OpRef> = nested_ops(root)
            .into_iter()
            .filter(|op| Collective::of(*op).is_some())
            .collect();
        // Check everything before rewriting anything.
        let mut failed = false;
        for op in &collectives {
            if let Err(message) = check(*op) {
                emit(Severity::Error, op.location(), &message, &[]);
                failed = true;
            }
        }
        if failed {
            return Err(PassFailed);
        }
        let mut kernels = HostRailKernels::new(root);
        for op in collectives {
            self.decompose(op, &mut kernels);
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
}

impl Collective {
    fn of(op: OpRef) -> Option<Self> {
        Some(match name(op) {
            "pld.tensor.allreduce" => Self::Allreduce,
            "pld.tensor.reduce_scatter" => Self::ReduceScatter,
            "pld.tensor.allgather" => Self::Allgather,
            "pld.tensor.broadcast" => Self::Broadcast,
            "pld.tensor.barrier" => Self::Barrier,
            "pld.tensor.all_to_all" => Self::AllToAll,
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
        }
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
    ReduceOp::of_op(&op, "op").expect("a reducing collective has a verified reduce_op")
}

/// What the op verifiers leave for this pass to reject.
fn check(op: OpRef) -> Result<(), String> {
    let collective = Collective::of(op).expect("only collectives are checked");
    if matches!(
        collective,
        Collective::Allreduce | Collective::ReduceScatter
    ) {
        let element = types::element_type(named(op, "target").r#type()).expect("a shaped target");
        if !is_combinable(element) {
            return Err(format!(
                "pld-decompose-collectives cannot combine element type {element} (the vector \
                 unit combines f16, bf16, f32, i16 and i32)"
            ));
        }
    }
    Ok(())
}

impl DecomposeCollectives {
    /// Replaces `op` by its algorithm: in place in InCore code; in host code
    /// (the HOST rail) as a call of a generated kernel that runs it.
    fn decompose<'c>(&self, op: OpRef<'c>, kernels: &mut HostRailKernels<'c>) {
        let collective = Collective::of(op).expect("only collectives are decomposed");
        let operands: Vec<Val> = (0..op.operand_count())
            .map(|index| operand(op, index))
            .collect();
        // The result is the target's updated value (a barrier has none).
        let target =
            (collective != Collective::Barrier).then(|| operands[named_position(op, "target")]);
        let in_host_code =
            scope_of(&op, self.default_kind).is_some_and(|scope| scope.kind == CodeKind::Host);
        if in_host_code {
            let (builder, arguments) = kernels.create(op, collective);
            let located = builder.at(implementing(&op));
            self.algorithm(&located, op, collective, &arguments);
            builder.create("func.return", &[], &[], &[], vec![]);
            Builder::before(op).create(
                "func.call",
                &operands,
                &[],
                &[("callee", kernels.last_symbol())],
                vec![],
            );
        } else {
            // Located as the collective the user wrote, which the
            // simulator's reports name (crate::ir::location).
            let located = Builder::before(op).at(implementing(&op));
            self.algorithm(&located, op, collective, &operands);
        }
        replace_op(op, &target.into_iter().collect::<Vec<_>>());
    }

    /// Builds the algorithm of `op` with `builder`, over `operands` (the
    /// op's own, or a generated kernel's arguments standing for them).
    fn algorithm<'c>(
        &self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        collective: Collective,
        operands: &[Val<'c>],
    ) {
        // `operands` stand for the op's in order: read them by ODS name.
        let operand = |name: &str| operands[named_position(op, name)];
        let signal = operand("signal");
        let ctx = builder.comm_ctx(signal);
        let credits = Credits {
            signal,
            me: builder.rank_index(ctx),
            ranks: builder.nranks_index(ctx),
            cells: if types::shape(signal.r#type()).is_some_and(|shape| shape.len() == 1) {
                Cells::Vector
            } else {
                Cells::Column
            },
        };
        let chunk = self.chunk_bytes;
        match collective {
            Collective::Allreduce => {
                let stream = Stream::of(builder, operand("target"));
                if self.runs_ring(op, &stream) {
                    ring::allreduce(builder, &stream, credits, reduce_op(op), chunk);
                } else {
                    mesh::allreduce(builder, &stream, credits, reduce_op(op), chunk);
                }
            }
            Collective::ReduceScatter => {
                rows::reduce_scatter(builder, operand("target"), credits, reduce_op(op), chunk)
            }
            Collective::Allgather => {
                rows::allgather(builder, operand("local"), operand("target"), credits, chunk)
            }
            Collective::Broadcast => {
                rows::broadcast(builder, operand("target"), operand("root"), credits, chunk)
            }
            Collective::Barrier => rows::barrier(builder, credits),
            Collective::AllToAll => {
                rows::all_to_all(builder, operand("input"), operand("target"), credits, chunk)
            }
        }
    }

    /// Whether an allreduce runs the ring algorithm: as written, unless
    /// `allreduce=auto` finds mesh cheaper for a ring signal of static rank
    /// count and a static size (then it says so in a remark).
    fn runs_ring(&self, op: OpRef, stream: &Stream) -> bool {
        let mode = CollectiveMode::of_op(&op, "mode").unwrap_or(CollectiveMode::Mesh);
        if mode != CollectiveMode::Ring || self.allreduce != AllreduceChoice::Auto {
            return mode == CollectiveMode::Ring;
        }
        let ranks = types::shape(named(op, "signal").r#type())
            .and_then(|shape| (shape.len() == 2 && shape[1] != types::DYNAMIC).then_some(shape[1]));
        let (Some(ranks), Some(len)) = (ranks, stream.len.constant()) else {
            return true;
        };
        let element_bytes = types::byte_width(stream.element).expect("an f16 or f32 target");
        let costs = self.costs.allreduce(
            len,
            ranks,
            element_bytes,
            stream.element.is_f16(),
            self.chunk_bytes,
        );
        let mesh = costs.mesh_ns < costs.ring_ns;
        let message = format!(
            "allreduce=auto: {} for {ranks} ranks x {} bytes (modelled mesh {:.2} us, ring {:.2} \
             us)",
            if mesh {
                "mesh algorithm over the ring signal"
            } else {
                "ring algorithm kept"
            },
            len * element_bytes,
            costs.mesh_ns / 1000.0,
            costs.ring_ns / 1000.0,
        );
        emit(Severity::Remark, op.location(), &message, &[]);
        !mesh
    }
}
