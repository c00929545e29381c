//===- PldOptMain.cpp - the C++ entry point of pld-opt --------------------===//
//
// pld-opt is MLIR's own opt driver, so every standard flag works. The Rust
// `main` registers its passes through the bridge, then calls this.
//
//===----------------------------------------------------------------------===//

#include "pld-c/OptMain.h"

#include "pld/InitAllDialects.h"

#include "pld-c/PassBridge.h"
#include "pld-c/Tools.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/EmitC/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

/// pld's diagnostics say what was expected and found at the op's location;
/// upstream's "see current operation" note, which dumps the op in generic
/// form after every error, only repeats that. It stays one flag away
/// (--mlir-print-op-on-diagnostic).
static void printOpOnDiagnosticByDefault(bool enable) {
  mlir::registerMLIRContextCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find("mlir-print-op-on-diagnostic");
  if (found == options.end())
    return;
  // MLIRContext.cpp declares it as cl::opt<bool> (LLVM has no RTTI to
  // check that here).
  if (auto *option = static_cast<llvm::cl::opt<bool> *>(found->second))
    option->setInitialValue(enable);
}

/// Sets `requested` when the command line gives --mlir-pass-statistics. The
/// option is gone by the time MlirOptMain returns (it shuts LLVM's
/// command-line state down), hence a callback run while it parses.
static void notePassStatisticsFlag(bool &requested) {
  mlir::registerPassManagerCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find("mlir-pass-statistics");
  if (found == options.end())
    return;
  // PassManagerOptions.cpp declares it as cl::opt<bool>.
  static_cast<llvm::cl::opt<bool> *>(found->second)
      ->setCallback([&requested](const bool &value) { requested = value; });
}

static void printToErrs(MlirStringRef text, void *) {
  llvm::errs() << llvm::StringRef(text.data, text.length);
}

int pldOptMain(int argc, char **argv) {
  pldInstallToolInfo();
  pldRegisterUpstreamPasses();
  mlir::DialectRegistry registry;
  pld::registerAllDialects(registry);
  printOpOnDiagnosticByDefault(false);
  static bool statisticsRequested = false;
  notePassStatisticsFlag(statisticsRequested);
  int code = mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "pld modular optimizer driver\n", registry));
#if !LLVM_ENABLE_STATS
  // Built without statistics (a release build, like Debian's MLIR): pass
  // statistics count nothing and the pass manager's report is empty, so the
  // bridge's own sums stand in for pld's passes.
  if (statisticsRequested)
    pldPrintPassStatistics(printToErrs, nullptr);
#endif
  return code;
}
