//===- Analysis.cpp - value facts for passes ------------------------------===//
//
// MLIR's own dataflow framework (dead code and integer ranges) run once over
// the module as a closed world. The analysis only reads the IR: the
// visibility it changes to close the world is restored before it returns.
//
//===----------------------------------------------------------------------===//

#include "pld-c/Analysis.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>

using namespace mlir;

namespace {
struct Facts {
  DataFlowSolver solver;
};

Facts *unwrapFacts(PldValueFacts facts) {
  return static_cast<Facts *>(facts.ptr);
}

/// The signed bounds the solver found for `value`.
std::optional<std::pair<int64_t, int64_t>> rangeOf(Facts &facts, Value value) {
  auto *lattice =
      facts.solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  const ConstantIntRanges &range = lattice->getValue().getValue();
  // A value that is not an integer (a tensor the caller asked about, say)
  // can hold a zero-width range: nothing to say about it.
  unsigned width = range.smin().getBitWidth();
  if (width == 0 || width > 64 ||
      (range.smin().isMinSignedValue() && range.smax().isMaxSignedValue()))
    return std::nullopt; // The widest range says nothing.
  return std::make_pair(range.smin().getSExtValue(),
                        range.smax().getSExtValue());
}
} // namespace

PldValueFacts pldValueFactsCreate(MlirOperation module) {
  Operation *root = unwrap(module);
  auto facts = std::make_unique<Facts>();
  // Closed world: a function the module calls is reached only from those
  // calls. The analyses follow calls into private functions, so public ones
  // with calls are made private while the solver initializes (it reads
  // visibility then), and public again afterwards. One walk collects the
  // called names (a query per function would walk the module each time).
  llvm::DenseSet<StringAttr> called;
  root->walk([&](CallOpInterface call) {
    if (auto callee = dyn_cast<SymbolRefAttr>(call.getCallableForCallee()))
      called.insert(callee.getRootReference());
  });
  SmallVector<SymbolOpInterface> closed;
  root->walk([&](SymbolOpInterface symbol) {
    if (symbol.isPublic() && isa<CallableOpInterface>(*symbol) &&
        called.contains(symbol.getNameAttr())) {
      symbol.setVisibility(SymbolTable::Visibility::Private);
      closed.push_back(symbol);
    }
  });
  facts->solver.load<dataflow::DeadCodeAnalysis>();
  facts->solver.load<dataflow::IntegerRangeAnalysis>();
  LogicalResult solved = facts->solver.initializeAndRun(root);
  for (SymbolOpInterface symbol : closed)
    symbol.setVisibility(SymbolTable::Visibility::Public);
  if (failed(solved))
    return {nullptr};
  return {facts.release()};
}

void pldValueFactsDestroy(PldValueFacts facts) { delete unwrapFacts(facts); }

bool pldValueFactsGetConstant(PldValueFacts facts, MlirValue value,
                              int64_t *out) {
  auto range = rangeOf(*unwrapFacts(facts), unwrap(value));
  if (!range || range->first != range->second)
    return false;
  *out = range->first;
  return true;
}

bool pldValueFactsGetRange(PldValueFacts facts, MlirValue value, int64_t *min,
                           int64_t *max) {
  auto range = rangeOf(*unwrapFacts(facts), unwrap(value));
  if (!range)
    return false;
  *min = range->first;
  *max = range->second;
  return true;
}
