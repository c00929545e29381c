// Parses, verifies and prints a pld program with the C++ API of the
// installed package.
#include "pld/Dialect/Pld/IR/Pld.h"
#include "pld/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

static const char *kProgram = R"mlir(
func.func @k(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x2xi32>) {
  %r = pld.tensor.allreduce %d, %s, op sum mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<2x2xi32>
  return
}
)mlir";

static const char *kBadProgram = R"mlir(
func.func @k(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x4xi32>) {
  %r = pld.tensor.allreduce %d, %s, op sum mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<4x4xi32>
  return
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  pld::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.getDiagEngine().registerHandler([](mlir::Diagnostic &) {});

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &context);
  llvm::outs() << "verified: " << (module && succeeded(mlir::verify(*module)))
               << "\n";
  module->print(llvm::outs());
  mlir::OwningOpRef<mlir::ModuleOp> bad =
      mlir::parseSourceString<mlir::ModuleOp>(kBadProgram, &context);
  llvm::outs() << "rejected: " << !bad << "\n";
  return 0;
}
