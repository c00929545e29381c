//===- Upstream.cpp - gaps in upstream's arith/scf/func to EmitC ----------===//
//
// Gaps in upstream's arith-to-emitc and scf-to-emitc (LLVM 22), and in its
// func-to-emitc: a few ops that upstream leaves behind, or converts wrongly,
// under the types pld's kernels use. The patterns here fill those gaps. They
// state no legality: what of arith, scf and func must be converted is left
// to upstream's conversions, as before these patterns were split out.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {
/// `arith.divui`, `arith.remui`, `arith.andi`, `arith.ori` and `arith.xori`
/// on index, which upstream's ArithToEmitC (LLVM 22) converts only on
/// integers and leaves behind on index. Kernels compute peers as
/// `(rank + 1) % n` and lanes as `rank & 1` on index; index is `size_t` in
/// the emitted C++, an unsigned type, so C's own `/`, `%`, `&`, `|` and `^`
/// are exactly these operations.
template <typename ArithOp, typename EmitCOp>
struct IndexBitwiseOrUnsigned : OpConversionPattern<ArithOp> {
  using OpConversionPattern<ArithOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ArithOp op, typename ArithOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isIndex())
      return rewriter.notifyMatchFailure(op, "not on index");
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type || !isa<emitc::SizeTType>(type))
      return rewriter.notifyMatchFailure(op, "index is not size_t");
    rewriter.replaceOpWithNewOp<EmitCOp>(op, type, adaptor.getLhs(),
                                         adaptor.getRhs());
    return success();
  }
};

/// An `scf.while` that carries values whose type EmitC converts (index, as
/// `size_t`). Upstream's while lowering (LLVM 22) assigns the loop's initial
/// values as they were before conversion, which fails to verify ("requires
/// value's type ('index') to match variable's type"). This pattern runs
/// first and rebuilds the loop with converted types, as upstream's
/// structural type conversion does; upstream's lowering then takes the
/// rebuilt loop, whose initial values already have their C types.
struct WhileConvertedTypes : OpConversionPattern<scf::WhileOp> {
  WhileConvertedTypes(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(scf::WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    if (converter.isLegal(op->getOperandTypes()) &&
        converter.isLegal(op->getResultTypes()))
      return rewriter.notifyMatchFailure(op, "carries no converted type");
    SmallVector<Type> resultTypes;
    if (failed(converter.convertTypes(op.getResultTypes(), resultTypes)))
      return rewriter.notifyMatchFailure(op, "a result type does not convert");
    auto rebuilt = scf::WhileOp::create(rewriter, op.getLoc(), resultTypes,
                                        adaptor.getInits());
    for (auto [from, to] : llvm::zip(op->getRegions(), rebuilt->getRegions())) {
      rewriter.inlineRegionBefore(from, to, to.end());
      if (failed(rewriter.convertRegionTypes(&to, converter)))
        return rewriter.notifyMatchFailure(op, "a region does not convert");
    }
    rewriter.replaceOp(op, rebuilt.getResults());
    return success();
  }
};

/// A `func.call` whose results EmitC converts (a function that returns a
/// window returns a `__gm__` pointer). Upstream's call lowering (LLVM 22)
/// keeps the call's result types as they were, which EmitC rejects
/// ("result #0 must be variadic of type supported by EmitC"); this one
/// converts them first. Calls with nothing to convert stay upstream's.
struct CallConvertedResults : OpConversionPattern<func::CallOp> {
  CallConvertedResults(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    if (converter.isLegal(op->getResultTypes()))
      return rewriter.notifyMatchFailure(op, "returns no converted type");
    SmallVector<Type> resultTypes;
    if (failed(converter.convertTypes(op.getResultTypes(), resultTypes)) ||
        resultTypes.size() > 1)
      return rewriter.notifyMatchFailure(op, "a result does not convert");
    rewriter.replaceOpWithNewOp<emitc::CallOp>(op, op.getCallee(), resultTypes,
                                               adaptor.getOperands());
    return success();
  }
};
} // namespace

void pld::ascend::populateUpstreamGapPatterns(TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<IndexBitwiseOrUnsigned<arith::DivUIOp, emitc::DivOp>,
               IndexBitwiseOrUnsigned<arith::RemUIOp, emitc::RemOp>,
               IndexBitwiseOrUnsigned<arith::AndIOp, emitc::BitwiseAndOp>,
               IndexBitwiseOrUnsigned<arith::OrIOp, emitc::BitwiseOrOp>,
               IndexBitwiseOrUnsigned<arith::XOrIOp, emitc::BitwiseXorOp>,
               WhileConvertedTypes, CallConvertedResults>(
      converter, patterns.getContext());
}
