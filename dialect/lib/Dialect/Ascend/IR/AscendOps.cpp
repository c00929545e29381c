//===- AscendOps.cpp - ascend op verifiers --------------------------------===//

#include "pld/Dialect/Ascend/IR/Ascend.h"
#include "pld/Dialect/Ascend/IR/TargetRules.h"
#include "pld/Dialect/Pl/IR/RegionChecks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace pld::ascend;

#include "pld/Dialect/Ascend/IR/AscendOpInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "pld/Dialect/Ascend/IR/AscendOps.cpp.inc"

//===----------------------------------------------------------------------===//
// TileWriterOpInterface
//===----------------------------------------------------------------------===//

// A matrix multiply writes its accumulator.
Value TMatmulOp::getWrittenTile() { return getAcc(); }
Value TMatmulAccOp::getWrittenTile() { return getAcc(); }

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static Type elementOf(Value value) {
  Type type = value.getType();
  if (auto tile = dyn_cast<TileType>(type))
    return tile.getElementType();
  if (auto view = dyn_cast<ViewType>(type))
    return view.getElementType();
  return cast<GmPtrType>(type).getElementType();
}

static LogicalResult verifySameElement(Operation *op, Value a, StringRef aName,
                                       Value b, StringRef bName) {
  if (elementOf(a) == elementOf(b))
    return success();
  return op->emitOpError() << "expected '" << aName << "' and '" << bName
                           << "' to have the same element type, found "
                           << elementOf(a) << " and " << elementOf(b);
}

/// The target profile of the module around `op` (`pld.target`), default
/// Ascend910B, as pld-verify reads it.
static pld::TargetProfile targetOf(Operation *op) {
  for (auto module = op->getParentOfType<ModuleOp>(); module;
       module = module->getParentOfType<ModuleOp>())
    if (auto target = module->getAttrOfType<pld::TargetProfileAttr>(
            pld::PldDialect::getTargetAttrName()))
      return target.getValue();
  return pld::TargetProfile::Ascend910B;
}

