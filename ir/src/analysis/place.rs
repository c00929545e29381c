//! Where code runs: the one placement analysis that pld-verify, the
//! collective decomposition and the Ascend lowering share.
//!
//! A function is host code or AI-core code by its `pl.kernel` attribute
//! (`#pl.kernel<host|incore>`), or by the passes' `default-kind` without
//! one; the body of a task scope (`pl.at`, `pl.spmd`) runs on an AI core
//! wherever it stands. On the core, an op runs on the cube unit (AIC) when
//! it is cube work (a GEMM: `pl.matmul`, the loads that feed it and the
//! store of its product) and on a vector lane (AIV) when it is vector work
//! (every other op that moves or computes tiles); signals, scalar accesses
//! and queries run wherever their kernel does. A kernel with both is a
//! mixed kernel.

use crate::OpRef;
use crate::read::{self, OpHandle};
use melior::ir::{Location, operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::{pl, pld};

/// Where a piece of code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A host orchestrator.
    Host,
    /// An AI core's vector unit (an AIV lane).
    Aiv,
    /// An AI core's cube unit (the AIC).
    Aic,
    /// An AI core function with cube and vector work, which the lowering
    /// splits into an AIC and an AIV half.
    Mixed,
}

impl Place {
    /// Whether the code runs on an AI core (any unit of it).
    pub fn is_core(self) -> bool {
        self != Place::Host
    }

    /// The code, as diagnostics name it.
    pub fn describe(self) -> &'static str {
        if self.is_core() {
            "InCore code"
        } else {
            "host code"
        }
    }
}

/// The value of a `default-kind` pass option: a `#pl.kernel` keyword
/// (`host` or `incore`).
pub fn parse_default_kind(value: &str) -> Result<KernelKind, crate::pass::bridge::OptionError> {
    KernelKind::ALL
        .iter()
        .copied()
        .find(|kind| kind.keyword() == value)
        .ok_or_else(|| {
            format!("expected default-kind to be 'host' or 'incore', found '{value}'").into()
        })
}

/// The innermost construct that decides where the code around an op runs.
#[derive(Clone, Copy)]
pub struct Scope<'c> {
    /// Where the op runs.
    pub place: Place,
    /// The construct that decides it.
    pub location: Location<'c>,
    /// Why, in a note's words.
    pub why: &'static str,
}

/// Task scopes: their bodies run on AI cores wherever they stand.
pub const TASK_SCOPES: &[&str] = &[pl::AtOp::NAME, pl::SpmdOp::NAME];

/// Whether `op` is cube work (it runs on the AIC): a `pl.matmul`, a tile
/// load (`pl.load`, `pld.tile.remote_load`) whose tile only `pl.matmul`s
/// use (it goes to L1), or a `pl.store` of a `pl.matmul`'s product (from
/// L0C through the fixpipe).
pub fn is_cube_work<'c>(op: impl OpHandle<'c>) -> bool {
    // SAFETY: the handle names a live op of the context `'c`.
    let op: OpRef<'c> = unsafe { OpRef::from_raw(op.raw_op()) };
    match read::name(op) {
        pl::MatmulOp::NAME => true,
        pl::LoadOp::NAME | pld::TileRemoteLoadOp::NAME => {
            let uses = crate::handle::uses(crate::Builder::result(op));
            !uses.is_empty()
                && uses
                    .iter()
                    .all(|(user, _)| read::name(*user) == pl::MatmulOp::NAME)
        }
        pl::StoreOp::NAME => pl::StoreOp::operands(&op)
            .and_then(|store| read::defining_op(store.value))
            .is_some_and(|producer| read::name(producer) == pl::MatmulOp::NAME),
        _ => false,
    }
}

