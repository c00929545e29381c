//===- Common.h - what every ascend -> EmitC pattern builds -----*- C++ -*-===//
//
// Internal to the AscendToEmitC conversion: the C++ spellings of element
// types and enums, the `site` string an op that can trap or block passes to
// the runtime, and the `emitc.call_opaque` into `pld::rt` that every
// pattern builds.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_LIB_CONVERSION_ASCENDTOEMITC_COMMON_H
#define PLD_LIB_CONVERSION_ASCENDTOEMITC_COMMON_H

#include "pld/Dialect/Ascend/IR/Ascend.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Transforms/DialectConversion.h"

#include <string>

namespace pld::ascend::detail {

//===----------------------------------------------------------------------===//
// C++ spellings
//===----------------------------------------------------------------------===//

/// The runtime header's name for an element type, or "" for none.
std::string cppElement(mlir::Type type);

mlir::emitc::OpaqueType opaque(mlir::MLIRContext *context,
                               const llvm::Twine &text);

mlir::emitc::OpaqueAttr opaqueAttr(mlir::MLIRContext *context,
                                   const llvm::Twine &text);

/// `text` as a C++ string literal.
std::string quoted(llvm::StringRef text);

/// What a report names an op by: its `site`, or else the op and location.
mlir::emitc::OpaqueAttr siteOf(mlir::Operation *op);

/// `pld::rt::NotifyOp::AtomicAdd` and friends.
mlir::emitc::OpaqueAttr spelled(mlir::MLIRContext *context, NotifyOp op);
mlir::emitc::OpaqueAttr spelled(mlir::MLIRContext *context, WaitCmp cmp);
mlir::emitc::OpaqueAttr spelled(mlir::MLIRContext *context, Pipe pipe);
mlir::emitc::OpaqueAttr spelled(mlir::MLIRContext *context, Core core);

/// The runtime's handle type for tiles of `kind` (`Tile`, `Mat`, `Left`,
/// `Right`, `Acc`) and the function that makes one (`tile`, `mat`, ...).
const char *tileHandleName(TileKind kind);
const char *tileMakerName(TileKind kind);

/// The element type of a converted pointer's pointee, as a template argument.
mlir::emitc::OpaqueAttr elementArg(mlir::MLIRContext *context,
                                   mlir::Type element);

/// `&kernel` for a launch of `symbol`.
mlir::emitc::OpaqueAttr kernelArg(mlir::MLIRContext *context,
                                  mlir::FlatSymbolRefAttr symbol);

//===----------------------------------------------------------------------===//
// The call every pattern builds
//===----------------------------------------------------------------------===//

/// `callee<templates>(args...)` at `op`, an argument at a time: an operand
/// (which the call names by its index) or a C++ literal (a site, an enum, a
/// kernel). A call with no literal names no arguments, which EmitC reads as
/// its operands in order.
class RuntimeCall {
public:
  RuntimeCall(mlir::Operation *op, llvm::StringRef callee);

  RuntimeCall &operand(mlir::Value value);
  RuntimeCall &operands(mlir::ValueRange range);
  RuntimeCall &literal(mlir::Attribute text);
  RuntimeCall &templateArg(mlir::Attribute arg);

  /// Builds the call before `op` and returns its results.
  mlir::ValueRange build(mlir::ConversionPatternRewriter &rewriter,
                         mlir::TypeRange results) const;
  /// Builds the call and replaces `op` with it.
  mlir::LogicalResult replace(mlir::ConversionPatternRewriter &rewriter,
                              mlir::TypeRange results) const;

private:
  mlir::Operation *op;
  std::string callee;
  llvm::SmallVector<mlir::Value> values;
  llvm::SmallVector<mlir::Attribute> args;
  llvm::SmallVector<mlir::Attribute> templates;
  bool hasLiteral = false;
};

/// A pattern that turns `OpTy` into runtime calls in `lower`, once its
/// result types have C++ types.
template <typename OpTy> struct CallPattern : mlir::OpConversionPattern<OpTy> {
  using mlir::OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  mlir::LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const final {
    // A result type without a C++ spelling leaves the op illegal (and the
    // conversion failed) rather than becoming a call without a result.
    llvm::SmallVector<mlir::Type> results;
    if (mlir::failed(this->getTypeConverter()->convertTypes(
            op->getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "a result type has no C++ type");
    return lower(op, adaptor, results, rewriter);
  }

  /// Replaces `op`, whose converted result types are `results`.
  virtual mlir::LogicalResult
  lower(OpTy op, OpAdaptor adaptor, mlir::TypeRange results,
        mlir::ConversionPatternRewriter &rewriter) const = 0;
};

/// An op that is just `callee(operands..., [site])`.
template <typename OpTy> struct PlainCall : CallPattern<OpTy> {
  PlainCall(const mlir::TypeConverter &converter, mlir::MLIRContext *context,
            llvm::StringRef callee, bool withSite = false)
      : CallPattern<OpTy>(converter, context), callee(callee.str()),
        withSite(withSite) {}

  mlir::LogicalResult
  lower(OpTy op, typename OpTy::Adaptor adaptor, mlir::TypeRange results,
        mlir::ConversionPatternRewriter &rewriter) const override {
    RuntimeCall call(op, callee);
    call.operands(adaptor.getOperands());
    if (withSite)
      call.literal(siteOf(op));
    return call.replace(rewriter, results);
  }

  std::string callee;
  bool withSite;
};

/// A store that is `callee(operands..., site)`, or `atomicCallee(...)` when
/// the op adds atomically: the atomic add is a separate runtime function (a
/// different PTO instruction variant), not an argument.
template <typename OpTy> struct AtomicOrPlainCall : CallPattern<OpTy> {
  AtomicOrPlainCall(const mlir::TypeConverter &converter,
                    mlir::MLIRContext *context, llvm::StringRef callee,
                    llvm::StringRef atomicCallee)
      : CallPattern<OpTy>(converter, context), callee(callee.str()),
        atomicCallee(atomicCallee.str()) {}

  mlir::LogicalResult
  lower(OpTy op, typename OpTy::Adaptor adaptor, mlir::TypeRange,
        mlir::ConversionPatternRewriter &rewriter) const override {
    bool atomic = op.getAtomic() == AtomicType::AtomicAdd;
    return RuntimeCall(op, atomic ? atomicCallee : callee)
        .operands(adaptor.getOperands())
        .literal(siteOf(op))
        .replace(rewriter, {});
  }

  std::string callee, atomicCallee;
};

} // namespace pld::ascend::detail

#endif // PLD_LIB_CONVERSION_ASCENDTOEMITC_COMMON_H
