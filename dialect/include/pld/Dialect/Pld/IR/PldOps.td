//===- PldOps.td - pld operations --------------------------*- tablegen -*-===//
//
// One op per entry point of the PyPTO `pld` layer, named after its full
// Python path. Per-op rules of semantics §3 are ODS constraints or C++ verifiers
// here; contextual rules live in the `pld-verify` pass.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_OPS_TD
#define PLD_OPS_TD

include "pld/Dialect/Pld/IR/PldTypes.td"
include "pld/Dialect/Pld/IR/PldInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/InferIntRangeInterface.td"

// Communication never moves, merges or disappears under generic passes: it
// reads and writes memory that peers observe.
defvar Pld_CommEffects = MemoryEffects<[MemRead, MemWrite]>;

// The interfaces the passes read ops through (PldInterfaces.td, and pl's
// MemoryAccessOpInterface), each op defining its methods in PldOps.cpp.
defvar Pld_SignalOp = DeclareOpInterfaceMethods<Pld_SignalOpInterface>;
defvar Pld_DeferredSignalOp = DeclareOpInterfaceMethods<Pld_SignalOpInterface,
                                                        ["isDeferred"]>;
defvar Pld_MemoryAccess = DeclareOpInterfaceMethods<Pl_MemoryAccessOpInterface>;

//===----------------------------------------------------------------------===//
// pld.system.*
//===----------------------------------------------------------------------===//

// semantics §1: a program runs on 1 <= N <= 64 ranks; the value analyses of
// pld-verify know the rank ids and counts from these bounds.
defvar Pld_RankRange = DeclareOpInterfaceMethods<InferIntRangeInterface,
                                                 ["inferResultRanges"]>;

def Pld_SystemWorldSizeOp : Pld_Op<"system.world_size", [Pure, Pld_RankRange]> {
  let summary = "number of ranks (host orchestrator only)";
  let description = [{
    Host-only: the number of ranks of the distributed execution, as `i64`.

    ```mlir
    %n = pld.system.world_size
    ```
  }];
  let results = (outs I64:$size);
  let assemblyFormat = "attr-dict";
}

def Pld_SystemWorldRankOp : Pld_Op<"system.world_rank", [Pure, Pld_RankRange]> {
  let summary = "this rank's index in the world (host orchestrator only)";
  let description = [{
    Host-only: the rank that runs this host code, among all `world_size`
    ranks, as an `index`. Host code tests it to run a comm group's kernels
    on the group's members only, as a PyPTO host orchestrator dispatches a
    group's work to the group's devices (`device=r`).

    ```mlir
    %me = pld.system.world_rank
    ```
  }];
  let results = (outs Index:$rank);
  let assemblyFormat = "attr-dict";
}

