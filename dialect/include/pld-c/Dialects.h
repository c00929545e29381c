/*===- pld-c/Dialects.h - C API of the pl and pld dialects -------*- C -*-===*\
|*                                                                            *|
|* Dialect handles, registration of everything a pld program needs, and      *|
|* constructors/predicates for the dialects' types.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_DIALECTS_H
#define PLD_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__pl__, mlirGetDialectHandle__pld__ and
 * mlirGetDialectHandle__ascend__. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Pl, pl);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Pld, pld);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Ascend, ascend);

/* Inserts pl, pld and the upstream dialects pld programs use (func, arith,
 * scf, memref, cf) into `registry`. */
MLIR_CAPI_EXPORTED void pldRegisterAllDialects(MlirDialectRegistry registry);

/* !pld.dtensor<shape x elementType>; dynamic dims are
 * mlirShapedTypeGetDynamicSize(). */
MLIR_CAPI_EXPORTED MlirType pldDistributedTensorTypeGet(MlirContext context,
                                                        intptr_t rank,
                                                        const int64_t *shape,
                                                        MlirType elementType);
MLIR_CAPI_EXPORTED bool pldTypeIsADistributedTensor(MlirType type);

/* !pld.comm_ctx and !pld.ptr. */
MLIR_CAPI_EXPORTED MlirType pldCommCtxTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED bool pldTypeIsACommCtx(MlirType type);
MLIR_CAPI_EXPORTED MlirType pldPtrTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED bool pldTypeIsAPtr(MlirType type);

/* !pl.tile<shape x elementType> (static, positive dims) and !pl.task_id. */
MLIR_CAPI_EXPORTED MlirType pldTileTypeGet(MlirContext context, intptr_t rank,
                                           const int64_t *shape,
                                           MlirType elementType);
MLIR_CAPI_EXPORTED bool pldTypeIsATile(MlirType type);
MLIR_CAPI_EXPORTED MlirType pldTaskIdTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED bool pldTypeIsATaskId(MlirType type);

/* The ascend target dialect's types: !ascend.ctx, !ascend.gm<T>,
 * !ascend.tile<RxCxT> (NULL when invalid; the reason goes to the context's
 * diagnostic handlers), !ascend.view<T>, !ascend.task, !ascend.args. */
MLIR_CAPI_EXPORTED MlirType pldAscendCtxTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED MlirType pldAscendGmPtrTypeGet(MlirContext context,
                                                  MlirType elementType);
MLIR_CAPI_EXPORTED MlirType pldAscendTileTypeGet(MlirContext context,
                                                 int64_t rows, int64_t cols,
                                                 MlirType elementType);
MLIR_CAPI_EXPORTED MlirType pldAscendViewTypeGet(MlirContext context,
                                                 MlirType elementType);
MLIR_CAPI_EXPORTED MlirType pldAscendTaskTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED MlirType pldAscendArgsTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED bool pldTypeIsAAscendTile(MlirType type);
MLIR_CAPI_EXPORTED bool pldTypeIsAAscendGmPtr(MlirType type);
/* Parameters of !ascend.gm<T> and !ascend.tile<RxCxT> (the type must be
 * one, as the predicates above tell). */
MLIR_CAPI_EXPORTED MlirType pldAscendGmPtrTypeGetElementType(MlirType type);
MLIR_CAPI_EXPORTED int64_t pldAscendTileTypeGetRows(MlirType type);
MLIR_CAPI_EXPORTED int64_t pldAscendTileTypeGetCols(MlirType type);
MLIR_CAPI_EXPORTED MlirType pldAscendTileTypeGetElementType(MlirType type);

/* Enum attributes, by the stable integer values of SPEC §2:
 * `pld<Name>AttrGet` builds one (NULL when `value` names no case),
 * `pldAttributeIsA<Name>` tests an attribute, `pld<Name>AttrGetValue` reads
 * one. Names: NotifyOp, WaitCmp, ReduceOp, AtomicType, CollectiveMode,
 * TargetProfile (pld) and KernelKind, Level, SplitMode (pl). */
#define PLD_DECLARE_ENUM_ATTR_CAPI(Name)                                       \
  MLIR_CAPI_EXPORTED MlirAttribute pld##Name##AttrGet(MlirContext context,     \
                                                      int32_t value);          \
  MLIR_CAPI_EXPORTED bool pldAttributeIsA##Name(MlirAttribute attribute);      \
  MLIR_CAPI_EXPORTED int32_t pld##Name##AttrGetValue(MlirAttribute attribute);
PLD_DECLARE_ENUM_ATTR_CAPI(NotifyOp)
PLD_DECLARE_ENUM_ATTR_CAPI(WaitCmp)
PLD_DECLARE_ENUM_ATTR_CAPI(ReduceOp)
PLD_DECLARE_ENUM_ATTR_CAPI(AtomicType)
PLD_DECLARE_ENUM_ATTR_CAPI(CollectiveMode)
PLD_DECLARE_ENUM_ATTR_CAPI(TargetProfile)
PLD_DECLARE_ENUM_ATTR_CAPI(KernelKind)
PLD_DECLARE_ENUM_ATTR_CAPI(Level)
PLD_DECLARE_ENUM_ATTR_CAPI(SplitMode)
/* The ascend dialect's enums, by PTO's own values: AscendNotifyOp,
 * AscendWaitCmp (EQ = 0, GE = 3), AscendAtomicType, AscendPipe. */
PLD_DECLARE_ENUM_ATTR_CAPI(AscendNotifyOp)
PLD_DECLARE_ENUM_ATTR_CAPI(AscendWaitCmp)
PLD_DECLARE_ENUM_ATTR_CAPI(AscendAtomicType)
PLD_DECLARE_ENUM_ATTR_CAPI(AscendPipe)
#undef PLD_DECLARE_ENUM_ATTR_CAPI

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_DIALECTS_H */
