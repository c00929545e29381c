//===- ShapeSyntax.cpp - `4x?xf32` shape syntax ---------------------------===//

#include "pld/Dialect/Pl/IR/ShapeSyntax.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

using namespace mlir;

static ParseResult parseShape(AsmParser &parser, SmallVector<int64_t> &shape,
                              Type &elementType, bool allowDynamic) {
  if (parser.parseDimensionList(shape, allowDynamic, /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                       Type elementType) {
  printer.printDimensionList(shape);
  if (!shape.empty())
    printer << 'x';
  printer << elementType;
}

ParseResult pld::parseStaticShape(AsmParser &parser,
                                  SmallVector<int64_t> &shape,
                                  Type &elementType) {
  return parseShape(parser, shape, elementType, /*allowDynamic=*/false);
}

void pld::printStaticShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                           Type elementType) {
  printShape(printer, shape, elementType);
}

ParseResult pld::parseDynamicShape(AsmParser &parser,
                                   SmallVector<int64_t> &shape,
                                   Type &elementType) {
  return parseShape(parser, shape, elementType, /*allowDynamic=*/true);
}

void pld::printDynamicShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                            Type elementType) {
  printShape(printer, shape, elementType);
}
