//===- PldOps.cpp - pld op syntax helpers and verifiers -------------------===//
//
// Every per-op rule of semantics §3. Messages say what was expected and what
// was found; rules that need context beyond one op live in `pld-verify`.
//
//===----------------------------------------------------------------------===//

#include "pld/Dialect/Pl/IR/RegionChecks.h"
#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>

using namespace mlir;
using namespace pld;

/// The number of ranks is at most 64 (the CommContext holds 64 windows).
static constexpr int64_t kMaxRanks = 64;

//===----------------------------------------------------------------------===//
// custom<WindowBufferSize>: `bytes N` or `shape [..] dtype T`
//===----------------------------------------------------------------------===//

static ParseResult
parseWindowBufferSize(OpAsmParser &parser,
                      SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes,
                      DenseI64ArrayAttr &staticSizes, TypeAttr &dtype) {
  Builder &builder = parser.getBuilder();
  if (succeeded(parser.parseOptionalKeyword("bytes"))) {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult hasOperand = parser.parseOptionalOperand(operand);
    if (hasOperand.has_value()) {
      if (failed(*hasOperand))
        return failure();
      sizes.push_back(operand);
      staticSizes = builder.getDenseI64ArrayAttr({ShapedType::kDynamic});
      return success();
    }
    int64_t bytes;
    if (parser.parseInteger(bytes))
      return failure();
    staticSizes = builder.getDenseI64ArrayAttr({bytes});
    return success();
  }
  Type elementType;
  if (parser.parseKeyword("shape") ||
      parseDynamicIndexList(parser, sizes, staticSizes) ||
      parser.parseKeyword("dtype") || parser.parseType(elementType))
    return failure();
  dtype = TypeAttr::get(elementType);
  return success();
}

static void printWindowBufferSize(OpAsmPrinter &printer, Operation *op,
                                  OperandRange sizes,
                                  DenseI64ArrayAttr staticSizes,
                                  TypeAttr dtype) {
  if (!dtype && staticSizes.size() == 1) {
    printer << "bytes ";
    if (ShapedType::isDynamic(staticSizes[0]) && sizes.size() == 1)
      printer << sizes.front();
    else
      printer << staticSizes[0];
    return;
  }
  printer << "shape ";
  printDynamicIndexList(printer, op, sizes, staticSizes);
  printer << " dtype ";
  if (dtype)
    printer << dtype.getValue();
}

#define GET_OP_CLASSES
#include "pld/Dialect/Pld/IR/PldOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Value ranges (semantics §1: 1 <= N <= 64 ranks)
//===----------------------------------------------------------------------===//

static void setRange(Value result, int64_t min, int64_t max,
                     SetIntRangeFn setResultRange) {
  Type type = result.getType();
  unsigned width = isa<IndexType>(type) ? IndexType::kInternalStorageBitWidth
                                        : type.getIntOrFloatBitWidth();
  setResultRange(result, ConstantIntRanges::fromSigned(APInt(width, min),
                                                       APInt(width, max)));
}

/// `pld.system.rank %ctx` and `pld.system.nranks %ctx`: an `i32`, or with
/// `: index` an `index`.
static ParseResult parseRankQuery(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand ctx;
  Type type = parser.getBuilder().getI32Type();
  if (parser.parseOperand(ctx) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      (succeeded(parser.parseOptionalColon()) && parser.parseType(type)) ||
      parser.resolveOperand(ctx, CommCtxType::get(parser.getContext()),
                            result.operands))
    return failure();
  result.addTypes(type);
  return success();
}

static void printRankQuery(OpAsmPrinter &printer, Operation *op) {
  printer << ' ' << op->getOperand(0);
  printer.printOptionalAttrDict(op->getAttrs());
  if (!op->getResult(0).getType().isInteger(32))
    printer << " : " << op->getResult(0).getType();
}

ParseResult SystemRankOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseRankQuery(parser, result);
}
void SystemRankOp::print(OpAsmPrinter &printer) {
  printRankQuery(printer, *this);
}
ParseResult SystemNranksOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseRankQuery(parser, result);
}
void SystemNranksOp::print(OpAsmPrinter &printer) {
  printRankQuery(printer, *this);
}

void SystemRankOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                                     SetIntRangeFn setResultRange) {
  setRange(getRank(), 0, kMaxRanks - 1, setResultRange);
}

void SystemNranksOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                                       SetIntRangeFn setResultRange) {
  setRange(getNranks(), 1, kMaxRanks, setResultRange);
}

void SystemWorldRankOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                                          SetIntRangeFn setResultRange) {
  setRange(getRank(), 0, kMaxRanks - 1, setResultRange);
}

