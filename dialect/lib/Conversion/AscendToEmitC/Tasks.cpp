//===- Tasks.cpp - host launches, tasks and entry wrappers as calls -------===//
//
// The host's task graph: submit, launch and run_on_lanes name their kernel
// as a function pointer and pass its arguments after it, which the runtime
// binds (the simulator's threads, or the task runtime on the device). An
// entry wrapper reads its arguments from the harness's argument array.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

using namespace mlir;
using namespace pld::ascend;
using namespace pld::ascend::detail;

namespace {

/// `submit(ctx, name, blocks, dispatch, deps, kernel, args...)`: a task
/// without an `if` always runs (`true`).
struct SubmitLowering : CallPattern<SubmitOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(SubmitOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    // The dependencies as one `pld::rt::Deps` value.
    Value deps =
        RuntimeCall(op, "pld::rt::deps")
            .operands(adaptor.getDeps())
            .build(rewriter, TypeRange{opaque(context, "pld::rt::Deps")})
            .front();
    RuntimeCall call(op, "pld::rt::submit");
    call.operand(adaptor.getCtx())
        .literal(opaqueAttr(context, quoted(op.getName())))
        .operand(adaptor.getBlocks());
    if (adaptor.getDispatch())
      call.operand(adaptor.getDispatch());
    else
      call.literal(opaqueAttr(context, "true"));
    return call.operand(deps)
        .literal(kernelArg(context, op.getKernelAttr()))
        .operands(adaptor.getArgs())
        .replace(rewriter, results);
  }
};

/// `launch(ctx, blocks, kernel, args...)`: run and wait.
struct LaunchLowering : CallPattern<LaunchOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(LaunchOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    return RuntimeCall(op, "pld::rt::launch")
        .operands({adaptor.getCtx(), adaptor.getBlocks()})
        .literal(kernelArg(op.getContext(), op.getKernelAttr()))
        .operands(adaptor.getArgs())
        .replace(rewriter, {});
  }
};

/// `run_on_lanes(ctx, body, args...)`: every AIV sub-lane runs the kernel,
/// so on the device each runs the body itself.
struct RunOnLanesLowering : CallPattern<RunOnLanesOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(RunOnLanesOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    return RuntimeCall(op, "pld::rt::run_on_lanes")
        .operand(adaptor.getCtx())
        .literal(kernelArg(op.getContext(), op.getBodyAttr()))
        .operands(adaptor.getArgs())
        .replace(rewriter, {});
  }
};

/// `run_mixed(ctx, aic, aiv, args...)`: the cube core of the block runs
/// `aic`, its vector core `aiv` (on the device each core calls its own half;
/// the simulator runs both at once).
struct RunMixedLowering : CallPattern<RunMixedOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(RunMixedOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    return RuntimeCall(op, "pld::rt::run_mixed")
        .operand(adaptor.getCtx())
        .literal(kernelArg(context, op.getAicAttr()))
        .literal(kernelArg(context, op.getAivAttr()))
        .operands(adaptor.getArgs())
        .replace(rewriter, {});
  }
};

/// `cross_core_signal<Core::AIV, Core::AIC>()` and `cross_core_wait<...>()`:
/// the direction is a compile-time choice of flag, as the intrinsics want.
template <typename CrossCoreOp>
struct CrossCoreLowering : CallPattern<CrossCoreOp> {
  CrossCoreLowering(const TypeConverter &converter, MLIRContext *context,
                    StringRef callee)
      : CallPattern<CrossCoreOp>(converter, context), callee(callee.str()) {}

  LogicalResult lower(CrossCoreOp op, typename CrossCoreOp::Adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    return RuntimeCall(op, callee)
        .templateArg(spelled(context, op.getSrc()))
        .templateArg(spelled(context, op.getDst()))
        .replace(rewriter, {});
  }

  std::string callee;
};

/// `callee(args, index, ...)`: an argument of the harness's array, by
/// index.
RuntimeCall argumentCall(Operation *op, StringRef callee, Value args,
                         int64_t index) {
  RuntimeCall call(op, callee);
  call.operand(args).literal(
      Builder(op->getContext()).getI64IntegerAttr(index));
  return call;
}

/// `arg_ptr<T>(args, index)`.
struct ArgPtrLowering : CallPattern<ArgPtrOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(ArgPtrOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    auto pointer = cast<GmPtrType>(op.getType());
    return argumentCall(op, "pld::rt::arg_ptr", adaptor.getArgs(),
                        op.getIndex())
        .templateArg(elementArg(op.getContext(), pointer.getElementType()))
        .replace(rewriter, results);
  }
};

/// `arg_dim(args, index, dim)`.
struct ArgDimLowering : CallPattern<ArgDimOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(ArgDimOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    return argumentCall(op, "pld::rt::arg_dim", adaptor.getArgs(),
                        op.getIndex())
        .literal(Builder(op.getContext()).getI64IntegerAttr(op.getDim()))
        .replace(rewriter, results);
  }
};

/// `arg_scalar<T>(args, index)`: the runtime converts the harness's value
/// to `T`.
struct ArgScalarLowering : CallPattern<ArgScalarOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(ArgScalarOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    return argumentCall(op, "pld::rt::arg_scalar", adaptor.getArgs(),
                        op.getIndex())
        .templateArg(elementArg(op.getContext(), op.getType()))
        .replace(rewriter, results);
  }
};

} // namespace

void pld::ascend::populateTaskPatterns(TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<SubmitLowering, LaunchLowering, RunOnLanesLowering, RunMixedLowering,
           ArgPtrLowering, ArgDimLowering, ArgScalarLowering>(converter,
                                                              context);
  patterns.add<CrossCoreLowering<CrossCoreSignalOp>>(
      converter, context, "pld::rt::cross_core_signal");
  patterns.add<CrossCoreLowering<CrossCoreWaitOp>>(converter, context,
                                                   "pld::rt::cross_core_wait");
  // A mixed kernel's FFTS base address: host code gets it from the runtime,
  // the kernel sets it at its entry.
  patterns.add<PlainCall<FftsAddrOp>>(converter, context, "pld::rt::ffts_addr");
  patterns.add<PlainCall<SetFftsBaseAddrOp>>(converter, context,
                                             "pld::rt::set_ffts_base_addr");
}
