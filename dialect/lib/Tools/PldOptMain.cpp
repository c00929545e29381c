//===- PldOptMain.cpp - the C++ entry point of pld-opt --------------------===//
//
// pld-opt is MLIR's own opt driver, so every standard flag works. The Rust
// `main` registers its passes through the bridge, then calls this.
//
//===----------------------------------------------------------------------===//

#include "pld-c/OptMain.h"

#include "pld/InitAllDialects.h"

#include "pld-c/PassBridge.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/EmitC/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int pldOptMain(int argc, char **argv) {
  pldRegisterUpstreamPasses();
  mlir::DialectRegistry registry;
  pld::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "pld modular optimizer driver\n", registry));
}