void SystemWorldSizeOp::inferResultRanges(ArrayRef<ConstantIntRanges>,
                                          SetIntRangeFn setResultRange) {
  setRange(getSize(), 1, kMaxRanks, setResultRange);
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static DistributedTensorType dtensor(Value value) {
  return cast<DistributedTensorType>(value.getType());
}

static std::string dimText(int64_t dim) {
  return ShapedType::isDynamic(dim) ? std::string("?") : std::to_string(dim);
}

/// A signal is an `i32` DT.
static LogicalResult verifySignalElementType(Operation *op, StringRef name,
                                             Value signal) {
  Type elementType = dtensor(signal).getElementType();
  if (elementType.isSignlessInteger(32))
    return success();
  return op->emitOpError()
         << "expected '" << name
         << "' to be an i32 signal tensor, found element type " << elementType;
}

/// notify/wait/defer_wait address one existing signal cell.
static LogicalResult verifySignalCell(Operation *op, StringRef name,
                                      Value signal, ArrayRef<int64_t> offsets,
                                      ValueRange dynamicOffsets) {
  if (failed(verifyIndexList(op, "offsets", offsets, dynamicOffsets)) ||
      failed(verifySignalElementType(op, name, signal)))
    return failure();
  return verifyElementAccess(op, ("'" + name + "'").str(), dtensor(signal),
                             offsets);
}

static LogicalResult verifyDistinct(Operation *op, Value a, StringRef aName,
                                    Value b, StringRef bName) {
  if (a != b)
    return success();
  return op->emitOpError() << "expected '" << aName << "' and '" << bName
                           << "' to be distinct tensors, found the same value";
}

static LogicalResult verifyAtomicElementType(Operation *op, AtomicType atomic,
                                             Type elementType) {
  if (atomic != AtomicType::Add)
    return success();
  if (elementType.isF32() || elementType.isBF16() || elementType.isF16() ||
      elementType.isSignlessInteger(32) || elementType.isSignlessInteger(16) ||
      elementType.isSignlessInteger(8))
    return success();
  return op->emitOpError() << "atomic add is not supported for element type "
                           << elementType
                           << " (supported: f32, bf16, f16, i32, i16, i8)";
}

static LogicalResult verifyRankCount(Operation *op, int64_t ranks,
                                     StringRef where) {
  if (ShapedType::isDynamic(ranks) || (ranks >= 1 && ranks <= kMaxRanks))
    return success();
  return op->emitOpError() << "expected a rank count N in [1, " << kMaxRanks
                           << "] (" << where << "), found " << ranks;
}

/// A credit-barrier signal: `i32 [N, 1]`, `[N, 2]` (a second column of
/// counters for the faster algorithms' barriers) or `[N]` (PyPTO's
/// `[world_size]`, a cell per rank). Returns N, which may be dynamic.
/// The vector cores of every rank `op` runs on (`core_num`), 1 for an op
/// that is not a collective.
static int64_t coreCount(Operation *op) {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  return collective ? collective.getCoreCount() : 1;
}

static FailureOr<int64_t> verifyCreditSignal(Operation *op, Value signal) {
  if (failed(verifySignalElementType(op, "signal", signal)))
    return failure();
  ArrayRef<int64_t> shape = dtensor(signal).getShape();
  int64_t cores = coreCount(op);
  if (cores > 1) {
    // Block b counts on column b, or on columns 2b and 2b + 1.
    if (shape.size() != 2 || (!ShapedType::isDynamic(shape[1]) &&
                              shape[1] != cores && shape[1] != 2 * cores))
      return op->emitOpError("on ")
             << cores << " cores expects a signal of shape [N, " << cores
             << "] or [N, " << 2 * cores << "], found " << formatShape(shape);
    if (failed(verifyRankCount(op, shape[0], "the signal's leading dimension")))
      return failure();
    return shape[0];
  }
  bool isColumn = shape.size() == 2 && (shape[1] == 1 || shape[1] == 2);
  bool isVector = shape.size() == 1;
  if (!isColumn && !isVector)
    return op->emitOpError()
           << "expected a signal of shape [N, 1], [N, 2] or [N] (a cell per "
              "rank; a second column counts barriers), found "
           << formatShape(shape);
  if (failed(verifyRankCount(op, shape[0], "the signal's leading dimension")))
    return failure();
  return shape[0];
}

/// A collective target of one row per rank: `[N, SIZE]`.
static LogicalResult verifyRowsTarget(Operation *op,
                                      DistributedTensorType target) {
  if (target.getRank() == 2)
    return success();
  return op->emitOpError("expected a target of shape [N, SIZE], found ")
         << formatShape(target.getShape());
}

/// Two rank counts read off different operands agree when both are static.
static LogicalResult verifySameRankCount(Operation *op, int64_t fromSignal,
                                         StringRef otherName, int64_t other) {
  if (ShapedType::isDynamic(fromSignal) || ShapedType::isDynamic(other) ||
      fromSignal == other)
    return success();
  return op->emitOpError() << "expected the leading dimension of '" << otherName
                           << "' (" << other
                           << ") to equal the rank count N of the signal ("
                           << fromSignal << ")";
}

/// The credit signal of a collective over an `[N, SIZE]` target: one cell
/// per rank, and as many ranks as the target has rows.
static LogicalResult verifyRowsSignal(Operation *op, Value signal,
                                      DistributedTensorType target) {
  FailureOr<int64_t> ranks = verifyCreditSignal(op, signal);
  if (failed(ranks))
    return failure();
  return verifySameRankCount(op, *ranks, "target", target.getDimSize(0));
}

/// On several cores, a collective runs the algorithms that work on a part
/// of its data: `partitioned` (and `auto`).
static LogicalResult
verifyCoreAlgorithm(CollectiveOpInterface op,
                    std::optional<CollectiveAlgorithm> algorithm,
                    ArrayRef<CollectiveAlgorithm> partitioned) {
  int64_t cores = op.getCoreCount();
  if (cores == 1 || !algorithm || *algorithm == CollectiveAlgorithm::Auto ||
      llvm::is_contained(partitioned, *algorithm))
    return success();
  InFlightDiagnostic diagnostic = op->emitOpError("core_num ")
                                  << cores << " needs algorithm auto";
  for (CollectiveAlgorithm candidate : partitioned)
    diagnostic << (candidate == partitioned.back() ? " or " : ", ")
               << stringifyCollectiveAlgorithm(candidate);
  return diagnostic << ", found " << stringifyCollectiveAlgorithm(*algorithm);
}

/// A collective's `algorithm`, when it names one: one of the collective's
/// algorithms, on a signal that can host it, and on several cores one that
/// works on a part of the data.
static LogicalResult
verifyAlgorithm(CollectiveOpInterface op,
                std::optional<CollectiveAlgorithm> algorithm) {
  if (!algorithm)
    return success();
  SmallVector<CollectiveAlgorithm> algorithms;
  op.getAlgorithms(algorithms);
  if (!llvm::is_contained(algorithms, *algorithm)) {
    InFlightDiagnostic diagnostic =
        op->emitOpError("expected an algorithm in [");
    llvm::interleaveComma(
        algorithms, diagnostic, [&](CollectiveAlgorithm candidate) {
          diagnostic << stringifyCollectiveAlgorithm(candidate);
        });
    return diagnostic << "], found "
                      << stringifyCollectiveAlgorithm(*algorithm);
  }
  std::string problem = op.getAlgorithmSignalProblem(*algorithm);
  if (!problem.empty())
    return op->emitOpError(problem);
  SmallVector<CollectiveAlgorithm> partitioned;
  op.getPartitionedAlgorithms(partitioned);
  return verifyCoreAlgorithm(op, algorithm, partitioned);
}

//===----------------------------------------------------------------------===//
// pld.system.*
//===----------------------------------------------------------------------===//

LogicalResult SystemNotifyOp::verify() {
  return verifySignalCell(*this, "target", getTarget(), getStaticOffsets(),
                          getOffsets());
}

LogicalResult SystemWaitOp::verify() {
  return verifySignalCell(*this, "signal", getSignal(), getStaticOffsets(),
                          getOffsets());
}

LogicalResult SystemDeferWaitOp::verify() {
  if (failed(verifySignalCell(*this, "signal", getSignal(), getStaticOffsets(),
                              getOffsets())))
    return failure();
  if (getCmp() != WaitCmp::Ge)
    return emitOpError("only 'cmp ge' is supported by defer_wait, found 'cmp ")
           << stringifyWaitCmp(getCmp()) << "'";
  APInt expected;
  if (matchPattern(getExpected(), m_ConstantInt(&expected)) &&
      expected.isNegative())
    return emitOpError("expected a constant 'expected' in [0, 2147483647], "
                       "found ")
           << expected.getSExtValue()
           << " (counters are polled as uint32, so a negative threshold is "
              "never a valid one)";
  return success();
}

//===----------------------------------------------------------------------===//
// Window management
//===----------------------------------------------------------------------===//

LogicalResult TensorAllocWindowBufferOp::verify() {
  if (getName().empty())
    return emitOpError("expected a non-empty buffer name");
  ArrayRef<int64_t> sizes = getStaticSizes();
  if (failed(verifyIndexList(*this, "sizes", sizes, getSizes())))
    return failure();
  if (!getDtype() && sizes.size() != 1)
    return emitOpError("the byte-size overload takes exactly one size, found ")
           << sizes.size();
  if (getDtype() && sizes.empty())
    return emitOpError("expected a shape with at least one dimension");
  if (getDtype() && !getDtype()->isIntOrFloat())
    return emitOpError("expected an integer or float dtype, found ")
           << *getDtype();
  for (int64_t size : sizes)
    if (!ShapedType::isDynamic(size) && size <= 0)
      return emitOpError("expected positive sizes, found ") << size;
  if (std::optional<ArrayRef<int64_t>> ranks = getRanks()) {
    // semantics §1: a program runs on at most 64 ranks.
    if (ranks->empty())
      return emitOpError("expected at least one rank in the comm group");
    for (auto [index, rank] : llvm::enumerate(*ranks)) {
      if (rank < 0 || rank >= 64)
        return emitOpError("expected comm group ranks in [0, 64), found ")
               << rank;
      if (index > 0 && rank <= (*ranks)[index - 1])
        return emitOpError("expected comm group ranks in ascending order, "
                           "each once, found ")
               << rank << " after " << (*ranks)[index - 1];
    }
  }
  return success();
}

std::optional<int64_t> TensorAllocWindowBufferOp::getStaticByteSize() {
  // Callers include other ops' verifiers, which may run before this op's own
  // verifier: read nothing that verifier has not vouched for yet.
  int64_t bytes = 1;
  for (int64_t size : getStaticSizes()) {
    if (ShapedType::isDynamic(size) || size <= 0)
      return std::nullopt;
    if (llvm::MulOverflow(bytes, size, bytes))
      return std::nullopt;
  }
  if (std::optional<Type> dtype = getDtype()) {
    if (!dtype->isIntOrFloat())
      return std::nullopt;
    if (llvm::MulOverflow(
            bytes, int64_t(llvm::divideCeil(dtype->getIntOrFloatBitWidth(), 8)),
            bytes))
      return std::nullopt;
  }
  return bytes;
}

LogicalResult TensorWindowOp::verify() {
  DistributedTensorType type = dtensor(getResult());
  int64_t dynamicDims = type.getNumDynamicDims();
  if (static_cast<int64_t>(getDynamicSizes().size()) != dynamicDims)
    return emitOpError("expected ")
           << dynamicDims << " dynamic size operand(s), one per '?' of " << type
           << ", found " << getDynamicSizes().size();
  auto alloc = getBuffer().getDefiningOp<TensorAllocWindowBufferOp>();
  if (!alloc || !type.hasStaticShape())
    return success();
  std::optional<int64_t> available = alloc.getStaticByteSize();
  if (!available)
    return success();
  int64_t needed = type.getNumElements() *
                   llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  if (needed <= *available)
    return success();
  InFlightDiagnostic diag = emitOpError("the view needs ")
                            << needed << " bytes but window buffer '"
                            << alloc.getName() << "' holds " << *available;
  diag.attachNote(alloc.getLoc()) << "buffer allocated here";
  return diag;
}

LogicalResult TensorReshapeOp::verify() {
  DistributedTensorType source = dtensor(getSource());
  DistributedTensorType result = dtensor(getResult());
  if (source.getElementType() != result.getElementType())
    return emitOpError("expected the result element type to equal the "
                       "source's (")
           << source.getElementType() << "), found " << result.getElementType();
  int64_t dynamicDims = result.getNumDynamicDims();
  if (static_cast<int64_t>(getDynamicSizes().size()) != dynamicDims)
    return emitOpError("expected ")
           << dynamicDims << " dynamic size operand(s), one per '?' of "
           << result << ", found " << getDynamicSizes().size();
  if (source.hasStaticShape() && result.hasStaticShape() &&
      source.getNumElements() != result.getNumElements())
    return emitOpError("expected the same number of elements, found ")
           << source.getNumElements() << " in "
           << formatShape(source.getShape()) << " and "
           << result.getNumElements() << " in "
           << formatShape(result.getShape());
  return success();
}

LogicalResult TensorDimOp::verify() {
  int64_t rank = dtensor(getSource()).getRank();
  if (getDim() >= 0 && getDim() < rank)
    return success();
  return emitOpError("expected dim in [0, ") << rank << "), found " << getDim();
}

OpFoldResult TensorDimOp::fold(FoldAdaptor) {
  DistributedTensorType type = dtensor(getSource());
  if (getDim() < 0 || getDim() >= type.getRank() || type.isDynamicDim(getDim()))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()),
                          type.getDimSize(getDim()));
}

