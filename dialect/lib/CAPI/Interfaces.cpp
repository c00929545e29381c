//===- Interfaces.cpp - the facts ops declare in ODS, for C ---------------===//

#include "pld-c/Interfaces.h"

#include "pld/Dialect/Ascend/IR/Ascend.h"
#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

PldIndex index(OpFoldResult entry) {
  PldIndex out{false, 0, {nullptr}};
  if (!entry)
    return out;
  out.known = true;
  if (auto value = dyn_cast<Value>(entry))
    out.value = wrap(value);
  else
    out.constant = cast<IntegerAttr>(cast<Attribute>(entry)).getInt();
  return out;
}

/// Copies `list` into `out`; false when it is too long.
bool copyIndices(ArrayRef<OpFoldResult> list, PldIndex *out) {
  if (list.size() > PLD_MAX_INDEX_RANK)
    return false;
  for (auto [i, entry] : llvm::enumerate(list))
    out[i] = index(entry);
  return true;
}

} // namespace

intptr_t pldOperationGetMemoryAccesses(MlirOperation op,
                                       PldMemoryAccess *accesses,
                                       intptr_t capacity) {
  auto access = dyn_cast<pld::pl::MemoryAccessOpInterface>(unwrap(op));
  if (!access)
    return -1;
  SmallVector<pld::pl::MemoryAccess> found;
  access.getMemoryAccesses(found);
  for (auto [i, each] : llvm::enumerate(found)) {
    if (each.offsets.size() > PLD_MAX_INDEX_RANK)
      return -1;
    if (static_cast<intptr_t>(i) >= capacity)
      continue;
    PldMemoryAccess &out = accesses[i];
    out.memory = wrap(each.memory);
    out.peer = wrap(each.peer);
    out.kind = static_cast<PldAccessKind>(each.kind);
    out.rank = static_cast<intptr_t>(each.offsets.size());
    copyIndices(each.offsets, out.offsets);
    copyIndices(each.sizes, out.sizes);
    out.sizedBy = wrap(each.sizedBy);
  }
  return static_cast<intptr_t>(found.size());
}

bool pldOperationGetSignalAccess(MlirOperation op, PldSignalAccess *access) {
  auto signal = dyn_cast<pld::SignalOpInterface>(unwrap(op));
  if (!signal)
    return false;
  SmallVector<OpFoldResult> cell = signal.getCellOffsets();
  if (cell.size() > PLD_MAX_INDEX_RANK)
    return false;
  access->signal = wrap(signal.getSignalTensor());
  access->peer = wrap(signal.getSignalPeer());
  access->scalar = wrap(signal.getSignalScalar());
  access->effect = static_cast<PldSignalEffect>(signal.getSignalEffect());
  access->deferred = signal.isDeferred();
  access->rank = static_cast<intptr_t>(cell.size());
  copyIndices(cell, access->cell);
  return true;
}

intptr_t pldOperationGetCollective(MlirOperation op, MlirValue *signal,
                                   MlirValue *tensors, intptr_t capacity) {
  auto collective = dyn_cast<pld::CollectiveOpInterface>(unwrap(op));
  if (!collective)
    return -1;
  *signal = wrap(collective.getSignalTensor());
  SmallVector<Value> found;
  collective.getCollectiveTensors(found);
  for (auto [i, tensor] : llvm::enumerate(found))
    if (static_cast<intptr_t>(i) < capacity)
      tensors[i] = wrap(tensor);
  return static_cast<intptr_t>(found.size());
}

/// The algorithms `list` appends for collective `op`, through `algorithms`.
static intptr_t
collectiveAlgorithms(MlirOperation op, int32_t *algorithms, intptr_t capacity,
                     void (pld::CollectiveOpInterface::*list)(
                         SmallVectorImpl<pld::CollectiveAlgorithm> &)) {
  auto collective = dyn_cast<pld::CollectiveOpInterface>(unwrap(op));
  if (!collective)
    return -1;
  SmallVector<pld::CollectiveAlgorithm> found;
  (collective.*list)(found);
  for (auto [i, algorithm] : llvm::enumerate(found))
    if (static_cast<intptr_t>(i) < capacity)
      algorithms[i] = static_cast<int32_t>(algorithm);
  return static_cast<intptr_t>(found.size());
}

intptr_t pldCollectiveGetAlgorithms(MlirOperation op, int32_t *algorithms,
                                    intptr_t capacity) {
  return collectiveAlgorithms(op, algorithms, capacity,
                              &pld::CollectiveOpInterface::getAlgorithms);
}

intptr_t pldCollectiveGetPartitionedAlgorithms(MlirOperation op,
                                               int32_t *algorithms,
                                               intptr_t capacity) {
  return collectiveAlgorithms(
      op, algorithms, capacity,
      &pld::CollectiveOpInterface::getPartitionedAlgorithms);
}

int64_t pldCollectiveGetCoreCount(MlirOperation op) {
  auto collective = dyn_cast<pld::CollectiveOpInterface>(unwrap(op));
  return collective ? collective.getCoreCount() : 0;
}

bool pldCollectiveAlgorithmSignalProblem(MlirOperation op, int32_t algorithm,
                                         MlirStringCallback callback,
                                         void *userData) {
  auto collective = dyn_cast<pld::CollectiveOpInterface>(unwrap(op));
  std::optional<pld::CollectiveAlgorithm> value =
      pld::symbolizeCollectiveAlgorithm(static_cast<uint32_t>(algorithm));
  if (!collective || !value)
    return false;
  std::string problem = collective.getAlgorithmSignalProblem(*value);
  if (problem.empty())
    return false;
  callback(mlirStringRefCreate(problem.data(), problem.size()), userData);
  return true;
}

bool pldOperationIsFunction(MlirOperation op) {
  return isa<FunctionOpInterface>(unwrap(op));
}

bool pldOperationIsTriviallyDead(MlirOperation op) {
  return isOpTriviallyDead(unwrap(op));
}

bool pldOperationIsMemoryEffectFree(MlirOperation op) {
  return isMemoryEffectFree(unwrap(op));
}

int32_t ascendOperationGetPipe(MlirOperation op) {
  std::optional<pld::ascend::Pipe> pipe = pld::ascend::getPipe(unwrap(op));
  return pipe ? static_cast<int32_t>(*pipe) : -1;
}

bool ascendOperationReadsPayload(MlirOperation op) {
  return unwrap(op)->hasTrait<pld::ascend::ReadsPayload>();
}

bool ascendOperationWritesPayload(MlirOperation op) {
  return unwrap(op)->hasTrait<pld::ascend::WritesPayload>();
}

bool ascendOperationRunsCallee(MlirOperation op) {
  return unwrap(op)->hasTrait<pld::ascend::RunsCallee>();
}

MlirValue ascendOperationGetWrittenTile(MlirOperation op) {
  auto writer = dyn_cast<pld::ascend::TileWriterOpInterface>(unwrap(op));
  return wrap(writer ? writer.getWrittenTile() : Value());
}