/// Atomic add exists for f32, bf16, f16, i32, i16 and i8; bf16 only on
/// Ascend910B.
static LogicalResult verifyAtomic(Operation *op, AtomicType atomic,
                                  Type elementType) {
  if (atomic != AtomicType::AtomicAdd)
    return success();
  bool supported = elementType.isF32() || elementType.isBF16() ||
                   elementType.isF16() || elementType.isSignlessInteger(32) ||
                   elementType.isSignlessInteger(16) ||
                   elementType.isSignlessInteger(8);
  if (!supported)
    return op->emitOpError()
           << "atomic add is not supported for element type " << elementType
           << " (supported: f32, bf16, f16, i32, i16, i8)";
  if (elementType.isBF16() && targetOf(op) != pld::TargetProfile::Ascend910B)
    return op->emitOpError()
           << "bf16 atomic add needs the Ascend910B profile, but the module "
              "targets "
           << pld::stringifyTargetProfile(targetOf(op));
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

/// The optional tensor an access names comes with its element count (ODS
/// checks its type).
static LogicalResult verifyTensor(Operation *op, Value tensor, Value elements) {
  if (bool(tensor) != bool(elements))
    return op->emitOpError(
        "expected both the tensor and its element count, or neither");
  return success();
}

LogicalResult ViewOp::verify() {
  if (elementOf(getData()) != elementOf(getView()))
    return emitOpError() << "expected a view of the pointer's element type "
                         << elementOf(getData()) << ", found "
                         << elementOf(getView());
  return verifyTensor(*this, getTensor(), getTensorElements());
}

LogicalResult TileOp::verify() {
  if (bool(getValidRows()) != bool(getValidCols()))
    return emitOpError("expected both valid dimensions or neither");
  std::optional<int64_t> offset = getOffset();
  if (!offset)
    return success();
  auto tile = cast<TileType>(getTile().getType());
  if (*offset < 0 || *offset % AscendDialect::kTileAlignment != 0)
    return emitOpError() << "expected offset to be a non-negative multiple "
                            "of "
                         << AscendDialect::kTileAlignment << ", found "
                         << *offset;
  // A vec tile keeps the unified-buffer bound it always had (ascend-plan-ub's
  // ub-bytes ceiling); the cube's buffers are the chip's.
  int64_t capacity = tile.getKind() == TileKind::Vec
                         ? AscendDialect::kUnifiedBufferBytes
                         : tileBufferBytes(targetOf(*this), tile.getKind());
  if (*offset + tile.getByteSize() > capacity)
    return emitOpError() << "the tile covers bytes [" << *offset << ", "
                         << *offset + tile.getByteSize() << ") of the "
                         << tileBufferName(tile.getKind()) << ", which has "
                         << capacity;
  return success();
}

/// `value` is a tile of one of `kinds`.
static LogicalResult verifyKind(Operation *op, Value value, StringRef name,
                                std::initializer_list<TileKind> kinds) {
  TileKind kind = cast<TileType>(value.getType()).getKind();
  if (llvm::is_contained(kinds, kind))
    return success();
  std::string expected;
  for (TileKind candidate : kinds) {
    if (!expected.empty())
      expected += "' or '";
    expected += stringifyTileKind(candidate);
  }
  return op->emitOpError() << "expected '" << name << "' to be a '" << expected
                           << "' tile, found a '" << stringifyTileKind(kind)
                           << "' tile";
}

/// TLOAD and TSTORE move fewer than 4096 rows on Ascend910B.
static LogicalResult verifyRowCount(Operation *op, Value tile) {
  int64_t rows = cast<TileType>(tile.getType()).getRows();
  pld::TargetProfile profile = targetOf(op);
  std::optional<int64_t> most = maxTileRows(profile);
  if (!most || rows <= *most)
    return success();
  return op->emitOpError() << "moves a tile of " << rows << " rows, but "
                           << pld::stringifyTargetProfile(profile)
                           << "'s TLOAD and TSTORE move at most " << *most
                           << " rows";
}

LogicalResult TLoadOp::verify() {
  if (failed(
          verifyKind(*this, getDst(), "dst", {TileKind::Vec, TileKind::Mat})) ||
      failed(verifyRowCount(*this, getDst())))
    return failure();
  return verifySameElement(*this, getDst(), "dst", getSrc(), "src");
}

LogicalResult TStoreOp::verify() {
  if (failed(verifyKind(*this, getTile(), "tile", {TileKind::Vec})) ||
      failed(verifyRowCount(*this, getTile())) ||
      failed(verifySameElement(*this, getDst(), "dst", getTile(), "tile")))
    return failure();
  return verifyAtomic(*this, getAtomic(), elementOf(getDst()));
}

LogicalResult TExtractOp::verify() {
  if (failed(verifyKind(*this, getDst(), "dst",
                        {TileKind::Left, TileKind::Right})) ||
      failed(verifyKind(*this, getSrc(), "src", {TileKind::Mat})) ||
      failed(verifySameElement(*this, getDst(), "dst", getSrc(), "src")))
    return failure();
  auto dst = cast<TileType>(getDst().getType());
  auto src = cast<TileType>(getSrc().getType());
  // PTO asserts indexRow + dst rows <= src rows (and so for columns).
  if (dst.getRows() > src.getRows() || dst.getCols() > src.getCols())
    return emitOpError() << "expected 'dst' ("
                         << pld::formatShape(dst.getShape())
                         << ") to fit inside 'src' ("
                         << pld::formatShape(src.getShape()) << ")";
  return success();
}

/// The static rules of TMATMUL: the kinds, the element types, and
/// `m x k` times `k x n` into `m x n`.
static LogicalResult verifyMatmul(Operation *op, Value acc, Value lhs,
                                  Value rhs) {
  if (failed(verifyKind(op, acc, "acc", {TileKind::Acc})) ||
      failed(verifyKind(op, lhs, "lhs", {TileKind::Left})) ||
      failed(verifyKind(op, rhs, "rhs", {TileKind::Right})))
    return failure();
  if (!isMatmulElementTypes(elementOf(acc), elementOf(lhs), elementOf(rhs)))
    return op->emitOpError() << "TMATMUL has no (" << elementOf(acc) << ", "
                             << elementOf(lhs) << ", " << elementOf(rhs)
                             << ") (acc, lhs, rhs) element types (it has "
                             << matmulElementTypeNames() << ")";
  auto c = cast<TileType>(acc.getType());
  auto a = cast<TileType>(lhs.getType());
  auto b = cast<TileType>(rhs.getType());
  if (a.getRows() != c.getRows() || a.getCols() != b.getRows() ||
      b.getCols() != c.getCols())
    return op->emitOpError()
           << "expected an m x k 'lhs', a k x n 'rhs' and an m x n 'acc', "
              "found "
           << pld::formatShape(a.getShape()) << ", "
           << pld::formatShape(b.getShape()) << " and "
           << pld::formatShape(c.getShape());
  return success();
}

LogicalResult TMatmulOp::verify() {
  return verifyMatmul(*this, getAcc(), getLhs(), getRhs());
}

LogicalResult TMatmulAccOp::verify() {
  return verifyMatmul(*this, getAcc(), getLhs(), getRhs());
}

LogicalResult TStoreAccOp::verify() {
  if (failed(verifyKind(*this, getTile(), "tile", {TileKind::Acc})))
    return failure();
  if (isAccStoreElementTypes(elementOf(getTile()), elementOf(getDst())))
    return success();
  return emitOpError() << "the fixpipe does not store an "
                       << elementOf(getTile()) << " accumulator as "
                       << elementOf(getDst())
                       << " (f32 as f32, f16 or bf16; i32 as i32)";
}

/// Tile math exists for the element types of the module's chip.
/// `instruction` is the one the op is (a tile-scalar form names its own).
static LogicalResult verifyTileMath(Operation *op, TileMath math, Value dst,
                                    llvm::StringRef instruction = {}) {
  if (failed(verifyKind(op, dst, "dst", {TileKind::Vec})))
    return failure();
  Type element = elementOf(dst);
  pld::TargetProfile profile = targetOf(op);
  if (isTileMathElementType(profile, math, element))
    return success();
  if (instruction.empty())
    instruction = tileMathName(math);
  return op->emitOpError() << instruction << " has no " << element
                           << " tiles on "
                           << pld::stringifyTargetProfile(profile)
                           << " (it has "
                           << tileMathElementTypeNames(profile, math) << ")";
}

LogicalResult TAddOp::verify() {
  return verifyTileMath(*this, TileMath::Add, getDst());
}
LogicalResult TMaxOp::verify() {
  return verifyTileMath(*this, TileMath::Max, getDst());
}
LogicalResult TMinOp::verify() {
  return verifyTileMath(*this, TileMath::Min, getDst());
}
LogicalResult TMulOp::verify() {
  return verifyTileMath(*this, TileMath::Mul, getDst());
}
LogicalResult TSubOp::verify() {
  return verifyTileMath(*this, TileMath::Sub, getDst());
}
LogicalResult TAddSOp::verify() {
  return verifyTileMath(*this, TileMath::Add, getDst(), "TADDS");
}
LogicalResult TSubSOp::verify() {
  return verifyTileMath(*this, TileMath::Sub, getDst(), "TSUBS");
}
LogicalResult TMulSOp::verify() {
  return verifyTileMath(*this, TileMath::Mul, getDst(), "TMULS");
}
LogicalResult TMaxSOp::verify() {
  return verifyTileMath(*this, TileMath::Max, getDst(), "TMAXS");
}
LogicalResult TMinSOp::verify() {
  return verifyTileMath(*this, TileMath::Min, getDst(), "TMINS");
}
LogicalResult TCvtOp::verify() {
  if (failed(verifyKind(*this, getDst(), "dst", {TileKind::Vec})) ||
      failed(verifyKind(*this, getSrc(), "src", {TileKind::Vec})))
    return failure();
  if (getRound() > 6)
    return emitOpError("expected a RoundMode in [0, 6], found ") << getRound();
  pld::TargetProfile profile = targetOf(*this);
  Type from = elementOf(getSrc()), to = elementOf(getDst());
  if (isConversion(profile, from, to))
    return success();
  return emitOpError() << "TCVT has no " << from << " -> " << to
                       << " conversion on "
                       << pld::stringifyTargetProfile(profile) << " (it has "
                       << conversionNames(profile) << ")";
}
LogicalResult TExpandSOp::verify() {
  return verifyTileMath(*this, TileMath::Expand, getDst());
}

LogicalResult ValidShapeOp::fold(FoldAdaptor,
                                 SmallVectorImpl<OpFoldResult> &results) {
  auto tile = getTile().getDefiningOp<TileOp>();
  if (!tile)
    return failure();
  if (tile.getValidRows()) {
    results.push_back(tile.getValidRows());
    results.push_back(tile.getValidCols());
    return success();
  }
  auto type = cast<TileType>(tile.getType());
  Builder builder(getContext());
  results.push_back(builder.getIndexAttr(type.getRows()));
  results.push_back(builder.getIndexAttr(type.getCols()));
  return success();
}

template <typename TransferOp>
static LogicalResult verifyTransfer(TransferOp op, AtomicType atomic) {
  if (failed(verifyKind(op, op.getPing(), "ping", {TileKind::Vec})) ||
      failed(verifySameElement(op, op.getDst(), "dst", op.getSrc(), "src")) ||
      failed(verifySameElement(op, op.getDst(), "dst", op.getPing(), "ping")))
    return failure();
  if (op.getPong() && op.getPong().getType() != op.getPing().getType())
    return op.emitOpError()
           << "expected the ping and pong tiles to have one "
              "type, found "
           << op.getPing().getType() << " and " << op.getPong().getType();
  return verifyAtomic(op, atomic, elementOf(op.getDst()));
}

LogicalResult TPutOp::verify() { return verifyTransfer(*this, getAtomic()); }

LogicalResult TGetOp::verify() {
  return verifyTransfer(*this, AtomicType::AtomicNone);
}

LogicalResult SdmaSessionOp::verify() {
  std::optional<int64_t> offset = getOffset();
  if (!offset)
    return success();
  if (*offset < 0 || *offset % AscendDialect::kTileAlignment != 0)
    return emitOpError() << "expected offset to be a non-negative multiple "
                            "of "
                         << AscendDialect::kTileAlignment << ", found "
                         << *offset;
  if (*offset + kSdmaScratchBytes > AscendDialect::kUnifiedBufferBytes)
    return emitOpError() << "the session's scratch buffer covers bytes ["
                         << *offset << ", " << *offset + kSdmaScratchBytes
                         << ") of the unified buffer, which has "
                         << AscendDialect::kUnifiedBufferBytes;
  return success();
}

LogicalResult ReadOp::verify() {
  if (getValue().getType() != elementOf(getPtr()))
    return emitOpError() << "expected a value of the pointer's element type "
                         << elementOf(getPtr()) << ", found "
                         << getValue().getType();
  return verifyTensor(*this, getTensor(), getTensorElements());
}

LogicalResult WriteOp::verify() {
  if (getValue().getType() != elementOf(getPtr()))
    return emitOpError() << "expected a value of the pointer's element type "
                         << elementOf(getPtr()) << ", found "
                         << getValue().getType();
  return verifyTensor(*this, getTensor(), getTensorElements());
}

//===----------------------------------------------------------------------===//
// Kernel references
//===----------------------------------------------------------------------===//

/// `symbol` names a function that takes the context, then `args`, and
/// returns nothing; a submitted task's kernel may take the task's dispatch
/// payload between the two (the runtime passes it).
static LogicalResult verifyKernelUse(Operation *op, FlatSymbolRefAttr symbol,
                                     ValueRange args,
                                     SymbolTableCollection &symbols,
                                     bool mayTakePayload) {
  auto kernel =
      symbols.lookupNearestSymbolFrom<FunctionOpInterface>(op, symbol);
  if (!kernel)
    return op->emitOpError()
           << "expected '" << symbol.getValue() << "' to name a function";
  ArrayRef<Type> inputs = kernel.getArgumentTypes();
  bool matches = !inputs.empty() && isa<CtxType>(inputs.front()) &&
                 kernel.getResultTypes().empty();
  inputs = inputs.drop_front(matches ? 1 : 0);
  if (mayTakePayload && !inputs.empty() &&
      isa<DispatchPayloadType>(inputs.front()))
    inputs = inputs.drop_front();
  if (matches && TypeRange(inputs) == args.getTypes())
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "expected '" << symbol.getValue()
                            << "' to take (!ascend.ctx, "
                            << (mayTakePayload ? "[!ascend.dispatch_payload, ]"
                                               : "")
                            << args.getTypes() << ") and return nothing";
  diag.attachNote(kernel.getLoc()) << "the function is declared here";
  return diag;
}

LogicalResult SubmitOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyKernelUse(*this, getKernelAttr(), getArgs(), symbols,
                         /*mayTakePayload=*/true);
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyKernelUse(*this, getKernelAttr(), getArgs(), symbols,
                         /*mayTakePayload=*/false);
}

