//===- PlTypes.td - pl types and enums ---------------------*- tablegen -*-===//

#ifndef PL_TYPES_TD
#define PL_TYPES_TD

include "pld/Dialect/Pl/IR/PlDialect.td"
include "pld/Dialect/Pl/IR/PlInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "pld/Dialect/Pl/IR/PlEnums.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Pl_TileType : TypeDef<Pl_Dialect, "Tile", [ShapedTypeInterface]> {
  let mnemonic = "tile";
  let summary = "an on-chip tile with a static shape";
  let description = [{
    A tile lives in a core's local buffer. Its shape is static (the staging
    buffers are allocated at compile time) and every dimension is positive.

    ```mlir
    !pl.tile<1x64xf32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<StaticShape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
}

def Pl_TaskIdType : TypeDef<Pl_Dialect, "TaskId"> {
  let mnemonic = "task_id";
  let summary = "the id of a launched task, usable in `deps`";
  let description = [{
    Returned by `pl.at` and `pl.spmd`. Another task lists it in `deps` to be
    dispatched only after this task is logically complete.
  }];
}

def Pl_AnyTile : Type<CPred<"::llvm::isa<::pld::pl::TileType>($_self)">,
                      "tile">;

def Pl_GlobalMemory : AnyTypeOf<[AnyMemRef,
    Type<CPred<"::llvm::isa<::pld::pl::GlobalMemoryTypeInterface>($_self)">,
         "global-memory view">]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Pl_KernelKindAttr : EnumAttr<Pl_Dialect, Pl_KernelKindEnum, "kernel"> {
  // Written on its own as a function attribute: `#pl.kernel<incore>`.
  let assemblyFormat = "`<` $value `>`";
}

def Pl_LevelAttr : EnumAttr<Pl_Dialect, Pl_LevelEnum, "level">;

def Pl_SplitModeAttr : EnumAttr<Pl_Dialect, Pl_SplitModeEnum, "split_mode">;

def Pl_RoundModeAttr : EnumAttr<Pl_Dialect, Pl_RoundModeEnum, "round_mode">;

#endif // PL_TYPES_TD
