//===- TargetRules.cpp - What the PTO ISA accepts, per chip ---------------===//
//
// Sources (hw-native-sys/pto-isa @3186c38, include/pto/), also in
// docs/target/pto-isa.md:
// - row alignment: common/pto_tile.hpp:1522-1534 (TileConfig::alignedSize
//   = 32 at :1079);
// - TLOAD/TSTORE element types: common/arch/memory/tload_common.hpp:302-310,
//   tstore_common.hpp:328-335;
// - a2a3's row limit: common/arch/memory/tload_common.hpp:47 (TLOAD's
//   static_assert), tstore_common.hpp:366 (TSTORE's nBurst assert); a5
//   moves tiles through common/arch/register/ instead, without the limit;
// - a2a3 tile math: npu/a2a3/TAdd.hpp:62-66, TMax.hpp:61-65,
//   TMin.hpp:62-66, TMul.hpp:61-65, TSub.hpp:61-65;
// - a5 tile math: npu/a5/TAdd.hpp:60-65, TMax.hpp:59-64, TMin.hpp:59-64,
//   TMul.hpp:59-63, TSub.hpp:59-64;
// - tile-scalar math takes its tile-tile instruction's types: a2a3
//   TAddS.hpp:52-56, TSubS.hpp:52-56, TMulS.hpp:52-56, TMaxS.hpp:53-57,
//   TMins.hpp:52-56; a5 TAddS.hpp:57-61, TSubS.hpp:57-61, TMulS.hpp:57-60,
//   TMins.hpp:57-61;
// - TEXPANDS: a2a3 TExpandS.hpp:144-150, a5 TExpandS.hpp:149-155;
// - TCVT's conversions on a2a3: the dispatcher npu/a2a3/TCvt.hpp:807-895
//   and its special cases :753-793 (u8 and s4 have no pld element type);
//   on a5: the overloads of castData_1D_NoPostUpdate, one per pair,
//   npu/a5/TCvt.hpp:2284-2720 (castData and castData_2D_NoPostUpdate, which
//   implTCVT calls for padded tiles, have the same pairs); the unsigned,
//   8-bit float and 4-bit float ones have no pld element type;
// - tile kinds, their fractals and inner boxes: common/type.hpp:123,
//   common/pto_tile.hpp:1079-1086, 1399-1422, 1514-1530, 1714-1773;
// - buffer sizes: common/buffer_limits.hpp (A2A3 and A5);
// - TMATMUL element types: npu/a2a3/TMatmul.hpp:77-93;
// - the fixpipe's conversions: npu/a2a3/TStore.hpp:192-213.
//
//===----------------------------------------------------------------------===//

#include "pld/Dialect/Ascend/IR/TargetRules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace pld::ascend {
namespace {

/// pld's element types, by the names messages use. pld's integers are
/// signless, so each stands for both PTO's signed and unsigned types.
enum class Element { I8, I16, I32, I64, F16, BF16, F32, Other };

Element classify(Type type) {
  if (type.isSignlessInteger(8))
    return Element::I8;
  if (type.isSignlessInteger(16))
    return Element::I16;
  if (type.isSignlessInteger(32))
    return Element::I32;
  if (type.isSignlessInteger(64))
    return Element::I64;
  if (type.isF16())
    return Element::F16;
  if (type.isBF16())
    return Element::BF16;
  if (type.isF32())
    return Element::F32;
  return Element::Other;
}

const char *nameOf(Element element) {
  switch (element) {
  case Element::I8:
    return "i8";
  case Element::I16:
    return "i16";
  case Element::I32:
    return "i32";
  case Element::I64:
    return "i64";
  case Element::F16:
    return "f16";
  case Element::BF16:
    return "bf16";
  case Element::F32:
    return "f32";
  case Element::Other:
    break;
  }
  return "?";
}

constexpr Element kA2A3Math[] = {Element::I16, Element::I32, Element::F16,
                                 Element::F32};
constexpr Element kA5Math[] = {Element::I8,  Element::I16, Element::I32,
                               Element::I64, Element::F16, Element::BF16,
                               Element::F32};
// TEXPANDS fills every tile element type but i64 on a2a3
// (npu/a2a3/TExpandS.hpp:144-150), every one on a5 (npu/a5/TExpandS.hpp:
// 149-155).
constexpr Element kA2A3Expand[] = {Element::I8,  Element::I16,  Element::I32,
                                   Element::F16, Element::BF16, Element::F32};

// a5's TMUL has no 8-bit integers.
constexpr Element kA5Mul[] = {Element::I16, Element::I32,  Element::I64,
                              Element::F16, Element::BF16, Element::F32};

llvm::ArrayRef<Element> mathElements(TargetProfile profile, TileMath math) {
  if (math == TileMath::Expand)
    return profile == TargetProfile::Ascend910B
               ? llvm::ArrayRef<Element>(kA2A3Expand)
               : llvm::ArrayRef<Element>(kA5Math);
  if (profile == TargetProfile::Ascend910B)
    return kA2A3Math;
  return math == TileMath::Mul ? llvm::ArrayRef<Element>(kA5Mul)
                               : llvm::ArrayRef<Element>(kA5Math);
}

} // namespace

