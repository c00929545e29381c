//===- AscendTraits.h - what the lowering passes ask of an op ---*- C++ -*-===//
//
// Traits ODS attaches to ascend ops (AscendOps.td) so that a pass asks an op
// for a fact instead of keeping a table of op names: the hardware pipe it
// issues on, whether it reads or writes a payload in global memory, whether
// it runs a callee. They carry no verification.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_ASCEND_IR_ASCENDTRAITS_H
#define PLD_DIALECT_ASCEND_IR_ASCENDTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace pld::ascend {

/// The op issues on pipe `P` (PTO's pipe_t).
template <Pipe P> struct OnPipe {
  template <typename ConcreteType>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    static constexpr Pipe getPipe() { return P; }
  };
};

/// The op reads a payload in global memory (a peer may have published it).
template <typename ConcreteType>
class ReadsPayload
    : public mlir::OpTrait::TraitBase<ConcreteType, ReadsPayload> {};

/// The op writes a payload in global memory (a peer may read it once told).
template <typename ConcreteType>
class WritesPayload
    : public mlir::OpTrait::TraitBase<ConcreteType, WritesPayload> {};

/// The op runs a callee (a kernel, a task, a split-AIV body), which may do
/// anything a function body does.
template <typename ConcreteType>
class RunsCallee : public mlir::OpTrait::TraitBase<ConcreteType, RunsCallee> {};

/// The pipe `op` issues on, if it is an ascend op that says.
std::optional<Pipe> getPipe(mlir::Operation *op);

} // namespace pld::ascend

#endif // PLD_DIALECT_ASCEND_IR_ASCENDTRAITS_H