//===----------------------------------------------------------------------===//
// pld.tile.remote_load, pld.tile.remote_store, pld.tensor.remote_store
//===----------------------------------------------------------------------===//

LogicalResult TileRemoteLoadOp::verify() {
  std::optional<ArrayRef<int64_t>> valid;
  if (auto attr = getStaticValidSizesAttr())
    valid = attr.asArrayRef();
  if (failed(verifyIndexList(*this, "offsets", getStaticOffsets(),
                             getOffsets())) ||
      failed(verifyIndexList(*this, "valid_shape",
                             valid.value_or(ArrayRef<int64_t>()),
                             getValidSizes())))
    return failure();
  return verifyTileAccess(*this, "the target", dtensor(getTarget()),
                          cast<ShapedType>(getResult().getType()),
                          getStaticOffsets(), valid);
}

/// The rules shared by the tile and tensor forms of remote_store. `valid`
/// (tile form only) limits the pushed part of every source dimension.
static LogicalResult
verifyRemoteStore(Operation *op, ShapedType source,
                  DistributedTensorType target, ArrayRef<int64_t> offsets,
                  ValueRange dynamicOffsets, AtomicType atomic,
                  std::optional<ArrayRef<int64_t>> valid = std::nullopt,
                  ValueRange dynamicValid = {}) {
  if (failed(verifyIndexList(op, "offsets", offsets, dynamicOffsets)) ||
      failed(verifyIndexList(op, "valid_shape",
                             valid.value_or(ArrayRef<int64_t>()),
                             dynamicValid)))
    return failure();
  if (source.getElementType() != target.getElementType())
    return op->emitOpError("expected the source element type to equal the "
                           "target's (")
           << target.getElementType() << "), found " << source.getElementType();
  if (target.getRank() < 2)
    return op->emitOpError("expected a target of rank >= 2, found ")
           << target << " of rank " << target.getRank();
  ArrayRef<int64_t> srcShape = source.getShape();
  bool leadingOnes =
      srcShape.size() >= 2 &&
      llvm::all_of(srcShape.drop_back(2), [](int64_t dim) { return dim == 1; });
  if (!leadingOnes)
    return op->emitOpError("expected a 2-D source, or an N-D source whose "
                           "leading dimensions are 1, found shape ")
           << formatShape(srcShape);
  if (failed(verifyOnePerDim(op, "offset", offsets.size(), "the target",
                             target.getRank())) ||
      failed(verifyNonNegative(op, "offset", offsets)))
    return failure();
  if (valid) {
    if (failed(verifyOnePerDim(op, "valid_shape", valid->size(), "the source",
                               source.getRank())) ||
        failed(verifyValidShape(op, *valid, srcShape)))
      return failure();
    // Only the valid part is written, so a ragged edge may hang over the end.
    srcShape = *valid;
  }
  // Align the pushed block with the target's trailing dimensions; the
  // dimensions it does not cover (or its extra leading 1s) have extent 1.
  int64_t rank = target.getRank();
  SmallVector<int64_t> extents(rank, 1);
  ArrayRef<int64_t> trailing = srcShape.take_back(std::min<int64_t>(2, rank));
  llvm::copy(trailing, extents.end() - trailing.size());
  if (failed(verifyRegionFits(op, "the pushed region", offsets, extents,
                              "the target", target)))
    return failure();
  return verifyAtomicElementType(op, atomic, target.getElementType());
}

LogicalResult TileRemoteStoreOp::verify() {
  std::optional<ArrayRef<int64_t>> valid;
  if (auto attr = getStaticValidSizesAttr())
    valid = attr.asArrayRef();
  return verifyRemoteStore(*this, cast<ShapedType>(getSource().getType()),
                           dtensor(getTarget()), getStaticOffsets(),
                           getOffsets(), getAtomic(), valid, getValidSizes());
}

LogicalResult TensorRemoteStoreOp::verify() {
  return verifyRemoteStore(*this, cast<ShapedType>(getSource().getType()),
                           dtensor(getTarget()), getStaticOffsets(),
                           getOffsets(), getAtomic());
}

//===----------------------------------------------------------------------===//
// pld.tensor.put / pld.tensor.get
//===----------------------------------------------------------------------===//

namespace {
/// The operands of a put or a get, seen as remote and local sides.
struct TransferView {
  bool isPut;
  Value dst, src;
  std::optional<ArrayRef<int64_t>> dstOffsets, srcOffsets, sizes;
  OperandRange dynDstOffsets, dynSrcOffsets, dynSizes;
  int64_t chunkRows, chunkCols;
  bool pipeline;
  AtomicType atomic;
  TransferEngine engine;
};
} // namespace

/// The SDMA engine copies global memory to global memory: there is no
/// staging tile to size, and it has no atomic form (pto-isa
/// include/pto/comm/pto_comm_inst.hpp:339-350: TPUT_ASYNC takes no
/// AtomicType; its SDMA post is a plain copy, opcode 0,
/// comm/async/sdma/sdma_async_intrin.hpp:168-181).
static LogicalResult verifySdmaTransfer(Operation *op, const TransferView &t) {
  if (t.chunkRows != 0 || t.chunkCols != 0 || t.pipeline) {
    InFlightDiagnostic diag = op->emitOpError("engine sdma moves the region "
                                              "from global memory to global "
                                              "memory without a staging tile, "
                                              "so");
    if (t.chunkRows != 0)
      diag << " chunk_rows";
    if (t.chunkCols != 0)
      diag << (t.chunkRows != 0 ? "," : "") << " chunk_cols";
    if (t.pipeline)
      diag << (t.chunkRows != 0 || t.chunkCols != 0 ? "," : "") << " pipeline";
    return diag << " cannot apply (they size the staging of engine mte)";
  }
  if (t.atomic != AtomicType::None)
    return op->emitOpError("engine sdma cannot put with atomic add: the SDMA "
                           "engine only copies (TPUT_ASYNC has no atomic "
                           "form); use engine mte");
  return success();
}

