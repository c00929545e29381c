//===- Checks.cpp - run-time checks as runtime calls ----------------------===//
//
// `ascend.check` becomes `pld::rt::check(holds, "message", "site")`: the
// simulator traps with the message where `holds` is false; the device
// header's `check` does nothing (docs/dialects/ascend.md).
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

using namespace mlir;
using namespace pld::ascend;
using namespace pld::ascend::detail;

namespace {
struct CheckCall : CallPattern<CheckOp> {
  using CallPattern::CallPattern;

  LogicalResult lower(CheckOp op, OpAdaptor adaptor, TypeRange,
                      ConversionPatternRewriter &rewriter) const override {
    return RuntimeCall(op, "pld::rt::check")
        .operand(adaptor.getHolds())
        .literal(opaqueAttr(op.getContext(), quoted(op.getMessage())))
        .literal(siteOf(op))
        .replace(rewriter, {});
  }
};
} // namespace

void pld::ascend::populateCheckPatterns(TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<CheckCall>(converter, patterns.getContext());
}
