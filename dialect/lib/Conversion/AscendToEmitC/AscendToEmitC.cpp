//===- AscendToEmitC.cpp - ascend ops as calls into pld/runtime.h ---------===//
//
// Each ascend op becomes one `emitc.call_opaque` of the runtime header's
// namespace `pld::rt`, so the emitted C++ reads like the ascend IR. Enum
// operands are spelled by name (`pld::rt::WaitCmp::GE`), never by value:
// pld's `ge` is 1 where PTO's `GE` is 3. Ops that can trap or block pass
// their `site` as a string literal for the simulator's reports.
//
//===----------------------------------------------------------------------===//

#include "pld/Conversion/AscendToEmitC.h"
#include "pld/Dialect/Ascend/IR/Ascend.h"

#include "mlir/Conversion/ConvertToEmitC/ToEmitCInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace pld::ascend;

namespace {

//===----------------------------------------------------------------------===//
// C++ spellings
//===----------------------------------------------------------------------===//

/// The runtime header's name for an element type, or "" for none.
std::string cppElement(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16())
    return "pld::rt::f16";
  if (type.isBF16())
    return "pld::rt::bf16";
  if (type.isSignlessInteger(1))
    return "bool";
  if (type.isIndex())
    return "int64_t";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width == 8 || width == 16 || width == 32 || width == 64)
      return "int" + std::to_string(width) + "_t";
  }
  return "";
}

emitc::OpaqueType opaque(MLIRContext *context, const Twine &text) {
  return emitc::OpaqueType::get(context, text.str());
}

emitc::OpaqueAttr opaqueAttr(MLIRContext *context, const Twine &text) {
  return emitc::OpaqueAttr::get(context, text.str());
}

/// `text` as a C++ string literal.
std::string quoted(StringRef text) {
  std::string literal = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      literal += "\\\"";
      break;
    case '\\':
      literal += "\\\\";
      break;
    case '\n':
      literal += "\\n";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        snprintf(escaped, sizeof(escaped), "\\x%02x", c);
        literal += escaped;
      } else {
        literal += c;
      }
    }
  }
  return literal + "\"";
}

/// `file:line:col` of the first file location in `location`, else its text.
std::string describe(Location location) {
  std::string text;
  location->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty()) {
    llvm::raw_string_ostream os(text);
    os << location;
  }
  return text;
}

/// What a report names an op by: its `site`, or else the op and location.
emitc::OpaqueAttr siteOf(Operation *op) {
  std::string site;
  if (auto attr = op->getAttrOfType<StringAttr>("site"))
    site = attr.getValue().str();
  else
    site =
        (op->getName().getStringRef() + " at " + describe(op->getLoc())).str();
  return opaqueAttr(op->getContext(), quoted(site));
}

//===----------------------------------------------------------------------===//
// The call every pattern builds
//===----------------------------------------------------------------------===//

/// Replaces `op` with `callee<templateArgs>(operands..., trailing...)`.
LogicalResult replaceWithCall(ConversionPatternRewriter &rewriter,
                              Operation *op, StringRef callee,
                              TypeRange results, ValueRange operands,
                              ArrayRef<Attribute> trailing = {},
                              ArrayRef<Attribute> templateArgs = {}) {
  Builder builder(op->getContext());
  ArrayAttr args;
  if (!trailing.empty()) {
    SmallVector<Attribute> entries;
    for (size_t index = 0; index < operands.size(); ++index)
      entries.push_back(builder.getIndexAttr(index));
    llvm::append_range(entries, trailing);
    args = builder.getArrayAttr(entries);
  }
  ArrayAttr templates =
      templateArgs.empty() ? ArrayAttr() : builder.getArrayAttr(templateArgs);
  auto call = emitc::CallOpaqueOp::create(rewriter, op->getLoc(), results,
                                          callee, operands, args, templates);
  rewriter.replaceOp(op, call.getResults());
  return success();
}