static LogicalResult verifyTransfer(Operation *op, const TransferView &t) {
  StringRef verb = t.isPut ? "put" : "get";
  Value remote = t.isPut ? t.dst : t.src;
  Value local = t.isPut ? t.src : t.dst;
  StringRef remoteName = t.isPut ? "dst" : "src";
  StringRef localName = t.isPut ? "src" : "dst";

  if (!isa<DistributedTensorType>(remote.getType()))
    return op->emitOpError()
           << "expected '" << remoteName << "' (the remote "
           << "side of a " << verb
           << ") to be a window-bound !pld.dtensor, found " << remote.getType();
  if (isa<pl::TileType>(local.getType()))
    return op->emitOpError()
           << "a computed tile is not a valid " << verb << " " << localName
           << "; use "
           << (t.isPut ? "pld.tile.remote_store to push a tile"
                       : "pld.tile.remote_load to read into a tile");

  auto dstType = cast<ShapedType>(t.dst.getType());
  auto srcType = cast<ShapedType>(t.src.getType());
  if (dstType.getElementType() != srcType.getElementType())
    return op->emitOpError()
           << "expected 'dst' and 'src' to have the same "
           << "element type, found " << dstType.getElementType() << " and "
           << srcType.getElementType();
  if (dstType.getRank() != srcType.getRank())
    return op->emitOpError() << "expected 'dst' and 'src' to have the same "
                             << "rank, found " << dstType.getRank() << " and "
                             << srcType.getRank();
  for (ShapedType type : {dstType, srcType})
    for (int64_t dim : type.getShape())
      if (!ShapedType::isDynamic(dim) && dim <= 0)
        return op->emitOpError() << "expected positive static dimensions, "
                                 << "found " << type;
  int64_t rank = dstType.getRank();

  // The transfer extent: the region's shape, or the whole local slice.
  SmallVector<int64_t> extent;
  int present = int(t.dstOffsets.has_value()) + int(t.srcOffsets.has_value()) +
                int(t.sizes.has_value());
  if (present != 0 && present != 3) {
    InFlightDiagnostic diag = op->emitOpError(
        "expected dst_offsets, src_offsets and shape all together or not at "
        "all, found only");
    if (t.dstOffsets)
      diag << " dst_offsets";
    if (t.srcOffsets)
      diag << " src_offsets";
    if (t.sizes)
      diag << " shape";
    return diag;
  }
  if (present == 3) {
    struct List {
      StringRef name;
      ArrayRef<int64_t> values;
      OperandRange dynamic;
    };
    for (const List &list :
         {List{"dst_offsets", *t.dstOffsets, t.dynDstOffsets},
          List{"src_offsets", *t.srcOffsets, t.dynSrcOffsets},
          List{"shape", *t.sizes, t.dynSizes}}) {
      if (failed(verifyIndexList(op, list.name, list.values, list.dynamic)) ||
          failed(verifyOnePerDim(op, list.name, list.values.size(),
                                 "'dst' and 'src'", rank)))
        return failure();
    }
    if (failed(verifyNonNegative(op, "dst_offsets", *t.dstOffsets)) ||
        failed(verifyNonNegative(op, "src_offsets", *t.srcOffsets)))
      return failure();
    for (auto [dim, size] : llvm::enumerate(*t.sizes))
      if (!ShapedType::isDynamic(size) && size <= 0)
        return op->emitOpError() << "expected shape entry " << dim
                                 << " to be positive, found " << size;
    if (failed(verifyRegionFits(op, "the transferred region", *t.dstOffsets,
                                *t.sizes, "'dst'", dstType)) ||
        failed(verifyRegionFits(op, "the transferred region", *t.srcOffsets,
                                *t.sizes, "'src'", srcType)))
      return failure();
    extent.assign(t.sizes->begin(), t.sizes->end());
  } else {
    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t d = dstType.getDimSize(dim), s = srcType.getDimSize(dim);
      if (!ShapedType::isDynamic(d) && !ShapedType::isDynamic(s) && d != s)
        return op->emitOpError()
               << "without dst_offsets/src_offsets/shape the whole local "
                  "slice moves, so 'dst' and 'src' must have equal shapes, "
                  "found "
               << formatShape(dstType.getShape()) << " and "
               << formatShape(srcType.getShape());
      // The static extent where either side has one: pld-expand-transfers
      // checks a dynamic side equal to it at run time.
      extent.push_back(ShapedType::isDynamic(d) ? s : d);
    }
  }

  // SDMA moves any extent, dynamic ones included, in one go.
  if (t.engine == TransferEngine::Sdma)
    return verifySdmaTransfer(op, t);
  if (t.chunkRows < 0 || t.chunkCols < 0)
    return op->emitOpError() << "expected chunk_rows and chunk_cols >= 0, "
                             << "found chunk_rows = " << t.chunkRows
                             << ", chunk_cols = " << t.chunkCols;
  if (t.pipeline && (t.chunkRows == 0 || t.chunkCols == 0))
    return op->emitOpError()
           << "pipeline requires chunk_rows > 0 and chunk_cols > 0 (double "
              "buffering needs a chunked transfer), found chunk_rows = "
           << t.chunkRows << ", chunk_cols = " << t.chunkCols;
  // The staging tile is allocated statically, so a runtime extent must be
  // bounded by the matching chunk size.
  bool dynamicLeading = llvm::any_of(ArrayRef<int64_t>(extent).drop_back(),
                                     ShapedType::isDynamic);
  if (dynamicLeading && t.chunkRows == 0)
    return op->emitOpError()
           << "a dynamic leading dimension needs chunk_rows > 0 (the staging "
              "tile is sized statically), found transfer shape "
           << formatShape(extent);
  if (ShapedType::isDynamic(extent.back()) && t.chunkCols == 0)
    return op->emitOpError()
           << "a dynamic innermost dimension needs chunk_cols > 0 (the "
              "staging tile is sized statically), found transfer shape "
           << formatShape(extent);
  return verifyAtomicElementType(op, t.atomic, dstType.getElementType());
}

static std::optional<ArrayRef<int64_t>> optionalList(DenseI64ArrayAttr attr) {
  if (!attr)
    return std::nullopt;
  return attr.asArrayRef();
}

template <typename TransferOp>
static TransferView viewOf(TransferOp op, bool isPut, AtomicType atomic) {
  return TransferView{isPut,
                      op.getDst(),
                      op.getSrc(),
                      optionalList(op.getStaticDstOffsetsAttr()),
                      optionalList(op.getStaticSrcOffsetsAttr()),
                      optionalList(op.getStaticSizesAttr()),
                      op.getDstOffsets(),
                      op.getSrcOffsets(),
                      op.getSizes(),
                      static_cast<int64_t>(op.getChunkRows()),
                      static_cast<int64_t>(op.getChunkCols()),
                      op.getPipeline(),
                      atomic,
                      op.getEngine()};
}

LogicalResult TensorPutOp::verify() {
  return verifyTransfer(*this, viewOf(*this, /*isPut=*/true, getAtomic()));
}

