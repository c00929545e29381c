//===- AscendOps.td - ascend operations --------------------*- tablegen -*-===//
//
// One op per PTO ISA instruction or CCE intrinsic group (pipeline §4). Ops
// that can trap or block carry an optional `site` (the pld op and source
// location they come from), which the simulator names in its reports.
//
//===----------------------------------------------------------------------===//

#ifndef ASCEND_OPS_TD
#define ASCEND_OPS_TD

include "pld/Dialect/Ascend/IR/AscendTypes.td"
include "pld/Dialect/Ascend/IR/AscendInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

// Global-memory and signal traffic that peers observe.
defvar Ascend_GmEffects = MemoryEffects<[MemRead, MemWrite]>;

// What ascend-insert-sync asks of an op (pld/Dialect/Ascend/IR/AscendTraits.h,
// read through pld-c/Interfaces.h): the pipe it issues on, whether it reads
// or writes a payload in global memory (which release and acquire order
// against notifies and waits), whether it runs a callee.
class Ascend_OnPipe<string pipe>
    : ParamNativeOpTrait<"OnPipe", "::pld::ascend::Pipe::" # pipe> {
  let cppNamespace = "::pld::ascend";
}
def Ascend_ReadsPayload : NativeOpTrait<"ReadsPayload"> {
  let cppNamespace = "::pld::ascend";
}
def Ascend_WritesPayload : NativeOpTrait<"WritesPayload"> {
  let cppNamespace = "::pld::ascend";
}
def Ascend_RunsCallee : NativeOpTrait<"RunsCallee"> {
  let cppNamespace = "::pld::ascend";
}

//===----------------------------------------------------------------------===//
// Context, ids and addresses
//===----------------------------------------------------------------------===//

def Ascend_RankOp : Ascend_Op<"rank", [Pure]> {
  let summary = "this rank's index: the u32 at byte 16 of the CommContext";
  let arguments = (ins Ascend_CtxType:$ctx);
  let results = (outs I32:$rank);
  let assemblyFormat = "$ctx attr-dict";
}

def Ascend_NranksOp : Ascend_Op<"nranks", [Pure]> {
  let summary = "the rank count: the u32 at byte 20 of the CommContext";
  let arguments = (ins Ascend_CtxType:$ctx);
  let results = (outs I32:$nranks);
  let assemblyFormat = "$ctx attr-dict";
}

def Ascend_WorldSizeOp : Ascend_Op<"world_size", [Pure]> {
  let summary = "the rank count, on the host";
  let arguments = (ins Ascend_CtxType:$ctx);
  let results = (outs I64:$size);
  let assemblyFormat = "$ctx attr-dict";
}

def Ascend_BlockIdxOp : Ascend_Op<"block_idx", [Pure]> {
  let summary = "this core's block index";
  let description = [{
    Without an operand, the hardware's (`get_block_idx()`): a kernel the
    runtime launched itself. With the task's dispatch payload, the logical
    block the task runtime dispatched this core for, which it writes into
    the payload and does not program into the register
    (`get_block_idx(args)`, hw-native-sys/simpler
    src/a2a3/runtime/tensormap_and_ringbuffer/common/intrinsic.h:52-76,
    208-212). A null payload (`ascend.no_payload`) reads the register.

    ```mlir
    %native = ascend.block_idx
    %logical = ascend.block_idx from %payload
    ```
  }];
  let arguments = (ins Optional<Ascend_DispatchPayloadType>:$payload);
  let results = (outs Index:$index);
  let assemblyFormat = "(`from` $payload^)? attr-dict";
}

def Ascend_SubblockIdxOp : Ascend_Op<"subblock_idx", [Pure]> {
  let summary = "this core's AIV sub-lane, 0 or 1";
  let description = [{
    Without an operand, the hardware's (`get_subblockid()`). With the
    task's dispatch payload, the lane the task runtime recorded for this
    core (`get_sub_block_id(args)`, simpler `common/intrinsic.h:180-184`):
    under the runtime's mixed dispatch the register reads 0 on both lanes
    (the same file, lines 56-67). A null payload reads the register.

    ```mlir
    %lane = ascend.subblock_idx from %payload
    ```
  }];
  let arguments = (ins Optional<Ascend_DispatchPayloadType>:$payload);
  let results = (outs Index:$index);
  let assemblyFormat = "(`from` $payload^)? attr-dict";
}

