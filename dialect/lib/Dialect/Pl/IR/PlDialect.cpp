//===- PlDialect.cpp - the pl core dialect: dialect, types, attributes ----===//

#include "pld/Dialect/Pl/IR/Pl.h"
#include "pld/Dialect/Pl/IR/ShapeSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pld;
using namespace pld::pl;

#include "pld/Dialect/Pl/IR/PlDialect.cpp.inc"
#include "pld/Dialect/Pl/IR/PlEnums.cpp.inc"
#include "pld/Dialect/Pl/IR/PlOpInterfaces.cpp.inc"
#include "pld/Dialect/Pl/IR/PlTypeInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/Dialect/Pl/IR/PlTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "pld/Dialect/Pl/IR/PlAttrs.cpp.inc"

void PlDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "pld/Dialect/Pl/IR/PlTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pld/Dialect/Pl/IR/PlAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "pld/Dialect/Pl/IR/PlOps.cpp.inc"
      >();
}

LogicalResult PlDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attribute) {
  if (attribute.getName() != getKernelAttrName())
    return op->emitError() << "unknown pl attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<KernelKindAttr>(attribute.getValue()))
    return op->emitError() << "expected '" << getKernelAttrName()
                           << "' to be a #pl.kernel<host|incore>, found "
                           << attribute.getValue();
  if (!isa<FunctionOpInterface>(op))
    return op->emitError()
           << "'" << getKernelAttrName()
           << "' is only meaningful on a function, found it on '"
           << op->getName() << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a tile has at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "tile dimensions are static and positive, found "
                         << (ShapedType::isDynamic(dim) ? std::string("?")
                                                        : std::to_string(dim));
  if (!elementType.isIntOrFloat())
    return emitError() << "expected an integer or float tile element type, "
                          "found "
                       << elementType;
  return success();
}

ShapedType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  return TileType::get(getContext(), shape.value_or(getShape()), elementType);
}