LogicalResult TensorGetOp::verify() {
  return verifyTransfer(*this,
                        viewOf(*this, /*isPut=*/false, AtomicType::None));
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

static bool isEpochAlgorithm(CollectiveAlgorithm algorithm) {
  return algorithm == CollectiveAlgorithm::OneshotEpoch ||
         algorithm == CollectiveAlgorithm::TwoshotEpoch;
}

/// An allreduce's `epoch` and `workspace`: both or neither; the workspace a
/// `[2, L]` window tensor of the target's element type (L its element
/// count) of its own; an epoch from 1; a mesh signal.
static LogicalResult verifyEpoch(TensorAllreduceOp op) {
  if (bool(op.getEpoch()) != bool(op.getWorkspace()))
    return op.emitOpError("expected 'epoch' and 'workspace' together, found ")
           << (op.getEpoch() ? "an epoch" : "a workspace") << " alone";
  // Which algorithms an epoch allows is getAlgorithmSignalProblem's, which
  // verifyAlgorithm asks.
  if (!op.getEpoch())
    return success();
  if (op.getMode() != CollectiveMode::Mesh)
    return op.emitOpError("the epoch algorithms run on a mesh signal: "
                          "expected mode mesh with 'epoch'");
  APInt epoch;
  if (matchPattern(op.getEpoch(), m_ConstantInt(&epoch)) &&
      (epoch.getSExtValue() < 1 || epoch.getSExtValue() > INT32_MAX))
    return op.emitOpError("expected an epoch in [1, 2147483647] (calls count "
                          "from 1 on a zeroed signal), found ")
           << epoch.getSExtValue();
  if (failed(verifyDistinct(op, op.getWorkspace(), "workspace", op.getTarget(),
                            "target")) ||
      failed(verifyDistinct(op, op.getWorkspace(), "workspace", op.getSignal(),
                            "signal")))
    return failure();
  DistributedTensorType target = dtensor(op.getTarget());
  DistributedTensorType workspace = dtensor(op.getWorkspace());
  if (workspace.getElementType() != target.getElementType())
    return op.emitOpError("expected a workspace of the target's element type ")
           << target.getElementType() << ", found "
           << workspace.getElementType();
  ArrayRef<int64_t> shape = workspace.getShape();
  int64_t elements =
      target.hasStaticShape() ? target.getNumElements() : ShapedType::kDynamic;
  bool rowsMatch =
      shape.size() == 2 && (ShapedType::isDynamic(shape[0]) || shape[0] == 2);
  bool columnsMatch = shape.size() == 2 &&
                      (ShapedType::isDynamic(shape[1]) ||
                       ShapedType::isDynamic(elements) || shape[1] == elements);
  if (!rowsMatch || !columnsMatch)
    return op.emitOpError("expected a workspace of shape [2, ")
           << dimText(elements)
           << "] (a row per epoch parity, as many elements as the target), "
              "found "
           << formatShape(shape);
  return success();
}

LogicalResult TensorAllreduceOp::verify() {
  DistributedTensorType target = dtensor(getTarget());
  Type elementType = target.getElementType();
  if (!elementType.isF16() && !elementType.isF32())
    return emitOpError("expected an f16 or f32 target, found element type ")
           << elementType;
  if (failed(verifyDistinct(*this, getTarget(), "target", getSignal(),
                            "signal")) ||
      failed(verifySignalElementType(*this, "signal", getSignal())) ||
      failed(verifyEpoch(*this)))
    return failure();
  ArrayRef<int64_t> shape = dtensor(getSignal()).getShape();
  int64_t cores = getCoreCount();
  // PyPTO's `[world_size]` signal: a cell per rank, as [N, 1] has.
  if (shape.size() == 1 && getMode() == CollectiveMode::Mesh && cores == 1) {
    if (failed(verifyRankCount(*this, shape[0], "the signal's only dimension")))
      return failure();
    return verifyAlgorithm(*this, getAlgorithm());
  }
  if (shape.size() != 2)
    return emitOpError("expected a 2-D signal (or [N] for a mesh allreduce "
                       "on one core), found shape ")
           << formatShape(shape);
  if (cores > 1 && getMode() != CollectiveMode::Mesh)
    return emitOpError("core_num ")
           << cores << " runs the mesh algorithms: expected mode mesh";
  if (getMode() == CollectiveMode::Mesh) {
    if (!ShapedType::isDynamic(shape[1]) && shape[1] != cores &&
        shape[1] != 2 * cores)
      return emitOpError("mesh allreduce on ")
             << cores << (cores == 1 ? " core" : " cores")
             << " expects a signal of shape [N, " << cores << "] or [N, "
             << 2 * cores << "], found " << formatShape(shape);
    if (failed(
            verifyRankCount(*this, shape[0], "the signal's leading dimension")))
      return failure();
    return verifyAlgorithm(*this, getAlgorithm());
  }
  int64_t ranks = shape[1];
  if (failed(verifyRankCount(*this, ranks, "the signal's second dimension")))
    return failure();
  // PyPTO's HOST ring takes one spare row, [2 * (N - 1) + 1, N]; the ring
  // counts on the first 2 * (N - 1).
  if (!ShapedType::isDynamic(ranks) && !ShapedType::isDynamic(shape[0]) &&
      shape[0] != 2 * (ranks - 1) && shape[0] != 2 * (ranks - 1) + 1)
    return emitOpError("ring allreduce expects a signal of shape "
                       "[2 * (N - 1), N] = [")
           << 2 * (ranks - 1) << ", " << ranks << "] (or one spare row, ["
           << 2 * (ranks - 1) + 1 << ", " << ranks << "]), found "
           << formatShape(shape);
  return verifyAlgorithm(*this, getAlgorithm());
}

LogicalResult TensorReduceScatterOp::verify() {
  DistributedTensorType target = dtensor(getTarget());
  if (failed(verifyRowsTarget(*this, target)))
    return failure();
  if (failed(verifyDistinct(*this, getTarget(), "target", getSignal(),
                            "signal")) ||
      failed(verifyRowsSignal(*this, getSignal(), target)))
    return failure();
  return verifyAlgorithm(*this, getAlgorithm());
}

LogicalResult TensorAllgatherOp::verify() {
  auto local = cast<ShapedType>(getLocal().getType());
  DistributedTensorType target = dtensor(getTarget());
  if (failed(
          verifyDistinct(*this, getLocal(), "local", getTarget(), "target")) ||
      failed(
          verifyDistinct(*this, getTarget(), "target", getSignal(), "signal")))
    return failure();
  if (local.getRank() != 2 ||
      (!ShapedType::isDynamic(local.getDimSize(0)) && local.getDimSize(0) != 1))
    return emitOpError("expected a local row of shape [1, SIZE], found ")
           << formatShape(local.getShape());
  if (failed(verifyRowsTarget(*this, target)))
    return failure();
  if (local.getElementType() != target.getElementType())
    return emitOpError("expected 'local' and 'target' to have the same "
                       "element type, found ")
           << local.getElementType() << " and " << target.getElementType();
  int64_t localSize = local.getDimSize(1), targetSize = target.getDimSize(1);
  if (!ShapedType::isDynamic(localSize) && !ShapedType::isDynamic(targetSize) &&
      localSize != targetSize)
    return emitOpError("expected 'local' and 'target' rows of the same SIZE, "
                       "found ")
           << localSize << " and " << targetSize;
  if (failed(verifyRowsSignal(*this, getSignal(), target)))
    return failure();
  return verifyAlgorithm(*this, getAlgorithm());
}

LogicalResult TensorBroadcastOp::verify() {
  if (failed(
          verifyDistinct(*this, getTarget(), "target", getSignal(), "signal")))
    return failure();
  FailureOr<int64_t> ranks = verifyCreditSignal(*this, getSignal());
  if (failed(ranks))
    return failure();
  APInt root;
  if (matchPattern(getRoot(), m_ConstantInt(&root))) {
    int64_t value = root.getSExtValue();
    if (value < 0 || (!ShapedType::isDynamic(*ranks) && value >= *ranks))
      return emitOpError("expected root in [0, N) = [0, ")
             << dimText(*ranks) << "), found " << value;
  }
  return verifyAlgorithm(*this, getAlgorithm());
}

LogicalResult TensorBarrierOp::verify() {
  return verifyCreditSignal(*this, getSignal());
}

/// An all_to_all's input: a window or a memref of the target's shape and
/// element type.
static LogicalResult verifyExchangeInput(Operation *op, Value input,
                                         DistributedTensorType target) {
  auto type = cast<ShapedType>(input.getType());
  if (type.getShape() == target.getShape() &&
      type.getElementType() == target.getElementType())
    return success();
  return op->emitOpError("expected 'input' and 'target' of the same shape and "
                         "element type, found ")
         << input.getType() << " and " << target;
}

LogicalResult TensorAllToAllOp::verify() {
  DistributedTensorType target = dtensor(getTarget());
  if (failed(
          verifyDistinct(*this, getInput(), "input", getTarget(), "target")) ||
      failed(verifyDistinct(*this, getTarget(), "target", getSignal(),
                            "signal")) ||
      failed(verifyDistinct(*this, getInput(), "input", getSignal(), "signal")))
    return failure();
  if (failed(verifyRowsTarget(*this, target)))
    return failure();
  if (failed(verifyExchangeInput(*this, getInput(), target)))
    return failure();
  if (failed(verifyRowsSignal(*this, getSignal(), target)))
    return failure();
  if (isa<MemRefType>(getInput().getType()) && getCoreCount() > 1)
    return emitOpError("core_num ")
           << getCoreCount()
           << " runs direct, which pulls each row from the peer's input: a "
              "memref input (not in the window) runs seed, on one core";
  return verifyAlgorithm(*this, getAlgorithm());
}

//===----------------------------------------------------------------------===//
// GEMMs fused with communication
//===----------------------------------------------------------------------===//

/// The static shape of a GEMM operand (a memref or a window tensor).
static FailureOr<ArrayRef<int64_t>> staticMatrix(Operation *op, StringRef name,
                                                 Value value) {
  auto shaped = cast<ShapedType>(value.getType());
  if (shaped.getRank() != 2)
    return op->emitOpError()
           << "expected '" << name << "' to be a matrix [rows, columns], found "
           << formatShape(shaped.getShape());
  if (!shaped.hasStaticShape())
    return op->emitOpError()
           << "expected '" << name << "' to have a static shape, found "
           << formatShape(shaped.getShape())
           << " (the decomposition tiles the product statically)";
  return shaped.getShape();
}

/// The inputs of a GEMM fused with communication: one element type, f16 or
/// bf16 (the cube multiplies them, accumulating in f32). `names` and
/// `values` list them in the op's order.
static LogicalResult verifyGemmInputs(Operation *op, ArrayRef<StringRef> names,
                                      ArrayRef<Value> values) {
  SmallVector<Type> types;
  for (Value value : values)
    types.push_back(cast<ShapedType>(value.getType()).getElementType());
  Type input = types.front();
  if ((input.isF16() || input.isBF16()) &&
      llvm::all_of(types, [&](Type type) { return type == input; }))
    return success();
  InFlightDiagnostic diagnostic = op->emitOpError("expected ");
  for (auto [index, name] : llvm::enumerate(names))
    diagnostic << (index == 0                  ? ""
                   : index + 1 == names.size() ? " and "
                                               : ", ")
               << "'" << name << "'";
  diagnostic << " of one element type, f16 or bf16, found ";
  for (auto [index, type] : llvm::enumerate(types))
    diagnostic << (index == 0                  ? ""
                   : index + 1 == types.size() ? " and "
                                               : ", ")
               << type;
  return diagnostic;
}

/// The element type the fixpipe stores a product of `input`s as: f32, or
/// `input` itself (the cast of the f32 accumulator).
static LogicalResult verifyGemmOutput(Operation *op, StringRef name,
                                      Value value, Type input) {
  Type output = cast<ShapedType>(value.getType()).getElementType();
  if (output.isF32() || output == input)
    return success();
  return op->emitOpError("expected '")
         << name << "' of element type f32 or " << input
         << " (the fixpipe's cast of the f32 product), found " << output;
}

/// The signal of a GEMM fused with communication on `cores` cube cores:
/// `i32 [N, 2 * cores * m]`, a row per rank (the fused forms read it as one
/// row of cells, the unfused ones hand it to a collective on 2 * cores
/// vector cores or more).
static FailureOr<ArrayRef<int64_t>>
verifyFusedSignal(Operation *op, Value value, int64_t cores) {
  if (failed(verifySignalElementType(op, "signal", value)))
    return failure();
  ArrayRef<int64_t> signal = dtensor(value).getShape();
  if (signal.size() != 2 || ShapedType::isDynamic(signal[1]) ||
      signal[1] % (2 * cores) != 0)
    return op->emitOpError("on ")
           << cores << " cube cores expects a signal of shape [N, " << 2 * cores
           << " * m] (a row per rank, a multiple of " << 2 * cores
           << " columns), found " << formatShape(signal);
  if (failed(verifyRankCount(op, signal[0], "the signal's leading dimension")))
    return failure();
  return signal;
}

/// A GEMM fused with communication is `fused`, `unfused` or `auto`.
static LogicalResult
verifyFusedAlgorithm(Operation *op,
                     std::optional<CollectiveAlgorithm> algorithm) {
  if (!algorithm || *algorithm == CollectiveAlgorithm::Auto ||
      *algorithm == CollectiveAlgorithm::Fused ||
      *algorithm == CollectiveAlgorithm::Unfused)
    return success();
  return op->emitOpError("expected an algorithm in [auto, fused, unfused], "
                         "found ")
         << stringifyCollectiveAlgorithm(*algorithm);
}

/// The rank count of a GEMM whose shapes are cut by rank: the signal's rows,
/// which must be static.
static FailureOr<int64_t> verifyStaticRanks(Operation *op,
                                            ArrayRef<int64_t> signal) {
  if (!ShapedType::isDynamic(signal[0]))
    return signal[0];
  return op->emitOpError("expected a static rank count N (the signal's "
                         "leading dimension: the operands' rows are cut by "
                         "rank), found ")
         << formatShape(signal);
}

/// A GEMM fused with communication sums its products.
static LogicalResult verifySummed(Operation *op, ReduceOp reduce) {
  if (reduce == ReduceOp::Sum)
    return success();
  return op->emitOpError("expected op sum (the products are summed), found ")
         << stringifyReduceOp(reduce);
}

/// `a` [M, K] and `b` [K, N] agree on K.
static LogicalResult verifyInnerDimension(Operation *op, ArrayRef<int64_t> a,
                                          ArrayRef<int64_t> b) {
  if (a[1] == b[0])
    return success();
  return op->emitOpError() << "expected the columns of 'a' (" << a[1]
                           << ") to equal the rows of 'b' (" << b[0] << ")";
}

/// `a` [M, K] times `b` [K, N] is the `[M, N]` operand `name`.
static LogicalResult verifyProductShape(Operation *op, ArrayRef<int64_t> a,
                                        ArrayRef<int64_t> b, StringRef name,
                                        ArrayRef<int64_t> product) {
  if (failed(verifyInnerDimension(op, a, b)))
    return failure();
  if (product[0] != a[0] || product[1] != b[1])
    return op->emitOpError()
           << "expected '" << name << "' of shape [" << a[0] << ", " << b[1]
           << "] (rows of 'a', columns of 'b'), found " << formatShape(product);
  return success();
}

LogicalResult TensorMatmulAllreduceOp::verify() {
  if (failed(verifySummed(*this, getOp())))
    return failure();
  if (failed(verifyDistinct(*this, getC(), "c", getSignal(), "signal")))
    return failure();
  FailureOr<ArrayRef<int64_t>> a = staticMatrix(*this, "a", getA());
  FailureOr<ArrayRef<int64_t>> b = staticMatrix(*this, "b", getB());
  FailureOr<ArrayRef<int64_t>> c = staticMatrix(*this, "c", getC());
  if (failed(a) || failed(b) || failed(c))
    return failure();
  if (failed(verifyProductShape(*this, *a, *b, "c", *c)))
    return failure();
  if (failed(verifyGemmInputs(*this, {"a", "b"}, {getA(), getB()})))
    return failure();
  Type input = cast<ShapedType>(getA().getType()).getElementType();
  if (failed(verifyGemmOutput(*this, "c", getC(), input)))
    return failure();
  int64_t cores = getCoreCount();
  FailureOr<ArrayRef<int64_t>> signal =
      verifyFusedSignal(*this, getSignal(), cores);
  if (failed(signal))
    return failure();
  std::optional<CollectiveAlgorithm> algorithm = getAlgorithm();
  if (failed(verifyFusedAlgorithm(*this, algorithm)))
    return failure();
  // The unfused form allreduces on the signal seen as [N * m, 2 * cores].
  int64_t rows = (*signal)[0] * ((*signal)[1] / (2 * cores));
  if (algorithm == CollectiveAlgorithm::Unfused &&
      !ShapedType::isDynamic((*signal)[0]) && rows > kMaxRanks)
    return emitOpError("algorithm unfused allreduces on the signal seen as [")
           << rows << ", " << 2 * cores
           << "], but an allreduce's signal has at most " << kMaxRanks
           << " rows: use fewer columns";
  return success();
}

LogicalResult TensorMatmulReduceScatterOp::verify() {
  if (failed(verifySummed(*this, getOp())))
    return failure();
  if (failed(verifyDistinct(*this, getPartial(), "partial", getOut(), "out")) ||
      failed(verifyDistinct(*this, getPartial(), "partial", getSignal(),
                            "signal")) ||
      failed(verifyDistinct(*this, getOut(), "out", getSignal(), "signal")))
    return failure();
  FailureOr<ArrayRef<int64_t>> a = staticMatrix(*this, "a", getA());
  FailureOr<ArrayRef<int64_t>> b = staticMatrix(*this, "b", getB());
  FailureOr<ArrayRef<int64_t>> partial =
      staticMatrix(*this, "partial", getPartial());
  FailureOr<ArrayRef<int64_t>> out = staticMatrix(*this, "out", getOut());
  if (failed(a) || failed(b) || failed(partial) || failed(out))
    return failure();
  if (failed(verifyProductShape(*this, *a, *b, "partial", *partial)))
    return failure();
  if (failed(verifyGemmInputs(*this, {"a", "b"}, {getA(), getB()})))
    return failure();
  Type input = cast<ShapedType>(getA().getType()).getElementType();
  if (failed(verifyGemmOutput(*this, "partial", getPartial(), input)))
    return failure();
  Type sum = dtensor(getPartial()).getElementType();
  Type output = cast<ShapedType>(getOut().getType()).getElementType();
  if (output != sum)
    return emitOpError("expected 'out' of the element type of 'partial' (")
           << sum << ", the sum it receives), found " << output;
  FailureOr<ArrayRef<int64_t>> signal =
      verifyFusedSignal(*this, getSignal(), getCoreCount());
  if (failed(signal))
    return failure();
  FailureOr<int64_t> ranks = verifyStaticRanks(*this, *signal);
  if (failed(ranks))
    return failure();
  if ((*a)[0] % *ranks != 0)
    return emitOpError() << "expected the rows of 'a' (" << (*a)[0]
                         << ") to be a multiple of the rank count N of the "
                            "signal ("
                         << *ranks << "): rank r receives rows [r M / N, (r "
                         << "+ 1) M / N)";
  if ((*out)[0] * *ranks != (*a)[0] || (*out)[1] != (*b)[1])
    return emitOpError() << "expected 'out' of shape [" << (*a)[0] / *ranks
                         << ", " << (*b)[1] << "] (the rows of 'a' over the "
                         << *ranks << " ranks of the signal, the columns of "
                         << "'b'), found " << formatShape(*out);
  std::optional<CollectiveAlgorithm> algorithm = getAlgorithm();
  if (failed(verifyFusedAlgorithm(*this, algorithm)))
    return failure();
  if (algorithm == CollectiveAlgorithm::Fused &&
      !isa<DistributedTensorType>(getOut().getType()))
    return emitOpError("algorithm fused adds every rank's tiles into the "
                       "owner's 'out', which must be a window tensor, found ")
           << getOut().getType();
  return success();
}

LogicalResult TensorAllgatherMatmulOp::verify() {
  if (failed(verifyDistinct(*this, getA(), "a", getGathered(), "gathered")) ||
      failed(verifyDistinct(*this, getGathered(), "gathered", getC(), "c")) ||
      failed(verifyDistinct(*this, getGathered(), "gathered", getSignal(),
                            "signal")) ||
      failed(verifyDistinct(*this, getC(), "c", getSignal(), "signal")))
    return failure();
  FailureOr<ArrayRef<int64_t>> a = staticMatrix(*this, "a", getA());
  FailureOr<ArrayRef<int64_t>> gathered =
      staticMatrix(*this, "gathered", getGathered());
  FailureOr<ArrayRef<int64_t>> b = staticMatrix(*this, "b", getB());
  FailureOr<ArrayRef<int64_t>> c = staticMatrix(*this, "c", getC());
  if (failed(a) || failed(gathered) || failed(b) || failed(c))
    return failure();
  if (failed(verifyInnerDimension(*this, *a, *b)))
    return failure();
  if (failed(verifyGemmInputs(*this, {"a", "gathered", "b"},
                              {getA(), getGathered(), getB()})))
    return failure();
  Type input = cast<ShapedType>(getA().getType()).getElementType();
  if (failed(verifyGemmOutput(*this, "c", getC(), input)))
    return failure();
  FailureOr<ArrayRef<int64_t>> signal =
      verifyFusedSignal(*this, getSignal(), getCoreCount());
  if (failed(signal))
    return failure();
  FailureOr<int64_t> ranks = verifyStaticRanks(*this, *signal);
  if (failed(ranks))
    return failure();
  int64_t rows = *ranks * (*a)[0];
  if ((*gathered)[0] != rows || (*gathered)[1] != (*a)[1])
    return emitOpError() << "expected 'gathered' of shape [" << rows << ", "
                         << (*a)[1] << "] (the rows of 'a' from each of the "
                         << *ranks << " ranks of the signal), found "
                         << formatShape(*gathered);
  if ((*c)[0] != rows || (*c)[1] != (*b)[1])
    return emitOpError() << "expected 'c' of shape [" << rows << ", " << (*b)[1]
                         << "] (rows of 'gathered', columns of "
                         << "'b'), found " << formatShape(*c);
  return verifyFusedAlgorithm(*this, getAlgorithm());
}

//===----------------------------------------------------------------------===//
// SignalOpInterface
//===----------------------------------------------------------------------===//

Value SystemNotifyOp::getSignalTensor() { return getTarget(); }
SmallVector<OpFoldResult> SystemNotifyOp::getCellOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}
Value SystemNotifyOp::getSignalPeer() { return getPeer(); }
Value SystemNotifyOp::getSignalScalar() { return getValue(); }
SignalEffect SystemNotifyOp::getSignalEffect() {
  return getOp() == NotifyOp::Set ? SignalEffect::NotifySet
                                  : SignalEffect::NotifyAtomicAdd;
}

