//===- PlOps.cpp - pl op verifiers ----------------------------------------===//

#include "pld/Dialect/Pl/IR/Pl.h"
#include "pld/Dialect/Pl/IR/RegionChecks.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace pld;
using namespace pld::pl;

#define GET_OP_CLASSES
#include "pld/Dialect/Pl/IR/PlOps.cpp.inc"

static ShapedType shaped(Value value) {
  return cast<ShapedType>(value.getType());
}

LogicalResult LoadOp::verify() {
  std::optional<ArrayRef<int64_t>> valid;
  if (auto attr = getStaticValidSizesAttr())
    valid = attr.asArrayRef();
  if (failed(verifyIndexList(*this, "offsets", getStaticOffsets(),
                             getOffsets())) ||
      failed(verifyIndexList(*this, "valid_shape",
                             valid.value_or(ArrayRef<int64_t>()),
                             getValidSizes())))
    return failure();
  return verifyTileAccess(*this, "the source", shaped(getSource()),
                          shaped(getResult()), getStaticOffsets(), valid);
}

LogicalResult StoreOp::verify() {
  std::optional<ArrayRef<int64_t>> valid;
  if (auto attr = getStaticValidSizesAttr())
    valid = attr.asArrayRef();
  if (failed(verifyIndexList(*this, "offsets", getStaticOffsets(),
                             getOffsets())) ||
      failed(verifyIndexList(*this, "valid_shape",
                             valid.value_or(ArrayRef<int64_t>()),
                             getValidSizes())))
    return failure();
  ShapedType dest = shaped(getDest());
  ShapedType tile = shaped(getValue());
  // The fixpipe stores an f32 GEMM product as f16 or bf16: a pl.matmul's
  // f32 result may go to such a destination (checked as the converted
  // tile); any other tile stores its own element type.
  Type destElement = dest.getElementType();
  if (getValue().getDefiningOp<MatmulOp>() && tile.getElementType().isF32() &&
      (destElement.isF16() || destElement.isBF16()))
    tile = tile.clone(destElement);
  return verifyTileAccess(*this, "the destination", dest, tile,
                          getStaticOffsets(), valid);
}

LogicalResult ReadOp::verify() {
  if (failed(
          verifyIndexList(*this, "offsets", getStaticOffsets(), getOffsets())))
    return failure();
  return verifyElementAccess(*this, "the source", shaped(getSource()),
                             getStaticOffsets());
}

LogicalResult WriteOp::verify() {
  if (failed(
          verifyIndexList(*this, "offsets", getStaticOffsets(), getOffsets())))
    return failure();
  return verifyElementAccess(*this, "the destination", shaped(getDest()),
                             getStaticOffsets());
}

LogicalResult CastOp::verify() {
  auto source = cast<TileType>(getSource().getType());
  auto result = cast<TileType>(getResult().getType());
  if (source.getShape() != result.getShape())
    return emitOpError("expected a result tile of the source's shape ")
           << formatShape(source.getShape()) << ", found "
           << formatShape(result.getShape());
  return success();
}

LogicalResult MatmulOp::verify() {
  auto lhs = cast<TileType>(getLhs().getType());
  auto rhs = cast<TileType>(getRhs().getType());
  auto result = cast<TileType>(getResult().getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || result.getRank() != 2)
    return emitOpError("expected 2-D tiles [M, K] x [K, N] -> [M, N], found ")
           << formatShape(lhs.getShape()) << " x "
           << formatShape(rhs.getShape()) << " -> "
           << formatShape(result.getShape());
  if (lhs.getDimSize(1) != rhs.getDimSize(0))
    return emitOpError(
               "expected the contraction dimensions to agree, found K = ")
           << lhs.getDimSize(1) << " on the left and " << rhs.getDimSize(0)
           << " on the right";
  if (result.getDimSize(0) != lhs.getDimSize(0) ||
      result.getDimSize(1) != rhs.getDimSize(1))
    return emitOpError("expected a result tile of shape [")
           << lhs.getDimSize(0) << ", " << rhs.getDimSize(1) << "], found "
           << formatShape(result.getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// MemoryAccessOpInterface
//===----------------------------------------------------------------------===//

void LoadOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(tileAccess(getSource(), Value(), AccessKind::Read,
                                shaped(getResult()), getStaticOffsets(),
                                getOffsets(), getStaticValidSizes(),
                                getValidSizes()));
}

void StoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(tileAccess(getDest(), Value(), AccessKind::Write,
                                shaped(getValue()), getStaticOffsets(),
                                getOffsets(), getStaticValidSizes(),
                                getValidSizes()));
}

/// One element at `offsets`.
static MemoryAccess elementAccess(Value memory, AccessKind kind,
                                  ArrayRef<int64_t> staticOffsets,
                                  ValueRange offsets) {
  SmallVector<int64_t> ones(staticOffsets.size(), 1);
  return regionAccess(memory, Value(), kind, staticOffsets, offsets, ones, {});
}

void ReadOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(elementAccess(getSource(), AccessKind::Read,
                                   getStaticOffsets(), getOffsets()));
}

void WriteOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(elementAccess(getDest(), AccessKind::Write,
                                   getStaticOffsets(), getOffsets()));
}
