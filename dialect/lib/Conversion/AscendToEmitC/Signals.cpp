//===- Signals.cpp - signal cells and ordering as PTO calls ---------------===//
//
// tnotify, twait and ttest are `pto::comm::TNOTIFY`, `TWAIT` and `TTEST` on
// a one-cell signal view; defer_completion registers a completion condition
// with the task runtime (`pld/runtime/task_runtime.h`); release and acquire are
// the cache maintenance and barriers around a payload; pipe_sync is
// `set_flag` / `wait_flag` between two pipes.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

using namespace mlir;
using namespace pld::ascend;
using namespace pld::ascend::detail;

namespace {

/// `callee(leading..., literals..., site, signal, dims...)`: `signal` and
/// its dims name the whole signal tensor, so a report gives the cell's
/// coordinates.
template <typename OpTy>
LogicalResult replaceWithSignalCall(OpTy op, typename OpTy::Adaptor adaptor,
                                    StringRef callee, ValueRange leading,
                                    ArrayRef<Attribute> literals,
                                    ConversionPatternRewriter &rewriter) {
  RuntimeCall call(op, callee);
  call.operands(leading);
  for (Attribute literal : literals)
    call.literal(literal);
  return call.literal(siteOf(op))
      .operand(adaptor.getSignal())
      .operands(adaptor.getDims())
      .replace(rewriter, {});
}

/// `tnotify(cell, value, op, site, signal, dims...)`.
struct TNotifyLowering : CallPattern<TNotifyOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(TNotifyOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    return replaceWithSignalCall(op, adaptor, "pld::rt::tnotify",
                                 {adaptor.getCell(), adaptor.getValue()},
                                 {spelled(op.getContext(), op.getOp())},
                                 rewriter);
  }
};

/// `twait(cell, expected, cmp, site, signal, dims...)`.
struct TWaitLowering : CallPattern<TWaitOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(TWaitOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    return replaceWithSignalCall(op, adaptor, "pld::rt::twait",
                                 {adaptor.getCell(), adaptor.getExpected()},
                                 {spelled(op.getContext(), op.getCmp())},
                                 rewriter);
  }
};

/// `ttest(cell, expected, cmp)`: it never blocks, so it has no site.
struct TTestLowering : CallPattern<TTestOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(TTestOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    return RuntimeCall(op, "pld::rt::ttest")
        .operands(adaptor.getOperands())
        .literal(spelled(op.getContext(), op.getCmp()))
        .replace(rewriter, results);
  }
};

/// `defer_completion(payload, cell, expected, site, signal, dims...)`: on
/// the device the task runtime's `save_expected_notification_counter` with
/// the `AsyncCtx` of the task's dispatch payload.
struct DeferCompletionLowering : CallPattern<DeferCompletionOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(DeferCompletionOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    return replaceWithSignalCall(
        op, adaptor, "pld::rt::defer_completion",
        {adaptor.getPayload(), adaptor.getCell(), adaptor.getExpected()}, {},
        rewriter);
  }
};

/// `pipe_sync<src, dst>()`: the pipes are template arguments, compile-time
/// constants as the `set_flag` / `wait_flag` intrinsics require.
struct PipeSyncLowering : CallPattern<PipeSyncOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(PipeSyncOp op, OpAdaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    return RuntimeCall(op, "pld::rt::pipe_sync")
        .templateArg(spelled(op.getContext(), op.getSrc()))
        .templateArg(spelled(op.getContext(), op.getDst()))
        .replace(rewriter, {});
  }
};

} // namespace

void pld::ascend::populateSignalPatterns(TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<TNotifyLowering, TWaitLowering, TTestLowering,
               DeferCompletionLowering, PipeSyncLowering>(converter, context);
  // Before a notify that publishes a payload: clean the data cache, drain
  // every pipe and commit to DDR.
  patterns.add<PlainCall<ReleaseOp>>(converter, context, "pld::rt::release");
  // After a wait, before the payload reads it guards: invalidate the data
  // cache.
  patterns.add<PlainCall<AcquireOp>>(converter, context, "pld::rt::acquire");
}
