//===- PldDialect.cpp - the pld dialect: dialect, types, attributes -------===//

#include "pld/Dialect/Pl/IR/ShapeSyntax.h"
#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pld;

#include "pld/Dialect/Pld/IR/PldDialect.cpp.inc"
#include "pld/Dialect/Pld/IR/PldEnums.cpp.inc"
#include "pld/Dialect/Pld/IR/PldOpInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/Dialect/Pld/IR/PldTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "pld/Dialect/Pld/IR/PldAttrs.cpp.inc"

void PldDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "pld/Dialect/Pld/IR/PldTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pld/Dialect/Pld/IR/PldAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "pld/Dialect/Pld/IR/PldOps.cpp.inc"
      >();
}

Operation *PldDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult PldDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  if (attribute.getName() != getTargetAttrName())
    return op->emitError() << "unknown pld attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<TargetProfileAttr>(attribute.getValue()))
    return op->emitError() << "expected '" << getTargetAttrName()
                           << "' to be a #pld.target<Ascend910B|Ascend950>, "
                              "found "
                           << attribute.getValue();
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' belongs on a builtin.module, found it on '"
                           << op->getName() << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// DistributedTensorType
//===----------------------------------------------------------------------===//

LogicalResult
DistributedTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a distributed tensor has at least one dimension";
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim <= 0)
      return emitError() << "distributed tensor dimensions are positive or "
                            "dynamic ('?'), found "
                         << dim;
  if (!elementType.isIntOrFloat())
    return emitError() << "expected an integer or float element type, found "
                       << elementType;
  return success();
}

ShapedType
DistributedTensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                 Type elementType) const {
  return DistributedTensorType::get(getContext(), shape.value_or(getShape()),
                                    elementType);
}
