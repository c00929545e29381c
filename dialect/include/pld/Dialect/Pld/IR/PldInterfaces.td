//===- PldInterfaces.td - pld op interfaces ----------------*- tablegen -*-===//
//
// The facts about pld ops that passes ask, declared once, next to the ops:
// which signal cell an op notifies or waits on, and what a collective
// synchronizes. Rust reads them through pld-c/Interfaces.h.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_INTERFACES_TD
#define PLD_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Pld_SignalOpInterface : OpInterface<"SignalOpInterface"> {
  let cppNamespace = "::pld";
  let description = [{
    An op that writes or reads one signal cell: `pld.system.notify` (a set
    or an atomic add into a peer's cell), `pld.system.wait` (spins until
    the own cell compares true) and `pld.system.defer_wait` (the same
    comparison as a completion condition of the enclosing task).
  }];
  let methods = [
    InterfaceMethod<[{The signal tensor.}], "::mlir::Value", "getSignalTensor">,
    InterfaceMethod<[{The cell: one offset per dimension of the signal.}],
      "::llvm::SmallVector<::mlir::OpFoldResult>", "getCellOffsets">,
    InterfaceMethod<[{The rank whose cell a notify writes; null for a wait,
      which reads its own rank's cell.}], "::mlir::Value", "getSignalPeer">,
    InterfaceMethod<[{The value a notify writes or a wait compares with.}],
      "::mlir::Value", "getSignalScalar">,
    InterfaceMethod<[{What the op does to the cell.}], "::pld::SignalEffect",
      "getSignalEffect">,
    InterfaceMethod<[{Whether the comparison completes the enclosing task
      instead of blocking the kernel (`defer_wait`).}], "bool", "isDeferred",
      (ins), [{}], [{ return false; }]>,
  ];
}

def Pld_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::pld";
  let description = [{
    A collective: every rank calls it on the same signal, and it orders
    every rank's accesses before the call before every rank's accesses of
    its tensors inside it, and those before every rank's accesses after it
    (docs/design/races.md), whichever algorithm it runs.
  }];
  let methods = [
    InterfaceMethod<[{The signal the collective synchronizes on.}],
      "::mlir::Value", "getSignalTensor">,
    InterfaceMethod<[{Appends the tensors it reads or writes on any rank.}],
      "void", "getCollectiveTensors",
      (ins "::llvm::SmallVectorImpl<::mlir::Value> &":$tensors)>,
    InterfaceMethod<[{Appends the algorithms pld-decompose-collectives can
      run it with: the values its `algorithm` attribute takes (`auto`
      first); none for a collective with one algorithm.}],
      "void", "getAlgorithms",
      (ins "::llvm::SmallVectorImpl<::pld::CollectiveAlgorithm> &":$algorithms),
      [{}], [{ return; }]>,
    InterfaceMethod<[{Why it cannot run `algorithm` (one of
      getAlgorithms): its signal's shape, saying which it needs, or an
      operand the algorithm cannot read where it is; empty when it can.}],
      "std::string", "getAlgorithmSignalProblem",
      (ins "::pld::CollectiveAlgorithm":$algorithm),
      [{}], [{ return {}; }]>,
    InterfaceMethod<[{The vector cores (blocks) of every rank it runs on:
      its `core_num`, 1 for a collective without one.}],
      "int64_t", "getCoreCount", (ins), [{}], [{ return 1; }]>,
    InterfaceMethod<[{Appends the algorithms (of getAlgorithms, not `auto`)
      that run on a part of its data, one part per core: those it can run
      on several cores; none for a collective that runs on one.}],
      "void", "getPartitionedAlgorithms",
      (ins "::llvm::SmallVectorImpl<::pld::CollectiveAlgorithm> &":$algorithms),
      [{}], [{ return; }]>,
  ];
}

#endif // PLD_INTERFACES_TD
