//===- MemoryAccess.h - what a memory access op touches ---------*- C++ -*-===//
//
// The data of pl::MemoryAccessOpInterface: one region of global memory that
// an op reads or writes. Declared apart from the generated interface so that
// the interface's methods can name it; include it through Pl.h, after the
// enums (AccessKind is PlEnums.td's).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_PL_IR_MEMORYACCESS_H
#define PLD_DIALECT_PL_IR_MEMORYACCESS_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace pld::pl {

/// One region of one memory (a window-bound tensor or a memref) that an op
/// reads or writes.
struct MemoryAccess {
  /// The tensor or memref, in the shape the op indexes it with.
  mlir::Value memory;
  /// The rank whose copy of a window is touched; null for the op's own.
  mlir::Value peer;
  AccessKind kind = AccessKind::Read;
  /// The region: one offset and one size per dimension of `memory`. Empty
  /// when the op touches all of `memory` (a transfer without a region). A
  /// null size is one the op does not know statically or as a value (a
  /// dynamic dimension of a memref it copies whole).
  llvm::SmallVector<mlir::OpFoldResult> offsets, sizes;
  /// The tensor or memref whose shape gives the null sizes, if one does:
  /// size i is the extent of its dimension at the same distance from the
  /// last (the source a `pld.tensor.remote_store` pushes whole, whose
  /// dynamic extents the host fixes).
  mlir::Value sizedBy = {};
};

/// The access of a tile of `tile`'s shape at `offsets` of `memory`, or of
/// the leading `valid` part of every tile dimension when `valid` is given.
/// A tile of lower rank covers the trailing dimensions of `memory` (the
/// leading ones have size 1); a tile of higher rank has leading 1s.
MemoryAccess tileAccess(mlir::Value memory, mlir::Value peer, AccessKind kind,
                        mlir::ShapedType tile,
                        llvm::ArrayRef<int64_t> staticOffsets,
                        mlir::ValueRange offsets,
                        std::optional<llvm::ArrayRef<int64_t>> staticValid,
                        mlir::ValueRange valid);

/// The access of the region of `memory` at `offsets` with `sizes` (both
/// lists in mixed static/dynamic form).
MemoryAccess regionAccess(mlir::Value memory, mlir::Value peer, AccessKind kind,
                          llvm::ArrayRef<int64_t> staticOffsets,
                          mlir::ValueRange offsets,
                          llvm::ArrayRef<int64_t> staticSizes,
                          mlir::ValueRange sizes);

} // namespace pld::pl

#endif // PLD_DIALECT_PL_IR_MEMORYACCESS_H