int64_t paddedTileCols(int64_t cols, Type element) {
  int64_t bytes = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  int64_t block = std::max<int64_t>(1, kTileRowAlignmentBytes / bytes);
  return llvm::alignTo(cols, block);
}

bool isTileElementType(Type element) {
  return classify(element) != Element::Other;
}

const char *tileElementTypeNames() {
  return "i8, i16, i32, i64, f16, bf16, f32";
}

std::optional<int64_t> maxTileRows(TargetProfile profile) {
  if (profile == TargetProfile::Ascend910B)
    return 4095;
  return std::nullopt;
}

namespace {
struct Conversion {
  Element source, result;
};

constexpr Conversion kA2A3Conversions[] = {
    {Element::F32, Element::F16},  {Element::F32, Element::F32},
    {Element::F32, Element::I64},  {Element::F32, Element::I32},
    {Element::F32, Element::I16},  {Element::F32, Element::BF16},
    {Element::F16, Element::F32},  {Element::F16, Element::I32},
    {Element::F16, Element::I16},  {Element::F16, Element::I8},
    {Element::BF16, Element::F32}, {Element::BF16, Element::I32},
    {Element::I8, Element::F16},   {Element::I16, Element::F16},
    {Element::I16, Element::F32},  {Element::I32, Element::F32},
    {Element::I32, Element::I64},  {Element::I32, Element::I16},
    {Element::I32, Element::F16},  {Element::I64, Element::F32},
    {Element::I64, Element::I32},
};

/// a5's pairs, by source (npu/a5/TCvt.hpp: i8 :2310-2332, f16 :2370-2430,
/// bf16 :2445-2466, i16 :2512-2542, f32 :2550-2605, i32 :2635-2664, i64
/// :2707-2720).
constexpr Conversion kA5Conversions[] = {
    {Element::I8, Element::F16},   {Element::I8, Element::I16},
    {Element::I8, Element::I32},   {Element::F16, Element::F32},
    {Element::F16, Element::I32},  {Element::F16, Element::I16},
    {Element::F16, Element::I8},   {Element::BF16, Element::F32},
    {Element::BF16, Element::I32}, {Element::BF16, Element::F16},
    {Element::I16, Element::F16},  {Element::I16, Element::F32},
    {Element::I16, Element::I32},  {Element::F32, Element::F32},
    {Element::F32, Element::F16},  {Element::F32, Element::BF16},
    {Element::F32, Element::I16},  {Element::F32, Element::I32},
    {Element::F32, Element::I64},  {Element::I32, Element::F32},
    {Element::I32, Element::I16},  {Element::I32, Element::I64},
    {Element::I64, Element::F32},  {Element::I64, Element::I32},
};

llvm::ArrayRef<Conversion> conversions(TargetProfile profile) {
  if (profile == TargetProfile::Ascend910B)
    return kA2A3Conversions;
  return kA5Conversions;
}
} // namespace

