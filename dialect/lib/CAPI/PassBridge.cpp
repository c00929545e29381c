//===- PassBridge.cpp - register foreign passes as MLIR passes ------------===//
//
// A bridged pass is a real `mlir::Pass` subclass: its options are real pass
// options (declared at construction from the registered list), so `--help`
// lists them and `name{key=value}` parses them, and its statistics are real
// pass statistics. Running it hands the operation, the option values and a
// handle for the statistics to the foreign callback.
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
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <deque>
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
  /// A statistic, and its sum over every run of the pass in the process
  /// (what pldPrintPassStatistics reports).
  struct StatisticSpec {
    StatisticSpec(StringRef name, StringRef description)
        : name(name), description(description) {}
    std::string name, description;
    mutable std::atomic<uint64_t> total{0};
  };
  std::string argument, description, anchorOpName;
  std::vector<OptionSpec> options;
  // A deque: its elements hold atomics, which cannot move.
  std::deque<StatisticSpec> statistics;
  PldPassCallbacks callbacks;
  TypeID typeID;
  mutable std::atomic<bool> ran{false};
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
    // The names outlive the pass: the spec is kept for the whole process.
    for (const BridgedPassSpec::StatisticSpec &statistic : spec.statistics)
      statistics.push_back(std::make_unique<Statistic>(
          this, statistic.name.c_str(), statistic.description.c_str()));
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
    spec.ran = true;
    std::vector<MlirStringRef> refs = optionValues();
    if (mlirLogicalResultIsFailure(
            spec.callbacks.run(wrap(getOperation()), refs.data(), refs.size(),
                               PldRunningPass{this}, spec.callbacks.userData)))
      signalPassFailure();
    else if (spec.callbacks.leavesIRUnchanged)
      markAllAnalysesPreserved();
  }

  void addToStatistic(intptr_t index, uint64_t value) {
    if (index < 0 || static_cast<size_t>(index) >= statistics.size())
      llvm::report_fatal_error(Twine(spec.argument) + ": no statistic " +
                               Twine(index));
    // The pass manager's report (when MLIR is built with statistics) and
    // the process-wide sum that pldPrintPassStatistics reports otherwise.
    *statistics[index] += value;
    spec.statistics[index].total += value;
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
  std::vector<std::unique_ptr<Statistic>> statistics;
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

/// Every spec registered so far. The list is never destroyed (its registry
/// entries could outlive it) but stays reachable from a global, so a leak
/// checker does not report it.
template <typename Spec> std::vector<std::unique_ptr<Spec>> &keptSpecs() {
  static auto *kept = new std::vector<std::unique_ptr<Spec>>();
  return *kept;
}

/// Keeps `spec` for the rest of the process: the pass registry is global
/// and may build passes until exit.
template <typename Spec> Spec *keepForever(std::unique_ptr<Spec> spec) {
  keptSpecs<Spec>().push_back(std::move(spec));
  return keptSpecs<Spec>().back().get();
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
                     intptr_t numOptions, const PldPassStatistic *statistics,
                     intptr_t numStatistics, PldPassCallbacks callbacks) {
  static TypeIDAllocator typeIDs;
  auto *spec = keepForever(std::make_unique<BridgedPassSpec>());
  spec->argument = unwrap(argument).str();
  spec->description = unwrap(description).str();
  spec->anchorOpName = unwrap(anchorOpName).str();
  spec->callbacks = callbacks;
  spec->typeID = typeIDs.allocate();
  for (intptr_t i = 0; i < numOptions; ++i)
    spec->options.push_back({std::string(unwrap(options[i].name)),
                             std::string(unwrap(options[i].description)),
                             std::string(unwrap(options[i].defaultValue))});
  for (intptr_t i = 0; i < numStatistics; ++i)
    spec->statistics.emplace_back(unwrap(statistics[i].name),
                                  unwrap(statistics[i].description));
  registerPass([spec]() { return std::make_unique<BridgedPass>(*spec); });
}

void pldRunningPassAddStatistic(PldRunningPass pass, intptr_t index,
                                uint64_t value) {
  static_cast<BridgedPass *>(pass.ptr)->addToStatistic(index, value);
}

void pldPrintPassStatistics(MlirStringCallback callback, void *userData) {
  std::vector<const BridgedPassSpec *> passes;
  for (const auto &spec : keptSpecs<BridgedPassSpec>())
    if (spec->ran && !spec->statistics.empty())
      passes.push_back(spec.get());
  llvm::sort(passes,
             [](const BridgedPassSpec *lhs, const BridgedPassSpec *rhs) {
               return lhs->argument < rhs->argument;
             });
  std::string text;
  llvm::raw_string_ostream os(text);
  // MLIR's header and list layout, so that the two reports read alike.
  StringRef title = "... Pass statistics report (pld's passes) ...";
  os << "===" << std::string(73, '-') << "===\n";
  os.indent((80 - title.size()) / 2) << title << "\n";
  os << "===" << std::string(73, '-') << "===\n";
  for (const BridgedPassSpec *pass : passes) {
    os.indent(2) << pass->argument << "\n";
    std::vector<const BridgedPassSpec::StatisticSpec *> sorted;
    size_t nameWidth = 0, valueWidth = 0;
    for (const BridgedPassSpec::StatisticSpec &statistic : pass->statistics) {
      sorted.push_back(&statistic);
      nameWidth = std::max(nameWidth, statistic.name.size());
      valueWidth =
          std::max(valueWidth, std::to_string(statistic.total.load()).size());
    }
    llvm::sort(sorted, [](const auto *lhs, const auto *rhs) {
      return lhs->name < rhs->name;
    });
    for (const BridgedPassSpec::StatisticSpec *statistic : sorted)
      os.indent(4) << llvm::format(
          "(S) %*llu %-*s - %s\n", static_cast<int>(valueWidth),
          static_cast<unsigned long long>(statistic->total.load()),
          static_cast<int>(nameWidth), statistic->name.c_str(),
          statistic->description.c_str());
  }
  os << "\n";
  callback(wrap(StringRef(text)), userData);
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
