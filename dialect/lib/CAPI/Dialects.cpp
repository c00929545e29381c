//===- Dialects.cpp - C API of the pl and pld dialects --------------------===//

#include "pld-c/Dialects.h"

#include "pld/Dialect/Ascend/IR/Ascend.h"
#include "pld/Dialect/Ascend/IR/TargetRules.h"
#include "pld/Dialect/Pl/IR/Pl.h"
#include "pld/Dialect/Pld/IR/Pld.h"
#include "pld/InitAllDialects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Pl, pl, pld::pl::PlDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Pld, pld, pld::PldDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Ascend, ascend,
                                      pld::ascend::AscendDialect)

void pldRegisterAllDialects(MlirDialectRegistry registry) {
  pld::registerAllDialects(*unwrap(registry));
}

MlirType pldDistributedTensorTypeGet(MlirContext context, intptr_t rank,
                                     const int64_t *shape,
                                     MlirType elementType) {
  return wrap(pld::DistributedTensorType::getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(unwrap(context)),
      unwrap(context), ArrayRef<int64_t>(shape, rank), unwrap(elementType)));
}

bool pldTypeIsADistributedTensor(MlirType type) {
  return isa<pld::DistributedTensorType>(unwrap(type));
}

MlirType pldCommCtxTypeGet(MlirContext context) {
  return wrap(pld::CommCtxType::get(unwrap(context)));
}

bool pldTypeIsACommCtx(MlirType type) {
  return isa<pld::CommCtxType>(unwrap(type));
}

MlirType pldPtrTypeGet(MlirContext context) {
  return wrap(pld::PtrType::get(unwrap(context)));
}

bool pldTypeIsAPtr(MlirType type) { return isa<pld::PtrType>(unwrap(type)); }

MlirType plTileTypeGet(MlirContext context, intptr_t rank, const int64_t *shape,
                       MlirType elementType) {
  return wrap(pld::pl::TileType::getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(unwrap(context)),
      unwrap(context), ArrayRef<int64_t>(shape, rank), unwrap(elementType)));
}

bool plTypeIsATile(MlirType type) {
  return isa<pld::pl::TileType>(unwrap(type));
}

MlirType plTaskIdTypeGet(MlirContext context) {
  return wrap(pld::pl::TaskIdType::get(unwrap(context)));
}

bool plTypeIsATaskId(MlirType type) {
  return isa<pld::pl::TaskIdType>(unwrap(type));
}

MlirType ascendCtxTypeGet(MlirContext context) {
  return wrap(pld::ascend::CtxType::get(unwrap(context)));
}

MlirType ascendGmPtrTypeGet(MlirContext context, MlirType elementType) {
  return wrap(pld::ascend::GmPtrType::getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(unwrap(context)),
      unwrap(context), unwrap(elementType)));
}

MlirType ascendTileTypeGet(MlirContext context, int64_t rows, int64_t cols,
                           MlirType elementType, int32_t kind) {
  std::optional<pld::ascend::TileKind> tileKind =
      pld::ascend::symbolizeTileKind(kind);
  if (!tileKind)
    return MlirType{nullptr};
  int64_t shape[] = {rows, cols};
  return wrap(pld::ascend::TileType::getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(unwrap(context)),
      unwrap(context), ArrayRef<int64_t>(shape), unwrap(elementType),
      *tileKind));
}

MlirType ascendViewTypeGet(MlirContext context, MlirType elementType) {
  return wrap(pld::ascend::ViewType::get(unwrap(context), unwrap(elementType)));
}

MlirType ascendTaskTypeGet(MlirContext context) {
  return wrap(pld::ascend::TaskType::get(unwrap(context)));
}

MlirType ascendArgsTypeGet(MlirContext context) {
  return wrap(pld::ascend::ArgsType::get(unwrap(context)));
}

MlirType ascendDispatchPayloadTypeGet(MlirContext context) {
  return wrap(pld::ascend::DispatchPayloadType::get(unwrap(context)));
}

MlirType ascendFftsAddrTypeGet(MlirContext context) {
  return wrap(pld::ascend::FftsAddrType::get(unwrap(context)));
}

MlirType ascendSdmaWorkspaceTypeGet(MlirContext context) {
  return wrap(pld::ascend::SdmaWorkspaceType::get(unwrap(context)));
}

MlirType ascendAsyncSessionTypeGet(MlirContext context) {
  return wrap(pld::ascend::AsyncSessionType::get(unwrap(context)));
}

MlirType ascendAsyncEventTypeGet(MlirContext context) {
  return wrap(pld::ascend::AsyncEventType::get(unwrap(context)));
}

bool ascendTypeIsAAsyncSession(MlirType type) {
  return isa<pld::ascend::AsyncSessionType>(unwrap(type));
}

int64_t ascendSdmaScratchBytes(void) { return pld::ascend::kSdmaScratchBytes; }

int64_t ascendTilePaddedCols(int64_t cols, MlirType element) {
  return pld::ascend::paddedTileCols(cols, unwrap(element));
}

bool ascendIsTileElementType(MlirType element) {
  return pld::ascend::isTileElementType(unwrap(element));
}

MlirStringRef ascendTileElementTypeNames(void) {
  return mlirStringRefCreateFromCString(pld::ascend::tileElementTypeNames());
}

bool ascendIsTileMathElementType(int32_t profile, int32_t math,
                                 MlirType element) {
  return pld::ascend::isTileMathElementType(
      static_cast<pld::TargetProfile>(profile),
      static_cast<pld::ascend::TileMath>(math), unwrap(element));
}

