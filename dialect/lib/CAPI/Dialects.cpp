//===- Dialects.cpp - C API of the pl and pld dialects --------------------===//

#include "pld-c/Dialects.h"

#include "pld/Dialect/Ascend/IR/Ascend.h"
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

MlirType pldTileTypeGet(MlirContext context, intptr_t rank,
                        const int64_t *shape, MlirType elementType) {
  return wrap(pld::pl::TileType::getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(unwrap(context)),
      unwrap(context), ArrayRef<int64_t>(shape, rank), unwrap(elementType)));
}

bool pldTypeIsATile(MlirType type) {
  return isa<pld::pl::TileType>(unwrap(type));
}

MlirType pldTaskIdTypeGet(MlirContext context) {
  return wrap(pld::pl::TaskIdType::get(unwrap(context)));
}

bool pldTypeIsATaskId(MlirType type) {
  return isa<pld::pl::TaskIdType>(unwrap(type));
}

MlirType pldAscendCtxTypeGet(MlirContext context) {
  return wrap(pld::ascend::CtxType::get(unwrap(context)));
}

MlirType pldAscendGmPtrTypeGet(MlirContext context, MlirType elementType) {
  return wrap(pld::ascend::GmPtrType::getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(unwrap(context)),
      unwrap(context), unwrap(elementType)));
}

MlirType pldAscendTileTypeGet(MlirContext context, int64_t rows, int64_t cols,
                              MlirType elementType) {
  int64_t shape[] = {rows, cols};
  return wrap(pld::ascend::TileType::getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(unwrap(context)),
      unwrap(context), ArrayRef<int64_t>(shape), unwrap(elementType)));
}

MlirType pldAscendViewTypeGet(MlirContext context, MlirType elementType) {
  return wrap(pld::ascend::ViewType::get(unwrap(context), unwrap(elementType)));
}

MlirType pldAscendTaskTypeGet(MlirContext context) {
  return wrap(pld::ascend::TaskType::get(unwrap(context)));
}

MlirType pldAscendArgsTypeGet(MlirContext context) {
  return wrap(pld::ascend::ArgsType::get(unwrap(context)));
}

bool pldTypeIsAAscendTile(MlirType type) {
  return isa<pld::ascend::TileType>(unwrap(type));
}

bool pldTypeIsAAscendGmPtr(MlirType type) {
  return isa<pld::ascend::GmPtrType>(unwrap(type));
}

MlirType pldAscendGmPtrTypeGetElementType(MlirType type) {
  return wrap(cast<pld::ascend::GmPtrType>(unwrap(type)).getElementType());
}

int64_t pldAscendTileTypeGetRows(MlirType type) {
  return cast<pld::ascend::TileType>(unwrap(type)).getRows();
}

int64_t pldAscendTileTypeGetCols(MlirType type) {
  return cast<pld::ascend::TileType>(unwrap(type)).getCols();
}

MlirType pldAscendTileTypeGetElementType(MlirType type) {
  return wrap(cast<pld::ascend::TileType>(unwrap(type)).getElementType());
}

#define PLD_DEFINE_ENUM_ATTR_CAPI(Name, Namespace)                             \
  MlirAttribute pld##Name##AttrGet(MlirContext context, int32_t value) {       \
    std::optional<Namespace::Name> kind = Namespace::symbolize##Name(value);   \
    if (!kind)                                                                 \
      return MlirAttribute{nullptr};                                           \
    return wrap(Namespace::Name##Attr::get(unwrap(context), *kind));           \
  }                                                                            \
  bool pldAttributeIsA##Name(MlirAttribute attribute) {                        \
    return isa<Namespace::Name##Attr>(unwrap(attribute));                      \
  }                                                                            \
  int32_t pld##Name##AttrGetValue(MlirAttribute attribute) {                   \
    return static_cast<int32_t>(                                               \
        cast<Namespace::Name##Attr>(unwrap(attribute)).getValue());            \
  }
PLD_DEFINE_ENUM_ATTR_CAPI(NotifyOp, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(WaitCmp, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(ReduceOp, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(AtomicType, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(CollectiveMode, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(TargetProfile, pld)
PLD_DEFINE_ENUM_ATTR_CAPI(KernelKind, pld::pl)
PLD_DEFINE_ENUM_ATTR_CAPI(Level, pld::pl)
PLD_DEFINE_ENUM_ATTR_CAPI(SplitMode, pld::pl)
#undef PLD_DEFINE_ENUM_ATTR_CAPI

// The ascend enums have the same names as pld's, in another namespace.
#define PLD_DEFINE_ASCEND_ENUM_ATTR_CAPI(Name)                                 \
  MlirAttribute pldAscend##Name##AttrGet(MlirContext context, int32_t value) { \
    std::optional<pld::ascend::Name> kind =                                    \
        pld::ascend::symbolize##Name(value);                                   \
    if (!kind)                                                                 \
      return MlirAttribute{nullptr};                                           \
    return wrap(pld::ascend::Name##Attr::get(unwrap(context), *kind));         \
  }                                                                            \
  bool pldAttributeIsAAscend##Name(MlirAttribute attribute) {                  \
    return isa<pld::ascend::Name##Attr>(unwrap(attribute));                    \
  }                                                                            \
  int32_t pldAscend##Name##AttrGetValue(MlirAttribute attribute) {             \
    return static_cast<int32_t>(                                               \
        cast<pld::ascend::Name##Attr>(unwrap(attribute)).getValue());          \
  }
PLD_DEFINE_ASCEND_ENUM_ATTR_CAPI(NotifyOp)
PLD_DEFINE_ASCEND_ENUM_ATTR_CAPI(WaitCmp)
PLD_DEFINE_ASCEND_ENUM_ATTR_CAPI(AtomicType)
PLD_DEFINE_ASCEND_ENUM_ATTR_CAPI(Pipe)
#undef PLD_DEFINE_ASCEND_ENUM_ATTR_CAPI
