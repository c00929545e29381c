//===- PldReduceMain.cpp - the C++ entry point of pld-reduce --------------===//
//
// pld-reduce is MLIR's own test case reducer with pld's dialects. A
// reduction runs an interestingness script on every candidate and passes
// that shrink the module: reduction-tree (which removes ops) and
// opt-reduction-pass, which runs any registered pass pipeline, so the
// upstream transform passes are registered here and the Rust `main`
// registers pld's own through the bridge before calling this.
//
//===----------------------------------------------------------------------===//

#include "pld-c/ReduceMain.h"

#include "pld-c/PassBridge.h"
#include "pld-c/Tools.h"
#include "pld/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int pldReduceMain(int argc, char **argv) {
  pldInstallToolInfo();
  pldRegisterUpstreamPasses();
  mlir::DialectRegistry registry;
  pld::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context)) ? 1 : 0;
}
