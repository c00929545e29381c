//===- AscendTypes.td - ascend types and enum attributes ---*- tablegen -*-===//

#ifndef ASCEND_TYPES_TD
#define ASCEND_TYPES_TD

include "pld/Dialect/Ascend/IR/AscendDialect.td"
include "pld/Dialect/Ascend/IR/AscendEnums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Ascend_Type<string name, string typeMnemonic> : TypeDef<Ascend_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Ascend_CtxType : Ascend_Type<"Ctx", "ctx"> {
  let summary = "the CommContext of this rank (`__gm__ CommContext*`)";
  let description = [{
    1056 bytes, little endian: rankId at byte 16, rankNum at 20, windowsIn
    at 32 (semantics §1).
  }];
}

def Ascend_GmPtrType : Ascend_Type<"GmPtr", "gm"> {
  let summary = "a pointer into global memory (`__gm__ T*`)";
  let description = [{
    ```mlir
    !ascend.gm<f32>    // __gm__ float*
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def Ascend_TileType : Ascend_Type<"Tile", "tile"> {
  let summary = "a 2-D tile in the unified buffer (`pto::Tile<Vec, T, R, C>`)";
  let description = [{
    A handle to `rows x cols` elements of this core's unified buffer, at the
    offset its `ascend.tile` op was planned at, with a valid shape (the
    rows and columns that hold data) fixed when the handle is made.

    The target's rules hold for every tile type: a row is a whole number of
    32-byte blocks (`cols * sizeof(T) % 32 == 0`: PTO static_asserts it for
    row-major Vec tiles), and the element type is one TLOAD and TSTORE move
    (i8, i16, i32, i64, f16, bf16, f32; no f64, i1 or index). A tile whose
    logical width is not a whole number of blocks is padded and given its
    logical width as valid shape.

    ```mlir
    !ascend.tile<4x64xf32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<StaticShape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRows() const { return getShape()[0]; }
    int64_t getCols() const { return getShape()[1]; }
    /// The tile's size in bytes.
    int64_t getByteSize() const;
  }];
}

def Ascend_ViewType : Ascend_Type<"View", "view"> {
  let summary = "a 2-D region of global memory (`pto::GlobalTensor`)";
  let description = [{
    A pointer, a row count, a column count and a row stride, all known at
    run time.

    ```mlir
    !ascend.view<f32>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Ascend_DispatchPayloadType : Ascend_Type<"DispatchPayload", "dispatch_payload"> {
  let summary = "the dispatch payload of the running task (`__gm__ int64_t*`)";
  let description = [{
    What the task runtime hands a task's kernel: the argument array from
    which the runtime's `get_async_ctx` builds the `AsyncCtx` that deferred
    completions register with. Only a kernel that registers one
    (`ascend.defer_completion`) takes it, as its parameter after the
    CommContext; docs/lowering.md has the kernel ABI.
  }];
}

def Ascend_TaskType : Ascend_Type<"Task", "task"> {
  let summary = "the id of a submitted task";
}

def Ascend_ArgsType : Ascend_Type<"Args", "args"> {
  let summary = "the argument array of an entry wrapper (`const Arg*`)";
  let description = [{
    What a runtime hands a kernel's entry wrapper: one `Arg` per argument of
    the pld-level function (pointer, dimensions, scalar value).
  }];
}

def Ascend_NotifyOpAttr : EnumAttr<Ascend_Dialect, Ascend_NotifyOpEnum, "notify_op">;
def Ascend_WaitCmpAttr : EnumAttr<Ascend_Dialect, Ascend_WaitCmpEnum, "wait_cmp">;
def Ascend_AtomicTypeAttr : EnumAttr<Ascend_Dialect, Ascend_AtomicTypeEnum, "atomic">;
def Ascend_PipeAttr : EnumAttr<Ascend_Dialect, Ascend_PipeEnum, "pipe">;

def Ascend_AnyGmPtr : Type<CPred<"::llvm::isa<::pld::ascend::GmPtrType>($_self)">,
                           "__gm__ pointer">;
def Ascend_SignalPtr : Type<
    And<[CPred<"::llvm::isa<::pld::ascend::GmPtrType>($_self)">,
         CPred<"::llvm::cast<::pld::ascend::GmPtrType>($_self).getElementType().isSignlessInteger(32)">]>,
    "__gm__ int32_t pointer (a signal cell)">;
def Ascend_AnyTile : Type<CPred<"::llvm::isa<::pld::ascend::TileType>($_self)">, "tile">;
def Ascend_AnyView : Type<CPred<"::llvm::isa<::pld::ascend::ViewType>($_self)">, "global view">;

#endif // ASCEND_TYPES_TD
