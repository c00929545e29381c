//===- AscendDialect.cpp - the ascend dialect: dialect and types ----------===//

#include "pld/Dialect/Ascend/IR/Ascend.h"
#include "pld/Dialect/Ascend/IR/TargetRules.h"
#include "pld/Dialect/Pl/IR/RegionChecks.h"
#include "pld/Dialect/Pl/IR/ShapeSyntax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pld::ascend;

#include "pld/Dialect/Ascend/IR/AscendDialect.cpp.inc"
#include "pld/Dialect/Ascend/IR/AscendEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/Dialect/Ascend/IR/AscendTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "pld/Dialect/Ascend/IR/AscendAttrs.cpp.inc"

void AscendDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "pld/Dialect/Ascend/IR/AscendTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pld/Dialect/Ascend/IR/AscendAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "pld/Dialect/Ascend/IR/AscendOps.cpp.inc"
      >();
}

Operation *AscendDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !type.isIndex())
    return nullptr;
  return arith::ConstantIndexOp::create(builder, loc, integer.getInt());
}

LogicalResult GmPtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                                Type elementType) {
  if (elementType.isIntOrFloat())
    return success();
  return emitError() << "expected an integer or float element type, found "
                     << elementType;
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               TileKind kind) {
  if (shape.size() != 2)
    return emitError() << "an ascend tile is 2-D, found shape "
                       << pld::formatShape(shape);
  if (llvm::any_of(shape, [](int64_t dim) { return dim <= 0; }))
    return emitError() << "expected positive tile dimensions, found "
                       << pld::formatShape(shape);
  if (!isTileElementType(elementType))
    return emitError() << "expected an element type that TLOAD and TSTORE "
                          "move ("
                       << tileElementTypeNames() << "), found " << elementType;
  if (kind == TileKind::Vec) {
    // PTO static_asserts that a row-major Vec tile's row is a whole number
    // of 32-byte blocks.
    int64_t rowBytes = shape[1] * elementType.getIntOrFloatBitWidth() / 8;
    if (rowBytes % kTileRowAlignmentBytes != 0)
      return emitError() << "expected a tile row of a multiple of "
                         << kTileRowAlignmentBytes << " bytes, found "
                         << shape[1] << " x " << elementType << " = "
                         << rowBytes << " bytes (pad the columns to "
                         << paddedTileCols(shape[1], elementType)
                         << " and make the logical width the valid shape)";
    return success();
  }
  StringRef name = stringifyTileKind(kind);
  bool accumulator = kind == TileKind::Acc;
  bool holds = accumulator
                   ? elementType.isF32() || elementType.isSignlessInteger(32)
                   : bool(matmulAccumulator(elementType, elementType));
  if (!holds)
    return emitError() << "expected "
                       << (accumulator ? "an i32 or f32"
                                       : "an i8, f16, bf16 or f32")
                       << " element type for " << (accumulator ? "an" : "a")
                       << " '" << name << "' tile (what TMATMUL "
                       << (accumulator ? "produces" : "multiplies")
                       << "), found " << elementType;
  // PTO static_asserts that the rows and columns are whole inner boxes of
  // the kind's fractal.
  TileBox box = tileBox(kind, elementType);
  if (shape[0] % box.rows != 0 || shape[1] % box.cols != 0)
    return emitError() << "expected the rows and columns of a '" << name
                       << "' tile of " << elementType << " to be multiples of "
                       << box.rows << " and " << box.cols
                       << " (its fractal), found " << pld::formatShape(shape);
  return success();
}

int64_t TileType::getByteSize() const {
  return getRows() * getCols() *
         llvm::divideCeil(getElementType().getIntOrFloatBitWidth(), 8);
}
