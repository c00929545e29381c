/*===- pld-c/Analysis.h - value facts for passes ------------------*- C -*-===*\
|*                                                                            *|
|* What MLIR's dataflow analyses know about the integer values of a module:  *|
|* sparse constant propagation and integer ranges over the whole module      *|
|* (through scf regions, iteration arguments and calls), with rank ids and   *|
|* counts bounded by semantics §1. Rust passes (pld-verify) ask it instead of *|
|* matching `arith.constant` ops.                                             *|
|*                                                                            *|
|* The module is analysed as a closed world: a function the module itself    *|
|* calls is reached only from those calls, so a host that calls a kernel     *|
|* with a constant passes that constant in; a function nobody in the module  *|
|* calls is an entry point, whose arguments may be anything.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_ANALYSIS_H
#define PLD_C_ANALYSIS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The facts of one module; valid while the module is alive and unchanged.
 * Creating them reads the module (it is left as it was). */
typedef struct PldValueFacts {
  void *ptr;
} PldValueFacts;

/* Analyses `module`. A null handle (`ptr` null) when the analysis fails. */
MLIR_CAPI_EXPORTED PldValueFacts pldValueFactsCreate(MlirOperation module);

MLIR_CAPI_EXPORTED void pldValueFactsDestroy(PldValueFacts facts);

/* Whether the analysis bounds `value` (an integer or index value of the
 * module) to one constant; the constant, sign-extended, in `out`. Values
 * that fold to a constant from others (x - x) are the caller's to fold. */
MLIR_CAPI_EXPORTED bool pldValueFactsGetConstant(PldValueFacts facts,
                                                 MlirValue value, int64_t *out);

/* Whether the analysis bounds `value`; its signed bounds in `min`, `max`. */
MLIR_CAPI_EXPORTED bool pldValueFactsGetRange(PldValueFacts facts,
                                              MlirValue value, int64_t *min,
                                              int64_t *max);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_ANALYSIS_H */
