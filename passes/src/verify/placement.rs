//! Where code runs (host orchestrator or AI core), and the ops that exist on
//! one side only (semantics §1: `world_size` is host-only; `rank`, `nranks`,
//! `notify`, `wait` and `defer_wait` exist only in InCore code).

use super::ir;
use crate::report::Report;
use melior::ir::{Location, ValueLike, operation::OperationLike, operation::OperationRef};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::{pl, pld};
use std::collections::HashMap;

/// Where a piece of code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeKind {
    /// A host orchestrator function.
    Host,
    /// An AI-core kernel, or the body of a task.
    InCore,
}

impl CodeKind {
    /// The value of a `default-kind` option: `host` or `incore`.
    pub fn parse(value: &str) -> Result<Self, crate::bridge::OptionError> {
        match value {
            "host" => Ok(CodeKind::Host),
            "incore" => Ok(CodeKind::InCore),
            other => Err(format!(
                "expected default-kind to be 'host' or 'incore', found '{other}'"
            )
            .into()),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            CodeKind::Host => "host code",
            CodeKind::InCore => "InCore code",
        }
    }
}

/// The innermost construct that decides the kind of the code around an op.
#[derive(Clone, Copy)]
pub struct Scope<'c> {
    pub kind: CodeKind,
    pub location: Location<'c>,
    pub why: &'static str,
}

/// Task scopes: their bodies run on AI cores wherever they stand.
pub const TASK_SCOPES: &[&str] = &[pl::AtOp::NAME, pl::SpmdOp::NAME];

const HOST_ONLY: &[&str] = &[pld::SystemWorldSizeOp::NAME];
const INCORE_ONLY: &[&str] = &[
    pld::SystemRankOp::NAME,
    pld::SystemNranksOp::NAME,
    pld::SystemNotifyOp::NAME,
    pld::SystemWaitOp::NAME,
    pld::SystemDeferWaitOp::NAME,
];

/// The kernel an op runs in: its innermost task, or else its function.
pub fn kernel_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    ir::enclosing(op, TASK_SCOPES).or_else(|| ir::enclosing_function(op))
}

/// [`kernel_of`] for each of `ops` (ops nested under one root, in pre-order,
/// as [`ir::nested_ops`] lists them), in one walk: the innermost task and
/// function around an op come from those around its parent, instead of a
/// walk up the nest from every op, which is quadratic in code nested
/// hundreds of loops deep.
pub fn kernels_of<'c, 'a>(ops: &[OperationRef<'c, 'a>]) -> Vec<Option<OperationRef<'c, 'a>>> {
    type Around<'c, 'a> = (Option<OperationRef<'c, 'a>>, Option<OperationRef<'c, 'a>>);
    // The innermost task and function around each op seen so far.
    let mut around: HashMap<usize, Around> = HashMap::new();
    ops.iter()
        .map(|op| {
            let parent = op.parent_operation()?;
            let (task, function) = around
                .get(&ir::op_key(&parent))
                .copied()
                .unwrap_or_else(|| {
                    (
                        ir::enclosing(&parent, TASK_SCOPES),
                        ir::enclosing_function(&parent),
                    )
                });
            let task = if TASK_SCOPES.contains(&ir::name(&parent)) {
                Some(parent)
            } else {
                task
            };
            let function = if ir::is_function(&parent) {
                Some(parent)
            } else {
                function
            };
            around.insert(ir::op_key(op), (task, function));
            task.or(function)
        })
        .collect()
}

/// A `pl.split_aiv` region runs on an AI core's AIV sub-lanes, each with a
/// unified buffer of its own: not in host code, and no tile from outside.
fn check_split(split: &OperationRef, default_kind: CodeKind, report: &mut Report) {
    if let Some(scope) = scope_of(split, default_kind)
        && scope.kind == CodeKind::Host
    {
        report.error(
            split,
            "'pl.split_aiv' is only legal in InCore code, but it stands in host code: it \
             splits an AI core's work between its AIV sub-lanes",
            &[(scope.location, scope.why.to_owned())],
        );
        return;
    }
    for inner in ir::nested_ops(*split) {
        for value in ir::operands(&inner) {
            if !pld_dialect::types::is_tile(value.r#type()) {
                continue;
            }
            let owner = ir::defining_op(value).or_else(|| ir::argument_owner(value));
            let inside = owner.is_some_and(|owner| owner == *split || ir::is_inside(&owner, split));
            if !inside {
                report.error(
                    split,
                    "a tile cannot cross into a pl.split_aiv region: each AIV sub-lane has \
                     its own unified buffer (load it inside the region)",
                    &[(value.location(), "the tile".to_owned())],
                );
                return;
            }
        }
    }
}