/// Replaces `op` with `callee(operands..., site[, tensor, elements])`: the
/// tensor an access lies in follows the site when the op names one.
LogicalResult replaceWithCallAndTensor(ConversionPatternRewriter &rewriter,
                                       Operation *op, StringRef callee,
                                       TypeRange results, ValueRange operands,
                                       Attribute site, Value tensor,
                                       Value elements) {
  Builder builder(op->getContext());
  SmallVector<Value> values(operands);
  SmallVector<Attribute> args;
  for (size_t index = 0; index < operands.size(); ++index)
    args.push_back(builder.getIndexAttr(index));
  args.push_back(site);
  if (tensor) {
    args.push_back(builder.getIndexAttr(values.size()));
    values.push_back(tensor);
    args.push_back(builder.getIndexAttr(values.size()));
    values.push_back(elements);
  }
  auto call =
      emitc::CallOpaqueOp::create(rewriter, op->getLoc(), results, callee,
                                  values, builder.getArrayAttr(args), {});
  rewriter.replaceOp(op, call.getResults());
  return success();
}

/// A pattern that turns `OpTy` into a runtime call with `build`.
template <typename OpTy> struct CallPattern : OpConversionPattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using Build = std::function<LogicalResult(
      OpTy, Adaptor, ConversionPatternRewriter &, const TypeConverter &)>;

  CallPattern(const TypeConverter &converter, MLIRContext *context, Build build)
      : OpConversionPattern<OpTy>(converter, context), build(std::move(build)) {
  }

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A result type without a C++ spelling leaves the op illegal (and the
    // conversion failed) rather than becoming a call without a result.
    SmallVector<Type> converted;
    if (failed(this->getTypeConverter()->convertTypes(op->getResultTypes(),
                                                      converted)))
      return rewriter.notifyMatchFailure(op, "a result type has no C++ type");
    return build(op, adaptor, rewriter, *this->getTypeConverter());
  }

  Build build;
};

/// The converted result types of `op`.
SmallVector<Type> resultTypes(Operation *op, const TypeConverter &converter) {
  SmallVector<Type> types;
  if (failed(converter.convertTypes(op->getResultTypes(), types)))
    return {};
  return types;
}

/// A pattern for an op that is just `callee(operands..., [site])`.
template <typename OpTy>
void addPlainCall(RewritePatternSet &patterns, TypeConverter &converter,
                  StringRef callee, bool withSite = false) {
  std::string name = callee.str();
  patterns.add<CallPattern<OpTy>>(
      converter, patterns.getContext(),
      [name, withSite](OpTy op, typename OpTy::Adaptor adaptor,
                       ConversionPatternRewriter &rewriter,
                       const TypeConverter &converter) {
        SmallVector<Attribute> trailing;
        if (withSite)
          trailing.push_back(siteOf(op));
        return replaceWithCall(rewriter, op, name, resultTypes(op, converter),
                               adaptor.getOperands(), trailing);
      });
}

/// `pld::rt::NotifyOp::AtomicAdd` and friends.
emitc::OpaqueAttr spelled(MLIRContext *context, NotifyOp op) {
  return opaqueAttr(context, op == NotifyOp::AtomicAdd
                                 ? "pld::rt::NotifyOp::AtomicAdd"
                                 : "pld::rt::NotifyOp::Set");
}

emitc::OpaqueAttr spelled(MLIRContext *context, WaitCmp cmp) {
  return opaqueAttr(context, cmp == WaitCmp::GE ? "pld::rt::WaitCmp::GE"
                                                : "pld::rt::WaitCmp::EQ");
}

emitc::OpaqueAttr spelled(MLIRContext *context, Pipe pipe) {
  StringRef name;
  switch (pipe) {
  case Pipe::S:
    name = "S";
    break;
  case Pipe::V:
    name = "V";
    break;
  case Pipe::M:
    name = "M";
    break;
  case Pipe::MTE1:
    name = "MTE1";
    break;
  case Pipe::MTE2:
    name = "MTE2";
    break;
  case Pipe::MTE3:
    name = "MTE3";
    break;
  case Pipe::All:
    name = "All";
    break;
  }
  return opaqueAttr(context, "pld::rt::Pipe::" + name);
}

/// The element type of a converted pointer's pointee, as a template argument.
emitc::OpaqueAttr elementArg(MLIRContext *context, Type element) {
  return opaqueAttr(context, cppElement(element));
}

