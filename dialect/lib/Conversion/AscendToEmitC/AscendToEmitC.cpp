//===- AscendToEmitC.cpp - ascend ops as calls into pld/runtime.h ---------===//
//
// Each ascend op becomes one `emitc.call_opaque` of the runtime header's
// namespace `pld::rt`, so the emitted C++ reads like the ascend IR. The
// patterns live one file per op family (Patterns.h); this file holds the
// type conversions and the dialect's ConvertToEmitCPatternInterface.
//
//===----------------------------------------------------------------------===//

#include "pld/Conversion/AscendToEmitC.h"
#include "Common.h"
#include "Patterns.h"

#include "mlir/Conversion/ConvertToEmitC/ToEmitCInterface.h"

using namespace mlir;
using namespace pld::ascend;
using namespace pld::ascend::detail;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

void pld::ascend::populateAscendToEmitCTypeConversions(
    TypeConverter &converter) {
  converter.addConversion([](CtxType type) -> Type {
    return emitc::PointerType::get(
        opaque(type.getContext(), "__gm__ pld::rt::CommContext"));
  });
  converter.addConversion([](GmPtrType type) -> std::optional<Type> {
    std::string element = cppElement(type.getElementType());
    if (element.empty())
      return std::nullopt;
    return emitc::PointerType::get(
        opaque(type.getContext(), "__gm__ " + element));
  });
  converter.addConversion([](TileType type) -> std::optional<Type> {
    std::string element = cppElement(type.getElementType());
    if (element.empty())
      return std::nullopt;
    return opaque(type.getContext(),
                  Twine("pld::rt::") + tileHandleName(type.getKind()) + "<" +
                      element + ", " + Twine(type.getRows()) + ", " +
                      Twine(type.getCols()) + ">");
  });
  converter.addConversion([](ViewType type) -> std::optional<Type> {
    std::string element = cppElement(type.getElementType());
    if (element.empty())
      return std::nullopt;
    return opaque(type.getContext(), "pld::rt::View<" + element + ">");
  });
  converter.addConversion([](DispatchPayloadType type) -> Type {
    return opaque(type.getContext(), "pld::rt::DispatchPayload");
  });
  converter.addConversion([](FftsAddrType type) -> Type {
    return opaque(type.getContext(), "pld::rt::FftsAddr");
  });
  converter.addConversion([](SdmaWorkspaceType type) -> Type {
    return opaque(type.getContext(), "pld::rt::SdmaWorkspace");
  });
  converter.addConversion([](AsyncSessionType type) -> Type {
    return opaque(type.getContext(), "pld::rt::AsyncSession");
  });
  converter.addConversion([](AsyncEventType type) -> Type {
    return opaque(type.getContext(), "pld::rt::AsyncEvent");
  });
  converter.addConversion([](TaskType type) -> Type {
    return opaque(type.getContext(), "pld::rt::TaskId");
  });
  converter.addConversion([](ArgsType type) -> Type {
    return emitc::PointerType::get(
        opaque(type.getContext(), "const pld::rt::Arg"));
  });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

void pld::ascend::populateAscendToEmitCPatterns(TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  populateQueryPatterns(converter, patterns);
  populateTilePatterns(converter, patterns);
  populateSignalPatterns(converter, patterns);
  populateMemoryPatterns(converter, patterns);
  populateTaskPatterns(converter, patterns);
  populateCheckPatterns(converter, patterns);
}

//===----------------------------------------------------------------------===//
// The interface
//===----------------------------------------------------------------------===//

namespace {
struct AscendToEmitCInterface : public ConvertToEmitCPatternInterface {
  using ConvertToEmitCPatternInterface::ConvertToEmitCPatternInterface;

  void populateConvertToEmitCConversionPatterns(
      ConversionTarget &target, TypeConverter &typeConverter,
      RewritePatternSet &patterns) const final {
    // No ascend op survives: the C++ emitter knows none, and every one of
    // them has a pattern above. An op whose pattern fails (a tile without
    // its offset, a type without a C++ spelling) fails the conversion.
    target.addIllegalDialect<AscendDialect>();
    populateAscendToEmitCTypeConversions(typeConverter);
    populateAscendToEmitCPatterns(typeConverter, patterns);
    // Upstream's arith, scf and func conversions share the type converter;
    // these fill their gaps (Upstream.cpp) and change no op's legality.
    populateUpstreamGapPatterns(typeConverter, patterns);
  }
};
} // namespace

void pld::ascend::registerConvertAscendToEmitCInterface(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, AscendDialect *dialect) {
    dialect->addInterfaces<AscendToEmitCInterface>();
  });
}
