/*===- pld-c/Passes.h - every pld pass, for C and C++ tools -------*- C -*-===*\
|*                                                                            *|
|* pld's passes are written in Rust. This entry point is defined in           *|
|* libPldPasses.a (CMake target pld::PldPasses, built when pld is configured  *|
|* with -DPLD_ENABLE_RUST_PASSES=ON); the archive carries no copy of MLIR,    *|
|* so the tool that links it links exactly one MLIR. See docs/embedding.md.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_PASSES_H
#define PLD_C_PASSES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Registers every pld pass (pld-verify, pld-decompose-collectives,
 * pld-expand-transfers, convert-pld-to-ascend, ascend-plan-ub,
 * ascend-insert-sync), every pipeline (pld-to-ascend-pipeline,
 * pld-to-cce-pipeline) and the upstream passes the pipelines name, as
 * ordinary named MLIR passes. Safe to call more than once; call it at
 * start-up, before any thread parses a pass pipeline. */
void pldRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_PASSES_H */
