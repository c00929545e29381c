//! Located diagnostics with notes, for passes written in Rust (the upstream C
//! API only emits a bare error).

use crate::ffi;
use melior::{StringRef, ir::Location};
use mlir_sys::{
    MlirDiagnosticSeverity, MlirDiagnosticSeverity_MlirDiagnosticError,
    MlirDiagnosticSeverity_MlirDiagnosticRemark, MlirDiagnosticSeverity_MlirDiagnosticWarning,
};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Remark,
}

impl Severity {
    fn to_raw(self) -> MlirDiagnosticSeverity {
        match self {
            Severity::Error => MlirDiagnosticSeverity_MlirDiagnosticError,
            Severity::Warning => MlirDiagnosticSeverity_MlirDiagnosticWarning,
            Severity::Remark => MlirDiagnosticSeverity_MlirDiagnosticRemark,
        }
    }
}

/// Emits `message` at `location`, then one note per `(location, message)`.
pub fn emit(severity: Severity, location: Location, message: &str, notes: &[(Location, &str)]) {
    let note_locations: Vec<_> = notes
        .iter()
        .map(|(location, _)| location.to_raw())
        .collect();
    let note_messages: Vec<_> = notes
        .iter()
        .map(|(_, message)| StringRef::new(message).to_raw())
        .collect();
    // SAFETY: a live location; both note arrays hold `notes.len()` entries,
    // and every string they and `message` point at outlives the call.
    unsafe {
        ffi::pldEmitDiagnostic(
            location.to_raw(),
            severity.to_raw(),
            StringRef::new(message).to_raw(),
            notes.len() as isize,
            note_locations.as_ptr(),
            note_messages.as_ptr(),
        )
    }
}