/// The effect of a wait-like op's comparison.
static SignalEffect waitEffect(WaitCmp cmp) {
  return cmp == WaitCmp::Eq ? SignalEffect::WaitEq : SignalEffect::WaitGe;
}

Value SystemWaitOp::getSignalTensor() { return getSignal(); }
SmallVector<OpFoldResult> SystemWaitOp::getCellOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}
Value SystemWaitOp::getSignalPeer() { return Value(); }
Value SystemWaitOp::getSignalScalar() { return getExpected(); }
SignalEffect SystemWaitOp::getSignalEffect() { return waitEffect(getCmp()); }

Value SystemDeferWaitOp::getSignalTensor() { return getSignal(); }
SmallVector<OpFoldResult> SystemDeferWaitOp::getCellOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}
Value SystemDeferWaitOp::getSignalPeer() { return Value(); }
Value SystemDeferWaitOp::getSignalScalar() { return getExpected(); }
SignalEffect SystemDeferWaitOp::getSignalEffect() {
  return waitEffect(getCmp());
}
bool SystemDeferWaitOp::isDeferred() { return true; }

//===----------------------------------------------------------------------===//
// MemoryAccessOpInterface
//===----------------------------------------------------------------------===//

using pl::AccessKind;
using pl::MemoryAccess;

