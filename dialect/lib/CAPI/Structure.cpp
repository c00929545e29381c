//===- Structure.cpp - an op's structure, for comparing ops ---------------===//
//
// One pre-order walk writes each op's name, attributes, result types,
// operands, successors and regions as tokens. Names, attributes and types
// are uniqued in the context, so their addresses compare them; values and
// blocks are numbered in the order they are defined, which makes the
// sequence independent of where the op lives.
//
//===----------------------------------------------------------------------===//

#include "pld-c/Structure.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace {
/// The token of a value not defined inside the root (an isolated root has
/// none): its address follows.
constexpr uint64_t kOutsideValue = UINT64_C(0xFFFFFFFFFFFFFFFE);

uint64_t address(const void *pointer) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer));
}

class StructureWriter {
public:
  explicit StructureWriter(Operation *root) : root(root) {}

  /// The tokens of `op` and everything nested in it.
  void write(Operation *op) {
    push(address(op->getName().getAsOpaquePointer()));
    writeAttributes(op);
    push(op->getNumResults());
    for (Value result : op->getResults()) {
      push(address(result.getType().getAsOpaquePointer()));
      number(result);
    }
    push(op->getNumOperands());
    for (Value operand : op->getOperands()) {
      auto found = values.find(operand);
      if (found != values.end()) {
        push(found->second);
      } else {
        push(kOutsideValue);
        push(address(operand.getAsOpaquePointer()));
      }
    }
    push(op->getNumSuccessors());
    for (Block *successor : op->getSuccessors())
      push(blocks.lookup(successor));
    push(op->getNumRegions());
    for (Region &region : op->getRegions()) {
      // Successors may name a later block: every block of the region is
      // numbered before its ops are written.
      push(region.getBlocks().size());
      for (Block &block : region)
        blocks.try_emplace(&block, blocks.size());
      for (Block &block : region) {
        push(block.getNumArguments());
        for (BlockArgument argument : block.getArguments()) {
          push(address(argument.getType().getAsOpaquePointer()));
          number(argument);
        }
        push(block.getOperations().size());
        for (Operation &nested : block)
          write(&nested);
      }
    }
  }

  llvm::SmallVector<uint64_t, 256> tokens;

private:
  void push(uint64_t token) { tokens.push_back(token); }

  void number(Value value) { values.try_emplace(value, values.size()); }

  /// The attribute dictionary, uniqued: one token unless it holds what the
  /// comparison sees through (the root's name, a symbol reference's name).
  void writeAttributes(Operation *op) {
    DictionaryAttr attributes = op->getAttrDictionary();
    bool expand = op == root || llvm::any_of(attributes, [](NamedAttribute a) {
                    return isa<FlatSymbolRefAttr>(a.getValue());
                  });
    if (!expand) {
      push(address(attributes.getAsOpaquePointer()));
      return;
    }
    push(attributes.size());
    for (NamedAttribute attribute : attributes) {
      if (op == root &&
          attribute.getName() == SymbolTable::getSymbolAttrName()) {
        continue;
      }
      push(address(attribute.getName().getAsOpaquePointer()));
      if (auto reference = dyn_cast<FlatSymbolRefAttr>(attribute.getValue())) {
        push(PLD_STRUCTURE_SYMBOL_REFERENCE);
        push(address(reference.getAttr().getAsOpaquePointer()));
      } else {
        push(address(attribute.getValue().getAsOpaquePointer()));
      }
    }
  }

  Operation *root;
  llvm::DenseMap<Value, uint64_t> values;
  llvm::DenseMap<Block *, uint64_t> blocks;
};
} // namespace

void pldOperationStructure(MlirOperation op, PldStructureCallback callback,
                           void *userData) {
  StructureWriter writer(unwrap(op));
  writer.write(unwrap(op));
  callback(writer.tokens.data(), static_cast<intptr_t>(writer.tokens.size()),
           userData);
}
