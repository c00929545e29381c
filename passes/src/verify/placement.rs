//! Host-only and InCore-only ops (SPEC §1: `world_size` is host-only;
//! `rank`, `nranks`, `notify`, `wait` and `defer_wait` exist only in InCore
//! code).

use crate::bridge::PassFailed;
use melior::ir::{
    BlockLike, Location, RegionLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::diagnostics::{Severity, emit};

/// Where a piece of code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeKind {
    /// A host orchestrator function.
    Host,
    /// An AI-core kernel, or the body of a task.
    InCore,
}

impl CodeKind {
    fn describe(self) -> &'static str {
        match self {
            CodeKind::Host => "host code",
            CodeKind::InCore => "InCore code",
        }
    }
}

/// The innermost construct that decides the kind of the code around an op.
#[derive(Clone, Copy)]
struct Scope<'c> {
    kind: CodeKind,
    location: Location<'c>,
    why: &'static str,
}

const HOST_ONLY: &[&str] = &["pld.system.world_size"];
const INCORE_ONLY: &[&str] = &[
    "pld.system.rank",
    "pld.system.nranks",
    "pld.system.notify",
    "pld.system.wait",
    "pld.system.defer_wait",
];
/// Task scopes: their bodies run on AI cores wherever they stand.
const TASK_SCOPES: &[&str] = &["pl.at", "pl.spmd"];

fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_owned()
}

/// The scope a function opens, if `op` is a function.
fn function_scope<'c>(op: &OperationRef<'c, '_>, default_kind: CodeKind) -> Option<Scope<'c>> {
    let is_function = op.has_attribute("function_type") && op.has_attribute("sym_name");
    if !is_function {
        return None;
    }
    let marked = op
        .discardable_attribute("pl.kernel")
        .ok()
        .map(|attribute| attribute.to_string());
    Some(match marked.as_deref() {
        Some("#pl.kernel<incore>") => Scope {
            kind: CodeKind::InCore,
            location: op.location(),
            why: "the enclosing function is marked #pl.kernel<incore>",
        },
        Some(_) => Scope {
            kind: CodeKind::Host,
            location: op.location(),
            why: "the enclosing function is marked #pl.kernel<host>",
        },
        None => Scope {
            kind: default_kind,
            location: op.location(),
            why: match default_kind {
                CodeKind::Host => {
                    "the enclosing function has no pl.kernel attribute, so it is a host \
                     orchestrator (pld-verify default-kind=host)"
                }
                CodeKind::InCore => {
                    "the enclosing function has no pl.kernel attribute, so it is an InCore \
                     kernel (pld-verify default-kind=incore)"
                }
            },
        },
    })
}

fn visit<'c>(op: OperationRef<'c, '_>, scope: Option<Scope<'c>>, default_kind: CodeKind, ok: &mut bool) {
    let name = name_of(&op);
    if let Some(scope) = scope {
        let required = if HOST_ONLY.contains(&name.as_str()) {
            Some(CodeKind::Host)
        } else if INCORE_ONLY.contains(&name.as_str()) {
            Some(CodeKind::InCore)
        } else {
            None
        };
        if let Some(required) = required.filter(|required| *required != scope.kind) {
            *ok = false;
            let message = format!(
                "'{name}' is only legal in {}, but it stands in {}",
                required.describe(),
                scope.kind.describe()
            );
            emit(Severity::Error, op.location(), &message, &[(scope.location, scope.why)]);
        }
    }

    let inner = if TASK_SCOPES.contains(&name.as_str()) {
        Some(Scope {
            kind: CodeKind::InCore,
            location: op.location(),
            why: "the body of a task scope runs on an AI core",
        })
    } else {
        function_scope(&op, default_kind).or(scope)
    };
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(current) = block {
            let mut child = current.first_operation();
            while let Some(operation) = child {
                visit(operation, inner, default_kind, ok);
                child = operation.next_in_block();
            }
            block = current.next_in_region();
        }
    }
}

/// Reports every host-only op in InCore code and every InCore-only op in
/// host code under `root`.
pub fn check(root: OperationRef, default_kind: CodeKind) -> Result<(), PassFailed> {
    let mut ok = true;
    visit(root, None, default_kind, &mut ok);
    if ok { Ok(()) } else { Err(PassFailed) }
}