/// `&kernel` for a launch of `symbol`.
emitc::OpaqueAttr kernelArg(MLIRContext *context, FlatSymbolRefAttr symbol) {
  return opaqueAttr(context, symbol.getValue());
}

} // namespace

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
    return opaque(type.getContext(), "pld::rt::Tile<" + element + ", " +
                                         Twine(type.getRows()) + ", " +
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
  MLIRContext *context = patterns.getContext();

  addPlainCall<RankOp>(patterns, converter, "pld::rt::rank");
  addPlainCall<NranksOp>(patterns, converter, "pld::rt::nranks");
  addPlainCall<WorldSizeOp>(patterns, converter, "pld::rt::world_size");
  addPlainCall<BlockIdxOp>(patterns, converter, "pld::rt::block_idx");
  addPlainCall<SubblockIdxOp>(patterns, converter, "pld::rt::subblock_idx");
  addPlainCall<OffsetOp>(patterns, converter, "pld::rt::offset");
  addPlainCall<PeerPtrOp>(patterns, converter, "pld::rt::peer_ptr",
                          /*withSite=*/true);
  addPlainCall<ViewOp>(patterns, converter, "pld::rt::view");
  addPlainCall<TLoadOp>(patterns, converter, "pld::rt::tload",
                        /*withSite=*/true);
  addPlainCall<TAddOp>(patterns, converter, "pld::rt::tadd",
                       /*withSite=*/true);
  addPlainCall<TMaxOp>(patterns, converter, "pld::rt::tmax",
                       /*withSite=*/true);
  addPlainCall<TMinOp>(patterns, converter, "pld::rt::tmin",
                       /*withSite=*/true);
  addPlainCall<TMulOp>(patterns, converter, "pld::rt::tmul",
                       /*withSite=*/true);
  addPlainCall<TCopyOp>(patterns, converter, "pld::rt::tcopy",
                        /*withSite=*/true);
  addPlainCall<TGetOp>(patterns, converter, "pld::rt::tget",
                       /*withSite=*/true);
  addPlainCall<ReleaseOp>(patterns, converter, "pld::rt::release");
  addPlainCall<AcquireOp>(patterns, converter, "pld::rt::acquire");

  patterns.add<CallPattern<TileOp>>(
      converter, context,
      [](TileOp op, TileOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        std::optional<int64_t> offset = op.getUbOffset();
        if (!offset)
          return rewriter.notifyMatchFailure(
              op, "the tile has no ub_offset: run ascend-plan-ub first");
        auto tile = cast<TileType>(op.getType());
        Builder builder(op.getContext());
        SmallVector<Attribute> templates = {
            elementArg(op.getContext(), tile.getElementType()),
            builder.getI64IntegerAttr(tile.getRows()),
            builder.getI64IntegerAttr(tile.getCols())};
        // The offset goes first, then the valid shape if there is one.
        SmallVector<Attribute> args = {builder.getI64IntegerAttr(*offset)};
        for (size_t index = 0; index < adaptor.getOperands().size(); ++index)
          args.push_back(builder.getIndexAttr(index));
        auto call = emitc::CallOpaqueOp::create(
            rewriter, op.getLoc(), resultTypes(op, converter), "pld::rt::tile",
            adaptor.getOperands(), builder.getArrayAttr(args),
            builder.getArrayAttr(templates));
        rewriter.replaceOp(op, call.getResults());
        return success();
      });

  patterns.add<CallPattern<ValidShapeOp>>(
      converter, context,
      [](ValidShapeOp op, ValidShapeOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        // Two calls: C++ returns one value.
        SmallVector<Type> types = resultTypes(op, converter);
        if (types.size() != 2)
          return rewriter.notifyMatchFailure(op, "index has no C++ type");
        static constexpr StringLiteral callees[] = {"pld::rt::valid_rows",
                                                    "pld::rt::valid_cols"};
        SmallVector<Value> shape;
        for (auto [callee, type] : llvm::zip(callees, types))
          shape.push_back(emitc::CallOpaqueOp::create(
                              rewriter, op.getLoc(), TypeRange{type}, callee,
                              adaptor.getTile(), ArrayAttr(), ArrayAttr())
                              .getResult(0));
        rewriter.replaceOp(op, shape);
        return success();
      });

  patterns.add<CallPattern<WriteOp>>(
      converter, context,
      [](WriteOp op, WriteOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        // write(ptr, value, site[, tensor, elements]), as a store reads.
        return replaceWithCallAndTensor(rewriter, op, "pld::rt::write", {},
                                        {adaptor.getPtr(), adaptor.getValue()},
                                        siteOf(op), adaptor.getTensor(),
                                        adaptor.getTensorElements());
      });

  patterns.add<CallPattern<ReadOp>>(
      converter, context,
      [](ReadOp op, ReadOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        // read(ptr, site[, tensor, elements])
        return replaceWithCallAndTensor(
            rewriter, op, "pld::rt::read", resultTypes(op, converter),
            {adaptor.getPtr()}, siteOf(op), adaptor.getTensor(),
            adaptor.getTensorElements());
      });

  patterns.add<CallPattern<TStoreOp>>(
      converter, context,
      [](TStoreOp op, TStoreOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        StringRef callee = op.getAtomic() == AtomicType::AtomicAdd
                               ? "pld::rt::tstore_atomic_add"
                               : "pld::rt::tstore";
        return replaceWithCall(rewriter, op, callee, {}, adaptor.getOperands(),
                               {siteOf(op)});
      });

  patterns.add<CallPattern<TPutOp>>(
      converter, context,
      [](TPutOp op, TPutOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        StringRef callee = op.getAtomic() == AtomicType::AtomicAdd
                               ? "pld::rt::tput_atomic_add"
                               : "pld::rt::tput";
        return replaceWithCall(rewriter, op, callee, {}, adaptor.getOperands(),
                               {siteOf(op)});
      });

  patterns.add<CallPattern<TNotifyOp>>(
      converter, context,
      [](TNotifyOp op, TNotifyOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        // tnotify(cell, value, op, site, signal, dims...)
        SmallVector<Value> operands = {adaptor.getCell(), adaptor.getValue(),
                                       adaptor.getSignal()};
        llvm::append_range(operands, adaptor.getDims());
        Builder builder(op.getContext());
        SmallVector<Attribute> args = {
            builder.getIndexAttr(0), builder.getIndexAttr(1),
            spelled(op.getContext(), op.getOp()), siteOf(op)};
        for (size_t index = 2; index < operands.size(); ++index)
          args.push_back(builder.getIndexAttr(index));
        auto call = emitc::CallOpaqueOp::create(
            rewriter, op.getLoc(), TypeRange(), "pld::rt::tnotify", operands,
            builder.getArrayAttr(args), ArrayAttr());
        rewriter.replaceOp(op, call.getResults());
        return success();
      });

  patterns.add<CallPattern<TWaitOp>>(
      converter, context,
      [](TWaitOp op, TWaitOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        SmallVector<Value> operands = {adaptor.getCell(), adaptor.getExpected(),
                                       adaptor.getSignal()};
        llvm::append_range(operands, adaptor.getDims());
        Builder builder(op.getContext());
        SmallVector<Attribute> args = {
            builder.getIndexAttr(0), builder.getIndexAttr(1),
            spelled(op.getContext(), op.getCmp()), siteOf(op)};
        for (size_t index = 2; index < operands.size(); ++index)
          args.push_back(builder.getIndexAttr(index));
        auto call = emitc::CallOpaqueOp::create(
            rewriter, op.getLoc(), TypeRange(), "pld::rt::twait", operands,
            builder.getArrayAttr(args), ArrayAttr());
        rewriter.replaceOp(op, call.getResults());
        return success();
      });

  patterns.add<CallPattern<DeferCompletionOp>>(
      converter, context,
      [](DeferCompletionOp op, DeferCompletionOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        // defer_completion(payload, cell, expected, site, signal, dims...)
        SmallVector<Value> operands = {adaptor.getPayload(), adaptor.getCell(),
                                       adaptor.getExpected(),
                                       adaptor.getSignal()};
        llvm::append_range(operands, adaptor.getDims());
        Builder builder(op.getContext());
        SmallVector<Attribute> args = {builder.getIndexAttr(0),
                                       builder.getIndexAttr(1),
                                       builder.getIndexAttr(2), siteOf(op)};
        for (size_t index = 3; index < operands.size(); ++index)
          args.push_back(builder.getIndexAttr(index));
        auto call = emitc::CallOpaqueOp::create(
            rewriter, op.getLoc(), TypeRange(), "pld::rt::defer_completion",
            operands, builder.getArrayAttr(args), ArrayAttr());
        rewriter.replaceOp(op, call.getResults());
        return success();
      });

  patterns.add<CallPattern<TTestOp>>(
      converter, context,
      [](TTestOp op, TTestOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        return replaceWithCall(
            rewriter, op, "pld::rt::ttest", resultTypes(op, converter),
            adaptor.getOperands(), {spelled(op.getContext(), op.getCmp())});
      });

  patterns.add<CallPattern<PipeSyncOp>>(
      converter, context,
      [](PipeSyncOp op, PipeSyncOp::Adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        return replaceWithCall(rewriter, op, "pld::rt::pipe_sync", {}, {}, {},
                               {spelled(op.getContext(), op.getSrc()),
                                spelled(op.getContext(), op.getDst())});
      });

  patterns.add<CallPattern<AllocWindowOp>>(
      converter, context,
      [](AllocWindowOp op, AllocWindowOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        return replaceWithCall(
            rewriter, op, "pld::rt::alloc_window", resultTypes(op, converter),
            adaptor.getOperands(),
            {opaqueAttr(op.getContext(), quoted(op.getName()))});
      });

  patterns.add<CallPattern<WindowAsOp>>(
      converter, context,
      [](WindowAsOp op, WindowAsOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        auto pointer = cast<GmPtrType>(op.getType());
        return replaceWithCall(
            rewriter, op, "pld::rt::window_as", resultTypes(op, converter),
            adaptor.getOperands(), {},
            {elementArg(op.getContext(), pointer.getElementType())});
      });

  patterns.add<CallPattern<SubmitOp>>(
      converter, context,
      [](SubmitOp op, SubmitOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        MLIRContext *context = op.getContext();
        Builder builder(context);
        // The dependencies as one `pld::rt::Deps` value.
        Value deps =
            emitc::CallOpaqueOp::create(
                rewriter, op.getLoc(),
                TypeRange{opaque(context, "pld::rt::Deps")}, "pld::rt::deps",
                adaptor.getDeps(), ArrayAttr(), ArrayAttr())
                .getResult(0);
        // submit(ctx, name, blocks, dispatch, deps, kernel, args...)
        SmallVector<Value> operands = {adaptor.getCtx(), adaptor.getBlocks()};
        SmallVector<Attribute> args = {
            builder.getIndexAttr(0), opaqueAttr(context, quoted(op.getName())),
            builder.getIndexAttr(1)};
        if (adaptor.getDispatch()) {
          args.push_back(builder.getIndexAttr(operands.size()));
          operands.push_back(adaptor.getDispatch());
        } else {
          args.push_back(opaqueAttr(context, "true"));
        }
        args.push_back(builder.getIndexAttr(operands.size()));
        operands.push_back(deps);
        args.push_back(kernelArg(context, op.getKernelAttr()));
        for (Value arg : adaptor.getArgs()) {
          args.push_back(builder.getIndexAttr(operands.size()));
          operands.push_back(arg);
        }
        auto call = emitc::CallOpaqueOp::create(
            rewriter, op.getLoc(), resultTypes(op, converter),
            "pld::rt::submit", operands, builder.getArrayAttr(args),
            ArrayAttr());
        rewriter.replaceOp(op, call.getResults());
        return success();
      });

  patterns.add<CallPattern<LaunchOp>>(
      converter, context,
      [](LaunchOp op, LaunchOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        // launch(ctx, blocks, kernel, args...)
        Builder builder(op.getContext());
        SmallVector<Value> operands = {adaptor.getCtx(), adaptor.getBlocks()};
        SmallVector<Attribute> args = {
            builder.getIndexAttr(0), builder.getIndexAttr(1),
            kernelArg(op.getContext(), op.getKernelAttr())};
        for (Value arg : adaptor.getArgs()) {
          args.push_back(builder.getIndexAttr(operands.size()));
          operands.push_back(arg);
        }
        auto call = emitc::CallOpaqueOp::create(
            rewriter, op.getLoc(), TypeRange(), "pld::rt::launch", operands,
            builder.getArrayAttr(args), ArrayAttr());
        rewriter.replaceOp(op, call.getResults());
        return success();
      });

  patterns.add<CallPattern<RunOnLanesOp>>(
      converter, context,
      [](RunOnLanesOp op, RunOnLanesOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &) {
        // run_on_lanes(ctx, body, args...)
        Builder builder(op.getContext());
        SmallVector<Value> operands = {adaptor.getCtx()};
        SmallVector<Attribute> args = {
            builder.getIndexAttr(0),
            kernelArg(op.getContext(), op.getBodyAttr())};
        for (Value arg : adaptor.getArgs()) {
          args.push_back(builder.getIndexAttr(operands.size()));
          operands.push_back(arg);
        }
        auto call = emitc::CallOpaqueOp::create(
            rewriter, op.getLoc(), TypeRange(), "pld::rt::run_on_lanes",
            operands, builder.getArrayAttr(args), ArrayAttr());
        rewriter.replaceOp(op, call.getResults());
        return success();
      });

  patterns.add<CallPattern<ArgPtrOp>>(
      converter, context,
      [](ArgPtrOp op, ArgPtrOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        Builder builder(op.getContext());
        auto pointer = cast<GmPtrType>(op.getType());
        return replaceWithCall(
            rewriter, op, "pld::rt::arg_ptr", resultTypes(op, converter),
            adaptor.getOperands(), {builder.getI64IntegerAttr(op.getIndex())},
            {elementArg(op.getContext(), pointer.getElementType())});
      });

  patterns.add<CallPattern<ArgDimOp>>(
      converter, context,
      [](ArgDimOp op, ArgDimOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        Builder builder(op.getContext());
        return replaceWithCall(rewriter, op, "pld::rt::arg_dim",
                               resultTypes(op, converter),
                               adaptor.getOperands(),
                               {builder.getI64IntegerAttr(op.getIndex()),
                                builder.getI64IntegerAttr(op.getDim())});
      });

  patterns.add<CallPattern<ArgScalarOp>>(
      converter, context,
      [](ArgScalarOp op, ArgScalarOp::Adaptor adaptor,
         ConversionPatternRewriter &rewriter, const TypeConverter &converter) {
        Builder builder(op.getContext());
        return replaceWithCall(
            rewriter, op, "pld::rt::arg_scalar", resultTypes(op, converter),
            adaptor.getOperands(), {builder.getI64IntegerAttr(op.getIndex())},
            {elementArg(op.getContext(), op.getType())});
      });
}

