//===- RegionChecks.cpp - offset/shape checks shared by op verifiers ------===//

#include "pld/Dialect/Pl/IR/RegionChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string pld::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t dim) {
    if (ShapedType::isDynamic(dim))
      os << '?';
    else
      os << dim;
  });
  os << ']';
  return text;
}

LogicalResult pld::verifyIndexList(Operation *op, StringRef listName,
                                   ArrayRef<int64_t> values,
                                   ValueRange dynamic) {
  size_t markers = llvm::count_if(values, ShapedType::isDynamic);
  if (markers == dynamic.size())
    return success();
  return op->emitOpError()
         << "expected " << listName << " to hold one dynamic entry per "
         << "index operand (" << dynamic.size() << "), found " << markers
         << "; the integer " << ShapedType::kDynamic
         << " is reserved as the dynamic marker and is not a valid static "
            "entry";
}

LogicalResult pld::verifyOnePerDim(Operation *op, StringRef listName,
                                   size_t count, StringRef shapedName,
                                   int64_t rank) {
  if (static_cast<int64_t>(count) == rank)
    return success();
  return op->emitOpError() << "expected one " << listName << " entry per "
                           << "dimension of " << shapedName << " (" << rank
                           << "), found " << count;
}

LogicalResult pld::verifyNonNegative(Operation *op, StringRef listName,
                                     ArrayRef<int64_t> values) {
  for (auto [dim, value] : llvm::enumerate(values)) {
    if (ShapedType::isDynamic(value) || value >= 0)
      continue;
    return op->emitOpError() << "expected " << listName << " entry " << dim
                             << " to be non-negative, found " << value;
  }
  return success();
}

LogicalResult pld::verifyRegionFits(Operation *op, StringRef regionName,
                                    ArrayRef<int64_t> offsets,
                                    ArrayRef<int64_t> extents,
                                    StringRef containerName,
                                    ShapedType container) {
  ArrayRef<int64_t> shape = container.getShape();
  for (size_t dim = 0; dim < shape.size(); ++dim) {
    int64_t offset = offsets[dim], extent = extents[dim], size = shape[dim];
    if (ShapedType::isDynamic(offset) || ShapedType::isDynamic(extent) ||
        ShapedType::isDynamic(size))
      continue;
    if (offset + extent <= size)
      continue;
    return op->emitOpError()
           << regionName << " does not fit inside " << containerName
           << ": dimension " << dim << " covers [" << offset << ", "
           << offset + extent << ") but " << containerName << " has size "
           << size << " (shape " << formatShape(shape) << ")";
  }
  return success();
}

LogicalResult pld::verifyValidShape(Operation *op, ArrayRef<int64_t> valid,
                                    ArrayRef<int64_t> shape) {
  for (size_t dim = 0; dim < valid.size(); ++dim) {
    int64_t value = valid[dim];
    if (ShapedType::isDynamic(value))
      continue;
    if (value < 0 || value > shape[dim])
      return op->emitOpError()
             << "expected valid_shape entry " << dim << " in [0, " << shape[dim]
             << "] (the tile's extent), found " << value;
  }
  return success();
}

LogicalResult pld::verifyTileAccess(Operation *op, StringRef memoryName,
                                    ShapedType memory, ShapedType tile,
                                    ArrayRef<int64_t> offsets,
                                    std::optional<ArrayRef<int64_t>> valid) {
  int64_t rank = memory.getRank();
  if (failed(verifyOnePerDim(op, "offset", offsets.size(), memoryName, rank)))
    return failure();
  if (tile.getRank() != rank)
    return op->emitOpError()
           << "expected the tile to have the rank of " << memoryName << " ("
           << rank << "), found a tile of shape "
           << formatShape(tile.getShape());
  if (tile.getElementType() != memory.getElementType())
    return op->emitOpError()
           << "expected the tile element type to equal the element type of "
           << memoryName << " (" << memory.getElementType() << "), found "
           << tile.getElementType();
  if (failed(verifyNonNegative(op, "offset", offsets)))
    return failure();
  SmallVector<int64_t> extents(tile.getShape());
  if (valid) {
    if (failed(verifyOnePerDim(op, "valid_shape", valid->size(), memoryName,
                               rank)) ||
        failed(verifyValidShape(op, *valid, tile.getShape())))
      return failure();
    // Only the valid part is read, so the ragged tail may hang over the end.
    extents.assign(valid->begin(), valid->end());
  }
  return verifyRegionFits(op, "the accessed region", offsets, extents,
                          memoryName, memory);
}

LogicalResult pld::verifyElementAccess(Operation *op, StringRef memoryName,
                                       ShapedType memory,
                                       ArrayRef<int64_t> offsets) {
  if (failed(verifyOnePerDim(op, "offset", offsets.size(), memoryName,
                             memory.getRank())) ||
      failed(verifyNonNegative(op, "offset", offsets)))
    return failure();
  SmallVector<int64_t> ones(offsets.size(), 1);
  return verifyRegionFits(op, "the accessed element", offsets, ones, memoryName,
                          memory);
}
