/*===- pld-c/Translation.h - pld to CCE C++ -----------------------*- C -*-===*\
|*                                                                            *|
|* The last step of the lowering: an EmitC module (the output of             *|
|* pld-to-cce-pipeline) printed as C++ by upstream's translateToCpp.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_TRANSLATION_H
#define PLD_C_TRANSLATION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prints `op` (an EmitC module) as C++ through `callback`. Failure: an op
 * EmitC cannot print; the reason is a located diagnostic. */
MLIR_CAPI_EXPORTED MlirLogicalResult pldTranslateToCpp(
    MlirOperation op, MlirStringCallback callback, void *userData);

/* Runs `pld-to-cce-pipeline{options}` on `module` (pld-level input), then
 * prints the result as C++ through `callback`. `options` is the pipeline's
 * option text (e.g. "chunk-bytes=4096"), empty for the defaults. */
MLIR_CAPI_EXPORTED MlirLogicalResult pldLowerToCpp(MlirOperation module,
                                                   MlirStringRef options,
                                                   MlirStringCallback callback,
                                                   void *userData);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_TRANSLATION_H */
