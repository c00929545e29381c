//===- Tiles.cpp - unified-buffer tiles as PTO calls ----------------------===//
//
// `pld::rt::Tile<T, R, C>` wraps a PTO `Tile` of the unified buffer with a
// dynamic valid shape (`Mat`, `Left`, `Right`, `Acc` the cube's); tload and
// tstore are PTO's `TLOAD` and `TSTORE`, the tile math `TADD`, `TMAX`,
// `TMIN` and `TMUL`, tcopy `TMOV`, and the cube's `TEXTRACT`, `TMATMUL` and
// `TMATMUL_ACC`. Each passes its
// site: the simulator checks shapes and bounds and names the op it traps in.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

using namespace mlir;
using namespace pld::ascend;
using namespace pld::ascend::detail;

namespace {

/// `tile<T, R, C>(offset[, rows, cols])` (`mat`, `left`, `right`, `acc`
/// for the cube's kinds): `TASSIGN` of the tile to the offset
/// ascend-plan-ub chose in its buffer, with its valid shape.
struct TileLowering : CallPattern<TileOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(TileOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return rewriter.notifyMatchFailure(
          op, "the tile has no offset: run ascend-plan-ub first");
    auto tile = cast<TileType>(op.getType());
    Builder builder(op.getContext());
    // The offset goes first, then the valid shape if there is one.
    return RuntimeCall(op,
                       std::string("pld::rt::") + tileMakerName(tile.getKind()))
        .templateArg(elementArg(op.getContext(), tile.getElementType()))
        .templateArg(builder.getI64IntegerAttr(tile.getRows()))
        .templateArg(builder.getI64IntegerAttr(tile.getCols()))
        .literal(builder.getI64IntegerAttr(*offset))
        .operands(adaptor.getOperands())
        .replace(rewriter, results);
  }
};

/// `valid_rows(tile)` and `valid_cols(tile)`.
/// `tcvt(dst, src, RoundMode(n), site)`: PTO's RoundMode by its value.
struct TCvtLowering : CallPattern<TCvtOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(TCvtOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    return RuntimeCall(op, "pld::rt::tcvt")
        .operands(adaptor.getOperands())
        .literal(opaqueAttr(op.getContext(), "pld::rt::RoundMode(" +
                                                 llvm::Twine(op.getRound()) +
                                                 ")"))
        .literal(siteOf(op))
        .replace(rewriter, results);
  }
};

struct ValidShapeLowering : CallPattern<ValidShapeOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(ValidShapeOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    // Two calls: C++ returns one value.
    if (results.size() != 2)
      return rewriter.notifyMatchFailure(op, "index has no C++ type");
    static constexpr StringLiteral callees[] = {"pld::rt::valid_rows",
                                                "pld::rt::valid_cols"};
    SmallVector<Value> shape;
    for (auto [callee, type] : llvm::zip(callees, results))
      shape.push_back(RuntimeCall(op, callee)
                          .operand(adaptor.getTile())
                          .build(rewriter, TypeRange{type})
                          .front());
    rewriter.replaceOp(op, shape);
    return success();
  }
};

} // namespace

void pld::ascend::populateTilePatterns(TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<TileLowering, ValidShapeLowering>(converter, context);
  patterns.add<PlainCall<TLoadOp>>(converter, context, "pld::rt::tload",
                                   /*withSite=*/true);
  // `TSTORE`, or `TSTORE<AtomicAdd>` for a store that adds.
  patterns.add<AtomicOrPlainCall<TStoreOp>>(
      converter, context, "pld::rt::tstore", "pld::rt::tstore_atomic_add");
  patterns.add<PlainCall<TAddOp>>(converter, context, "pld::rt::tadd",
                                  /*withSite=*/true);
  patterns.add<PlainCall<TMaxOp>>(converter, context, "pld::rt::tmax",
                                  /*withSite=*/true);
  patterns.add<PlainCall<TMinOp>>(converter, context, "pld::rt::tmin",
                                  /*withSite=*/true);
  // pld's `prod` reduction: PTO has no Prod ReduceOp, so it is a TMUL.
  patterns.add<PlainCall<TMulOp>>(converter, context, "pld::rt::tmul",
                                  /*withSite=*/true);
  patterns.add<PlainCall<TSubOp>>(converter, context, "pld::rt::tsub",
                                  /*withSite=*/true);
  patterns.add<PlainCall<TAddSOp>>(converter, context, "pld::rt::tadds",
                                   /*withSite=*/true);
  patterns.add<PlainCall<TSubSOp>>(converter, context, "pld::rt::tsubs",
                                   /*withSite=*/true);
  patterns.add<PlainCall<TMulSOp>>(converter, context, "pld::rt::tmuls",
                                   /*withSite=*/true);
  patterns.add<PlainCall<TMaxSOp>>(converter, context, "pld::rt::tmaxs",
                                   /*withSite=*/true);
  patterns.add<PlainCall<TMinSOp>>(converter, context, "pld::rt::tmins",
                                   /*withSite=*/true);
  patterns.add<TCvtLowering>(converter, context);
  patterns.add<PlainCall<TExpandSOp>>(converter, context, "pld::rt::texpands",
                                      /*withSite=*/true);
  patterns.add<PlainCall<TCopyOp>>(converter, context, "pld::rt::tcopy",
                                   /*withSite=*/true);
  // The cube: TEXTRACT, TMATMUL, TMATMUL_ACC, and TSTORE from L0C.
  patterns.add<PlainCall<TExtractOp>>(converter, context, "pld::rt::textract",
                                      /*withSite=*/true);
  patterns.add<PlainCall<TMatmulOp>>(converter, context, "pld::rt::tmatmul",
                                     /*withSite=*/true);
  patterns.add<PlainCall<TMatmulAccOp>>(converter, context,
                                        "pld::rt::tmatmul_acc",
                                        /*withSite=*/true);
  patterns.add<PlainCall<TStoreAccOp>>(converter, context, "pld::rt::tstore",
                                       /*withSite=*/true);
}