static AccessKind storeKind(AtomicType atomic) {
  return atomic == AtomicType::Add ? AccessKind::AtomicAdd : AccessKind::Write;
}

void TileRemoteLoadOp::getMemoryAccesses(
    SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(pl::tileAccess(getTarget(), getPeer(), AccessKind::Read,
                                    cast<ShapedType>(getResult().getType()),
                                    getStaticOffsets(), getOffsets(),
                                    getStaticValidSizes(), getValidSizes()));
}

void TileRemoteStoreOp::getMemoryAccesses(
    SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(pl::tileAccess(
      getTarget(), getPeer(), storeKind(getAtomic()),
      cast<ShapedType>(getSource().getType()), getStaticOffsets(), getOffsets(),
      getStaticValidSizes(), getValidSizes()));
}

void TensorRemoteStoreOp::getMemoryAccesses(
    SmallVectorImpl<MemoryAccess> &accesses) {
  // The whole local source is read and pushed as one block.
  accesses.push_back(
      MemoryAccess{getSource(), Value(), AccessKind::Read, {}, {}, {}});
  MemoryAccess target =
      pl::tileAccess(getTarget(), getPeer(), storeKind(getAtomic()),
                     cast<ShapedType>(getSource().getType()),
                     getStaticOffsets(), getOffsets(), std::nullopt, {});
  // The source's dynamic extents are the region's unknown sizes.
  target.sizedBy = getSource();
  accesses.push_back(std::move(target));
}

/// The two sides of a put or a get: `remote` on rank `peer`, `local` on the
/// op's own rank, each the whole tensor or its side of the region.
template <typename TransferOp>
static void transferAccesses(TransferOp op, Value remote, AccessKind remoteKind,
                             Value local, AccessKind localKind,
                             SmallVectorImpl<MemoryAccess> &accesses) {
  bool isPut = remote == op.getDst();
  auto side = [&](Value memory, Value peer, AccessKind kind, bool isDst) {
    if (!op.hasRegion())
      return MemoryAccess{memory, peer, kind, {}, {}, {}};
    return pl::regionAccess(memory, peer, kind,
                            isDst ? *op.getStaticDstOffsets()
                                  : *op.getStaticSrcOffsets(),
                            isDst ? op.getDstOffsets() : op.getSrcOffsets(),
                            *op.getStaticSizes(), op.getSizes());
  };
  accesses.push_back(side(remote, op.getPeer(), remoteKind, isPut));
  accesses.push_back(side(local, Value(), localKind, !isPut));
}

void TensorPutOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  transferAccesses(*this, getDst(), storeKind(getAtomic()), getSrc(),
                   AccessKind::Read, accesses);
}

void TensorGetOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  transferAccesses(*this, getSrc(), AccessKind::Read, getDst(),
                   AccessKind::Write, accesses);
}

