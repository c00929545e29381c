/*===- pld-c/Diagnostics.h - located diagnostics with notes ------*- C -*-===*\
|*                                                                            *|
|* The upstream C API emits a bare error; passes written against it (the Rust *|
|* passes) need warnings and notes that point at related ops.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_DIAGNOSTICS_H
#define PLD_C_DIAGNOSTICS_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Emits `message` with `severity` at `location`, followed by one note per
 * (noteLocations[i], noteMessages[i]). */
MLIR_CAPI_EXPORTED void pldEmitDiagnostic(MlirLocation location,
                                          MlirDiagnosticSeverity severity,
                                          MlirStringRef message,
                                          intptr_t numNotes,
                                          const MlirLocation *noteLocations,
                                          const MlirStringRef *noteMessages);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_DIAGNOSTICS_H */
