//===- Translation.cpp - pld to CCE C++ -----------------------------------===//

#include "pld-c/Translation.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

MlirLogicalResult pldTranslateToCpp(MlirOperation op,
                                    MlirStringCallback callback,
                                    void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  LogicalResult result = emitc::translateToCpp(unwrap(op), stream);
  stream.flush();
  return wrap(result);
}

MlirLogicalResult pldLowerToCpp(MlirOperation module, MlirStringRef options,
                                MlirStringCallback callback, void *userData) {
  Operation *op = unwrap(module);
  PassManager manager(op->getContext(), op->getName().getStringRef());
  std::string pipeline = ("pld-to-cce-pipeline{" + unwrap(options) + "}").str();
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, manager, errorStream)))
    return wrap(op->emitError() << "pld-to-cce-pipeline: " << error);
  if (failed(manager.run(op)))
    return wrap(failure());
  return pldTranslateToCpp(module, callback, userData);
}
