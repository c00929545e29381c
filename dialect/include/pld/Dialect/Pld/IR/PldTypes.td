//===- PldTypes.td - pld types and enums -------------------*- tablegen -*-===//

#ifndef PLD_TYPES_TD
#define PLD_TYPES_TD

include "pld/Dialect/Pld/IR/PldDialect.td"
include "pld/Dialect/Pl/IR/PlTypes.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "pld/Dialect/Pld/IR/PldEnums.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Pld_DistributedTensorType : TypeDef<Pld_Dialect, "DistributedTensor", [
    ShapedTypeInterface, Pl_GlobalMemoryTypeInterface]> {
  let mnemonic = "dtensor";
  let summary = "a typed, shaped view over a per-rank window buffer";
  let description = [{
    A DistributedTensor (DT) is bound to a window buffer: the same element of
    a DT names the same cell in every rank's window, which is what makes it
    reachable by peers. Every RMA op and collective takes a DT on the window
    side; a plain `memref` is never accepted there. Dimensions are positive
    or dynamic (`?`); the rank is at least 1.

    ```mlir
    !pld.dtensor<2x1xi32>     // a signal: one i32 cell per rank
    !pld.dtensor<8x?xf32>     // a window view with a runtime innermost dim
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<DynamicShape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
}

def Pld_CommCtxType : TypeDef<Pld_Dialect, "CommCtx"> {
  let mnemonic = "comm_ctx";
  let summary = "the communication context handed to a kernel";
  let description = [{
    Produced by `pld.system.get_comm_ctx`, consumed by `pld.system.rank` and
    `pld.system.nranks`. At run time it is the 1056-byte CommContext block
    (rankId at byte 16, rankNum at byte 20, windowsIn at byte 32).
  }];
}

def Pld_PtrType : TypeDef<Pld_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "a per-rank window buffer";
  let description = [{
    Returned by `pld.tensor.alloc_window_buffer`; `pld.tensor.window` views it
    as a `!pld.dtensor`.
  }];
}

def Pld_AnyDistributedTensor : Type<
    CPred<"::llvm::isa<::pld::DistributedTensorType>($_self)">,
    "window-bound !pld.dtensor (a plain memref is not a window)">;

// A local operand of a transfer: a DT, a plain memref, or (rejected by the
// verifier with a pointer to the tile-level op) a computed tile.
def Pld_TransferOperand : AnyTypeOf<[Pld_AnyDistributedTensor, AnyMemRef,
                                     Pl_AnyTile]>;

//===----------------------------------------------------------------------===//
// Enums (the integer values are a stable ABI)
//===----------------------------------------------------------------------===//

def Pld_NotifyOpAttr : EnumAttr<Pld_Dialect, Pld_NotifyOpEnum, "notify_op">;

def Pld_WaitCmpAttr : EnumAttr<Pld_Dialect, Pld_WaitCmpEnum, "wait_cmp">;

def Pld_ReduceOpAttr : EnumAttr<Pld_Dialect, Pld_ReduceOpEnum, "reduce_op">;

def Pld_AtomicTypeAttr : EnumAttr<Pld_Dialect, Pld_AtomicTypeEnum, "atomic">;

def Pld_TransferEngineAttr : EnumAttr<Pld_Dialect, Pld_TransferEngineEnum, "engine">;

def Pld_CollectiveModeAttr : EnumAttr<Pld_Dialect, Pld_CollectiveModeEnum, "mode">;
def Pld_CollectiveAlgorithmAttr : EnumAttr<Pld_Dialect, Pld_CollectiveAlgorithmEnum,
                                           "algorithm">;
def Pld_TargetProfileAttr : EnumAttr<Pld_Dialect, Pld_TargetProfileEnum, "target"> {
  // Written on its own as a module attribute: `pld.target = #pld.target<Ascend950>`.
  let assemblyFormat = "`<` $value `>`";
}

#endif // PLD_TYPES_TD
