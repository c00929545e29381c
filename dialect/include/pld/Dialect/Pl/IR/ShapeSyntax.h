//===- ShapeSyntax.h - `4x?xf32` shape syntax for custom types --*- C++ -*-===//
//
// The `<dims x element>` body shared by `!pl.tile` (static dims only) and
// `!pld.dtensor` (static or dynamic dims), in the builtin shaped-type style.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_PL_IR_SHAPESYNTAX_H
#define PLD_DIALECT_PL_IR_SHAPESYNTAX_H

#include "mlir/IR/OpImplementation.h"

namespace pld {
mlir::ParseResult parseStaticShape(mlir::AsmParser &parser,
                                   llvm::SmallVector<int64_t> &shape,
                                   mlir::Type &elementType);
void printStaticShape(mlir::AsmPrinter &printer, llvm::ArrayRef<int64_t> shape,
                      mlir::Type elementType);
mlir::ParseResult parseDynamicShape(mlir::AsmParser &parser,
                                    llvm::SmallVector<int64_t> &shape,
                                    mlir::Type &elementType);
void printDynamicShape(mlir::AsmPrinter &printer, llvm::ArrayRef<int64_t> shape,
                       mlir::Type elementType);
} // namespace pld

#endif // PLD_DIALECT_PL_IR_SHAPESYNTAX_H
