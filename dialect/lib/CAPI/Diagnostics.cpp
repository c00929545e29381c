//===- Diagnostics.cpp - located diagnostics with notes -------------------===//

#include "pld-c/Diagnostics.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

static DiagnosticSeverity toSeverity(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticError:
    return DiagnosticSeverity::Error;
  case MlirDiagnosticWarning:
    return DiagnosticSeverity::Warning;
  case MlirDiagnosticNote:
    return DiagnosticSeverity::Note;
  case MlirDiagnosticRemark:
    return DiagnosticSeverity::Remark;
  }
  return DiagnosticSeverity::Error;
}

void pldEmitDiagnostic(MlirLocation location, MlirDiagnosticSeverity severity,
                       MlirStringRef message, intptr_t numNotes,
                       const MlirLocation *noteLocations,
                       const MlirStringRef *noteMessages) {
  Location loc = unwrap(location);
  InFlightDiagnostic diag =
      loc.getContext()->getDiagEngine().emit(loc, toSeverity(severity));
  diag << unwrap(message);
  for (intptr_t i = 0; i < numNotes; ++i)
    diag.attachNote(unwrap(noteLocations[i])) << unwrap(noteMessages[i]);
}
