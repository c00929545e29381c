//! GEMMs fused with communication (`pld.tensor.matmul_allreduce`,
//! `matmul_reduce_scatter`, `allgather_matmul`) as the race rule runs them
//! before pld-decompose-collectives expands them: a task of their own,
//! started after `deps`, whose id later tasks depend on. In it the op reads
//! its operands, meets every rank's call on its signal as a collective
//! does (docs/design/races.md, rule 3: every rank's accesses before the
//! call come before the call's reads, its reads before every rank's
//! accesses after it), then writes what it leaves on this rank: its
//! scratch and its result, whole. The peers' stores into this rank's
//! windows happen inside the call, between the two.

use super::{Context, Env, Flow, RankRun, Val, lookup, undecided};
use crate::verify::races::run::{EventKind, ThreadId};
use melior::ir::{Value, operation::OperationRef};
use pld_dialect::interfaces::AccessKind;
use pld_dialect::ops::pld;
use pld_ir::read as ir;

/// What a fused GEMM reads, what it leaves written on this rank, its signal
/// and the tasks it starts after.
pub(super) struct FusedGemm<'c, 'a> {
    reads: Vec<Value<'c, 'a>>,
    writes: Vec<Value<'c, 'a>>,
    signal: Value<'c, 'a>,
    deps: Vec<Value<'c, 'a>>,
}

/// `op`'s operands by what the op does with them, if it is a fused GEMM.
pub(super) fn fused_gemm<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<FusedGemm<'c, 'a>> {
    if let Some(gemm) = pld::TensorMatmulAllreduceOp::operands(op) {
        return Some(FusedGemm {
            reads: vec![gemm.a, gemm.b],
            writes: vec![gemm.c],
            signal: gemm.signal,
            deps: gemm.deps,
        });
    }
    if let Some(gemm) = pld::TensorMatmulReduceScatterOp::operands(op) {
        return Some(FusedGemm {
            reads: vec![gemm.a, gemm.b],
            writes: vec![gemm.partial, gemm.out],
            signal: gemm.signal,
            deps: gemm.deps,
        });
    }
    let gemm = pld::TensorAllgatherMatmulOp::operands(op)?;
    Some(FusedGemm {
        reads: vec![gemm.a, gemm.b],
        writes: vec![gemm.gathered, gemm.c],
        signal: gemm.signal,
        deps: gemm.deps,
    })
}

impl<'c, 'a> RankRun<'_, 'c, 'a> {
    /// Runs `gemm`, the operands of `op`, as its task; its result is the
    /// task's id.
    pub(super) fn run_fused_gemm(
        &mut self,
        op: &OperationRef<'c, 'a>,
        gemm: FusedGemm<'c, 'a>,
        env: &mut Env,
        context: Context,
        tasks: &mut Vec<ThreadId>,
    ) -> Flow<'c, ()> {
        let deps = self.dependencies(gemm.deps, env, op, "the GEMM")?;
        let Val::Memory { buffer: signal, .. } = lookup(env, gemm.signal) else {
            return undecided("the signal of the GEMM is not known", op);
        };
        let spawn = self.push(context.thread, Some(*op), EventKind::Spawn)?;
        // Named as its decomposition names its task ("matmul_allreduce").
        let name = ir::name(op);
        let task = name.strip_prefix("pld.tensor.").unwrap_or(name);
        let label = format!("rank {} task \"{task}\"", self.rank);
        let thread = self.start_thread(label, spawn, deps)?;
        let what = format!("the memory {name} accesses");
        for value in gemm.reads {
            let memory = lookup(env, value);
            self.own_access(op, memory, &what, None, AccessKind::Read, thread)?;
        }
        let cores = pld_dialect::interfaces::collective_cores(op).unwrap_or(1);
        self.meet_collective(op, cores, signal, Context { thread, ..context })?;
        for value in gemm.writes {
            let memory = lookup(env, value);
            self.own_access(op, memory, &what, None, AccessKind::Write, thread)?;
        }
        self.end_task(thread)?;
        tasks.push(thread);
        self.set_results(op, env, vec![Val::Task(vec![thread])]);
        Ok(())
    }
}
