// run_pld_passes FILE PIPELINE [--cpp]: parses FILE, runs PIPELINE (pass
// pipeline syntax, e.g. "pld-verify" or "pld-to-cce-pipeline") with pld's
// Rust passes registered from C++, prints every diagnostic with its notes,
// then the module, or with --cpp the C++ that pld-translate would print.
#include "pld-c/Passes.h"
#include "pld-c/Translation.h"
#include "pld/InitAllDialects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

static void printCpp(MlirStringRef text, void *) {
  llvm::outs() << llvm::StringRef(text.data, text.length);
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    llvm::errs() << "usage: run_pld_passes FILE PIPELINE [--cpp]\n";
    return 2;
  }
  bool printAsCpp = argc == 4 && llvm::StringRef(argv[3]) == "--cpp";
  pldRegisterAllPasses();

  mlir::DialectRegistry registry;
  pld::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  // Errors, warnings and their notes, as `file:line:col: error: ...`.
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context,
                                               llvm::outs());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr,
                                            mlir::ParserConfig(&context));
  if (!module)
    return 1;

  mlir::PassManager passes(&context);
  if (mlir::failed(mlir::parsePassPipeline(argv[2], passes, llvm::errs())))
    return 2;
  if (mlir::failed(passes.run(*module))) {
    llvm::outs() << "pipeline failed\n";
    return 1;
  }
  if (!printAsCpp) {
    module->print(llvm::outs());
    return 0;
  }
  return mlir::failed(unwrap(pldTranslateToCpp(wrap(module->getOperation()),
                                               printCpp, nullptr)))
             ? 1
             : 0;
}
