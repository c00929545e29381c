//===- PlOps.td - pl core operations -----------------------*- tablegen -*-===//

#ifndef PL_OPS_TD
#define PL_OPS_TD

include "pld/Dialect/Pl/IR/PlTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Tile data movement
//===----------------------------------------------------------------------===//

// The accesses an op makes, defined per op in PlOps.cpp.
defvar Pl_MemoryAccess = DeclareOpInterfaceMethods<Pl_MemoryAccessOpInterface>;

def Pl_LoadOp : Pl_Op<"load", [MemoryEffects<[MemRead]>,
                               AttrSizedOperandSegments, Pl_MemoryAccess]> {
  let summary = "load a region of global memory into a tile";
  let description = [{
    Loads the region of `source` that starts at `offsets` and has the tile's
    shape. With `valid`, only the leading `valid` part of every dimension is
    read (a ragged tail): that is the tile's valid shape, and the rest of the
    tile is undefined. Tile math combines tiles of one valid shape and gives
    its result that shape; a store writes exactly its tile's valid shape
    (pld-verify checks both where the sizes are known, the simulator at run
    time; the target asserts them).

    ```mlir
    %acc = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
    %tail = pl.load %data[0, %off] valid [1, %n] : !pld.dtensor<1x100xf32> -> !pl.tile<1x64xf32>
    ```
  }];
  let arguments = (ins Pl_GlobalMemory:$source,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       Variadic<Index>:$valid_sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$static_valid_sizes);
  let results = (outs Pl_AnyTile:$result);
  let assemblyFormat = [{
    $source `` custom<DynamicIndexList>($offsets, $static_offsets)
    (`valid` custom<DynamicIndexList>($valid_sizes, $static_valid_sizes)^)?
    attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pl_StoreOp : Pl_Op<"store", [MemoryEffects<[MemWrite]>,
                                 AttrSizedOperandSegments, Pl_MemoryAccess]> {
  let summary = "store a tile into a region of global memory";
  let description = [{
    Writes `value` into `dest` at `offsets`; the region has the tile's shape
    and must fit inside `dest` (checked on static dimensions). With `valid`,
    only the leading `valid` part of every dimension is written (a ragged
    tail). The region must be the tile's valid shape: what its load read.

    The tile's element type is the destination's, with one exception: the
    f32 product of a `pl.matmul` may be stored into an f16 or bf16
    destination, which the cube's fixpipe converts on the way out (to
    nearest, ties to even). An i32 product stays i32, and any other tile
    must match its destination.

    ```mlir
    pl.store %acc, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
    pl.store %acc, %out[0, 64] valid [1, %n] : !pl.tile<1x64xf32>, memref<1x100xf32>
    %c = pl.matmul %a, %b : !pl.tile<16x32xf16>, !pl.tile<32x16xf16> -> !pl.tile<16x16xf32>
    pl.store %c, %half[0, 0] : !pl.tile<16x16xf32>, memref<16x16xf16>
    ```
  }];
  let arguments = (ins Pl_AnyTile:$value, Pl_GlobalMemory:$dest,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       Variadic<Index>:$valid_sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$static_valid_sizes);
  let assemblyFormat = [{
    $value `,` $dest `` custom<DynamicIndexList>($offsets, $static_offsets)
    (`valid` custom<DynamicIndexList>($valid_sizes, $static_valid_sizes)^)?
    attr-dict `:` type($value) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def Pl_ReadOp : Pl_Op<"read", [MemoryEffects<[MemRead]>, Pl_MemoryAccess,
    TypesMatchWith<"result type is the source's element type", "source",
                   "result", "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "read one scalar element of global memory";
  let description = [{
    ```mlir
    %received = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
    ```
  }];
  let arguments = (ins Pl_GlobalMemory:$source, Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `` custom<DynamicIndexList>($offsets, $static_offsets)
    attr-dict `:` type($source)
  }];
  let hasVerifier = 1;
}

def Pl_WriteOp : Pl_Op<"write", [MemoryEffects<[MemWrite]>, Pl_MemoryAccess,
    TypesMatchWith<"value type is the destination's element type", "dest",
                   "value", "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "write one scalar element of global memory";
  let description = [{
    ```mlir
    pl.write %received, %out[0, 0] : memref<1x1xi32>
    ```
  }];
  let arguments = (ins AnyType:$value, Pl_GlobalMemory:$dest,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets);
  let assemblyFormat = [{
    $value `,` $dest `` custom<DynamicIndexList>($offsets, $static_offsets)
    attr-dict `:` type($dest)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile arithmetic
//===----------------------------------------------------------------------===//

class Pl_ElementwiseOp<string mnemonic, string what>
    : Pl_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "element-wise " # what # " of two tiles";
  let description = [{
    Combines two tiles of the same type element by element (a vector-unit
    operation, lowered to `T}] # !toupper(mnemonic) # [{`).

    ```mlir
    %r = pl.}] # mnemonic # [{ %a, %b : !pl.tile<1x64xf32>
    ```
  }];
  let arguments = (ins Pl_AnyTile:$lhs, Pl_AnyTile:$rhs);
  let results = (outs Pl_AnyTile:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Pl_AddOp : Pl_ElementwiseOp<"add", "sum">;
def Pl_MaxOp : Pl_ElementwiseOp<"max", "maximum">;
def Pl_MinOp : Pl_ElementwiseOp<"min", "minimum">;
def Pl_MulOp : Pl_ElementwiseOp<"mul", "product">;
def Pl_SubOp : Pl_ElementwiseOp<"sub", "difference (lhs - rhs)">;

class Pl_ScalarMathOp<string mnemonic, string what, string instruction>
    : Pl_Op<mnemonic, [Pure, AllTypesMatch<["lhs", "result"]>,
        TypesMatchWith<"scalar is the tile's element type", "result", "scalar",
                       "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "element-wise " # what # " of a tile and a scalar";
  let description = [{
    Combines every element of a tile with one scalar of the tile's element
    type (a vector-unit operation, lowered to `}] # instruction # [{`). The
    result has the tile's type and valid shape.

    ```mlir
    %r = pl.}] # mnemonic # [{ %a, %s : !pl.tile<1x64xf32>
    ```
  }];
  let arguments = (ins Pl_AnyTile:$lhs, AnyType:$scalar);
  let results = (outs Pl_AnyTile:$result);
  let assemblyFormat = "$lhs `,` $scalar attr-dict `:` type($result)";
}

def Pl_AddSOp : Pl_ScalarMathOp<"adds", "sum", "TADDS">;
def Pl_SubSOp : Pl_ScalarMathOp<"subs", "difference (tile - scalar)", "TSUBS">;
def Pl_MulSOp : Pl_ScalarMathOp<"muls", "product", "TMULS">;
def Pl_MaxSOp : Pl_ScalarMathOp<"maxs", "maximum", "TMAXS">;
def Pl_MinSOp : Pl_ScalarMathOp<"mins", "minimum", "TMINS">;

def Pl_CastOp : Pl_Op<"cast", [Pure]> {
  let summary = "a tile converted element by element to another element type";
  let description = [{
    Converts every element of `source` to the result's element type (same
    shape), rounding as `round` says where the value is not representable
    (lowered to `TCVT`): `rint` to nearest, ties to even; `round` to nearest,
    ties away from zero; `floor`, `ceil`, `trunc` (toward zero); `odd` to the
    neighbour with an odd last digit; `none` PTO's default (to nearest even,
    toward zero from a float to an integer). Integer sources convert
    exactly or to nearest even. A float converted to a 32- or 64-bit
    integer saturates; to an 8- or 16-bit integer, and an integer narrowed,
    it keeps the low bits (PTO's default on Ascend950, `npu/a5/TCvt.hpp:
    3046-3070`). The element pairs are those the chip's TCVT has, which
    pld-verify checks: on Ascend910B f32 -> f16/f32/i64/i32/i16/bf16,
    f16 -> f32/i32/i16/i8, bf16 -> f32/i32, i8 -> f16, i16 -> f16/f32,
    i32 -> f32/i64/i16/f16, i64 -> f32/i32; on Ascend950 the same but
    i32 -> f16, plus i8 -> i16/i32, i16 -> i32 and bf16 -> f16.

    ```mlir
    %h = pl.cast %f round rint : !pl.tile<1x64xf32> to !pl.tile<1x64xf16>
    ```
  }];
  let arguments = (ins Pl_AnyTile:$source, Pl_RoundModeAttr:$round);
  let results = (outs Pl_AnyTile:$result);
  let assemblyFormat = "$source `round` $round attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
}

def Pl_FullOp : Pl_Op<"full", [Pure,
    TypesMatchWith<"value is the tile's element type", "result", "value",
                   "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "a tile whose every element is `value`";
  let description = [{
    A new tile of the result type, every element `value` (lowered to
    `TEXPANDS`): the start of an accumulator, or a constant operand.

    ```mlir
    %zero = arith.constant 0.0 : f32
    %acc = pl.full %zero : !pl.tile<1x64xf32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Pl_AnyTile:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
}

def Pl_MatmulOp : Pl_Op<"matmul", [Pure]> {
  let summary = "matrix product of two tiles on the cube unit";
  let description = [{
    `[M, K] x [K, N] -> [M, N]` on the cube unit (AIC). The element types
    are TMATMUL's: i8 x i8 into i32, and f16, bf16 or f32 into f32 (products
    accumulated in f32; pld-verify checks them).

    The cube reads its operands from global memory and writes its product
    back: each operand is a `pl.load` (or `pld.tile.remote_load`) in the
    same block that only this `pl.matmul` uses, and one `pl.store` writes
    the product, with nothing that touches memory or synchronises between
    the loads and the store. With them it is a GEMM of three regions of
    global memory, of any size: the lowering tiles it to the chip's buffers
    (docs/lowering.md, "The cube"). The operands' valid shapes are the
    product's: `m x k` times `k x n`, and the store writes `m x n`.

    A kernel whose tile work is all GEMMs runs on the cube; one that also
    does vector work is a mixed kernel, split into a cube half and a vector
    half that take turns at each GEMM.

    ```mlir
    %a = pl.load %A[0, 0] : memref<40x30xf16> -> !pl.tile<40x30xf16>
    %b = pl.load %B[0, 0] : memref<30x50xf16> -> !pl.tile<30x50xf16>
    %c = pl.matmul %a, %b : !pl.tile<40x30xf16>, !pl.tile<30x50xf16> -> !pl.tile<40x50xf32>
    pl.store %c, %C[0, 0] : !pl.tile<40x50xf32>, memref<40x50xf32>
    ```
  }];
  let arguments = (ins Pl_AnyTile:$lhs, Pl_AnyTile:$rhs);
  let results = (outs Pl_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tasks, SPMD launches and split-AIV regions
//===----------------------------------------------------------------------===//

def Pl_AtOp : Pl_Op<"at", [RecursiveMemoryEffects, NoTerminator, SingleBlock,
                           AttrSizedOperandSegments]> {
  let summary = "a task scope at a hardware level (`with pl.at(...)`)";
  let description = [{
    The body runs as one task at `level`. The task is dispatched once every
    task in `deps` is logically complete and, with `if`, only when the
    dispatch predicate holds. `allow_early_resolve` lets the scheduler
    pre-stage this task's direct consumers before it completes. The result is
    the task's id, for the `deps` of later tasks; a fire-and-forget task leaves
    it unused.

    ```mlir
    %wait_tid = pl.at level core_group name "payload_wait" {
      pld.system.defer_wait %signal[%peer, 0], expected %epoch, cmp ge : !pld.dtensor<2x1xi32>
    }
    %consume = pl.at level core_group name "consume_payload" deps [%wait_tid] {
      ...
    }
    ```
  }];
  let arguments = (ins Pl_LevelAttr:$level, StrAttr:$name_hint,
                       Variadic<Pl_TaskIdType>:$deps,
                       Optional<I1>:$dispatch_if,
                       UnitAttr:$allow_early_resolve);
  let results = (outs Pl_TaskIdType:$task);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `level` `` $level `name` $name_hint (`deps` `[` $deps^ `]`)?
    (`if` $dispatch_if^)? (`allow_early_resolve` $allow_early_resolve^)?
    attr-dict-with-keyword $body
  }];
}

def Pl_SpmdOp : Pl_Op<"spmd", [RecursiveMemoryEffects, NoTerminator,
                               SingleBlock]> {
  let summary = "a multi-block SPMD task (`with pl.spmd(...)`)";
  let description = [{
    Launches the body on `num_blocks` AIV blocks; each block reads its index
    with `pl.get_block_idx`. Like `pl.at` it is a task: it waits for `deps`
    and returns its id.

    ```mlir
    %consume = pl.spmd %num_blocks name "consume_payload_spmd" deps [%wait_tid] {
      %block = pl.get_block_idx
    }
    ```
  }];
  let arguments = (ins Index:$num_blocks, StrAttr:$name_hint,
                       Variadic<Pl_TaskIdType>:$deps);
  let results = (outs Pl_TaskIdType:$task);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $num_blocks `name` $name_hint (`deps` `[` $deps^ `]`)?
    attr-dict-with-keyword $body
  }];
}

def Pl_SplitAivOp : Pl_Op<"split_aiv", [RecursiveMemoryEffects, NoTerminator,
                                        SingleBlock]> {
  let summary = "a region that runs on the AIV sub-lanes only";
  let description = [{
    The body runs on the vector lane only, never on the cube lane, so it is
    where communication sits in a kernel that also does cube work. With mode
    `none` the whole body runs on both AIV sub-lanes (a `notify` in it fires
    twice unless it is sharded by `pl.get_aiv_id` or guarded to one lane);
    `up_down` and `left_right` split the tiles between the two sub-lanes.

    ```mlir
    pl.split_aiv mode none {
      %lane = pl.get_aiv_id
      ...
    }
    ```
  }];
  let arguments = (ins Pl_SplitModeAttr:$mode);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`mode` `` $mode attr-dict-with-keyword $body";
}

def Pl_GetBlockIdxOp : Pl_Op<"get_block_idx", [Pure]> {
  let summary = "the index of the current SPMD block";
  let description = [{
    ```mlir
    %block = pl.get_block_idx
    ```
  }];
  let results = (outs Index:$index);
  let assemblyFormat = "attr-dict";
}

def Pl_GetAivIdOp : Pl_Op<"get_aiv_id", [Pure]> {
  let summary = "the AIV sub-lane id (0 or 1) of the current lane";
  let description = [{
    ```mlir
    %lane = pl.get_aiv_id
    ```
  }];
  let results = (outs Index:$lane);
  let assemblyFormat = "attr-dict";
}

#endif // PL_OPS_TD