/// Whether `op` is vector work (it runs on an AIV lane): a pl or pld op
/// that moves or computes tiles and is not cube work (tile math, tile loads
/// and stores, remote accesses, transfers, collectives, a `pl.split_aiv`
/// region). Signals, scalar accesses, queries, windows and task scopes are
/// neither.
pub fn is_vector_work<'c>(op: impl OpHandle<'c>) -> bool {
    let name = read::name(op);
    let dialect = name.split('.').next().unwrap_or_default();
    if !matches!(dialect, "pl" | "pld") || is_cube_work(op) {
        return false;
    }
    !matches!(
        name,
        pld::SystemNotifyOp::NAME
            | pld::SystemWaitOp::NAME
            | pld::SystemDeferWaitOp::NAME
            | pld::SystemRankOp::NAME
            | pld::SystemNranksOp::NAME
            | pld::SystemWorldSizeOp::NAME
            | pld::SystemWorldRankOp::NAME
            | pld::SystemGetCommCtxOp::NAME
            | pld::TensorAllocWindowBufferOp::NAME
            | pld::TensorWindowOp::NAME
            | pld::TensorReshapeOp::NAME
            | pld::TensorDimOp::NAME
            | pl::ReadOp::NAME
            | pl::WriteOp::NAME
            | pl::GetBlockIdxOp::NAME
            | pl::GetAivIdOp::NAME
            | pl::AtOp::NAME
            | pl::SpmdOp::NAME
    )
}

/// The first cube op among `ops`.
pub fn cube_work<'c, 'a>(ops: &[OperationRef<'c, 'a>]) -> Option<OperationRef<'c, 'a>> {
    ops.iter().find(|op| is_cube_work(*op)).copied()
}

/// The first vector op among `ops`.
pub fn vector_work<'c, 'a>(ops: &[OperationRef<'c, 'a>]) -> Option<OperationRef<'c, 'a>> {
    ops.iter().find(|op| is_vector_work(*op)).copied()
}

/// The cube op and the vector op of a mixed kernel: the first of each in
/// `ops` (a kernel's ops, its task bodies excluded), when it has both.
pub fn mixed_work<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
) -> Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)> {
    // Without a pl.matmul there is no cube work: the common case, found by
    // name alone, before the loads' uses are walked.
    ops.iter()
        .find(|op| pld_dialect::has_name(*op, pl::MatmulOp::NAME))?;
    Some((cube_work(ops)?, vector_work(ops)?))
}

/// The unit of an AI core that runs `op`.
fn core_unit(op: &OperationRef) -> Place {
    if is_cube_work(op) {
        Place::Aic
    } else {
        Place::Aiv
    }
}

/// The kernel an op runs in: its innermost task, or else its function.
pub fn kernel_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    read::enclosing(op, TASK_SCOPES).or_else(|| read::enclosing_function(op))
}

/// The kind a function is marked with (`pl.kernel`), if any.
fn marked_kind(function: &OperationRef) -> Option<KernelKind> {
    KernelKind::on(function)
}

/// Whether `function` is AI-core code: marked `#pl.kernel<incore>`, or
/// unmarked with `default_kind` incore.
pub fn runs_on_core(function: &OperationRef, default_kind: KernelKind) -> bool {
    marked_kind(function).unwrap_or(default_kind) == KernelKind::InCore
}

fn function_scope<'c>(
    function: &OperationRef<'c, '_>,
    op: &OperationRef,
    default_kind: KernelKind,
) -> Scope<'c> {
    let (core, why) = match marked_kind(function) {
        Some(KernelKind::InCore) => (true, "the enclosing function is marked #pl.kernel<incore>"),
        Some(KernelKind::Host) => (false, "the enclosing function is marked #pl.kernel<host>"),
        None => match default_kind {
            KernelKind::Host => (
                false,
                "the enclosing function has no pl.kernel attribute, so it is a host \
                 orchestrator (pld-verify default-kind=host)",
            ),
            KernelKind::InCore => (
                true,
                "the enclosing function has no pl.kernel attribute, so it is an InCore \
                 kernel (pld-verify default-kind=incore)",
            ),
        },
    };
    Scope {
        place: if core { core_unit(op) } else { Place::Host },
        location: function.location(),
        why,
    }
}

/// Where `op` runs: on an AI core inside a task, else where its function
/// runs. `None` outside any function.
pub fn scope_of<'c>(op: &OperationRef<'c, '_>, default_kind: KernelKind) -> Option<Scope<'c>> {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if TASK_SCOPES.contains(&read::name(ancestor)) {
            return Some(Scope {
                place: core_unit(op),
                location: ancestor.location(),
                why: "the body of a task scope runs on an AI core",
            });
        }
        if read::is_function(&ancestor) {
            return Some(function_scope(&ancestor, op, default_kind));
        }
        current = ancestor.parent_operation();
    }
    None
}