bool isConversion(TargetProfile profile, Type source, Type result) {
  Element from = classify(source), to = classify(result);
  return llvm::any_of(conversions(profile), [&](Conversion conversion) {
    return conversion.source == from && conversion.result == to;
  });
}

std::string conversionNames(TargetProfile profile) {
  std::string names;
  for (Conversion conversion : conversions(profile)) {
    if (!names.empty())
      names += ", ";
    names += std::string(nameOf(conversion.source)) + " -> " +
             nameOf(conversion.result);
  }
  return names;
}

bool isTileMathElementType(TargetProfile profile, TileMath math, Type element) {
  return llvm::is_contained(mathElements(profile, math), classify(element));
}

std::string tileMathElementTypeNames(TargetProfile profile, TileMath math) {
  std::string names;
  for (Element element : mathElements(profile, math)) {
    if (!names.empty())
      names += ", ";
    names += nameOf(element);
  }
  return names;
}

const char *tileMathName(TileMath math) {
  switch (math) {
  case TileMath::Add:
    return "TADD";
  case TileMath::Max:
    return "TMAX";
  case TileMath::Min:
    return "TMIN";
  case TileMath::Mul:
    return "TMUL";
  case TileMath::Sub:
    return "TSUB";
  case TileMath::Expand:
    return "TEXPANDS";
  }
  return "?";
}

const char *tileBufferName(TileKind kind) {
  switch (kind) {
  case TileKind::Vec:
    return "unified buffer";
  case TileKind::Mat:
    return "L1";
  case TileKind::Left:
    return "L0A";
  case TileKind::Right:
    return "L0B";
  case TileKind::Acc:
    return "L0C";
  }
  return "?";
}

int64_t tileBufferBytes(TargetProfile profile, TileKind kind) {
  constexpr int64_t kKiB = 1024;
  bool a5 = profile != TargetProfile::Ascend910B;
  switch (kind) {
  case TileKind::Vec:
    return (a5 ? 256 : 192) * kKiB;
  case TileKind::Mat:
    return 512 * kKiB;
  case TileKind::Left:
  case TileKind::Right:
    return 64 * kKiB;
  case TileKind::Acc:
    return (a5 ? 256 : 128) * kKiB;
  }
  return 0;
}

TileBox tileBox(TileKind kind, Type element) {
  int64_t bytes = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  // The 512-byte fractal's inner box: 16 rows of 32 bytes, transposed for
  // Right's column-major inner layout; Acc's 1024-byte one is 16 x 16.
  int64_t block = std::max<int64_t>(1, kTileRowAlignmentBytes / bytes);
  switch (kind) {
  case TileKind::Vec:
    return {1, block};
  case TileKind::Mat:
  case TileKind::Left:
    return {16, block};
  case TileKind::Right:
    return {block, 16};
  case TileKind::Acc:
    return {16, 16};
  }
  return {1, 1};
}

Type matmulAccumulator(Type lhs, Type rhs) {
  if (lhs != rhs)
    return {};
  Builder builder(lhs.getContext());
  switch (classify(lhs)) {
  case Element::I8:
    return builder.getI32Type();
  case Element::F16:
  case Element::BF16:
  case Element::F32:
    return builder.getF32Type();
  default:
    return {};
  }
}

bool isMatmulElementTypes(Type acc, Type lhs, Type rhs) {
  Type expected = matmulAccumulator(lhs, rhs);
  return expected && expected == acc;
}

const char *matmulElementTypeNames() {
  return "(i32, i8, i8), (f32, f16, f16), (f32, f32, f32), (f32, bf16, bf16)";
}

bool isAccStoreElementTypes(Type acc, Type memory) {
  if (acc == memory)
    return acc.isF32() || acc.isSignlessInteger(32);
  return acc.isF32() && (memory.isF16() || memory.isBF16());
}

} // namespace pld::ascend
