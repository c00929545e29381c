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
MLIR_CAPI_EXPORTED MlirType plTileTypeGet(MlirContext context, intptr_t rank,
                                          const int64_t *shape,
                                          MlirType elementType);
MLIR_CAPI_EXPORTED bool plTypeIsATile(MlirType type);
MLIR_CAPI_EXPORTED MlirType plTaskIdTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED bool plTypeIsATaskId(MlirType type);

/* The ascend target dialect's types: !ascend.ctx, !ascend.gm<T>,
 * !ascend.tile<RxCxT> (NULL when invalid; the reason goes to the context's
 * diagnostic handlers), !ascend.view<T>, !ascend.task, !ascend.args. */
MLIR_CAPI_EXPORTED MlirType ascendCtxTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED MlirType ascendGmPtrTypeGet(MlirContext context,
                                               MlirType elementType);
/* `kind` is a pto::TileType value (ascend's TileKind: 0 vec, 1 mat, 2 left,
 * 3 right, 4 acc); NULL for a type the verifier rejects. */
MLIR_CAPI_EXPORTED MlirType ascendTileTypeGet(MlirContext context, int64_t rows,
                                              int64_t cols,
                                              MlirType elementType,
                                              int32_t kind);
MLIR_CAPI_EXPORTED MlirType ascendViewTypeGet(MlirContext context,
                                              MlirType elementType);
MLIR_CAPI_EXPORTED MlirType ascendTaskTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED MlirType ascendArgsTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED MlirType ascendDispatchPayloadTypeGet(MlirContext context);
/* !ascend.ffts_addr: a mixed kernel's FFTS base address parameter. */
MLIR_CAPI_EXPORTED MlirType ascendFftsAddrTypeGet(MlirContext context);
/* !ascend.sdma_workspace, !ascend.async_session and !ascend.async_event: a
 * kernel's SDMA workspace parameter, its SDMA session, one transfer's
 * completion. */
MLIR_CAPI_EXPORTED MlirType ascendSdmaWorkspaceTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED MlirType ascendAsyncSessionTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED MlirType ascendAsyncEventTypeGet(MlirContext context);
MLIR_CAPI_EXPORTED bool ascendTypeIsAAsyncSession(MlirType type);
MLIR_CAPI_EXPORTED bool ascendTypeIsATile(MlirType type);
MLIR_CAPI_EXPORTED bool ascendTypeIsAGmPtr(MlirType type);
/* Parameters of !ascend.gm<T> and !ascend.tile<RxCxT> (the type must be
 * one, as the predicates above tell). */
MLIR_CAPI_EXPORTED MlirType ascendGmPtrTypeGetElementType(MlirType type);
MLIR_CAPI_EXPORTED int64_t ascendTileTypeGetRows(MlirType type);
MLIR_CAPI_EXPORTED int64_t ascendTileTypeGetCols(MlirType type);
MLIR_CAPI_EXPORTED MlirType ascendTileTypeGetElementType(MlirType type);
MLIR_CAPI_EXPORTED int32_t ascendTileTypeGetKind(MlirType type);

/* The target's tile rules (pld/Dialect/Ascend/IR/TargetRules.h): the
 * column count a tile of `cols` logical columns of `element` is padded to
 * (a row is a whole number of 32-byte blocks); whether TLOAD and TSTORE
 * move `element`; whether the tile math `math` (0 TADD, 1 TMAX, 2 TMIN,
 * 3 TMUL, 4 TSUB, 5 TEXPANDS; a tile-scalar form has its tile-tile
 * instruction's types) exists for `element` on the chip `profile` (pld's
 * TargetProfile values). The names are comma-separated lists, for messages. */
MLIR_CAPI_EXPORTED int64_t ascendTilePaddedCols(int64_t cols, MlirType element);
/* The bytes of unified buffer an SDMA session works through (its scratch
 * buffer, `ascend.sdma_session`). */
MLIR_CAPI_EXPORTED int64_t ascendSdmaScratchBytes(void);
MLIR_CAPI_EXPORTED bool ascendIsTileElementType(MlirType element);
MLIR_CAPI_EXPORTED MlirStringRef ascendTileElementTypeNames(void);
/* The most rows a tile TLOAD and TSTORE move may have on `profile`, or 0
 * for no limit. */
MLIR_CAPI_EXPORTED int64_t ascendMaxTileRows(int32_t profile);
MLIR_CAPI_EXPORTED bool
ascendIsTileMathElementType(int32_t profile, int32_t math, MlirType element);
MLIR_CAPI_EXPORTED void
ascendTileMathElementTypeNames(int32_t profile, int32_t math,
                               MlirStringCallback callback, void *userData);
