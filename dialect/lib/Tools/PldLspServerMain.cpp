//===- PldLspServerMain.cpp - the C++ entry point of pld-lsp-server -------===//
//
// pld-lsp-server is MLIR's own language server with pld's dialects
// registered, as circt-lsp-server is with CIRCT's.
//
//===----------------------------------------------------------------------===//

#include "pld-c/LspServerMain.h"

#include "pld-c/Tools.h"
#include "pld/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int pldLspServerMain(int argc, char **argv) {
  pldInstallToolInfo();
  // MlirLspServerMain installs no crash handler of its own (the other
  // drivers' mains do, through llvm::InitLLVM).
  pldInstallCrashHandler(argc > 0 ? argv[0] : nullptr);
  mlir::DialectRegistry registry;
  pld::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