//===----------------------------------------------------------------------===//
// Gaps in upstream's arith-to-emitc and scf-to-emitc (LLVM 22)
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// The interface
//===----------------------------------------------------------------------===//

namespace {
struct AscendToEmitCInterface : public ConvertToEmitCPatternInterface {
  using ConvertToEmitCPatternInterface::ConvertToEmitCPatternInterface;

  void populateConvertToEmitCConversionPatterns(
      ConversionTarget &target, TypeConverter &typeConverter,
      RewritePatternSet &patterns) const final {
    target.addIllegalDialect<AscendDialect>();
    populateAscendToEmitCTypeConversions(typeConverter);
    populateAscendToEmitCPatterns(typeConverter, patterns);
    patterns.add<IndexBitwiseOrUnsigned<arith::DivUIOp, emitc::DivOp>,
                 IndexBitwiseOrUnsigned<arith::RemUIOp, emitc::RemOp>,
                 IndexBitwiseOrUnsigned<arith::AndIOp, emitc::BitwiseAndOp>,
                 IndexBitwiseOrUnsigned<arith::OrIOp, emitc::BitwiseOrOp>,
                 IndexBitwiseOrUnsigned<arith::XOrIOp, emitc::BitwiseXorOp>,
                 WhileConvertedTypes, CallConvertedResults>(
        typeConverter, patterns.getContext());
  }
};
} // namespace

void pld::ascend::registerConvertAscendToEmitCInterface(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, AscendDialect *dialect) {
    dialect->addInterfaces<AscendToEmitCInterface>();
  });
}