/// The first cube op (`pl.matmul`) among `ops`.
pub fn cube_work<'c, 'a>(ops: &[OperationRef<'c, 'a>]) -> Option<OperationRef<'c, 'a>> {
    ops.iter()
        .find(|op| ir::name(op) == pl::MatmulOp::NAME)
        .copied()
}

/// The kind of code a function holds: its `pl.kernel` attribute, or
/// `default_kind` without one.
pub fn function_kind(function: &OperationRef, default_kind: CodeKind) -> CodeKind {
    match kernel_kind(function) {
        Some(KernelKind::InCore) => CodeKind::InCore,
        Some(KernelKind::Host) => CodeKind::Host,
        None => default_kind,
    }
}

fn kernel_kind(function: &OperationRef) -> Option<KernelKind> {
    function
        .discardable_attribute(KernelKind::ATTRIBUTE_NAME)
        .ok()
        .and_then(KernelKind::of)
}

fn function_scope<'c>(function: &OperationRef<'c, '_>, default_kind: CodeKind) -> Scope<'c> {
    let marked = kernel_kind(function);
    let (kind, why) = match marked {
        Some(KernelKind::InCore) => (
            CodeKind::InCore,
            "the enclosing function is marked #pl.kernel<incore>",
        ),
        Some(KernelKind::Host) => (
            CodeKind::Host,
            "the enclosing function is marked #pl.kernel<host>",
        ),
        None => match default_kind {
            CodeKind::Host => (
                CodeKind::Host,
                "the enclosing function has no pl.kernel attribute, so it is a host \
                 orchestrator (pld-verify default-kind=host)",
            ),
            CodeKind::InCore => (
                CodeKind::InCore,
                "the enclosing function has no pl.kernel attribute, so it is an InCore \
                 kernel (pld-verify default-kind=incore)",
            ),
        },
    };
    Scope {
        kind,
        location: function.location(),
        why,
    }
}

/// The kind of code `op` stands in: InCore inside a task, else the kind of
/// its function. `None` outside any function.
pub fn scope_of<'c>(op: &OperationRef<'c, '_>, default_kind: CodeKind) -> Option<Scope<'c>> {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if TASK_SCOPES.contains(&ir::name(&ancestor)) {
            return Some(Scope {
                kind: CodeKind::InCore,
                location: ancestor.location(),
                why: "the body of a task scope runs on an AI core",
            });
        }
        if ir::is_function(&ancestor) {
            return Some(function_scope(&ancestor, default_kind));
        }
        current = ancestor.parent_operation();
    }
    None
}

/// Reports every host-only op in InCore code and every InCore-only op in
/// host code (or outside any function), and the split-AIV regions the
/// lowering cannot split.
pub fn check(ops: &[OperationRef], default_kind: CodeKind, report: &mut Report) {
    for split in ops
        .iter()
        .filter(|op| ir::name(op) == pld_dialect::ops::pl::SplitAivOp::NAME)
    {
        check_split(split, default_kind, report);
    }
    for op in ops {
        let name = ir::name(op);
        let required = if HOST_ONLY.contains(&name) {
            CodeKind::Host
        } else if INCORE_ONLY.contains(&name) {
            CodeKind::InCore
        } else {
            continue;
        };
        let Some(scope) = scope_of(op, default_kind) else {
            report.error(
                op,
                &format!(
                    "'{name}' stands outside any function: it is only legal in {}, and \
                     nothing would run it",
                    required.describe()
                ),
                &[],
            );
            continue;
        };
        if scope.kind != required {
            report.error(
                op,
                &format!(
                    "'{name}' is only legal in {}, but it stands in {}",
                    required.describe(),
                    scope.kind.describe()
                ),
                &[(scope.location, scope.why.to_owned())],
            );
        }
    }
}
