/*===- pld-c/PassBridge.h - foreign passes as MLIR passes ---------*- C -*-===*\
|*                                                                            *|
|* Registers a pass implemented outside C++ (pld's Rust passes) as an         *|
|* ordinary named MLIR pass: it appears in `--help`, works as a flag and      *|
|* inside `--pass-pipeline`, and takes string options with the usual          *|
|* `name{key=value}` syntax. Upstream's mlirCreateExternalPass rejects every  *|
|* option, hence this bridge.                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_PASSBRIDGE_H
#define PLD_C_PASSBRIDGE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One string-valued option of a bridged pass. */
typedef struct {
  MlirStringRef name;
  MlirStringRef description;
  MlirStringRef defaultValue;
} PldPassOption;

/* One statistic of a bridged pass: what `--mlir-pass-statistics` lists. */
typedef struct {
  MlirStringRef name;
  MlirStringRef description;
} PldPassStatistic;

/* The bridged pass a `run` callback runs for; valid during that call only. */
typedef struct {
  void *ptr;
} PldRunningPass;

typedef struct {
  /* Runs the pass on `op`; `values` holds the option values in declaration
   * order, and `pass` takes the statistics the run counts. Failure marks the
   * pass as failed (diagnostics are the callee's). */
  MlirLogicalResult (*run)(MlirOperation op, const MlirStringRef *values,
                           intptr_t numValues, PldRunningPass pass,
                           void *userData);
  /* Optional. Checks option values when a pipeline is parsed; on failure it
   * reports why through `error`. */
  MlirLogicalResult (*validateOptions)(const MlirStringRef *values,
                                       intptr_t numValues,
                                       MlirStringCallback error,
                                       void *errorUserData, void *userData);
  void *userData;
  /* Whether `run` leaves the IR as it found it (a checker or an analysis):
   * the pass manager then keeps every analysis and does not verify the IR
   * again after the pass. */
  bool leavesIRUnchanged;
} PldPassCallbacks;

/* Registers a pass under `argument` (its flag and pipeline name). An empty
 * `anchorOpName` lets the pass run on any op; otherwise only on that op.
 * Strings, options and statistics are copied. */
MLIR_CAPI_EXPORTED void
pldRegisterPass(MlirStringRef argument, MlirStringRef description,
                MlirStringRef anchorOpName, const PldPassOption *options,
                intptr_t numOptions, const PldPassStatistic *statistics,
                intptr_t numStatistics, PldPassCallbacks callbacks);

/* Adds `value` to the statistic at `index` (registration order) of the
 * running pass. */
MLIR_CAPI_EXPORTED void
pldRunningPassAddStatistic(PldRunningPass pass, intptr_t index, uint64_t value);

/* Writes, through `callback`, the statistics of every bridged pass that has
 * run in this process, summed over its runs, in the layout of MLIR's
 * `--mlir-pass-statistics-display=list` report. For tools on an MLIR built
 * without LLVM_ENABLE_STATS (any release build, Debian's included), whose
 * pass managers print an empty report. */
MLIR_CAPI_EXPORTED void pldPrintPassStatistics(MlirStringCallback callback,
                                               void *userData);

typedef struct {
  /* Writes, through `append`, the pipeline the option values stand for: a
   * comma-separated list of registered passes (no anchor op), e.g.
   * `pld-verify,pld-expand-transfers{ub-bytes=4096}`. On failure it writes
   * why instead. */
  MlirLogicalResult (*build)(const MlirStringRef *values, intptr_t numValues,
                             MlirStringCallback append, void *appendUserData,
                             void *userData);
  void *userData;
} PldPipelineCallbacks;

/* Registers a named pass pipeline under `argument`, with string options like
 * a bridged pass: it appears in `--help` with its options and works as a
 * flag and inside `--pass-pipeline`. Strings and options are copied. */
MLIR_CAPI_EXPORTED void pldRegisterPipeline(MlirStringRef argument,
                                            MlirStringRef description,
                                            const PldPassOption *options,
                                            intptr_t numOptions,
                                            PldPipelineCallbacks callbacks);

/* Registers the upstream passes pld's pipelines use by name (the transform
 * passes such as canonicalize and cse, arith-expand, convert-to-emitc,
 * form-expressions). Safe to call more than once. */
MLIR_CAPI_EXPORTED void pldRegisterUpstreamPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_PASSBRIDGE_H */
