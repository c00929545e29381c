//===- TargetRules.h - What the PTO ISA accepts, per chip -------*- C++ -*-===//
//
// The constraints the real PTO ISA headers impose on tiles, in one place:
// the ascend verifiers check them, the lowering pads to them and pld-verify
// reports them at the pld op (through the C API, pld-c/Dialects.h). Every
// list names its source in docs/target/pto-isa.md (hw-native-sys/pto-isa
// @3186c38).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_ASCEND_IR_TARGETRULES_H
#define PLD_DIALECT_ASCEND_IR_TARGETRULES_H

#include "pld/Dialect/Ascend/IR/Ascend.h"
#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/IR/Types.h"

#include <optional>
#include <string>

namespace pld::ascend {

/// A row of a row-major Vec tile is a whole number of these.
constexpr int64_t kTileRowAlignmentBytes = 32;

/// The columns a tile of `cols` logical columns of `element` has: the
/// smallest multiple of 32 bytes that holds them.
int64_t paddedTileCols(int64_t cols, mlir::Type element);

/// Whether TLOAD and TSTORE move tiles of `element` (on every chip).
bool isTileElementType(mlir::Type element);
/// The element types TLOAD and TSTORE move, for messages.
const char *tileElementTypeNames();

/// The most rows a tile TLOAD and TSTORE move may have on `profile`, if
/// there is a limit: on Ascend910B (A2/A3) 4095 (a static_assert of TLOAD,
/// an assert of TSTORE's burst count); Ascend950 has none.
std::optional<int64_t> maxTileRows(TargetProfile profile);

/// The vector unit's element-wise tile instructions.
enum class TileMath : int32_t {
  Add = 0,
  Max = 1,
  Min = 2,
  Mul = 3,
  Sub = 4,
  /// TEXPANDS: a tile filled with a scalar.
  Expand = 5
};

/// Whether TCVT converts `source` elements to `result` elements on the chip
/// `profile`.
bool isConversion(TargetProfile profile, mlir::Type source, mlir::Type result);
/// The conversions TCVT has on `profile`, as `f32 -> f16, ...`.
std::string conversionNames(TargetProfile profile);

/// Whether `math` exists for `element` on `profile`.
bool isTileMathElementType(TargetProfile profile, TileMath math,
                           mlir::Type element);
/// The element types `math` has on `profile`, for messages.
std::string tileMathElementTypeNames(TargetProfile profile, TileMath math);
/// PTO's name of `math` (TADD, ...).
const char *tileMathName(TileMath math);

//===-- SDMA transfers ----------------------------------------------------===//

/// The bytes of unified buffer an SDMA session works through: PTO's
/// `pto::comm::sdma::UB_ALIGN_SIZE` (comm/async_common/async_types.hpp:27,
/// :31), the scratch tile its kernels build a session on
/// (kernels/manual/a2a3/tget_bandwidth/tget_bandwidth_kernel.cpp:250).
constexpr int64_t kSdmaScratchBytes = 256;

//===-- The cube
//-----------------------------------------------------------===//

/// The name of the on-chip buffer tiles of `kind` live in (`unified
/// buffer`, `L1`, `L0A`, `L0B`, `L0C`).
const char *tileBufferName(TileKind kind);

/// The bytes of the buffer tiles of `kind` live in, on `profile`.
int64_t tileBufferBytes(TargetProfile profile, TileKind kind);

/// What a tile's rows and columns must be multiples of: PTO's inner box of
/// the kind's fractal (a Vec tile: rows of whole 32-byte blocks).
struct TileBox {
  int64_t rows;
  int64_t cols;
};
TileBox tileBox(TileKind kind, mlir::Type element);

/// Whether TMATMUL multiplies `lhs x rhs` into an accumulator of `acc`.
bool isMatmulElementTypes(mlir::Type acc, mlir::Type lhs, mlir::Type rhs);
/// The (accumulator, lhs, rhs) element types TMATMUL has, for messages.
const char *matmulElementTypeNames();
/// The accumulator element type TMATMUL gives `lhs x rhs`, if it has one.
mlir::Type matmulAccumulator(mlir::Type lhs, mlir::Type rhs);

/// Whether TSTORE moves an accumulator of `acc` into memory of `memory`
/// through the fixpipe (converting f32 to f16 or bf16 on the way).
bool isAccStoreElementTypes(mlir::Type acc, mlir::Type memory);

} // namespace pld::ascend

#endif // PLD_DIALECT_ASCEND_IR_TARGETRULES_H
