//===- RegionChecks.h - offset/shape checks shared by op verifiers -*- C++ -*-//
//
// The tile ops of `pl` and the RMA ops of `pld` address rectangular regions
// of shaped memory with mixed static/dynamic offsets. These helpers give all
// of them the same checks and the same wording.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_PL_IR_REGIONCHECKS_H
#define PLD_DIALECT_PL_IR_REGIONCHECKS_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Operation.h"

namespace pld {

/// A mixed static/dynamic index list is well formed: each entry equal to the
/// dynamic marker (`ShapedType::kDynamic`) stands for exactly one of the
/// `dynamic` operands, in order. A literal equal to the marker (it parses as
/// an integer) would leave the printer looking for an operand that does not
/// exist, so it is rejected here.
llvm::LogicalResult verifyIndexList(mlir::Operation *op,
                                    llvm::StringRef listName,
                                    llvm::ArrayRef<int64_t> values,
                                    mlir::ValueRange dynamic);

/// `list` (named `listName`) has exactly one entry per dimension of
/// `shapedName`, whose rank is `rank`.
llvm::LogicalResult verifyOnePerDim(mlir::Operation *op,
                                    llvm::StringRef listName, size_t count,
                                    llvm::StringRef shapedName, int64_t rank);

/// Every static entry of `offsets` is non-negative.
llvm::LogicalResult verifyNonNegative(mlir::Operation *op,
                                      llvm::StringRef listName,
                                      llvm::ArrayRef<int64_t> values);

/// The region `[offsets, offsets + extents)` fits inside `container` on
/// every dimension where the offset, the extent and the container dimension
/// are all static. `extents` and `offsets` have the container's rank.
llvm::LogicalResult verifyRegionFits(mlir::Operation *op,
                                     llvm::StringRef regionName,
                                     llvm::ArrayRef<int64_t> offsets,
                                     llvm::ArrayRef<int64_t> extents,
                                     llvm::StringRef containerName,
                                     mlir::ShapedType container);

/// `valid` (static entries of a valid_shape) lies in [0, shape] dim by dim.
llvm::LogicalResult verifyValidShape(mlir::Operation *op,
                                     llvm::ArrayRef<int64_t> valid,
                                     llvm::ArrayRef<int64_t> shape);

/// The checks every tile-shaped access of shaped memory shares (`pl.load`,
/// `pl.store`, `pld.tile.remote_load`): one offset per dimension, a tile of
/// the memory's rank and element type, non-negative offsets, a valid_shape
/// (when given) within the tile, and a region that fits inside the memory.
llvm::LogicalResult
verifyTileAccess(mlir::Operation *op, llvm::StringRef memoryName,
                 mlir::ShapedType memory, mlir::ShapedType tile,
                 llvm::ArrayRef<int64_t> offsets,
                 std::optional<llvm::ArrayRef<int64_t>> valid);

/// The checks of a scalar access (`pl.read`, `pl.write`): one offset per
/// dimension, each non-negative and inside the dimension when static.
llvm::LogicalResult verifyElementAccess(mlir::Operation *op,
                                        llvm::StringRef memoryName,
                                        mlir::ShapedType memory,
                                        llvm::ArrayRef<int64_t> offsets);

/// Prints a shape as `[4, ?, 8]`.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace pld

#endif // PLD_DIALECT_PL_IR_REGIONCHECKS_H