void ascendTileMathElementTypeNames(int32_t profile, int32_t math,
                                    MlirStringCallback callback,
                                    void *userData) {
  std::string names = pld::ascend::tileMathElementTypeNames(
      static_cast<pld::TargetProfile>(profile),
      static_cast<pld::ascend::TileMath>(math));
  callback(mlirStringRefCreate(names.data(), names.size()), userData);
}

bool ascendIsConversion(int32_t profile, MlirType source, MlirType result) {
  return pld::ascend::isConversion(static_cast<pld::TargetProfile>(profile),
                                   unwrap(source), unwrap(result));
}

void ascendConversionNames(int32_t profile, MlirStringCallback callback,
                           void *userData) {
  std::string names =
      pld::ascend::conversionNames(static_cast<pld::TargetProfile>(profile));
  callback(mlirStringRefCreate(names.data(), names.size()), userData);
}

int64_t ascendMaxTileRows(int32_t profile) {
  return pld::ascend::maxTileRows(static_cast<pld::TargetProfile>(profile))
      .value_or(0);
}

int64_t ascendTileBufferBytes(int32_t profile, int32_t kind) {
  return pld::ascend::tileBufferBytes(static_cast<pld::TargetProfile>(profile),
                                      static_cast<pld::ascend::TileKind>(kind));
}

int64_t ascendTileBoxRows(int32_t kind, MlirType element) {
  return pld::ascend::tileBox(static_cast<pld::ascend::TileKind>(kind),
                              unwrap(element))
      .rows;
}

int64_t ascendTileBoxCols(int32_t kind, MlirType element) {
  return pld::ascend::tileBox(static_cast<pld::ascend::TileKind>(kind),
                              unwrap(element))
      .cols;
}

MlirType ascendMatmulAccumulator(MlirType lhs, MlirType rhs) {
  return wrap(pld::ascend::matmulAccumulator(unwrap(lhs), unwrap(rhs)));
}

MlirStringRef ascendMatmulElementTypeNames(void) {
  return mlirStringRefCreateFromCString(pld::ascend::matmulElementTypeNames());
}

bool ascendIsAccStoreElementTypes(MlirType acc, MlirType memory) {
  return pld::ascend::isAccStoreElementTypes(unwrap(acc), unwrap(memory));
}

bool ascendTypeIsATile(MlirType type) {
  return isa<pld::ascend::TileType>(unwrap(type));
}

bool ascendTypeIsAGmPtr(MlirType type) {
  return isa<pld::ascend::GmPtrType>(unwrap(type));
}

MlirType ascendGmPtrTypeGetElementType(MlirType type) {
  return wrap(cast<pld::ascend::GmPtrType>(unwrap(type)).getElementType());
}

int64_t ascendTileTypeGetRows(MlirType type) {
  return cast<pld::ascend::TileType>(unwrap(type)).getRows();
}

int64_t ascendTileTypeGetCols(MlirType type) {
  return cast<pld::ascend::TileType>(unwrap(type)).getCols();
}

MlirType ascendTileTypeGetElementType(MlirType type) {
  return wrap(cast<pld::ascend::TileType>(unwrap(type)).getElementType());
}

int32_t ascendTileTypeGetKind(MlirType type) {
  return static_cast<int32_t>(
      cast<pld::ascend::TileType>(unwrap(type)).getKind());
}

#define PLD_DEFINE_ENUM_ATTR_CAPI(Prefix, Name, Namespace)                     \
  MlirAttribute Prefix##Name##AttrGet(MlirContext context, int32_t value) {    \
    std::optional<Namespace::Name> kind = Namespace::symbolize##Name(value);   \
    if (!kind)                                                                 \
      return MlirAttribute{nullptr};                                           \
    return wrap(Namespace::Name##Attr::get(unwrap(context), *kind));           \
  }                                                                            \
  bool Prefix##AttributeIsA##Name(MlirAttribute attribute) {                   \
    return isa<Namespace::Name##Attr>(unwrap(attribute));                      \
  }                                                                            \
  int32_t Prefix##Name##AttrGetValue(MlirAttribute attribute) {                \
    return static_cast<int32_t>(                                               \
        cast<Namespace::Name##Attr>(unwrap(attribute)).getValue());            \
  }
PLD_DEFINE_ENUM_ATTR_CAPI(pld, NotifyOp, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pld, WaitCmp, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pld, ReduceOp, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pld, AtomicType, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pld, TransferEngine, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pld, CollectiveMode, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pld, CollectiveAlgorithm, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pld, TargetProfile, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(pl, KernelKind, pld::pl)
PLD_DEFINE_ENUM_ATTR_CAPI(pl, Level, pld::pl)
PLD_DEFINE_ENUM_ATTR_CAPI(pl, SplitMode, pld::pl)
PLD_DEFINE_ENUM_ATTR_CAPI(pl, RoundMode, pld::pl)
PLD_DEFINE_ENUM_ATTR_CAPI(ascend, NotifyOp, pld::ascend)
PLD_DEFINE_ENUM_ATTR_CAPI(ascend, WaitCmp, pld::ascend)
PLD_DEFINE_ENUM_ATTR_CAPI(ascend, AtomicType, pld::ascend)
PLD_DEFINE_ENUM_ATTR_CAPI(ascend, Pipe, pld::ascend)
PLD_DEFINE_ENUM_ATTR_CAPI(ascend, Core, pld::ascend)
#undef PLD_DEFINE_ENUM_ATTR_CAPI