/* Whether TCVT converts `source` elements to `result` elements on the chip
 * `profile`, and every conversion it has there (`f32 -> f16, ...`). */
MLIR_CAPI_EXPORTED bool ascendIsConversion(int32_t profile, MlirType source,
                                           MlirType result);
MLIR_CAPI_EXPORTED void ascendConversionNames(int32_t profile,
                                              MlirStringCallback callback,
                                              void *userData);

/* The cube's rules: the bytes of the buffer tiles of `kind` live in on
 * `profile`; the multiples a tile's rows and columns must be (its
 * fractal's inner box); the accumulator element type TMATMUL gives
 * `lhs x rhs` (NULL for none) and the triples it has, for messages;
 * whether the fixpipe stores an `acc` accumulator as `memory`. */
MLIR_CAPI_EXPORTED int64_t ascendTileBufferBytes(int32_t profile, int32_t kind);
MLIR_CAPI_EXPORTED int64_t ascendTileBoxRows(int32_t kind, MlirType element);
MLIR_CAPI_EXPORTED int64_t ascendTileBoxCols(int32_t kind, MlirType element);
MLIR_CAPI_EXPORTED MlirType ascendMatmulAccumulator(MlirType lhs, MlirType rhs);
MLIR_CAPI_EXPORTED MlirStringRef ascendMatmulElementTypeNames(void);
MLIR_CAPI_EXPORTED bool ascendIsAccStoreElementTypes(MlirType acc,
                                                     MlirType memory);

/* Enum attributes, by the stable integer values of semantics §2, each named
 * after the dialect that owns it (`Prefix` is pld, pl or ascend):
 * `<Prefix><Name>AttrGet` builds one (NULL when `value` names no case),
 * `<Prefix>AttributeIsA<Name>` tests an attribute, `<Prefix><Name>AttrGetValue`
 * reads one. pld: NotifyOp, WaitCmp, ReduceOp, AtomicType, TransferEngine,
 * CollectiveMode, CollectiveAlgorithm, TargetProfile; pl: KernelKind, Level,
 * SplitMode, RoundMode; ascend (by PTO's own values): NotifyOp, WaitCmp (EQ =
 * 0, GE = 3), AtomicType, Pipe, Core. */
#define PLD_DECLARE_ENUM_ATTR_CAPI(Prefix, Name)                               \
  MLIR_CAPI_EXPORTED MlirAttribute Prefix##Name##AttrGet(MlirContext context,  \
                                                         int32_t value);       \
  MLIR_CAPI_EXPORTED bool Prefix##AttributeIsA##Name(MlirAttribute attribute); \
  MLIR_CAPI_EXPORTED int32_t Prefix##Name##AttrGetValue(                       \
      MlirAttribute attribute);
PLD_DECLARE_ENUM_ATTR_CAPI(pld, NotifyOp)
PLD_DECLARE_ENUM_ATTR_CAPI(pld, WaitCmp)
PLD_DECLARE_ENUM_ATTR_CAPI(pld, ReduceOp)
PLD_DECLARE_ENUM_ATTR_CAPI(pld, AtomicType)
PLD_DECLARE_ENUM_ATTR_CAPI(pld, TransferEngine)
PLD_DECLARE_ENUM_ATTR_CAPI(pld, CollectiveMode)
PLD_DECLARE_ENUM_ATTR_CAPI(pld, CollectiveAlgorithm)
PLD_DECLARE_ENUM_ATTR_CAPI(pld, TargetProfile)
PLD_DECLARE_ENUM_ATTR_CAPI(pl, KernelKind)
PLD_DECLARE_ENUM_ATTR_CAPI(pl, Level)
PLD_DECLARE_ENUM_ATTR_CAPI(pl, SplitMode)
PLD_DECLARE_ENUM_ATTR_CAPI(pl, RoundMode)
PLD_DECLARE_ENUM_ATTR_CAPI(ascend, NotifyOp)
PLD_DECLARE_ENUM_ATTR_CAPI(ascend, WaitCmp)
PLD_DECLARE_ENUM_ATTR_CAPI(ascend, AtomicType)
PLD_DECLARE_ENUM_ATTR_CAPI(ascend, Pipe)
PLD_DECLARE_ENUM_ATTR_CAPI(ascend, Core)
#undef PLD_DECLARE_ENUM_ATTR_CAPI

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_DIALECTS_H */