LogicalResult RunMixedOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(verifyKernelUse(*this, getAicAttr(), getArgs(), symbols,
                             /*mayTakePayload=*/false)))
    return failure();
  return verifyKernelUse(*this, getAivAttr(), getArgs(), symbols,
                         /*mayTakePayload=*/false);
}

/// A cross-core flag runs from one kind of core to the other.
template <typename CrossCoreOp>
static LogicalResult verifyCrossCore(CrossCoreOp op) {
  if (op.getSrc() != op.getDst())
    return success();
  return op.emitOpError() << "expected a flag between the cube and a vector "
                             "core, found "
                          << stringifyCore(op.getSrc()) << " -> "
                          << stringifyCore(op.getDst());
}

LogicalResult CrossCoreSignalOp::verify() { return verifyCrossCore(*this); }
LogicalResult CrossCoreWaitOp::verify() { return verifyCrossCore(*this); }

LogicalResult RunOnLanesOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyKernelUse(*this, getBodyAttr(), getArgs(), symbols,
                         /*mayTakePayload=*/false);
}

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

std::optional<Pipe> pld::ascend::getPipe(Operation *op) {
  // Only ascend ops issue on a pipe: the passes ask of every op, most of
  // them arith and scf, which one dialect check answers.
  if (!isa_and_nonnull<AscendDialect>(op->getDialect()))
    return std::nullopt;
  // OnPipe is a template over the pipe: one check per pipe.
  if (op->hasTrait<OnPipe<Pipe::S>::Impl>())
    return Pipe::S;
  if (op->hasTrait<OnPipe<Pipe::V>::Impl>())
    return Pipe::V;
  if (op->hasTrait<OnPipe<Pipe::M>::Impl>())
    return Pipe::M;
  if (op->hasTrait<OnPipe<Pipe::MTE1>::Impl>())
    return Pipe::MTE1;
  if (op->hasTrait<OnPipe<Pipe::MTE2>::Impl>())
    return Pipe::MTE2;
  if (op->hasTrait<OnPipe<Pipe::MTE3>::Impl>())
    return Pipe::MTE3;
  if (op->hasTrait<OnPipe<Pipe::FIX>::Impl>())
    return Pipe::FIX;
  if (op->hasTrait<OnPipe<Pipe::All>::Impl>())
    return Pipe::All;
  return std::nullopt;
}
