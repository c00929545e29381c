//===- PassBridge.cpp - register foreign passes as MLIR passes ------------===//
//
// A bridged pass is a real `mlir::Pass` subclass: its options are real pass
// options (declared at construction from the registered list), so `--help`
// lists them and `name{key=value}` parses them. Running it hands the
// operation and the option values to the foreign callback.
//
//===----------------------------------------------------------------------===//

#include "pld-c/PassBridge.h"

#include "pld/InitAllDialects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/EmitC/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/TypeID.h"
#include "mlir/Transforms/Passes.h"

#include <memory>
#include <string>
#include <vector>

using namespace mlir;

namespace {

void appendToString(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
}

/// Everything registered for one bridged pass; lives as long as the process.
struct BridgedPassSpec {
  struct OptionSpec {
    std::string name, description, defaultValue;
  };
  std::string argument, description, anchorOpName;
  std::vector<OptionSpec> options;
  PldPassCallbacks callbacks;
  TypeID typeID;
};

class BridgedPass : public Pass {
public:
  explicit BridgedPass(const BridgedPassSpec &spec)
      : Pass(spec.typeID, spec.anchorOpName.empty()
                              ? std::nullopt
                              : std::optional<StringRef>(spec.anchorOpName)),
        spec(spec) {
    for (const BridgedPassSpec::OptionSpec &option : spec.options)
      values.push_back(std::make_unique<Option<std::string>>(
          *this, option.name, llvm::cl::desc(option.description),
          llvm::cl::init(option.defaultValue)));
  }

  StringRef getName() const override { return spec.argument; }
  StringRef getArgument() const override { return spec.argument; }
  StringRef getDescription() const override { return spec.description; }

  void getDependentDialects(DialectRegistry &registry) const override {
    // A bridged pass may build any op of pld's dialects.
    pld::registerAllDialects(registry);
  }

  bool canScheduleOn(RegisteredOperationName) const override { return true; }

  std::unique_ptr<Pass> clonePass() const override {
    return std::make_unique<BridgedPass>(spec);
  }

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    if (!spec.callbacks.validateOptions)
      return success();
    std::string error;
    std::vector<MlirStringRef> refs = optionValues();
    MlirLogicalResult result =
        spec.callbacks.validateOptions(refs.data(), refs.size(), appendToString,
                                       &error, spec.callbacks.userData);
    if (mlirLogicalResultIsFailure(result))
      return errorHandler(Twine(getArgument()) + ": " + error);
    return success();
  }

  void runOnOperation() override {
    std::vector<MlirStringRef> refs = optionValues();
    if (mlirLogicalResultIsFailure(spec.callbacks.run(wrap(getOperation()),
                                                      refs.data(), refs.size(),
                                                      spec.callbacks.userData)))
      signalPassFailure();
    else if (spec.callbacks.leavesIRUnchanged)
      markAllAnalysesPreserved();
  }

private:
  std::vector<MlirStringRef> optionValues() const {
    std::vector<MlirStringRef> refs;
    for (const auto &value : values)
      refs.push_back(wrap(StringRef(value->getValue())));
    return refs;
  }

  const BridgedPassSpec &spec;
  std::vector<std::unique_ptr<Option<std::string>>> values;
};

/// Everything registered for one bridged pipeline; lives as long as the
/// process.
struct BridgedPipelineSpec {
  std::string argument, description;
  std::vector<BridgedPassSpec::OptionSpec> options;
  PldPipelineCallbacks callbacks;
};

/// The options of a bridged pipeline, parsed like a pass's.
class BridgedPipelineOptions : public detail::PassOptions {
public:
  explicit BridgedPipelineOptions(const BridgedPipelineSpec &spec) {
    for (const BridgedPassSpec::OptionSpec &option : spec.options)
      values.push_back(std::make_unique<Option<std::string>>(
          *this, option.name, llvm::cl::desc(option.description),
          llvm::cl::init(option.defaultValue)));
  }

  std::vector<MlirStringRef> optionValues() const {
    std::vector<MlirStringRef> refs;
    for (const auto &value : values)
      refs.push_back(wrap(StringRef(value->getValue())));
    return refs;
  }

private:
  std::vector<std::unique_ptr<Option<std::string>>> values;
};

/// Keeps `spec` for the rest of the process: the pass registry is global
/// and may build passes until exit. The list is never destroyed (its
/// registry entries could outlive it) but stays reachable from a global, so
/// a leak checker does not report it.
template <typename Spec> Spec *keepForever(std::unique_ptr<Spec> spec) {
  static auto *kept = new std::vector<std::unique_ptr<Spec>>();
  kept->push_back(std::move(spec));
  return kept->back().get();
}

} // namespace

void pldRegisterPipeline(MlirStringRef argument, MlirStringRef description,
                         const PldPassOption *options, intptr_t numOptions,
                         PldPipelineCallbacks callbacks) {
  auto *spec = keepForever(std::make_unique<BridgedPipelineSpec>(
      BridgedPipelineSpec{std::string(unwrap(argument)),
                          std::string(unwrap(description)),
                          {},
                          callbacks}));
  for (intptr_t i = 0; i < numOptions; ++i)
    spec->options.push_back({std::string(unwrap(options[i].name)),
                             std::string(unwrap(options[i].description)),
                             std::string(unwrap(options[i].defaultValue))});
  registerPassPipeline(
      spec->argument, spec->description,
      [spec](OpPassManager &pm, StringRef optionsText,
             function_ref<LogicalResult(const Twine &)> errorHandler) {
        BridgedPipelineOptions parsed(*spec);
        std::string error;
        llvm::raw_string_ostream errorStream(error);
        if (failed(parsed.parseFromString(optionsText, errorStream)))
          return errorHandler(Twine(spec->argument) + ": " + error);
        std::vector<MlirStringRef> refs = parsed.optionValues();
        std::string pipeline;
        if (mlirLogicalResultIsFailure(
                spec->callbacks.build(refs.data(), refs.size(), appendToString,
                                      &pipeline, spec->callbacks.userData)))
          return errorHandler(Twine(spec->argument) + ": " + pipeline);
        if (failed(parsePassPipeline(pipeline, pm, errorStream)))
          return errorHandler(Twine(spec->argument) + ": " + error);
        return success();
      },
      [spec](function_ref<void(const detail::PassOptions &)> handler) {
        handler(BridgedPipelineOptions(*spec));
      });
}

void pldRegisterPass(MlirStringRef argument, MlirStringRef description,
                     MlirStringRef anchorOpName, const PldPassOption *options,
                     intptr_t numOptions, PldPassCallbacks callbacks) {
  static TypeIDAllocator typeIDs;
  auto *spec = keepForever(std::make_unique<BridgedPassSpec>(
      BridgedPassSpec{std::string(unwrap(argument)),
                      std::string(unwrap(description)),
                      std::string(unwrap(anchorOpName)),
                      {},
                      callbacks,
                      typeIDs.allocate()}));
  for (intptr_t i = 0; i < numOptions; ++i)
    spec->options.push_back({std::string(unwrap(options[i].name)),
                             std::string(unwrap(options[i].description)),
                             std::string(unwrap(options[i].defaultValue))});
  registerPass([spec]() { return std::make_unique<BridgedPass>(*spec); });
}

void pldRegisterUpstreamPasses() {
  // MLIR aborts on a second registration of a pass argument.
  static bool registered = [] {
    mlir::registerTransformsPasses();
    mlir::registerConvertToEmitC();
    mlir::arith::registerArithExpandOpsPass();
    mlir::emitc::registerFormExpressionsPass();
    return true;
  }();
  (void)registered;
}