/// An `i32 [N]` tensor of counts, one per rank.
static LogicalResult verifyCounts(Operation *op, StringRef name, Value counts,
                                  int64_t ranks) {
  auto type = cast<ShapedType>(counts.getType());
  if (!type.getElementType().isSignlessInteger(32) || type.getRank() != 1)
    return op->emitOpError("expected '")
           << name << "' to be i32 [N] (a count per rank), found "
           << counts.getType();
  return verifySameRankCount(op, ranks, name, type.getDimSize(0));
}

LogicalResult TensorAllToAllVOp::verify() {
  DistributedTensorType target = dtensor(getTarget());
  if (failed(verifyDistinct(*this, getTarget(), "target", getSignal(),
                            "signal")) ||
      failed(
          verifyDistinct(*this, getInput(), "input", getTarget(), "target")) ||
      failed(verifyDistinct(*this, getRecvCounts(), "recv_counts", getSignal(),
                            "signal")) ||
      failed(verifyRowsTarget(*this, target)))
    return failure();
  if (failed(verifyExchangeInput(*this, getInput(), target)))
    return failure();
  FailureOr<int64_t> ranks = verifyCreditSignal(*this, getSignal());
  if (failed(ranks) ||
      failed(
          verifySameRankCount(*this, *ranks, "target", target.getDimSize(0))) ||
      failed(verifyCounts(*this, "send_counts", getSendCounts(), *ranks)) ||
      failed(verifyCounts(*this, "recv_counts", getRecvCounts(), *ranks)))
    return failure();
  return verifyAlgorithm(*this, getAlgorithm());
}

//===----------------------------------------------------------------------===//
// CollectiveOpInterface
//===----------------------------------------------------------------------===//

Value TensorAllreduceOp::getSignalTensor() { return getSignal(); }
void TensorAllreduceOp::getCollectiveTensors(SmallVectorImpl<Value> &tensors) {
  tensors.push_back(getTarget());
  if (Value workspace = getWorkspace())
    tensors.push_back(workspace);
}
Value TensorReduceScatterOp::getSignalTensor() { return getSignal(); }
void TensorReduceScatterOp::getCollectiveTensors(
    SmallVectorImpl<Value> &tensors) {
  tensors.push_back(getTarget());
}
Value TensorAllgatherOp::getSignalTensor() { return getSignal(); }
void TensorAllgatherOp::getCollectiveTensors(SmallVectorImpl<Value> &tensors) {
  tensors.append({getLocal(), getTarget()});
}
Value TensorBroadcastOp::getSignalTensor() { return getSignal(); }
void TensorBroadcastOp::getCollectiveTensors(SmallVectorImpl<Value> &tensors) {
  tensors.push_back(getTarget());
}
Value TensorBarrierOp::getSignalTensor() { return getSignal(); }
void TensorBarrierOp::getCollectiveTensors(SmallVectorImpl<Value> &) {}
Value TensorAllToAllVOp::getSignalTensor() { return getSignal(); }
void TensorAllToAllVOp::getCollectiveTensors(SmallVectorImpl<Value> &tensors) {
  tensors.append({getInput(), getTarget(), getSendCounts(), getRecvCounts()});
}
Value TensorAllToAllOp::getSignalTensor() { return getSignal(); }
void TensorAllToAllOp::getCollectiveTensors(SmallVectorImpl<Value> &tensors) {
  tensors.append({getInput(), getTarget()});
}

// The algorithms of docs/pld-decompose-collectives.md, per collective.
void TensorAllreduceOp::getAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append(
      {CollectiveAlgorithm::Auto, CollectiveAlgorithm::Oneshot,
       CollectiveAlgorithm::Twoshot, CollectiveAlgorithm::TwoshotPush,
       CollectiveAlgorithm::Ring, CollectiveAlgorithm::SeedMesh,
       CollectiveAlgorithm::SeedRing, CollectiveAlgorithm::Seed,
       CollectiveAlgorithm::OneshotEpoch, CollectiveAlgorithm::TwoshotEpoch});
}
void TensorReduceScatterOp::getAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append({CollectiveAlgorithm::Auto, CollectiveAlgorithm::Direct,
                     CollectiveAlgorithm::Seed});
}
void TensorAllgatherOp::getAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append({CollectiveAlgorithm::Auto, CollectiveAlgorithm::Direct,
                     CollectiveAlgorithm::Seed});
}
void TensorBroadcastOp::getAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append({CollectiveAlgorithm::Auto, CollectiveAlgorithm::Star,
                     CollectiveAlgorithm::ScatterAllgather,
                     CollectiveAlgorithm::Seed});
}
void TensorAllToAllVOp::getAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append({CollectiveAlgorithm::Auto, CollectiveAlgorithm::Seed});
}
void TensorAllToAllOp::getAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append({CollectiveAlgorithm::Auto, CollectiveAlgorithm::Direct,
                     CollectiveAlgorithm::Seed});
}

// The algorithms that run on one core's part of the data
// (docs/pld-decompose-collectives.md, "Collectives on several cores"): the
// ones that read the data where it is, by pulls on a stream or a row.
void TensorAllreduceOp::getPartitionedAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append({CollectiveAlgorithm::Oneshot, CollectiveAlgorithm::Twoshot,
                     CollectiveAlgorithm::TwoshotPush,
                     CollectiveAlgorithm::OneshotEpoch,
                     CollectiveAlgorithm::TwoshotEpoch});
}
void TensorReduceScatterOp::getPartitionedAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.push_back(CollectiveAlgorithm::Direct);
}
void TensorAllgatherOp::getPartitionedAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.push_back(CollectiveAlgorithm::Direct);
}
void TensorBroadcastOp::getPartitionedAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.append(
      {CollectiveAlgorithm::Star, CollectiveAlgorithm::ScatterAllgather});
}
void TensorAllToAllOp::getPartitionedAlgorithms(
    SmallVectorImpl<CollectiveAlgorithm> &algorithms) {
  algorithms.push_back(CollectiveAlgorithm::Direct);
}

// direct pulls each row from the peer's input, which a memref is not.
std::string
TensorAllToAllOp::getAlgorithmSignalProblem(CollectiveAlgorithm algorithm) {
  if (algorithm != CollectiveAlgorithm::Direct ||
      !isa<MemRefType>(getInput().getType()))
    return {};
  return "algorithm direct pulls each row from the peer's input, which must "
         "be in the window (a distributed tensor); a memref input runs seed";
}

// The ring algorithms need the ring signal. Every other one counts on one
// cell [src, 0] per source rank, which a ring signal [2 * (N - 1), N] has
// too: N >= 2, since dimensions are positive.
std::string
TensorAllreduceOp::getAlgorithmSignalProblem(CollectiveAlgorithm algorithm) {
  // The epoch algorithms need the call's epoch and workspace; twoshot_epoch
  // announces its two phases on two cells per source and core.
  if (isEpochAlgorithm(algorithm) != bool(getEpoch())) {
    std::string problem;
    llvm::raw_string_ostream stream(problem);
    if (getEpoch())
      stream << "with 'epoch' expected algorithm auto, oneshot_epoch or "
                "twoshot_epoch, found "
             << stringifyCollectiveAlgorithm(algorithm);
    else
      stream << "algorithm " << stringifyCollectiveAlgorithm(algorithm)
             << " needs 'epoch' and 'workspace' (the call's number and a [2, "
                "L] buffer), found neither";
    return problem;
  }
  ArrayRef<int64_t> signalShape = dtensor(getSignal()).getShape();
  if (algorithm == CollectiveAlgorithm::TwoshotEpoch &&
      (signalShape.size() != 2 || signalShape[1] != 2 * getCoreCount())) {
    std::string problem;
    llvm::raw_string_ostream(problem)
        << "algorithm twoshot_epoch announces two phases on two cells per "
           "source rank: expected a signal of shape [N, "
        << 2 * getCoreCount() << "], found " << formatShape(signalShape);
    return problem;
  }
  bool ringSignal = getMode() == CollectiveMode::Ring;
  bool runsRing = algorithm == CollectiveAlgorithm::Ring ||
                  algorithm == CollectiveAlgorithm::SeedRing;
  if (!runsRing || ringSignal)
    return {};
  std::string problem;
  llvm::raw_string_ostream(problem)
      << "algorithm " << stringifyCollectiveAlgorithm(algorithm)
      << " needs a ring signal of shape [2 * (N - 1), N] (mode ring), found "
         "the mesh signal "
      << formatShape(dtensor(getSignal()).getShape());
  return problem;
}
