//===- Memory.cpp - global-memory traffic and windows as runtime calls ----===//
//
// Scalar reads and writes of global memory, the one-sided tile transfers
// `pto::comm::TPUT` and `TGET`, the SDMA transfers `TGET_ASYNC` and
// `TPUT_ASYNC` with their session and wait, and the host's window buffers. The
// accesses pass their site, and the tensor they lie in when the op names one:
// the device ignores both, the simulator checks bounds and names the op it
// traps in.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

using namespace mlir;
using namespace pld::ascend;
using namespace pld::ascend::detail;

namespace {

/// Adds `site[, tensor, elements]` to `call`: the tensor an access lies in
/// follows the site when the op names one.
RuntimeCall &withSiteAndTensor(RuntimeCall &call, Operation *op, Value tensor,
                               Value elements) {
  call.literal(siteOf(op));
  if (tensor)
    call.operand(tensor).operand(elements);
  return call;
}

/// `read(ptr, site[, tensor, elements])`.
struct ReadLowering : CallPattern<ReadOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(ReadOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    RuntimeCall call(op, "pld::rt::read");
    call.operand(adaptor.getPtr());
    return withSiteAndTensor(call, op, adaptor.getTensor(),
                             adaptor.getTensorElements())
        .replace(rewriter, results);
  }
};

/// `write(ptr, value, site[, tensor, elements])`, as a store reads.
struct WriteLowering : CallPattern<WriteOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(WriteOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    RuntimeCall call(op, "pld::rt::write");
    call.operand(adaptor.getPtr()).operand(adaptor.getValue());
    return withSiteAndTensor(call, op, adaptor.getTensor(),
                             adaptor.getTensorElements())
        .replace(rewriter, {});
  }
};

/// `alloc_window(ctx, bytes, "name")`: the name is for the simulator's
/// reports.
struct AllocWindowLowering : CallPattern<AllocWindowOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(AllocWindowOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    return RuntimeCall(op, "pld::rt::alloc_window")
        .operands(adaptor.getOperands())
        .literal(opaqueAttr(op.getContext(), quoted(op.getName())))
        .replace(rewriter, results);
  }
};

/// `comm_group<r0, r1, ...>(ctx)`: the group's ranks are template
/// arguments, which the runtime checks once at compile time.
struct CommGroupLowering : CallPattern<CommGroupOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(CommGroupOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    RuntimeCall call(op, "pld::rt::comm_group");
    call.operands(adaptor.getOperands());
    for (int64_t rank : op.getRanks())
      call.templateArg(opaqueAttr(op.getContext(), std::to_string(rank)));
    return call.replace(rewriter, results);
  }
};

/// `window_as<T>(buffer)`: a window buffer is `int8_t *` until it is given
/// its element type.
struct WindowAsLowering : CallPattern<WindowAsOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(WindowAsOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    auto pointer = cast<GmPtrType>(op.getType());
    return RuntimeCall(op, "pld::rt::window_as")
        .operands(adaptor.getOperands())
        .templateArg(elementArg(op.getContext(), pointer.getElementType()))
        .replace(rewriter, results);
  }
};

/// `sdma_session(workspace, sync_id, offset, site[, payload])`: PTO's
/// `BuildAsyncSession` on the scratch buffer at the offset ascend-plan-ub
/// chose in the unified buffer, on the channel of the lane the payload
/// names, if there is one.
struct SdmaSessionLowering : CallPattern<SdmaSessionOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(SdmaSessionOp op, OpAdaptor adaptor, TypeRange results,
                      ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return rewriter.notifyMatchFailure(
          op, "the SDMA session has no offset: run ascend-plan-ub first");
    Builder builder(op.getContext());
    RuntimeCall call(op, "pld::rt::sdma_session");
    call.operand(adaptor.getWorkspace())
        .operand(adaptor.getSyncId())
        .literal(builder.getI64IntegerAttr(*offset))
        .literal(siteOf(op));
    if (Value payload = adaptor.getPayload())
      call.operand(payload);
    return call.replace(rewriter, results);
  }
};

} // namespace

void pld::ascend::populateMemoryPatterns(TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ReadLowering, WriteLowering, AllocWindowLowering,
               CommGroupLowering, WindowAsLowering>(converter, context);
  // `TPUT`, or `TPUT<AtomicAdd>` for a put that adds.
  patterns.add<AtomicOrPlainCall<TPutOp>>(converter, context, "pld::rt::tput",
                                          "pld::rt::tput_atomic_add");
  patterns.add<PlainCall<TGetOp>>(converter, context, "pld::rt::tget",
                                  /*withSite=*/true);
  // SDMA: the session, a post (`TGET_ASYNC`, `TPUT_ASYNC`) returning its
  // event, the wait for the event; the session goes by reference (PTO
  // keeps the engine's queue state in it).
  patterns.add<SdmaSessionLowering>(converter, context);
  patterns.add<PlainCall<SdmaWorkspaceOp>>(converter, context,
                                           "pld::rt::sdma_workspace");
  // A mixed kernel's hand-off space, which host code passes it.
  patterns.add<PlainCall<HandoffWorkspaceOp>>(converter, context,
                                              "pld::rt::handoff_workspace");
  patterns.add<PlainCall<TGetAsyncOp>>(converter, context,
                                       "pld::rt::tget_async",
                                       /*withSite=*/true);
  patterns.add<PlainCall<TPutAsyncOp>>(converter, context,
                                       "pld::rt::tput_async",
                                       /*withSite=*/true);
  patterns.add<PlainCall<WaitAsyncOp>>(converter, context,
                                       "pld::rt::wait_async",
                                       /*withSite=*/true);
}
