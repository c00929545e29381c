/*===- pld-c/Interfaces.h - the facts ops declare in ODS ----------*- C -*-===*\
|*                                                                            *|
|* What pl and pld ops say about themselves through their ODS interfaces     *|
|* (pl::MemoryAccessOpInterface, pld::SignalOpInterface,                      *|
|* pld::CollectiveOpInterface), for code outside C++: pld's Rust passes read  *|
|* ops through these calls, never through op names.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_INTERFACES_H
#define PLD_C_INTERFACES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most dimensions an index list here holds. */
#define PLD_MAX_INDEX_RANK 8

/* One entry of an index list: a constant, a value, or (both null/unset:
 * `value` null and `known` false) an extent the op does not know. */
typedef struct PldIndex {
  bool known;
  int64_t constant; /* when known and `value` is null */
  MlirValue value;  /* when not null */
} PldIndex;

/* pl::AccessKind. */
typedef enum PldAccessKind {
  PldAccessRead = 0,
  PldAccessWrite = 1,
  PldAccessAtomicAdd = 2,
} PldAccessKind;

/* One region an op reads or writes (pl::MemoryAccess). `rank` is 0 when
 * the op touches all of `memory`; otherwise `offsets` and `sizes` hold one
 * entry per dimension. `peer` is null for the op's own rank. */
typedef struct PldMemoryAccess {
  MlirValue memory;
  MlirValue peer;
  PldAccessKind kind;
  intptr_t rank;
  PldIndex offsets[PLD_MAX_INDEX_RANK];
  PldIndex sizes[PLD_MAX_INDEX_RANK];
  /* Null, or the tensor or memref whose shape gives the unknown sizes: size
   * i is the extent of its dimension at the same distance from the last. */
  MlirValue sizedBy;
} PldMemoryAccess;

/* The accesses of `op`: -1 when it does not implement
 * MemoryAccessOpInterface (or indexes more than PLD_MAX_INDEX_RANK
 * dimensions); otherwise their number, of which the first `capacity` are
 * written to `accesses`. */
MLIR_CAPI_EXPORTED intptr_t pldOperationGetMemoryAccesses(
    MlirOperation op, PldMemoryAccess *accesses, intptr_t capacity);

/* pld::SignalEffect. */
typedef enum PldSignalEffect {
  PldSignalNotifySet = 0,
  PldSignalNotifyAtomicAdd = 1,
  PldSignalWaitEq = 2,
  PldSignalWaitGe = 3,
} PldSignalEffect;

/* The cell a notify, wait or defer_wait touches (pld::SignalOpInterface).
 * `peer` is null for a wait (its own rank's cell). */
typedef struct PldSignalAccess {
  MlirValue signal;
  MlirValue peer;
  MlirValue scalar;
  PldSignalEffect effect;
  bool deferred;
  intptr_t rank;
  PldIndex cell[PLD_MAX_INDEX_RANK];
} PldSignalAccess;

/* False, with nothing written, when `op` does not implement
 * SignalOpInterface (or its signal has more than PLD_MAX_INDEX_RANK
 * dimensions). */
MLIR_CAPI_EXPORTED bool pldOperationGetSignalAccess(MlirOperation op,
                                                    PldSignalAccess *access);

/* A collective's signal through `signal` and how many tensors it reads or
 * writes (the first `capacity` of them through `tensors`); -1 when `op`
 * does not implement CollectiveOpInterface. */
MLIR_CAPI_EXPORTED intptr_t pldOperationGetCollective(MlirOperation op,
                                                      MlirValue *signal,
                                                      MlirValue *tensors,
                                                      intptr_t capacity);

/* The algorithms a collective can be decomposed with
 * (CollectiveOpInterface::getAlgorithms), by the stable values of
 * pld::CollectiveAlgorithm: how many there are (the first `capacity` of them
 * through `algorithms`); -1 when `op` is not a collective. */
MLIR_CAPI_EXPORTED intptr_t pldCollectiveGetAlgorithms(MlirOperation op,
                                                       int32_t *algorithms,
                                                       intptr_t capacity);

/* The algorithms a collective runs on a part of its data, one part per
 * core (CollectiveOpInterface::getPartitionedAlgorithms), as
 * pldCollectiveGetAlgorithms gives them. */
MLIR_CAPI_EXPORTED intptr_t pldCollectiveGetPartitionedAlgorithms(
    MlirOperation op, int32_t *algorithms, intptr_t capacity);

/* The vector cores of every rank a collective runs on
 * (CollectiveOpInterface::getCoreCount); 0 when `op` is not a collective. */
MLIR_CAPI_EXPORTED int64_t pldCollectiveGetCoreCount(MlirOperation op);

/* Why the collective's signal cannot host `algorithm`
 * (CollectiveOpInterface::getAlgorithmSignalProblem), passed to `callback`;
 * false, without a call, when it can (or `op` is not a collective). */
MLIR_CAPI_EXPORTED bool
pldCollectiveAlgorithmSignalProblem(MlirOperation op, int32_t algorithm,
                                    MlirStringCallback callback,
                                    void *userData);

/* Whether `op` is a function (implements FunctionOpInterface). */
MLIR_CAPI_EXPORTED bool pldOperationIsFunction(MlirOperation op);

/* Whether erasing `op` changes nothing: its results are unused and it has
 * no effect but allocating or reading (mlir::isOpTriviallyDead). */
MLIR_CAPI_EXPORTED bool pldOperationIsTriviallyDead(MlirOperation op);

/* Whether `op` has no memory effect, nested ops included
 * (mlir::isMemoryEffectFree: an `arith` op, a `Pure` ascend op). */
MLIR_CAPI_EXPORTED bool pldOperationIsMemoryEffectFree(MlirOperation op);

/* The hardware pipe an ascend op issues on (its `ascend::OnPipe` trait), as
 * the value of `pld::ascend::Pipe`; -1 when it declares none. */
MLIR_CAPI_EXPORTED int32_t ascendOperationGetPipe(MlirOperation op);

/* Whether an ascend op reads a payload in global memory (`ReadsPayload`). */
MLIR_CAPI_EXPORTED bool ascendOperationReadsPayload(MlirOperation op);

/* Whether an ascend op writes a payload in global memory (`WritesPayload`). */
MLIR_CAPI_EXPORTED bool ascendOperationWritesPayload(MlirOperation op);

/* Whether an ascend op runs a callee (`RunsCallee`). */
MLIR_CAPI_EXPORTED bool ascendOperationRunsCallee(MlirOperation op);

/* The tile an ascend op writes (`TileWriterOpInterface`); null when the op
 * writes none. */
MLIR_CAPI_EXPORTED MlirValue ascendOperationGetWrittenTile(MlirOperation op);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_INTERFACES_H */
