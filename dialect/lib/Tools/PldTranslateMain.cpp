//===- PldTranslateMain.cpp - the C++ entry point of pld-translate --------===//
//
// pld-translate is MLIR's own translate driver with one translation,
// `--pld-to-cce`: it accepts pld-level input, lowers it with
// pld-to-cce-pipeline and prints C++ with upstream's translateToCpp. The
// pipeline's options are the translation's `--pld-to-cce-options`.
//
//===----------------------------------------------------------------------===//

#include "pld-c/PassBridge.h"
#include "pld-c/Tools.h"
#include "pld-c/TranslateMain.h"

#include "pld/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

static llvm::cl::opt<std::string> pipelineOptions(
    "pld-to-cce-options",
    llvm::cl::desc("Options of pld-to-cce-pipeline for --pld-to-cce, e.g. "
                   "'chunk-bytes=4096 ub-bytes=65536'"),
    llvm::cl::init(""));

static LogicalResult lowerAndPrint(Operation *op, raw_ostream &os) {
  PassManager manager(op->getContext(), op->getName().getStringRef());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline("pld-to-cce-pipeline{" + pipelineOptions + "}",
                               manager, errorStream))) {
    // A bad option is the command line's fault, not the module's: no
    // location, no dump of the module.
    llvm::errs() << "pld-translate: --pld-to-cce-options='" << pipelineOptions
                 << "': " << llvm::StringRef(error).trim() << "\n";
    return failure();
  }
  if (failed(manager.run(op)))
    return failure();
  return emitc::translateToCpp(op, os);
}

int pldTranslateMain(int argc, char **argv) {
  pldInstallToolInfo();
  pldRegisterUpstreamPasses();
  TranslateFromMLIRRegistration registration(
      "pld-to-cce", "lower pld to CCE C++ (pld-to-cce-pipeline + EmitC)",
      lowerAndPrint,
      [](DialectRegistry &registry) { pld::registerAllDialects(registry); });
  return asMainReturnCode(
      mlirTranslateMain(argc, argv, "pld translation driver\n"));
}
