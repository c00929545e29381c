//===- Operands.cpp - operands by their ODS names -------------------------===//
//
// One entry per operand of every op, from the generated *OperandGroups.inc
// (dialect/cmake/gen-operand-groups.py): each reads the group through the
// accessor ODS generates for it, so the positions are ODS's own.
//
//===----------------------------------------------------------------------===//

#include "pld-c/Operands.h"

#include "pld/Dialect/Ascend/IR/Ascend.h"
#include "pld/Dialect/Pl/IR/Pl.h"
#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

namespace {
struct Group {
  intptr_t start;
  intptr_t count;
};

std::optional<Group> lookup(Operation *operation, StringRef name) {
  // Each group is read with the op's own getODSOperandIndexAndLength (which
  // knows its segments and variadic lists); naming its accessor makes the
  // build fail when the generated table and the op class disagree.
#define PLD_OP(OpClass) if (auto typed = dyn_cast<OpClass>(operation)) {
#define PLD_OPERAND_GROUP(Name, Accessor, Index)                               \
  if (name == #Name) {                                                         \
    (void)&decltype(typed)::get##Accessor##Mutable;                            \
    auto [start, count] = typed.getODSOperandIndexAndLength(Index);            \
    return Group{static_cast<intptr_t>(start), static_cast<intptr_t>(count)};  \
  }
#define PLD_OP_END()                                                           \
  return std::nullopt;                                                         \
  }
#include "pld/Dialect/Ascend/IR/AscendOperandGroups.inc"
#include "pld/Dialect/Pl/IR/PlOperandGroups.inc"
#include "pld/Dialect/Pld/IR/PldOperandGroups.inc"
#undef PLD_OP
#undef PLD_OPERAND_GROUP
#undef PLD_OP_END
  return std::nullopt;
}
} // namespace

bool pldOperationGetOperandGroup(MlirOperation op, MlirStringRef name,
                                 intptr_t *start, intptr_t *count) {
  std::optional<Group> group = lookup(unwrap(op), unwrap(name));
  if (!group)
    return false;
  *start = group->start;
  *count = group->count;
  return true;
}
