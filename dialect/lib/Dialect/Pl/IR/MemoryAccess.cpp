//===- MemoryAccess.cpp - regions for MemoryAccessOpInterface -------------===//

#include "pld/Dialect/Pl/IR/Pl.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace pld::pl {

MemoryAccess tileAccess(Value memory, Value peer, AccessKind kind,
                        ShapedType tile, ArrayRef<int64_t> staticOffsets,
                        ValueRange offsets,
                        std::optional<ArrayRef<int64_t>> staticValid,
                        ValueRange valid) {
  MLIRContext *context = memory.getContext();
  Builder builder(context);
  MemoryAccess access{memory, peer, kind, {}, {}, {}};
  access.offsets = getMixedValues(staticOffsets, offsets, context);
  SmallVector<OpFoldResult> extents;
  if (staticValid)
    extents = getMixedValues(*staticValid, valid, context);
  else
    for (int64_t dim : tile.getShape())
      extents.push_back(ShapedType::isDynamic(dim)
                            ? OpFoldResult()
                            : OpFoldResult(builder.getIndexAttr(dim)));
  int64_t rank = cast<ShapedType>(memory.getType()).getRank();
  int64_t tileRank = tile.getRank();
  for (int64_t dim = 0; dim < rank; ++dim) {
    int64_t tileDim = dim - (rank - tileRank);
    access.sizes.push_back(tileDim < 0 ? OpFoldResult(builder.getIndexAttr(1))
                                       : extents[tileDim]);
  }
  return access;
}

MemoryAccess regionAccess(Value memory, Value peer, AccessKind kind,
                          ArrayRef<int64_t> staticOffsets, ValueRange offsets,
                          ArrayRef<int64_t> staticSizes, ValueRange sizes) {
  MLIRContext *context = memory.getContext();
  MemoryAccess access{memory, peer, kind, {}, {}, {}};
  access.offsets = getMixedValues(staticOffsets, offsets, context);
  access.sizes = getMixedValues(staticSizes, sizes, context);
  return access;
}

} // namespace pld::pl