def Pld_SystemGetCommCtxOp : Pld_Op<"system.get_comm_ctx", [Pure]> {
  let summary = "lift a distributed tensor to its communication context";
  let description = [{
    Works in host and InCore code. The argument must be a `!pld.dtensor`; a
    plain `memref` is rejected.

    ```mlir
    %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$tensor);
  let results = (outs Pld_CommCtxType:$ctx);
  let assemblyFormat = "$tensor attr-dict `:` type($tensor)";
}

def Pld_SystemRankOp : Pld_Op<"system.rank", [Pure, Pld_RankRange]> {
  let summary = "the local rank index (InCore only)";
  let description = [{
    Lowers to a load of `CommContext::rankId` (the u32 at byte 16). An
    `i32`, or with `: index` an `index`, the type every peer and offset
    takes, so that a kernel needs no cast.

    ```mlir
    %me = pld.system.rank %ctx
    %peer = pld.system.rank %ctx : index
    ```
  }];
  let arguments = (ins Pld_CommCtxType:$ctx);
  let results = (outs AnyTypeOf<[I32, Index]>:$rank);
  let hasCustomAssemblyFormat = 1;
}

def Pld_SystemNranksOp : Pld_Op<"system.nranks", [Pure, Pld_RankRange]> {
  let summary = "the number of ranks of the comm group (InCore only)";
  let description = [{
    Lowers to a load of `CommContext::rankNum` (the u32 at byte 20). An
    `i32`, or with `: index` an `index`, as `pld.system.rank`.

    ```mlir
    %n = pld.system.nranks %ctx
    %count = pld.system.nranks %ctx : index
    ```
  }];
  let arguments = (ins Pld_CommCtxType:$ctx);
  let results = (outs AnyTypeOf<[I32, Index]>:$nranks);
  let hasCustomAssemblyFormat = 1;
}

def Pld_SystemNotifyOp : Pld_Op<"system.notify", [Pld_CommEffects, Pld_SignalOp]> {
  let summary = "deposit a value into a peer's signal cell";
  let description = [{
    Writes (`set`) or atomically adds (`atomic_add`) `value` into the cell
    `target[offsets]` of rank `peer`'s window. InCore only; side effect only.
    The target is an `i32` signal DT and there is one offset per dimension.

    ```mlir
    pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$target, Index:$peer,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       I32:$value, Pld_NotifyOpAttr:$op);
  let assemblyFormat = [{
    $target `` custom<DynamicIndexList>($offsets, $static_offsets) `,`
    `peer` $peer `,` `value` $value `,` `op` `` $op attr-dict `:` type($target)
  }];
  let hasVerifier = 1;
}

class Pld_WaitLikeOp<string mnemonic, Trait signal>
    : Pld_Op<mnemonic, [Pld_CommEffects, signal]> {
  let arguments = (ins Pld_AnyDistributedTensor:$signal,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       I32:$expected, Pld_WaitCmpAttr:$cmp);
  let assemblyFormat = [{
    $signal `` custom<DynamicIndexList>($offsets, $static_offsets) `,`
    `expected` $expected `,` `cmp` `` $cmp attr-dict `:` type($signal)
  }];
  let hasVerifier = 1;
}

def Pld_SystemWaitOp : Pld_WaitLikeOp<"system.wait", Pld_SignalOp> {
  let summary = "block until the local signal cell satisfies a predicate";
  let description = [{
    Spins until `cmp(signal[offsets], expected)` holds on this rank's own
    window (`eq` or `ge`), then lets the kernel go on. InCore only.

    ```mlir
    pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
    ```
  }];
}

def Pld_SystemDeferWaitOp : Pld_WaitLikeOp<"system.defer_wait", Pld_DeferredSignalOp> {
  let summary = "register a completion condition of the enclosing task";
  let description = [{
    Registers `signal[offsets] >= expected` as a completion condition of the
    enclosing task and returns without spinning: the task's id stays
    incomplete until the condition holds. Only `cmp ge`; a constant
    `expected` must lie in `[0, INT32_MAX]` (a dynamic one is checked at run
    time). The task-scope contract (a dedicated top-level `pl.at` at level
    `core_group`, ...) is checked by `pld-verify`.

    ```mlir
    %wait_tid = pl.at level core_group name "payload_wait" {
      pld.system.defer_wait %signal[%peer, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
    }
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Window management
//===----------------------------------------------------------------------===//

def Pld_TensorAllocWindowBufferOp : Pld_Op<"tensor.alloc_window_buffer"> {
  let summary = "allocate a per-rank window buffer";
  let description = [{
    Allocates a buffer at the same offset and size in every rank's window.
    Both overloads of the Python call exist: a size in `bytes`, or a `shape`
    with a `dtype` (size = product of the shape times the element size). The
    `name` (the Python assignment target) is never empty; sizes are positive.

    ```mlir
    %sig = pld.tensor.alloc_window_buffer "signal" bytes 4096
    %buf = pld.tensor.alloc_window_buffer "data" shape [4, %n] dtype f32
    ```

    **Communicator groups.** With `ranks [r0, r1, ...]` (ranks of the
    world, ascending, each at most once) the buffer belongs to the comm
    group of those ranks, as PyPTO's `alloc_window_buffer` does when its
    dispatches name a subset of the devices (hw-native-sys/pypto
    `tests/st/distributed/test_l3_multi_group.py`): windows over it live in
    the group's communicator. Every rank still runs the op (the buffer
    takes the same offset in every window, and groups may overlap: one rank
    in two groups holds the two buffers apart), but only the group's
    members may use a window over it. Through such a window, and in a
    kernel or task it is passed to, `pld.system.rank` and `nranks` of its
    context are the rank in the group (the position in `ranks`) and the
    group's size, and every `peer` is a rank in the group. One call or task
    takes windows of one group (or of the world) only.

    ```mlir
    %scratch = pld.tensor.alloc_window_buffer "scratch_b" bytes 256 ranks [1, 2]
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<Index>:$sizes,
                       DenseI64ArrayAttr:$static_sizes,
                       OptionalAttr<TypeAttr>:$dtype,
                       OptionalAttr<DenseI64ArrayAttr>:$ranks);
  let results = (outs Res<Pld_PtrType, "", [MemAlloc]>:$buffer);
  let assemblyFormat = [{
    $name custom<WindowBufferSize>($sizes, $static_sizes, $dtype)
    (`ranks` $ranks^)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The buffer size in bytes when every size is static.
    std::optional<int64_t> getStaticByteSize();
  }];
}

def Pld_TensorWindowOp : Pld_Op<"tensor.window", [Pure]> {
  let summary = "view a window buffer as a distributed tensor";
  let description = [{
    One index operand per dynamic dimension of the result, as for
    `memref.alloc`. When both the buffer size and the view are static, the
    view must fit in the buffer.

    ```mlir
    %data = pld.tensor.window %buf(%n) : !pld.dtensor<4x?xf32>
    ```
  }];
  let arguments = (ins Pld_PtrType:$buffer, Variadic<Index>:$dynamic_sizes);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $buffer (`(` $dynamic_sizes^ `)`)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Pld_TensorReshapeOp : Pld_Op<"tensor.reshape", [Pure]> {
  let summary = "view a distributed tensor with another shape";
  let description = [{
    The same window cells, in row-major order, seen with another shape of the
    same element type: `!pld.dtensor<64xf32>` as `!pld.dtensor<1x64xf32>`,
    or an `[N, SIZE]` target as one `[1, N * SIZE]` stream. The element
    counts agree where both shapes are static; there is one index operand per
    dynamic dimension of the result, as for `pld.tensor.window`. The result
    is an alias of the source (defer_wait does not accept one).

    ```mlir
    %row = pld.tensor.reshape %v : !pld.dtensor<64xf32> to !pld.dtensor<1x64xf32>
    %flat = pld.tensor.reshape %d(%len) : !pld.dtensor<4x?xf32> to !pld.dtensor<1x?xf32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$source,
                       Variadic<Index>:$dynamic_sizes);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $source (`(` $dynamic_sizes^ `)`)? attr-dict `:` type($source) `to`
    type($result)
  }];
  let hasVerifier = 1;
}

def Pld_TensorDimOp : Pld_Op<"tensor.dim", [Pure]> {
  let summary = "the size of one dimension of a distributed tensor";
  let description = [{
    The extent of dimension `dim` of `source`, which reads the runtime value
    of a dynamic (`?`) dimension; `dim` is in `[0, rank)`.

    ```mlir
    %cols = pld.tensor.dim %data, 1 : !pld.dtensor<4x?xf32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$source, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$source `,` $dim attr-dict `:` type($source)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// pld.tile.* and pld.tensor.remote_store
//===----------------------------------------------------------------------===//

def Pld_TileRemoteLoadOp : Pld_Op<"tile.remote_load", [MemoryEffects<[MemRead]>,
                                                   AttrSizedOperandSegments,
                                                   Pld_MemoryAccess]> {
  let summary = "load a region of a peer's window into a local tile";
  let description = [{
    Reads `target[offsets : offsets + shape]` from rank `peer`, where the
    shape is the result tile's. There is one offset per target dimension and
    the tile has the target's rank. `valid` keeps the tile size fixed while
    only the leading `valid` part of every dimension (a ragged tail) is read;
    it must lie in `[0, shape]`. The offsets and shape must match what the
    peer stored.

    ```mlir
    %t = pld.tile.remote_load %data[0, 0], peer %p : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    %tail = pld.tile.remote_load %data[0, 64], peer %p valid [1, 36] : !pld.dtensor<1x100xf32> -> !pl.tile<1x64xf32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$target, Index:$peer,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       Variadic<Index>:$valid_sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$static_valid_sizes);
  let results = (outs Pl_AnyTile:$result);
  let assemblyFormat = [{
    $target `` custom<DynamicIndexList>($offsets, $static_offsets) `,`
    `peer` $peer
    (`valid` custom<DynamicIndexList>($valid_sizes, $static_valid_sizes)^)?
    attr-dict `:` type($target) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pld_TileRemoteStoreOp : Pld_Op<"tile.remote_store", [Pld_CommEffects,
                                                         AttrSizedOperandSegments,
                                                         Pld_MemoryAccess]> {
  let summary = "write a local tile into a peer's window";
  let description = [{
    Writes `source` into `target` at `offsets` on rank `peer`; with
    `atomic add` it accumulates instead. Element types agree, the target has
    rank >= 2, the source is 2-D (or N-D with every leading dimension 1), and
    the pushed region fits inside the target (checked on static dimensions).
    Atomic add needs an f32, bf16, f16, i32, i16 or i8 destination.

    `valid` writes only the leading `valid` part of every dimension of the
    tile (a ragged edge), one entry per tile dimension, each in `[0, shape]`.

    ```mlir
    pld.tile.remote_store %t, %data[0, 32], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<1x64xf32>
    pld.tile.remote_store %t, %acc[0, 0], peer %c0 atomic add : !pl.tile<16x16xi32>, !pld.dtensor<16x16xi32>
    pld.tile.remote_store %t, %data[0, 64], peer %p valid [1, %n] : !pl.tile<1x64xf32>, !pld.dtensor<1x100xf32>
    ```
  }];
  let arguments = (ins Pl_AnyTile:$source, Pld_AnyDistributedTensor:$target,
                       Index:$peer, Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       Variadic<Index>:$valid_sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$static_valid_sizes,
                       DefaultValuedAttr<Pld_AtomicTypeAttr,
                                         "::pld::AtomicType::None">:$atomic);
  let assemblyFormat = [{
    $source `,` $target `` custom<DynamicIndexList>($offsets, $static_offsets)
    `,` `peer` $peer
    (`valid` custom<DynamicIndexList>($valid_sizes, $static_valid_sizes)^)?
    (`atomic` `` $atomic^)?
    attr-dict `:` type($source) `,` type($target)
  }];
  let hasVerifier = 1;
}

def Pld_TensorRemoteStoreOp : Pld_Op<"tensor.remote_store", [Pld_CommEffects,
                                                             Pld_MemoryAccess]> {
  let summary = "write a local tensor into a peer's window";
  let description = [{
    The tensor-level form of `pld.tile.remote_store`, for pushing a computed
    value out of a tensor-level kernel. The same rules hold; it lowers 1:1 to
    the tile form.

    ```mlir
    pld.tensor.remote_store %payload, %peer_payload[0, 0], peer %p : memref<1x64xf32>, !pld.dtensor<1x64xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Pld_AnyDistributedTensor:$target,
                       Index:$peer, Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       DefaultValuedAttr<Pld_AtomicTypeAttr,
                                         "::pld::AtomicType::None">:$atomic);
  let assemblyFormat = [{
    $source `,` $target `` custom<DynamicIndexList>($offsets, $static_offsets)
    `,` `peer` $peer (`atomic` `` $atomic^)?
    attr-dict `:` type($source) `,` type($target)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// pld.tensor.put / pld.tensor.get
//===----------------------------------------------------------------------===//

class Pld_TransferOp<string mnemonic, dag atomicArg, string atomicFormat>
    : Pld_Op<mnemonic, [Pld_CommEffects, AttrSizedOperandSegments,
                        Pld_MemoryAccess]> {
  let arguments = !con((ins Pld_TransferOperand:$dst, Index:$peer,
                            Pld_TransferOperand:$src,
                            Variadic<Index>:$dst_offsets,
                            OptionalAttr<DenseI64ArrayAttr>:$static_dst_offsets,
                            Variadic<Index>:$src_offsets,
                            OptionalAttr<DenseI64ArrayAttr>:$static_src_offsets,
                            Variadic<Index>:$sizes,
                            OptionalAttr<DenseI64ArrayAttr>:$static_sizes),
                       atomicArg,
                       (ins DefaultValuedAttr<Pld_TransferEngineAttr,
                                              "::pld::TransferEngine::Mte">:$engine,
                            DefaultValuedAttr<I64Attr, "0">:$chunk_rows,
                            DefaultValuedAttr<I64Attr, "0">:$chunk_cols,
                            UnitAttr:$pipeline));
  let assemblyFormat = [{
    $dst `,` `peer` $peer `,` $src
    (`dst_offsets` custom<DynamicIndexList>($dst_offsets, $static_dst_offsets)^)?
    (`src_offsets` custom<DynamicIndexList>($src_offsets, $static_src_offsets)^)?
    (`shape` custom<DynamicIndexList>($sizes, $static_sizes)^)?
  }] # atomicFormat # [{
    (`engine` `` $engine^)?
    (`chunk_rows` $chunk_rows^)? (`chunk_cols` $chunk_cols^)?
    (`pipeline` $pipeline^)?
    attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
  code extraTransferDeclaration = [{
    /// Whether the optional dst_offsets/src_offsets/shape triple is present.
    bool hasRegion() { return getStaticSizes().has_value(); }
  }];
  let extraClassDeclaration = extraTransferDeclaration;
}

def Pld_TensorPutOp : Pld_TransferOp<"tensor.put",
    (ins DefaultValuedAttr<Pld_AtomicTypeAttr, "::pld::AtomicType::None">:$atomic),
    "(`atomic` `` $atomic^)?"> {
  let summary = "one-sided write of a local tensor into a peer's window";
  let description = [{
    Writes local `src` (a DT or a plain `memref`) into `dst` (a DT) on rank
    `peer`. With no region the whole local slice moves and the shapes must
    be equal: the verifier checks the static extents, and where either side
    is dynamic `pld-expand-transfers` checks it at run time (the simulator
    traps, naming the op, where they differ); a static side sizes the
    transfer. `dst_offsets`, `src_offsets` and `shape` come all together or
    not at all, and the sub-region is bounds-checked. Element types and ranks
    agree; `atomic add` accumulates (f32, bf16, f16, i32, i16, i8).

    `engine` says what moves the bytes. With `mte` (the default, not
    printed) the AI core does: the transfer stages through a tile of
    `[min(rows, chunk_rows), min(cols, chunk_cols)]` (0 = full extent).
    `pipeline` double-buffers the stage and needs both chunk sizes; a
    dynamic leading dimension needs `chunk_rows` and a dynamic innermost
    dimension needs `chunk_cols`, since the stage is sized statically. With
    `sdma` the SDMA engine copies the region from global memory to global
    memory (PTO's `TPUT_ASYNC`), with no staging tile, so `chunk_rows`,
    `chunk_cols` and `pipeline` are rejected and dynamic extents need no
    chunk; the op returns once the copy has completed. The SDMA engine only
    copies: `atomic add` is rejected with `sdma` (`TPUT_ASYNC` has no
    atomic form). A computed tile is not a valid source: use
    `pld.tile.remote_store`.

    ```mlir
    pld.tensor.put %dst, peer %p, %src : !pld.dtensor<64xf32>, memref<64xf32>
    pld.tensor.put %dst, peer %p, %src chunk_rows 4 chunk_cols 64 pipeline : !pld.dtensor<8x128xf32>, !pld.dtensor<8x128xf32>
    pld.tensor.put %dst, peer %p, %src dst_offsets [1, 0] src_offsets [0, 0] shape [1, 64] : !pld.dtensor<2x64xf32>, memref<2x64xf32>
    pld.tensor.put %dst, peer %p, %src engine sdma : !pld.dtensor<1024x1024xf32>, memref<1024x1024xf32>
    ```
  }];
}

def Pld_TensorGetOp : Pld_TransferOp<"tensor.get", (ins), ""> {
  let summary = "one-sided read of a peer's window into a local tensor";
  let description = [{
    Reads `src` (a DT) of rank `peer` into local `dst` (a DT or a plain
    `memref`). The region, engine, chunking and pipelining rules are those
    of `pld.tensor.put` (with `engine sdma`, PTO's `TGET_ASYNC`); there is
    no atomic mode. A tile is not a valid destination: use
    `pld.tile.remote_load`.

    ```mlir
    pld.tensor.get %out, peer %next, %in : memref<64xf32>, !pld.dtensor<64xf32>
    pld.tensor.get %out, peer %next, %in engine sdma : memref<4096xf32>, !pld.dtensor<4096xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

// `overridden` names the CollectiveOpInterface methods with a default that
// the op defines itself (a collective with alternative algorithms defines
// getAlgorithms).
class Pld_CollectiveOp<string mnemonic, list<Trait> traits = [],
                       list<string> overridden = ["getAlgorithms"]>
    : Pld_Op<mnemonic, !listconcat([Pld_CommEffects,
        DeclareOpInterfaceMethods<Pld_CollectiveOpInterface, overridden>],
        traits)> {
  let hasVerifier = 1;
}

// The optional `algorithm <name>` of a collective with alternatives: absent,
// the pass option of pld-decompose-collectives decides (default `auto`).
defvar Pld_OptionalAlgorithm = OptionalAttr<Pld_CollectiveAlgorithmAttr>;

// The optional `core_num C` of a collective that runs on several vector
// cores of every rank (docs/pld-decompose-collectives.md, "Collectives on
// several cores"), and what CollectiveOpInterface::getCoreCount answers.
defvar Pld_OptionalCoreNum = OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>;
defvar Pld_CoreCountDefinition = [{
  int64_t $cppClass::getCoreCount() { return getCoreNum().value_or(1); }
}];

def Pld_TensorAllreduceOp : Pld_CollectiveOp<"tensor.allreduce",
    [AllTypesMatch<["target", "result"]>, AttrSizedOperandSegments],
    ["getAlgorithms", "getAlgorithmSignalProblem", "getCoreCount", "getPartitionedAlgorithms"]> {
  let summary = "reduce a window tensor across all ranks, in place";
  let description = [{
    Every rank ends with the element-wise reduction (`sum`, `max`, `min`,
    `prod`) of all ranks' `target`. f16 or f32. `mode mesh` (the default)
    takes an `i32` signal of shape `[N, 1]` (or PyPTO's `[N]`, on one core),
    or `[N, 2]`, whose second column the faster algorithms count their
    barriers on (one wait per barrier); `mode ring` takes `[2 * (N - 1), N]`
    (or PyPTO's host ring signal with one spare row, `[2 * (N - 1) + 1, N]`,
    whose last row it leaves alone). The signal is
    self-clearing and owned by this collective; it is distinct from the
    target. Returns the updated target.

    `algorithm` picks the decomposition: `auto`, `oneshot`, `twoshot`,
    `twoshot_push`, `seed_mesh` (any signal with a row per rank), `ring`,
    `seed_ring` (a ring signal) or `seed` (the seed algorithm of `mode`);
    without it the pass option decides
    (docs/pld-decompose-collectives.md). `mode` stays the layout of the
    signal.

    `core_num C` (default 1) runs the allreduce on C vector cores of every
    rank: the kernel is launched with C blocks (`pld-run --blocks C`), and
    block b reduces the b-th of C 32-byte-aligned contiguous parts of the
    target with the mesh algorithms (`auto`, `oneshot`, `twoshot`,
    `twoshot_push`), counting on column b of an `[N, C]` signal or on
    columns 2b and 2b + 1 of an `[N, 2 C]` one. Each block returns once its
    part is reduced; the kernel's end is when every part is
    (docs/pld-decompose-collectives.md, "Collectives on several cores").

    `epoch %e workspace %w` gives the call its number and a buffer of
    `[2, L]` elements of the target's type (L: the target's element count)
    in the window, as HCCL's small-message allreduce takes a tag and a
    buffer: the first call on a zeroed signal passes 1, and every later
    call on the same signal and workspace passes one more than the call
    before it (`index`, at most 2^31 - 1). With them the allreduce runs
    the epoch algorithms, which synchronise once per call where the others
    synchronise twice or three times: `oneshot_epoch` (one signal hop: each
    rank copies its target into row `epoch mod 2` of its workspace and
    writes the epoch into its cell of every peer's signal, which every peer
    waits for before it pulls) and `twoshot_epoch` (two hops, a
    reduce-scatter and an allgather by pulls; needs the `[N, 2]` signal).
    Alternating the workspace's rows by the epoch's parity is what makes
    one hop enough: a rank rewrites a row only two calls later, once every
    peer has announced the call in between, which it does after it has read
    the row. Cells hold the last epoch (`op set`, never cleared), so a
    signal is used by the epoch algorithms alone; `auto` chooses among them
    (docs/pld-decompose-collectives.md, "One synchronisation per call").

    ```mlir
    %r = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
    %q = pld.tensor.allreduce %data, %ring_sig, op max mode ring : !pld.dtensor<1x4097xf32>, !pld.dtensor<6x4xi32>
    %s = pld.tensor.allreduce %data, %signal, op sum algorithm twoshot : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
    %m = pld.tensor.allreduce %data, %wide, op sum core_num 24 : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x48xi32>
    %e = pld.tensor.allreduce %data, %signal, op sum epoch %call workspace %ws : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x4097xf32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$target,
                       Pld_AnyDistributedTensor:$signal,
                       Optional<Index>:$epoch,
                       Optional<Pld_AnyDistributedTensor>:$workspace,
                       Pld_ReduceOpAttr:$op,
                       DefaultValuedAttr<Pld_CollectiveModeAttr,
                                         "::pld::CollectiveMode::Mesh">:$mode,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $target `,` $signal `,` `op` `` $op (`mode` `` $mode^)?
    (`algorithm` `` $algorithm^)? (`core_num` $core_num^)?
    (`epoch` $epoch^ `workspace` $workspace)? attr-dict `:`
    type($target) `,` type($signal) (`,` type($workspace)^)?
  }];
  let extraClassDefinition = Pld_CoreCountDefinition;
}

def Pld_TensorReduceScatterOp : Pld_CollectiveOp<"tensor.reduce_scatter",
    [AllTypesMatch<["target", "result"]>], ["getAlgorithms", "getCoreCount", "getPartitionedAlgorithms"]> {
  let summary = "reduce row r of every rank's [N, SIZE] target onto rank r";
  let description = [{
    `target` is `[N, SIZE]`; afterwards row `r` on rank `r` holds the
    reduction of row `r` of every rank. The signal is `i32 [N]`, `[N, 1]`
    or `[N, 2]` (a column of counters for the barriers of `direct`). All four
    operators are supported on the InCore rail; the HOST builtin rail lowers
    only `sum` (checked by `pld-verify`). `algorithm` is `auto`, `direct`
    or `seed`.
    `core_num C` (default 1) runs it on C vector cores of every rank
    (`pld-run --blocks C`): block b moves part b of every row's columns
    with `direct`, counting on column b of an `[N, C]` signal or on columns
    2b and 2b + 1 of an `[N, 2 C]` one (docs/pld-decompose-collectives.md,
    "Collectives on several cores").

    ```mlir
    %r = pld.tensor.reduce_scatter %data, %signal, op sum : !pld.dtensor<4x256xf32>, !pld.dtensor<4x1xi32>
    %d = pld.tensor.reduce_scatter %data, %signal, op max algorithm direct : !pld.dtensor<4x256xf32>, !pld.dtensor<4x1xi32>
    %m = pld.tensor.reduce_scatter %data, %wide, op sum core_num 4 : !pld.dtensor<4x256xf32>, !pld.dtensor<4x8xi32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$target,
                       Pld_AnyDistributedTensor:$signal,
                       Pld_ReduceOpAttr:$op,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $target `,` $signal `,` `op` `` $op (`algorithm` `` $algorithm^)?
    (`core_num` $core_num^)? attr-dict
    `:` type($target) `,` type($signal)
  }];
  let extraClassDefinition = Pld_CoreCountDefinition;
}

def Pld_TensorAllgatherOp : Pld_CollectiveOp<"tensor.allgather",
    [AllTypesMatch<["target", "result"]>], ["getAlgorithms", "getCoreCount", "getPartitionedAlgorithms"]> {
  let summary = "gather every rank's [1, SIZE] row into an [N, SIZE] target";
  let description = [{
    Rank `r`'s `local` row lands in row `r` of every rank's `target`.
    `local` (a DT or a memref) and `target` are distinct, their element types
    and `SIZE` agree; the signal is `i32 [N]`, `[N, 1]` or `[N, 2]` (a column
    of counters for the barriers of `direct`). `algorithm` is
    `auto`, `direct` or `seed`.
    `core_num C` (default 1) runs it on C vector cores of every rank
    (`pld-run --blocks C`): block b moves part b of every row's columns
    with `direct`, counting on column b of an `[N, C]` signal or on columns
    2b and 2b + 1 of an `[N, 2 C]` one (docs/pld-decompose-collectives.md,
    "Collectives on several cores").

    ```mlir
    %g = pld.tensor.allgather %row, %all, %signal : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
    %m = pld.tensor.allgather %row, %all, %wide core_num 2 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Pld_AnyDistributedTensor, AnyMemRef]>:$local,
                       Pld_AnyDistributedTensor:$target,
                       Pld_AnyDistributedTensor:$signal,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $local `,` $target `,` $signal (`algorithm` `` $algorithm^)?
    (`core_num` $core_num^)? attr-dict `:`
    type($local) `,` type($target) `,` type($signal)
  }];
  let extraClassDefinition = Pld_CoreCountDefinition;
}

def Pld_TensorBroadcastOp : Pld_CollectiveOp<"tensor.broadcast",
    [AllTypesMatch<["target", "result"]>], ["getAlgorithms", "getCoreCount", "getPartitionedAlgorithms"]> {
  let summary = "copy rank root's target to every rank";
  let description = [{
    The signal is `i32 [N]`, `[N, 1]` or `[N, 2]` (a column of counters for
    the barriers of `star` and `scatter_allgather`); `0 <= root < N` when both
    are known.
    `algorithm` is `auto`, `star`, `scatter_allgather` or `seed`.
    `core_num C` (default 1) runs it on C vector cores of every rank
    (`pld-run --blocks C`): block b broadcasts part b of the target with
    `star` or `scatter_allgather`, counting on column b of an `[N, C]`
    signal or on columns 2b and 2b + 1 of an `[N, 2 C]` one.

    ```mlir
    %b = pld.tensor.broadcast %data, %signal, root %c0 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
    %m = pld.tensor.broadcast %data, %wide, root %c0 core_num 4 : !pld.dtensor<1x64xf32>, !pld.dtensor<4x8xi32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$target,
                       Pld_AnyDistributedTensor:$signal, Index:$root,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $target `,` $signal `,` `root` $root (`algorithm` `` $algorithm^)?
    (`core_num` $core_num^)? attr-dict
    `:` type($target) `,` type($signal)
  }];
  let extraClassDefinition = Pld_CoreCountDefinition;
}

def Pld_TensorBarrierOp : Pld_CollectiveOp<"tensor.barrier", [], []> {
  let summary = "a credit barrier across all ranks";
  let description = [{
    No rank leaves before every rank has arrived. The signal is `i32 [N]`,
    `[N, 1]` (or `[N, 2]`, of which it uses the first column) and
    self-clearing, so
    back-to-back barriers on it are legal.

    ```mlir
    pld.tensor.barrier %signal : !pld.dtensor<4x1xi32>
    ```
  }];
  let arguments = (ins Pld_AnyDistributedTensor:$signal);
  let assemblyFormat = "$signal attr-dict `:` type($signal)";
}

def Pld_TensorAllToAllOp : Pld_CollectiveOp<"tensor.all_to_all",
    [AllTypesMatch<["target", "result"]>], ["getAlgorithms", "getAlgorithmSignalProblem", "getCoreCount", "getPartitionedAlgorithms"]> {
  let summary = "personalised exchange of [N, SIZE] blocks";
  let description = [{
    Row `d` of rank `r`'s `input` lands in row `r` of rank `d`'s `target`.
    `input` and `target` are distinct `[N, SIZE]` tensors of one shape and
    element type: `target` a window, `input` a window or (as PyPTO's
    all_to_all takes it) a plain `memref`; the signal is `i32 [N]`,
    `[N, 1]` or `[N, 2]` (a column of counters for the barriers of
    `direct`). `algorithm` is `auto`, `direct` or `seed`; `direct` pulls
    each row from the peer's input, so a `memref` input runs `seed`, which
    puts its rows into the peers' targets, on one core.
    `core_num C` (default 1) runs it on C vector cores of every rank
    (`pld-run --blocks C`): block b moves part b of every row's columns
    with `direct`, counting on column b of an `[N, C]` signal or on columns
    2b and 2b + 1 of an `[N, 2 C]` one (docs/pld-decompose-collectives.md,
    "Collectives on several cores").

    ```mlir
    %t = pld.tensor.all_to_all %in, %out, %signal : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
    %p = pld.tensor.all_to_all %local, %out, %signal : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Pld_AnyDistributedTensor, AnyMemRef]>:$input,
                       Pld_AnyDistributedTensor:$target,
                       Pld_AnyDistributedTensor:$signal,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $input `,` $target `,` $signal (`algorithm` `` $algorithm^)?
    (`core_num` $core_num^)? attr-dict `:`
    type($input) `,` type($target) `,` type($signal)
  }];
  let extraClassDefinition = Pld_CoreCountDefinition;
}

def Pld_TensorAllToAllVOp : Pld_CollectiveOp<"tensor.all_to_all_v",
    [AllTypesMatch<["target", "result"]>]> {
  let summary = "all_to_all with per-destination counts (MPI_Alltoallv)";
  let description = [{
    Row `d` of rank `r`'s `input` lands in row `r` of rank `d`'s `target`, as
    `pld.tensor.all_to_all` moves it (the whole `[1, MAX]` block), and rank
    `d`'s `recv_counts[r]` receives `send_counts[d]` of rank `r` clamped to
    `[0, MAX]`: how many elements of the row are valid. PyPTO's
    `all_to_all_v`: the counts are published with `notify ... op set` into
    the receiver's `recv_counts` (an `i32 [N]` window), between the call's
    barriers, so that they are there when the call returns and a previous
    call's readers are done with them. `input` (a window or a `memref`) and
    `target` are `[N, MAX]` of one element type; `send_counts` is `i32 [N]`
    (a window or a `memref`); the signal is `i32 [N]`, `[N, 1]` or
    `[N, 2]`. `algorithm` is `auto` or `seed` (puts of every block, as
    all_to_all's `seed`).

    ```mlir
    %t = pld.tensor.all_to_all_v %in, %out, %signal counts %send to %recv : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xi32>, !pld.dtensor<4xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Pld_AnyDistributedTensor, AnyMemRef]>:$input,
                       Pld_AnyDistributedTensor:$target,
                       Pld_AnyDistributedTensor:$signal,
                       AnyTypeOf<[Pld_AnyDistributedTensor, AnyMemRef]>:$send_counts,
                       Pld_AnyDistributedTensor:$recv_counts,
                       Pld_OptionalAlgorithm:$algorithm);
  let results = (outs Pld_AnyDistributedTensor:$result);
  let assemblyFormat = [{
    $input `,` $target `,` $signal `counts` $send_counts `to` $recv_counts
    (`algorithm` `` $algorithm^)? attr-dict `:` type($input) `,`
    type($target) `,` type($signal) `,` type($send_counts) `,`
    type($recv_counts)
  }];
}

//===----------------------------------------------------------------------===//
// GEMMs fused with communication
//===----------------------------------------------------------------------===//

def Pld_TensorMatmulAllreduceOp : Pld_Op<"tensor.matmul_allreduce",
    [Pld_CommEffects]> {
  let summary = "a GEMM whose products every rank sums: c = sum over ranks "
                "of a_r x b (MC2's MatmulAllReduce)";
  let description = [{
    Every rank `r` multiplies its own `a` (`[M, K]`, f16 or bf16) by `b`
    (`[K, N]`, the same type) on the cube, accumulating in f32, and every
    rank's `c` window (`[M, N]`, f32 or the inputs' type, which the fixpipe
    casts to) ends with the sum over ranks of the products. A host-level op:
    it launches its GEMM and its communication as tasks of the orchestrator
    (after `deps`) and returns the id of a task that completes once `c`
    holds the sum on this rank, for the `deps` of later tasks. Shapes are
    static; `op` is `sum`.

    `algorithm` picks the decomposition (docs/pld-decompose-collectives.md,
    "GEMMs fused with communication"): `fused` computes the product in
    tiles of 128 x 256 on `core_num` cube cores, and moves each tile as it
    is published, on as many vector cores, as gemm_ar does (each
    reduce-scatters its cube core's tiles by atomic-add stores into the
    tile's owner rank and, a round later, allgathers its share of this
    rank's subtiles by stores into the peers); `unfused` runs the GEMM on `core_num` cube cores, then
    `pld.tensor.allreduce` on `core_num` vector cores; `auto` (the default
    of the pass option) chooses by the cost model.

    The signal is `i32 [N, 2 * core_num * m]`: a row per rank (N at least
    the rank count, at most 64), with at least `S * T + core_num + 1` cells
    in all for the fused form, T the tiles (`ceil(M / 128) * ceil(N_c /
    256)`, N_c the columns of `c`) and S the subtiles of a tile (32 KiB
    each: 4 for an f32 `c`, 2 otherwise), which pld-decompose-collectives
    checks; the unfused form's allreduce sees it as `[N * m, 2 * core_num]`
    (at most 64 rows).
    It is self-clearing and owned by the op.

    ```mlir
    %done = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum core_num 24 deps [%ready]
        : memref<5416x6144xf16>, memref<6144x1408xf16>, !pld.dtensor<5416x1408xf16>, !pld.dtensor<8x96xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$a,
                       AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$b,
                       Pld_AnyDistributedTensor:$c,
                       Pld_AnyDistributedTensor:$signal,
                       Pld_ReduceOpAttr:$op,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num,
                       Variadic<Pl_TaskIdType>:$deps);
  let results = (outs Pl_TaskIdType:$task);
  let assemblyFormat = [{
    $a `,` $b `,` $c `,` $signal `,` `op` `` $op (`algorithm` `` $algorithm^)?
    (`core_num` $core_num^)? (`deps` `[` $deps^ `]`)? attr-dict `:`
    type($a) `,` type($b) `,` type($c) `,` type($signal)
  }];
  let extraClassDeclaration = [{
    /// The cube cores of every rank the GEMM runs on (`core_num`).
    int64_t getCoreCount() { return getCoreNum().value_or(1); }
  }];
  let hasVerifier = 1;
}

def Pld_TensorMatmulReduceScatterOp : Pld_Op<"tensor.matmul_reduce_scatter",
    [Pld_CommEffects]> {
  let summary = "a GEMM whose products the ranks sum and scatter by rows: "
                "out_r = rows r of the sum over ranks of a_s x b (MC2's "
                "MatmulReduceScatter)";
  let description = [{
    Every rank multiplies its own `a` (`[M, K]`, f16 or bf16) by `b` (`[K,
    N]`, the same type) on the cube, accumulating in f32, into its `partial`
    window (`[M, N]`); rank `r`'s `out` (`[M / R, N]`, a window or a memref)
    ends with rows `[r * M / R, (r + 1) * M / R)` of the sum over ranks of
    the products, R the signal's rows. `partial` and `out` are f32 or the
    inputs' type (the fixpipe casts the product), the same for both;
    `partial` is the op's scratch. A host-level op: it launches its tasks
    after `deps` and returns the id of a task that completes once `out`
    holds this rank's rows. Shapes are static; `op` is `sum`.

    `algorithm` picks the decomposition (docs/pld-decompose-collectives.md,
    "GEMMs fused with communication: `matmul_reduce_scatter`"): `fused`
    computes the product in tiles of 128 x 256 on `core_num` cube cores,
    its own rows first, stored straight into `out` as the base of the sum,
    then the other ranks' rows, and twice as many vector cores add each of
    those tiles into its owner's `out` by atomic-add stores as it is
    published, so `out` must be a window; `unfused` runs the GEMM, then
    `pld.tensor.reduce_scatter` of `partial` seen as `[R, M / R * N]`, then
    copies this rank's rows into `out`; `auto` (the default of the pass
    option) chooses by the cost model.

    The signal is `i32 [R, 2 * core_num * m]`: a row per rank (R at least
    the rank count, at most 64; with fewer ranks, the rows of the absent
    ones are not reduced), read by the fused form as one row of at least
    `R * T + 2 * core_num` cells, T the tiles of `out` (`ceil(M / R / 128)
    * ceil(N / 256)`), which pld-decompose-collectives checks. The unfused
    form's reduce_scatter runs on the signal as it is, on `core_num * m`
    vector cores. It is self-clearing and owned by the op.

    ```mlir
    %done = pld.tensor.matmul_reduce_scatter %a, %b, %partial, %out, %signal, op sum core_num 24 deps [%ready]
        : memref<8192x4096xf16>, memref<4096x4096xf16>, !pld.dtensor<8192x4096xf16>, !pld.dtensor<1024x4096xf16>, !pld.dtensor<8x144xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$a,
                       AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$b,
                       Pld_AnyDistributedTensor:$partial,
                       AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$out,
                       Pld_AnyDistributedTensor:$signal,
                       Pld_ReduceOpAttr:$op,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num,
                       Variadic<Pl_TaskIdType>:$deps);
  let results = (outs Pl_TaskIdType:$task);
  let assemblyFormat = [{
    $a `,` $b `,` $partial `,` $out `,` $signal `,` `op` `` $op
    (`algorithm` `` $algorithm^)? (`core_num` $core_num^)?
    (`deps` `[` $deps^ `]`)? attr-dict `:`
    type($a) `,` type($b) `,` type($partial) `,` type($out) `,` type($signal)
  }];
  let extraClassDeclaration = [{
    /// The cube cores of every rank the GEMM runs on (`core_num`).
    int64_t getCoreCount() { return getCoreNum().value_or(1); }
  }];
  let hasVerifier = 1;
}

def Pld_TensorAllgatherMatmulOp : Pld_Op<"tensor.allgather_matmul",
    [Pld_CommEffects]> {
  let summary = "a GEMM of the rows every rank holds: c = [a_0; a_1; ...] x "
                "b (MC2's AllGatherMatmul)";
  let description = [{
    Every rank's `a` (`[M, K]`, f16 or bf16, a window or a memref) lands
    at rows `[r * M, (r + 1) * M)` of every rank's `gathered` window (`[R *
    M, K]`, the same type, R the signal's rows), and every rank's `c` (`[R
    * M, N]`, f32 or the inputs' type, which the fixpipe casts to; a window
    or a memref) ends with `gathered x b`, `b` (`[K, N]`) the same on every
    rank. A host-level op: it launches its tasks after `deps` and returns
    the id of a task that completes once `c` holds the product on this
    rank. Shapes are static.

    `algorithm` picks the decomposition (docs/pld-decompose-collectives.md,
    "GEMMs fused with communication: `allgather_matmul`"): `fused`
    (pto-isa's allgather_gemm) has twice `core_num` vector cores put `a`
    into every peer's `gathered` in chunks of 128 rows, each counted in the
    peer's cell for (source, chunk), while `core_num` cube cores compute
    this rank's rows from `a` at once and the peers' rows as their chunks
    arrive; `unfused` runs `pld.tensor.allgather` of `a` into `gathered`
    seen as `[R, M * K]`, then the GEMM; `auto` (the default of the pass
    option) chooses by the cost model.

    The signal is `i32 [R, 2 * core_num * m]`: a row per rank (R at least
    the rank count, at most 64; with fewer ranks, the absent ones' rows of
    `gathered` and `c` are left as they are), read by the fused form as one
    row of at least `R * Q + R` cells, Q the chunks of `a` (`ceil(M /
    128)`), which pld-decompose-collectives checks. The unfused form's
    allgather runs on the signal as it is, on `core_num * m` vector cores.
    It is self-clearing and owned by the op.

    ```mlir
    %done = pld.tensor.allgather_matmul %a, %gathered, %b, %c, %signal core_num 20 deps [%ready]
        : memref<1024x4096xf16>, !pld.dtensor<8192x4096xf16>, memref<4096x4096xf16>, memref<8192x4096xf32>, !pld.dtensor<8x40xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$a,
                       Pld_AnyDistributedTensor:$gathered,
                       AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$b,
                       AnyTypeOf<[AnyMemRef, Pld_AnyDistributedTensor]>:$c,
                       Pld_AnyDistributedTensor:$signal,
                       Pld_OptionalAlgorithm:$algorithm,
                       Pld_OptionalCoreNum:$core_num,
                       Variadic<Pl_TaskIdType>:$deps);
  let results = (outs Pl_TaskIdType:$task);
  let assemblyFormat = [{
    $a `,` $gathered `,` $b `,` $c `,` $signal (`algorithm` `` $algorithm^)?
    (`core_num` $core_num^)? (`deps` `[` $deps^ `]`)? attr-dict `:`
    type($a) `,` type($gathered) `,` type($b) `,` type($c) `,` type($signal)
  }];
  let extraClassDeclaration = [{
    /// The cube cores of every rank the GEMM runs on (`core_num`).
    int64_t getCoreCount() { return getCoreNum().value_or(1); }
  }];
  let hasVerifier = 1;
}

#endif // PLD_OPS_TD
