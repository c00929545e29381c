//===- InitAllDialects.h - register pld's dialects -----------------*- C++ -*-//
//
// What a pld program needs in a context: `pl`, `pld`, and the upstream
// dialects the examples use (func, arith, scf, memref, cf).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_INITALLDIALECTS_H
#define PLD_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace pld {
void registerAllDialects(mlir::DialectRegistry &registry);
} // namespace pld

#endif // PLD_INITALLDIALECTS_H
