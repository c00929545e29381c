//===- InitAllDialects.h - register pld's dialects -----------------*- C++ -*-//
//
// What a pld program needs in a context: `pl`, `pld`, the `ascend` target
// dialect, the upstream dialects programs are written with (func, arith,
// scf, memref, cf) and EmitC, with every dialect's ConvertToEmitC interface
// that `convert-to-emitc` needs to lower the ascend level.
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