def Ascend_NoPayloadOp : Ascend_Op<"no_payload", [Pure]> {
  let summary = "no dispatch payload: a kernel the runtime launched itself";
  let description = [{
    What a kernel without a dispatch payload passes a device function that
    takes one (a function that reads the block or lane index and that a
    task's kernel also calls): a null payload, from which
    `ascend.block_idx` and `ascend.subblock_idx` read the hardware's
    registers.

    ```mlir
    %none = ascend.no_payload
    ```
  }];
  let results = (outs Ascend_DispatchPayloadType:$payload);
  let assemblyFormat = "attr-dict";
}

def Ascend_OffsetOp : Ascend_Op<"offset", [Pure, AllTypesMatch<["base", "result"]>]> {
  let summary = "a pointer `elements` elements past `base`";
  let arguments = (ins Ascend_AnyGmPtr:$base, Index:$elements);
  let results = (outs Ascend_AnyGmPtr:$result);
  let assemblyFormat = "$base `,` $elements attr-dict `:` type($result)";
}

def Ascend_PeerPtrOp : Ascend_Op<"peer_ptr", [Pure, AllTypesMatch<["local", "result"]>]> {
  let summary = "the same window element on rank `peer`";
  let description = [{
    `windowsIn[peer] + (local - windowsIn[rankId])`: `local` must point into
    this rank's window, and the result is the element at the same offset in
    the peer's window (itself for `peer == rankId`).

    ```mlir
    %remote = ascend.peer_ptr %ctx, %cell, peer %p : !ascend.gm<i32>
    ```
  }];
  let arguments = (ins Ascend_CtxType:$ctx, Ascend_AnyGmPtr:$local,
                       Index:$peer, OptionalAttr<StrAttr>:$site);
  let results = (outs Ascend_AnyGmPtr:$result);
  let assemblyFormat = "$ctx `,` $local `,` `peer` $peer attr-dict `:` type($result)";
}

// The tensor an access names has the access's pointer type.
class Ascend_TensorOfPointer<string pointer>
    : OptionalTypesMatchWith<"the tensor has the access's pointer type",
                             pointer, "tensor", "$_self">;

def Ascend_ViewOp : Ascend_Op<"view", [Pure, AttrSizedOperandSegments,
                                       Ascend_TensorOfPointer<"data">]> {
  let summary = "a 2-D global view: `rows x cols` elements, rows `stride` apart";
  let description = [{
    `in %t[%n]` names the tensor the view lies in (its first element, on
    this rank, and its element count): the device ignores it, the simulator
    traps on an access outside it (a peer view is checked against the same
    tensor of the peer's window).

    ```mlir
    %v = ascend.view %p, rows %r, cols %c, stride %s in %t[%n] : !ascend.gm<f32> -> !ascend.view<f32>
    ```
  }];
  let arguments = (ins Ascend_AnyGmPtr:$data, Index:$rows, Index:$cols,
                       Index:$stride, Optional<Ascend_AnyGmPtr>:$tensor,
                       Optional<Index>:$tensor_elements);
  let results = (outs Ascend_AnyView:$view);
  let assemblyFormat = [{
    $data `,` `rows` $rows `,` `cols` $cols `,` `stride` $stride
    (`in` $tensor^ `[` $tensor_elements `]`)? attr-dict
    `:` type($data) `->` type($view)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

def Ascend_TileOp : Ascend_Op<"tile", [AttrSizedOperandSegments]> {
  let summary = "a tile of an on-chip buffer at a planned offset";
  let description = [{
    Binds a tile handle to `offset` bytes into the buffer its kind lives in
    (`TASSIGN`): the unified buffer for a `vec` tile, L1 for `mat`, L0A,
    L0B and L0C for `left`, `right` and `acc`. `ascend-plan-ub` chooses the
    offsets, buffer by buffer; the EmitC lowering requires one. `valid`
    gives the tile its valid shape (a ragged tail, or the logical width of
    a padded row); without it the whole tile is valid. The valid shape
    belongs to the handle: every `tload` into it, `tstore` of it and tile
    math on it covers exactly that region, and what lies outside it is
    undefined.

    Each op is a buffer of its own (its result allocates), so CSE never
    merges two tiles; an unused one is still dead code.

    ```mlir
    %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
    %u = ascend.tile valid(%r, %c) {offset = 256 : i64} : !ascend.tile<4x64xf32>
    %a = ascend.tile valid(%m, %k) {offset = 0 : i64} : !ascend.tile<32x32xf16, left>
    ```
  }];
  let arguments = (ins Optional<Index>:$valid_rows, Optional<Index>:$valid_cols,
                       OptionalAttr<I64Attr>:$offset);
  let results = (outs Res<Ascend_AnyTile, "", [MemAlloc]>:$tile);
  let assemblyFormat = [{
    (`valid` `(` $valid_rows^ `,` $valid_cols `)`)? attr-dict `:` type($tile)
  }];
  let hasVerifier = 1;
}

def Ascend_ValidShapeOp : Ascend_Op<"valid_shape", [Pure]> {
  let summary = "the valid shape of a tile handle: its rows and columns";
  let description = [{
    What the handle was made with (`ascend.tile valid(...)`, else the tile's
    static shape), read at run time where the handle comes through a loop,
    a branch or a call (`GetValidRow()`/`GetValidCol()`); folds to the
    values of the `ascend.tile` that made it.

    ```mlir
    %rows, %cols = ascend.valid_shape %acc : !ascend.tile<1x4096xf32>
    ```
  }];
  let arguments = (ins Ascend_AnyTile:$tile);
  let results = (outs Index:$rows, Index:$cols);
  let assemblyFormat = "$tile attr-dict `:` type($tile)";
  let hasFolder = 1;
}

def Ascend_TLoadOp : Ascend_Op<"tload", [MemoryEffects<[MemRead, MemWrite]>,
                                          Ascend_OnPipe<"MTE2">, Ascend_ReadsPayload,
                                          Ascend_TileWriterOpInterface]> {
  let summary = "load a global view into a `vec` or `mat` tile (`TLOAD`)";
  let description = [{
    Moves the view's `rows x cols` elements into the tile's top-left corner;
    the view's extent is the tile's valid shape (PTO asserts it), and the
    rest of the tile stays undefined (`PadValue::Null`). Into a `mat` tile
    it is the cube's load from global memory to L1.
  }];
  let arguments = (ins Ascend_AnyTile:$dst, Ascend_AnyView:$src,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$dst `,` $src attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def Ascend_TStoreOp : Ascend_Op<"tstore", [Ascend_GmEffects, Ascend_OnPipe<"MTE3">,
                                            Ascend_WritesPayload]> {
  let summary = "store a tile into a global view (`TSTORE`, atomic add or not)";
  let description = [{
    Writes the tile's top-left `rows x cols` elements into the view, which
    must be the tile's valid shape (TSTORE writes the valid shape through
    the view's strides, so a larger one would write past the view); with
    `atomic add` it accumulates (`TSTORE<.., AtomicType::AtomicAdd>`), for
    f32, bf16 (Ascend910B only), f16, i32, i16 and i8.
  }];
  let arguments = (ins Ascend_AnyView:$dst, Ascend_AnyTile:$tile,
                       DefaultValuedAttr<Ascend_AtomicTypeAttr,
                                         "::pld::ascend::AtomicType::AtomicNone">:$atomic,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = [{
    $dst `,` $tile (`atomic` `` $atomic^)? attr-dict `:` type($dst) `,` type($tile)
  }];
  let hasVerifier = 1;
}

class Ascend_ElementwiseOp<string mnemonic, string instruction>
    : Ascend_Op<mnemonic, [SameTypeOperands, Ascend_OnPipe<"V">,
                           Ascend_TileWriterOpInterface]> {
  let summary = "`" # instruction # "`: dst = lhs op rhs, element-wise over the valid shape";
  let description = [{
    Computes over `dst`'s valid shape, which both operands must share (PTO
    asserts it). The element types the vector unit has depend on the chip
    (the module's `pld.target`): on Ascend910B (a2a3) i16, i32, f16 and f32;
    on Ascend950 (a5) also i8 (not for TMUL), i64 and bf16.
  }];
  let arguments = (ins Ascend_AnyTile:$dst, Ascend_AnyTile:$lhs,
                       Ascend_AnyTile:$rhs, OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$dst `,` $lhs `,` $rhs attr-dict `:` type($dst)";
  let hasVerifier = 1;
}

def Ascend_TAddOp : Ascend_ElementwiseOp<"tadd", "TADD">;
def Ascend_TMaxOp : Ascend_ElementwiseOp<"tmax", "TMAX">;
def Ascend_TMinOp : Ascend_ElementwiseOp<"tmin", "TMIN">;
// pld's `prod` reduction lowers here: PTO has no Prod ReduceOp.
def Ascend_TMulOp : Ascend_ElementwiseOp<"tmul", "TMUL">;
def Ascend_TSubOp : Ascend_ElementwiseOp<"tsub", "TSUB">;

class Ascend_ScalarMathOp<string mnemonic, string instruction>
    : Ascend_Op<mnemonic, [AllTypesMatch<["dst", "lhs"]>,
        TypesMatchWith<"scalar is the tile's element type", "dst", "scalar",
                       "::llvm::cast<::pld::ascend::TileType>($_self).getElementType()">,
        Ascend_OnPipe<"V">, Ascend_TileWriterOpInterface]> {
  let summary = "`" # instruction # "`: dst = lhs op scalar, element-wise over the valid shape";
  let description = [{
    Computes over `dst`'s valid shape, which `lhs` must share (PTO asserts
    it). The element types are those of the tile-tile instruction on the
    chip (the module's `pld.target`).
  }];
  let arguments = (ins Ascend_AnyTile:$dst, Ascend_AnyTile:$lhs, AnyType:$scalar,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$dst `,` $lhs `,` $scalar attr-dict `:` type($dst)";
  let hasVerifier = 1;
}

def Ascend_TAddSOp : Ascend_ScalarMathOp<"tadds", "TADDS">;
def Ascend_TSubSOp : Ascend_ScalarMathOp<"tsubs", "TSUBS">;
def Ascend_TMulSOp : Ascend_ScalarMathOp<"tmuls", "TMULS">;
def Ascend_TMaxSOp : Ascend_ScalarMathOp<"tmaxs", "TMAXS">;
def Ascend_TMinSOp : Ascend_ScalarMathOp<"tmins", "TMINS">;

def Ascend_TCvtOp : Ascend_Op<"tcvt", [Ascend_OnPipe<"V">, Ascend_TileWriterOpInterface]> {
  let summary = "`TCVT`: dst = src converted to dst's element type, over the valid shape";
  let description = [{
    `round` is PTO's RoundMode value (0 CAST_NONE ... 6 CAST_ODD,
    `common/type.hpp:251-259`). The element pairs are the chip's.
  }];
  let arguments = (ins Ascend_AnyTile:$dst, Ascend_AnyTile:$src, I32Attr:$round,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$dst `,` $src `round` $round attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def Ascend_TExpandSOp : Ascend_Op<"texpands", [
    TypesMatchWith<"scalar is the tile's element type", "dst", "scalar",
                   "::llvm::cast<::pld::ascend::TileType>($_self).getElementType()">,
    Ascend_OnPipe<"V">, Ascend_TileWriterOpInterface]> {
  let summary = "`TEXPANDS`: every element of dst's valid shape = scalar";
  let arguments = (ins Ascend_AnyTile:$dst, AnyType:$scalar,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$dst `,` $scalar attr-dict `:` type($dst)";
  let hasVerifier = 1;
}

def Ascend_TCopyOp : Ascend_Op<"tcopy", [SameTypeOperands, Ascend_OnPipe<"V">,
                                          Ascend_TileWriterOpInterface]> {
  let summary = "`TMOV`: copy one tile's valid shape into another of the same valid shape";
  let arguments = (ins Ascend_AnyTile:$dst, Ascend_AnyTile:$src,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$dst `,` $src attr-dict `:` type($dst)";
}

//===----------------------------------------------------------------------===//
// The cube
//===----------------------------------------------------------------------===//

def Ascend_TExtractOp : Ascend_Op<"textract", [Ascend_OnPipe<"MTE1">,
                                                Ascend_TileWriterOpInterface]> {
  let summary = "`TEXTRACT`: copy part of a `mat` tile into a `left` or `right` tile";
  let description = [{
    Copies `dst`'s valid shape out of `src` (L1) starting at row `row` and
    column `col` into `dst` (L0A for `left`, L0B for `right`). PTO asserts
    that `dst` lies inside `src` from there (`row + rows(dst) <=
    rows(src)`, and so for columns), and the element types must match.

    ```mlir
    ascend.textract %left, %mat, row %c0, col %k : !ascend.tile<32x32xf16, left>, !ascend.tile<32x64xf16, mat>
    ```
  }];
  let arguments = (ins Ascend_AnyTile:$dst, Ascend_AnyTile:$src, Index:$row,
                       Index:$col, OptionalAttr<StrAttr>:$site);
  let assemblyFormat = [{
    $dst `,` $src `,` `row` $row `,` `col` $col attr-dict `:` type($dst) `,`
    type($src)
  }];
  let hasVerifier = 1;
}

class Ascend_MatmulOp<string mnemonic, string instruction, string effect>
    : Ascend_Op<mnemonic, [Ascend_OnPipe<"M">,
        DeclareOpInterfaceMethods<Ascend_TileWriterOpInterface, ["getWrittenTile"]>]> {
  let summary = "`" # instruction # "`: acc " # effect # " lhs x rhs on the cube";
  let description = [{
    `lhs` is a `left` tile (L0A), `rhs` a `right` tile (L0B) and `acc` an
    `acc` tile (L0C): `m x k` times `k x n` into `m x n`, where `m` and `k`
    are `lhs`'s valid shape, `k` is `rhs`'s valid rows, `n` its valid
    columns, and `acc`'s valid shape is `m x n` (PTO takes `m`, `k` and `n`
    from the valid shapes and asserts each is in [1, 4095]). The element
    types (acc, lhs, rhs) are one of (i32, i8, i8), (f32, f16, f16),
    (f32, f32, f32) and (f32, bf16, bf16): products are accumulated in f32
    (in i32 for i8).

    ```mlir
    ascend.}] # mnemonic # [{ %acc, %lhs, %rhs : !ascend.tile<32x32xf32, acc>, !ascend.tile<32x32xf16, left>, !ascend.tile<32x32xf16, right>
    ```
  }];
  let arguments = (ins Ascend_AnyTile:$acc, Ascend_AnyTile:$lhs,
                       Ascend_AnyTile:$rhs, OptionalAttr<StrAttr>:$site);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs attr-dict `:` type($acc) `,` type($lhs) `,`
    type($rhs)
  }];
  let hasVerifier = 1;
}

def Ascend_TMatmulOp : Ascend_MatmulOp<"tmatmul", "TMATMUL", "=">;
def Ascend_TMatmulAccOp : Ascend_MatmulOp<"tmatmul_acc", "TMATMUL_ACC", "+=">;

def Ascend_TStoreAccOp : Ascend_Op<"tstore_acc", [Ascend_GmEffects,
                                                  Ascend_OnPipe<"FIX">,
                                                  Ascend_WritesPayload]> {
  let summary = "store an `acc` tile into a global view through the fixpipe (`TSTORE`)";
  let description = [{
    Writes the tile's valid shape (L0C) into the view, which must be the
    tile's valid shape. The fixpipe converts on the way: an f32 accumulator
    may be stored as f32, f16 or bf16 (rounding to nearest, ties to even),
    an i32 one as i32.

    ```mlir
    ascend.tstore_acc %view, %acc : !ascend.view<f16>, !ascend.tile<32x32xf32, acc>
    ```
  }];
  let arguments = (ins Ascend_AnyView:$dst, Ascend_AnyTile:$tile,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$dst `,` $tile attr-dict `:` type($dst) `,` type($tile)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Mixed kernels: the cube and the vector core of a block
//===----------------------------------------------------------------------===//

class Ascend_CrossCoreOp<string mnemonic, string summaryText>
    : Ascend_Op<mnemonic, [Ascend_GmEffects]> {
  let summary = summaryText;
  let arguments = (ins Ascend_CoreAttr:$src, Ascend_CoreAttr:$dst);
  let assemblyFormat = "`` $src `->` `` $dst attr-dict";
  let hasVerifier = 1;
}

def Ascend_CrossCoreSignalOp : Ascend_CrossCoreOp<"cross_core_signal",
    "raise the block's cross-core flag from `src` to `dst` (runs on `src`)"> {
  let description = [{
    One of the block's intra-block flags between its cube core and its
    vector core: each signal counts once, and each
    `ascend.cross_core_wait` of the same direction consumes one count. On
    Ascend910B this is FFTS's `ffts_cross_core_sync` with mode 2 (cube and
    vector cores of one group); `docs/target/pto-isa.md` has the source.
    Global-memory writes before it must be released (`ascend.release`,
    which `ascend-insert-sync` inserts).

    ```mlir
    ascend.cross_core_signal aiv -> aic
    ```
  }];
}

def Ascend_CrossCoreWaitOp : Ascend_CrossCoreOp<"cross_core_wait",
    "wait for one count of the cross-core flag from `src` to `dst` (runs on `dst`)"> {
  let description = [{
    Blocks until the flag from `src` has a count, and consumes it
    (`wait_flag_dev` on Ascend910B). Payload reads after it need an
    `ascend.acquire`, as after a TWAIT.

    ```mlir
    ascend.cross_core_wait aiv -> aic
    ```
  }];
}

def Ascend_RunMixedOp : Ascend_Op<"run_mixed", [Ascend_GmEffects, Ascend_RunsCallee,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run a mixed kernel: `aic` on the block's cube core, `aiv` on its vector core";
  let description = [{
    The body of a kernel that does cube and vector work, split in two
    halves that take the kernel's arguments and run at once, one per core
    of the block; they meet at `ascend.cross_core_signal` and
    `ascend.cross_core_wait` ops.

    ```mlir
    ascend.run_mixed @k_aic, @k_aiv(%a, %b) ctx %ctx : (!ascend.gm<f16>, !ascend.gm<f32>) -> ()
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$aic, FlatSymbolRefAttr:$aiv,
                       Ascend_CtxType:$ctx, Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $aic `,` $aiv `(` $args `)` `ctx` $ctx attr-dict `:`
    functional-type($args, results)
  }];
}

def Ascend_FftsAddrOp : Ascend_Op<"ffts_addr", [Pure]> {
  let summary = "the FFTS base address for this rank's mixed kernels (host)";
  let description = [{
    What host code passes a mixed kernel: on the device the address the
    host runtime's `rtGetC2cCtrlAddr` returns; in the simulator, which has
    no FFTS, a null address.

    ```mlir
    %ffts = ascend.ffts_addr %ctx
    ```
  }];
  let arguments = (ins Ascend_CtxType:$ctx);
  let results = (outs Ascend_FftsAddrType:$addr);
  let assemblyFormat = "$ctx attr-dict";
}

def Ascend_SetFftsBaseAddrOp : Ascend_Op<"set_ffts_base_addr"> {
  let summary = "set the FFTS base address the cross-core flags use (`set_ffts_base_addr`)";
  let description = [{
    At the entry of a mixed kernel, before `ascend.run_mixed`: the cross-core
    flags of its halves go through FFTS, whose base address each core sets
    first, as the vendor's mixed kernels do. The simulator ignores it.

    ```mlir
    ascend.set_ffts_base_addr %ffts
    ```
  }];
  let arguments = (ins Ascend_FftsAddrType:$addr);
  let assemblyFormat = "$addr attr-dict";
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

class Ascend_TransferOp<string mnemonic, string instruction, dag atomicArg,
                        string atomicFormat>
    : Ascend_Op<mnemonic, [Ascend_GmEffects, AllTypesMatch<["dst", "src"]>,
                           Ascend_ReadsPayload, Ascend_WritesPayload]> {
  let summary = "`" # instruction # "`: move a global view through one or two staging tiles";
  let description = [{
    `dst` and `src` have the same extent; the data moves through the staging
    tile chunk by chunk, alternating `ping` and `pong` when both are given
    (the load of one chunk overlaps the store of the previous one).
  }];
  let arguments = !con((ins Ascend_AnyView:$dst, Ascend_AnyView:$src,
                            Ascend_AnyTile:$ping, Optional<Ascend_AnyTile>:$pong),
                       atomicArg, (ins OptionalAttr<StrAttr>:$site));
  let assemblyFormat = [{
    $dst `,` $src `,` $ping (`,` $pong^)? }] # atomicFormat # [{ attr-dict
    `:` type($dst) `,` type($ping) (`,` type($pong)^)?
  }];
  let hasVerifier = 1;
}

def Ascend_TPutOp : Ascend_TransferOp<"tput", "pto::comm::TPUT",
    (ins DefaultValuedAttr<Ascend_AtomicTypeAttr,
                           "::pld::ascend::AtomicType::AtomicNone">:$atomic),
    "(`atomic` `` $atomic^)?">;

def Ascend_TGetOp : Ascend_TransferOp<"tget", "pto::comm::TGET", (ins), "">;

//===----------------------------------------------------------------------===//
// SDMA transfers: global memory to global memory on the SDMA engine
//===----------------------------------------------------------------------===//
//
// PTO splits an SDMA transfer in two: `TGET_ASYNC` / `TPUT_ASYNC` post it to
// the engine and return an `AsyncEvent`, `event.Wait(session)` waits for it
// (pto-isa include/pto/comm/pto_comm_inst.hpp:339-400,
// comm/async_common/async_event_impl.hpp:108-127). The ops are the same two
// steps, so one op is still one PTO instruction, and the ordering pass sees
// where a transfer is still in flight: `ascend-insert-sync` releases the
// core's payload before the post (the engine reads and writes global memory
// behind the core's data cache and pipes), acquires after the wait, and in
// `check` mode reports a notify, a call or a return that a transfer still
// in flight reaches. The lowering waits right after each post.

def Ascend_SdmaWorkspaceOp : Ascend_Op<"sdma_workspace", [Pure]> {
  let summary = "the SDMA workspace the runtime set up for this rank (host)";
  let description = [{
    What host code passes a kernel that moves data with SDMA (with a sync
    id): on the device the host runtime's SDMA workspace; in the simulator
    a token of its own SDMA sessions.

    ```mlir
    %ws = ascend.sdma_workspace %ctx
    ```
  }];
  let arguments = (ins Ascend_CtxType:$ctx);
  let results = (outs Ascend_SdmaWorkspaceType:$workspace);
  let assemblyFormat = "$ctx attr-dict";
}

def Ascend_SdmaSessionOp : Ascend_Op<"sdma_session", [Ascend_GmEffects]> {
  let summary = "build the kernel's SDMA session (`pto::comm::BuildAsyncSession`)";
  let description = [{
    Builds, once per kernel, the session every SDMA transfer of the kernel
    goes through, from the workspace and the sync id the kernel received
    (the kernel ABI, docs/lowering.md) and a scratch buffer of 256 bytes
    (`pto::comm::sdma::UB_ALIGN_SIZE`) at `offset` bytes into the unified
    buffer. `ascend-plan-ub` chooses the offset as it does a tile's (the
    session is a buffer of its own, live until its last use); the EmitC
    lowering requires one. The sync id is the event id (0 to 7) PTO's SDMA
    code sets and waits between MTE3 and MTE2.

    On the device the session uses the issuing AIV core's own SDMA channel,
    `get_block_idx() * get_subblockdim() + lane`: the workspace has a channel
    per AIV core, and two cores posting on one channel corrupt each other's
    queue. The lane is the register's (`get_subblockid()`) in a kernel the
    runtime launched itself, and the task runtime's (`get_sub_block_id`)
    when the kernel has the task's dispatch payload (`from %payload`):
    under that runtime's mixed dispatch the register reads 0 on both lanes
    (hw-native-sys/simpler src/a2a3/runtime/tensormap_and_ringbuffer/
    common/intrinsic.h:52-67), so the two AIV cores of a cluster shared a
    channel. The block index stays the register's: it numbers the physical
    cluster the runtime launched, where the payload's numbers a task's
    blocks, which tasks running at once share (the same file, :70-74).

    ```mlir
    %s = ascend.sdma_session %ws, sync_id %id {offset = 0 : i64}
    %t = ascend.sdma_session %ws, sync_id %id from %payload {offset = 0 : i64}
    ```
  }];
  let arguments = (ins Ascend_SdmaWorkspaceType:$workspace, I32:$sync_id,
                       Optional<Ascend_DispatchPayloadType>:$payload,
                       OptionalAttr<I64Attr>:$offset,
                       OptionalAttr<StrAttr>:$site);
  let results = (outs Res<Ascend_AsyncSessionType, "", [MemAlloc]>:$session);
  let assemblyFormat =
      "$workspace `,` `sync_id` $sync_id (`from` $payload^)? attr-dict";
  let hasVerifier = 1;
}

class Ascend_AsyncTransferOp<string mnemonic, string instruction, string what>
    : Ascend_Op<mnemonic, [Ascend_GmEffects, AllTypesMatch<["dst", "src"]>]> {
  let summary = "`pto::comm::" # instruction # "`: post a copy of a global view to the SDMA engine";
  let description = [{
    Posts the copy of `src` into `dst` (same extent, }] # what # [{) to the
    kernel's SDMA session and returns at once, with the event that
    `ascend.wait_async` waits for. The engine copies global memory to global
    memory, with no staging tile and none of the core's pipes (the op is on
    no pipe); PTO posts one contiguous line, so a view whose rows are not
    contiguous (`stride != cols` on either side, more than one row) is
    posted one row at a time, each row waited for before the next is posted.
    What the core wrote to `src` or `dst` before must be released first
    (`ascend.release`, which `ascend-insert-sync` inserts), and nothing may
    rely on `dst` before the wait.

    ```mlir
    %e = ascend.}] # mnemonic # [{ %dst, %src, session %s : !ascend.view<f32>
    ascend.wait_async %e, session %s
    ```
  }];
  let arguments = (ins Ascend_AnyView:$dst, Ascend_AnyView:$src,
                       Ascend_AsyncSessionType:$session,
                       OptionalAttr<StrAttr>:$site);
  let results = (outs Ascend_AsyncEventType:$event);
  let assemblyFormat = [{
    $dst `,` $src `,` `session` $session attr-dict `:` type($dst)
  }];
}

def Ascend_TGetAsyncOp : Ascend_AsyncTransferOp<"tget_async", "TGET_ASYNC",
    "`src` usually a peer's view: a pull">;
def Ascend_TPutAsyncOp : Ascend_AsyncTransferOp<"tput_async", "TPUT_ASYNC",
    "`dst` usually a peer's view: a push">;

def Ascend_WaitAsyncOp : Ascend_Op<"wait_async", [Ascend_GmEffects]> {
  let summary = "wait for an SDMA transfer to complete (`AsyncEvent::Wait`)";
  let description = [{
    Blocks until the engine has copied everything the transfer of `event`
    moves: its destination holds the data and its source may be written
    again. Payload accesses after it must come after an `ascend.acquire`
    (the core's data cache may hold stale lines of the destination), as
    after a TWAIT.

    ```mlir
    ascend.wait_async %e, session %s
    ```
  }];
  let arguments = (ins Ascend_AsyncEventType:$event,
                       Ascend_AsyncSessionType:$session,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$event `,` `session` $session attr-dict";
}

def Ascend_TNotifyOp : Ascend_Op<"tnotify", [Ascend_GmEffects,
                                             AllTypesMatch<["cell", "signal"]>]> {
  let summary = "`pto::comm::TNOTIFY`: set or atomically add to a signal cell";
  let description = [{
    `cell` is usually a peer's cell (`ascend.peer_ptr`). `signal` and its
    `dims` name the whole signal tensor, for reports (the cell's
    coordinates). A notify that publishes a payload must come after an
    `ascend.release` (`ascend-insert-sync`).

    ```mlir
    ascend.tnotify %remote, %c1, op atomic_add, signal %sig[%c4, %c1] : !ascend.gm<i32>
    ```
  }];
  let arguments = (ins Ascend_SignalPtr:$cell, I32:$value,
                       Ascend_NotifyOpAttr:$op, Ascend_SignalPtr:$signal,
                       Variadic<Index>:$dims, OptionalAttr<StrAttr>:$site);
  let assemblyFormat = [{
    $cell `,` $value `,` `op` `` $op `,` `signal` $signal `[` $dims `]`
    attr-dict `:` type($cell)
  }];
}

def Ascend_TWaitOp : Ascend_Op<"twait", [Ascend_GmEffects,
                                         AllTypesMatch<["cell", "signal"]>]> {
  let summary = "`pto::comm::TWAIT`: block until this rank's cell compares";
  let description = [{
    Blocks until `cell == expected` (`eq`) or `cell >= expected` (`ge`). A
    payload read after it must come after an `ascend.acquire`.
  }];
  let arguments = (ins Ascend_SignalPtr:$cell, I32:$expected,
                       Ascend_WaitCmpAttr:$cmp, Ascend_SignalPtr:$signal,
                       Variadic<Index>:$dims, OptionalAttr<StrAttr>:$site);
  let assemblyFormat = [{
    $cell `,` $expected `,` `cmp` `` $cmp `,` `signal` $signal `[` $dims `]`
    attr-dict `:` type($cell)
  }];
}

def Ascend_TTestOp : Ascend_Op<"ttest", [MemoryEffects<[MemRead]>]> {
  let summary = "`pto::comm::TTEST`: whether this rank's cell compares, now";
  let arguments = (ins Ascend_SignalPtr:$cell, I32:$expected,
                       Ascend_WaitCmpAttr:$cmp);
  let results = (outs I1:$ready);
  let assemblyFormat = "$cell `,` $expected `,` `cmp` `` $cmp attr-dict `:` type($cell)";
}

def Ascend_ReleaseOp : Ascend_Op<"release", [Ascend_GmEffects]> {
  let summary = "make every payload write visible before what follows";
  let description = [{
    `pipe_barrier(PIPE_ALL); dsb(DSB_DDR)` and a data-cache clean: placed
    between a payload write and a notify that publishes it.
  }];
  let assemblyFormat = "attr-dict";
}

def Ascend_AcquireOp : Ascend_Op<"acquire", [Ascend_GmEffects]> {
  let summary = "invalidate the data cache before payload reads";
  let description = [{
    `dcci` of the whole data cache: placed between a wait and the payload
    reads it guards.
  }];
  let assemblyFormat = "attr-dict";
}

def Ascend_PipeSyncOp : Ascend_Op<"pipe_sync", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`set_flag` / `wait_flag`: `dst` waits until `src` got here";
  let description = [{
    ```mlir
    ascend.pipe_sync mte2 -> v   // vector math may read what MTE2 loaded
    ```
  }];
  let arguments = (ins Ascend_PipeAttr:$src, Ascend_PipeAttr:$dst);
  let assemblyFormat = "`` $src `->` `` $dst attr-dict";
}

def Ascend_DeferCompletionOp : Ascend_Op<"defer_completion", [Ascend_GmEffects,
    AllTypesMatch<["cell", "signal"]>]> {
  let summary = "register `cell >= expected` as a completion condition of the running task";
  let description = [{
    Returns at once: the task completes once every registered condition
    holds (at most 64 per task). Never a spin. On the device this is the
    task runtime's `save_expected_notification_counter(AsyncCtx &, cell,
    uint32_t expected)` with the `AsyncCtx` that `get_async_ctx` builds
    from the task's dispatch payload (hw-native-sys/simpler,
    `pto_async_kernel_api.h`); `expected` must be in [0, INT32_MAX].
    `signal` and its `dims` name the whole signal tensor, as for
    `ascend.tnotify`: the simulator checks the cell is in it and names it by
    its coordinates.

    ```mlir
    ascend.defer_completion %payload, %cell, %expected, signal %sig[%c4, %c1] : !ascend.gm<i32>
    ```
  }];
  let arguments = (ins Ascend_DispatchPayloadType:$payload,
                       Ascend_SignalPtr:$cell, I32:$expected,
                       Ascend_SignalPtr:$signal, Variadic<Index>:$dims,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = [{
    $payload `,` $cell `,` $expected `,` `signal` $signal `[` $dims `]`
    attr-dict `:` type($cell)
  }];
}

def Ascend_ReadOp : Ascend_Op<"read", [MemoryEffects<[MemRead]>,
                                       AttrSizedOperandSegments, Ascend_ReadsPayload,
                                       Ascend_TensorOfPointer<"ptr">]> {
  let summary = "a scalar load from global memory";
  let description = [{
    `in %t[%n]` names the tensor the element lies in, as for `ascend.view`.
  }];
  let arguments = (ins Ascend_AnyGmPtr:$ptr, Optional<Ascend_AnyGmPtr>:$tensor,
                       Optional<Index>:$tensor_elements,
                       OptionalAttr<StrAttr>:$site);
  let results = (outs AnyType:$value);
  let assemblyFormat = [{
    $ptr (`in` $tensor^ `[` $tensor_elements `]`)? attr-dict `:` type($ptr)
    `->` type($value)
  }];
  let hasVerifier = 1;
}

def Ascend_WriteOp : Ascend_Op<"write", [MemoryEffects<[MemWrite]>,
                                         AttrSizedOperandSegments, Ascend_WritesPayload,
                                         Ascend_TensorOfPointer<"ptr">]> {
  let summary = "a scalar store to global memory";
  let description = [{
    `in %t[%n]` names the tensor the element lies in, as for `ascend.view`.
  }];
  let arguments = (ins AnyType:$value, Ascend_AnyGmPtr:$ptr,
                       Optional<Ascend_AnyGmPtr>:$tensor,
                       Optional<Index>:$tensor_elements,
                       OptionalAttr<StrAttr>:$site);
  let assemblyFormat = [{
    $value `,` $ptr (`in` $tensor^ `[` $tensor_elements `]`)? attr-dict `:`
    type($value) `,` type($ptr)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

def Ascend_CheckOp : Ascend_Op<"check"> {
  let summary = "a run-time check of what the source op requires (`cf.assert`)";
  let description = [{
    What `convert-pld-to-ascend` makes of a `cf.assert`: where `holds` is
    false, the simulator stops the run with a trap that names `site` (the
    op the check guards, such as a whole-tensor `pld.tensor.get` whose
    dynamic shapes must be equal) and says `message`. The device has no
    channel to report it on and does not check: a kernel that fails a check
    in the simulator is wrong on the device too. No traits: the op must not
    be erased or moved past what it guards.

    ```mlir
    ascend.check %same, "the destination's dimension 1 differs from the source's" {site = "pld.tensor.get at k.mlir:5:3"}
    ```
  }];
  let arguments = (ins I1:$holds, StrAttr:$message, OptionalAttr<StrAttr>:$site);
  let assemblyFormat = "$holds `,` $message attr-dict";
}

//===----------------------------------------------------------------------===//
// Host: windows and tasks
//===----------------------------------------------------------------------===//

def Ascend_AllocWindowOp : Ascend_Op<"alloc_window", [MemoryEffects<[MemAlloc]>]> {
  let summary = "allocate a buffer in this rank's window (host)";
  let description = [{
    Every rank runs the same host code, so a buffer lands at the same offset
    in every window.
  }];
  let arguments = (ins Ascend_CtxType:$ctx, Index:$bytes, StrAttr:$name);
  let results = (outs Ascend_AnyGmPtr:$buffer);
  let assemblyFormat = "$ctx `,` $bytes attr-dict `:` type($buffer)";
}

def Ascend_CommGroupOp : Ascend_Op<"comm_group", [Pure]> {
  let summary = "the context of a comm group of ranks (host)";
  let description = [{
    The CommContext of the communicator of world ranks `ranks` (ascending)
    as seen from this rank: `rankId` is this rank's position in `ranks`,
    `rankNum` their count, and window `i` is the window of world rank
    `ranks[i]`, so that `peer_ptr` takes a rank in the group. Host code
    passes it to the kernels and tasks that take the group's windows. A
    rank outside the group gets a context that traps wherever it is used.
    On the device each group is an HCCL communicator of its own, created
    by the host runtime.

    ```mlir
    %group = ascend.comm_group %ctx ranks [1, 2]
    ```
  }];
  let arguments = (ins Ascend_CtxType:$ctx, DenseI64ArrayAttr:$ranks);
  let results = (outs Ascend_CtxType:$group);
  let assemblyFormat = "$ctx `ranks` $ranks attr-dict";
}

def Ascend_HandoffWorkspaceOp : Ascend_Op<"handoff_workspace",
                                        [MemoryEffects<[MemAlloc]>]> {
  let summary = "global memory for a mixed kernel's cube-to-vector hand-offs (host)";
  let description = [{
    What host code passes a mixed kernel whose vector work uses a
    `pl.matmul` product: `bytes` of global memory (the kernel's hand-off
    bytes per block times the launch's blocks) that the cube stores the
    products into and the vector core loads them from, block `b` using
    its own part. PyPTO passes the same kind of buffer (its
    `__gm_pipe_buffer`, per call site). The simulator gives each call space
    of its own that lives until the run ends.

    ```mlir
    %space = ascend.handoff_workspace %ctx, %bytes : !ascend.gm<i8>
    ```
  }];
  let arguments = (ins Ascend_CtxType:$ctx, Index:$bytes);
  let results = (outs Ascend_AnyGmPtr:$buffer);
  let assemblyFormat = "$ctx `,` $bytes attr-dict `:` type($buffer)";
}

def Ascend_WindowAsOp : Ascend_Op<"window_as", [Pure]> {
  let summary = "a window buffer as a pointer to its element type";
  let arguments = (ins Ascend_AnyGmPtr:$buffer);
  let results = (outs Ascend_AnyGmPtr:$result);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer) `->` type($result)";
}

def Ascend_SubmitOp : Ascend_Op<"submit", [Ascend_GmEffects, Ascend_RunsCallee,
    AttrSizedOperandSegments, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "submit a task: run `kernel` on `blocks` cores once `deps` completed";
  let description = [{
    The task runs `kernel(ctx, args...)` on `blocks` cores (a kernel that
    defers completions takes the task's dispatch payload after `ctx`, which
    the runtime passes); when `if` is false it completes without running. It completes when its kernel
    returned and every condition it registered with
    `ascend.defer_completion` holds.

    ```mlir
    %t = ascend.submit @consume(%a, %b) ctx %ctx deps [%w] blocks %c1 name "consume" : (!ascend.gm<f32>, index) -> !ascend.task
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, Ascend_CtxType:$ctx,
                       Variadic<AnyType>:$args,
                       Variadic<Ascend_TaskType>:$deps, Index:$blocks,
                       Optional<I1>:$dispatch, StrAttr:$name);
  let results = (outs Ascend_TaskType:$task);
  let assemblyFormat = [{
    $kernel `(` $args `)` `ctx` $ctx (`deps` ` ` `[` $deps^ `]`)? `blocks` $blocks
    (`if` $dispatch^)? `name` $name attr-dict `:` functional-type($args, $task)
  }];
}

def Ascend_LaunchOp : Ascend_Op<"launch", [Ascend_GmEffects, Ascend_RunsCallee,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run `kernel` on `blocks` cores and wait for it (host)";
  let arguments = (ins FlatSymbolRefAttr:$kernel, Ascend_CtxType:$ctx,
                       Variadic<AnyType>:$args, Index:$blocks);
  let assemblyFormat = [{
    $kernel `(` $args `)` `ctx` $ctx `blocks` $blocks attr-dict `:`
    functional-type($args, results)
  }];
}

def Ascend_RunOnLanesOp : Ascend_Op<"run_on_lanes", [Ascend_GmEffects, Ascend_RunsCallee,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run `body` on both AIV sub-lanes of this core (a split_aiv region)";
  let arguments = (ins FlatSymbolRefAttr:$body, Ascend_CtxType:$ctx,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $body `(` $args `)` `ctx` $ctx attr-dict `:` functional-type($args, results)
  }];
}

//===----------------------------------------------------------------------===//
// Entry wrappers
//===----------------------------------------------------------------------===//

def Ascend_ArgPtrOp : Ascend_Op<"arg_ptr", [Pure]> {
  let summary = "the pointer of argument `index` of an entry wrapper";
  let arguments = (ins Ascend_ArgsType:$args, I64Attr:$index);
  let results = (outs Ascend_AnyGmPtr:$ptr);
  let assemblyFormat = "$args `[` $index `]` attr-dict `:` type($ptr)";
}

def Ascend_ArgDimOp : Ascend_Op<"arg_dim", [Pure]> {
  let summary = "dimension `dim` of argument `index` of an entry wrapper";
  let arguments = (ins Ascend_ArgsType:$args, I64Attr:$index, I64Attr:$dim);
  let results = (outs Index:$size);
  let assemblyFormat = "$args `[` $index `,` $dim `]` attr-dict";
}

def Ascend_ArgScalarOp : Ascend_Op<"arg_scalar", [Pure]> {
  let summary = "the scalar value of argument `index` of an entry wrapper";
  let arguments = (ins Ascend_ArgsType:$args, I64Attr:$index);
  let results = (outs AnyTypeOf<[AnySignlessInteger, Index, AnyFloat]>:$value);
  let assemblyFormat = "$args `[` $index `]` attr-dict `:` type($value)";
}

#endif // ASCEND_OPS_TD
