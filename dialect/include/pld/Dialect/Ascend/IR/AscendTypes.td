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

// A tile's kind, `vec` when not written.
def Ascend_TileKindParameter : EnumParameter<Ascend_TileKindEnum> {
  let defaultValue = "::pld::ascend::TileKind::Vec";
}

def Ascend_TileType : Ascend_Type<"Tile", "tile"> {
  let summary = "a 2-D tile of an on-chip buffer (`pto::Tile<Kind, T, R, C>`)";
  let description = [{
    A handle to `rows x cols` elements of one of this core's on-chip
    buffers, at the offset its `ascend.tile` op was planned at, with a valid
    shape (the rows and columns that hold data) fixed when the handle is
    made. The kind says which buffer and which layout (PTO's `TileType`):

    | kind | buffer | PTO tile | rows | cols |
    |---|---|---|---|---|
    | `vec` (default) | UB (AIV) | `Tile<Vec, T, R, C, RowMajor>` | any | 32 bytes |
    | `mat` | L1 (AIC) | `Tile<Mat, T, R, C, ColMajor, .., RowMajor, 512>` | 16 | 32 bytes |
    | `left` | L0A | `TileLeft<T, R, C>` | 16 | 32 bytes |
    | `right` | L0B | `TileRight<T, R, C>` | 32 bytes | 16 |
    | `acc` | L0C | `TileAcc<T, R, C>` | 16 | 16 |

    The last two columns are what the rows and columns must be multiples
    of: PTO static_asserts them (a whole number of 32-byte blocks, or of
    the 512-byte fractal's inner box, `docs/target/pto-isa.md`). The element
    type is one TLOAD and TSTORE move (i8, i16, i32, i64, f16, bf16, f32;
    no f64, i1 or index); `left`, `right` and `mat` tiles hold what TMATMUL
    multiplies (i8, f16, bf16, f32) and `acc` tiles what it produces (i32,
    f32). A tile whose logical shape is not a whole number of those units
    is padded and given its logical shape as valid shape.

    ```mlir
    !ascend.tile<4x64xf32>
    !ascend.tile<32x16xf16, left>
    !ascend.tile<32x32xf32, acc>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        Ascend_TileKindParameter:$kind);
  let assemblyFormat = [{
    `<` custom<StaticShape>($shape, $elementType) (`,` $kind^)? `>`
  }];
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType,
                   ::pld::ascend::TileKind::Vec);
    }]>
  ];
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
    completions register with, and where it records the core's logical
    block and AIV lane (`ascend.block_idx`, `ascend.subblock_idx`). Every
    kernel host code submits as a task takes it, as its parameter after the
    CommContext, and so does a device function that reads the block or
    lane index and that such a kernel calls; docs/lowering.md has the
    kernel ABI.
  }];
}

def Ascend_SdmaWorkspaceType : Ascend_Type<"SdmaWorkspace", "sdma_workspace"> {
  let summary = "the SDMA workspace a kernel's SDMA session is built on (`__gm__ uint8_t*`)";
  let description = [{
    The global memory the host runtime set up for the SDMA engine's queues
    (pto-isa's `SdmaWorkspaceManager`), which PTO's `BuildAsyncSession`
    takes. A kernel that moves data with SDMA (`ascend.sdma_session`) takes
    it, and an `i32` sync id, as its parameters after the CommContext (and
    the dispatch payload, if it takes one); docs/lowering.md has the kernel
    ABI. Host code gets it from the runtime with `ascend.sdma_workspace`.
  }];
}

def Ascend_FftsAddrType : Ascend_Type<"FftsAddr", "ffts_addr"> {
  let summary = "the FFTS base address a mixed kernel sets (`__gm__ uint8_t*`)";
  let description = [{
    The address of the FFTS control block the cross-core flags
    (`ascend.cross_core_signal`, `ascend.cross_core_wait`) go through, which
    the host runtime gets from `rtGetC2cCtrlAddr` and a mixed kernel sets
    with `set_ffts_base_addr` at its entry (`ascend.set_ffts_base_addr`). A
    mixed kernel (one whose body is `ascend.run_mixed`) takes it as its
    parameter after the CommContext (and the dispatch payload, if it takes
    one); docs/lowering.md has the kernel ABI. Host code gets it from the
    runtime with `ascend.ffts_addr`.
  }];
}

def Ascend_AsyncSessionType : Ascend_Type<"AsyncSession", "async_session"> {
  let summary = "a kernel's SDMA session (`pto::comm::AsyncSession`)";
  let description = [{
    Built once per kernel by `ascend.sdma_session`, on a scratch buffer of
    256 bytes in the core's unified buffer; every `ascend.tget_async`,
    `ascend.tput_async` and `ascend.wait_async` of the kernel goes through
    it (it keeps the state of the engine's queues).
  }];
}

def Ascend_AsyncEventType : Ascend_Type<"AsyncEvent", "async_event"> {
  let summary = "the completion of one SDMA transfer (`pto::comm::AsyncEvent`)";
  let description = [{
    What `ascend.tget_async` and `ascend.tput_async` return, and
    `ascend.wait_async` waits for.
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
def Ascend_CoreAttr : EnumAttr<Ascend_Dialect, Ascend_CoreEnum, "core">;

def Ascend_AnyGmPtr : Type<CPred<"::llvm::isa<::pld::ascend::GmPtrType>($_self)">,
                           "__gm__ pointer">;
def Ascend_SignalPtr : Type<
    And<[CPred<"::llvm::isa<::pld::ascend::GmPtrType>($_self)">,
         CPred<"::llvm::cast<::pld::ascend::GmPtrType>($_self).getElementType().isSignlessInteger(32)">]>,
    "__gm__ int32_t pointer (a signal cell)">;
def Ascend_AnyTile : Type<CPred<"::llvm::isa<::pld::ascend::TileType>($_self)">, "tile">;
def Ascend_AnyView : Type<CPred<"::llvm::isa<::pld::ascend::ViewType>($_self)">, "global view">;

#endif // ASCEND_TYPES_TD
