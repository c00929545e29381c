//===- Common.cpp - what every ascend -> EmitC pattern builds -------------===//
//
// Enum operands are spelled by name (`pld::rt::WaitCmp::GE`), never by
// value: pld's `ge` is 1 where PTO's `GE` is 3. Ops that can trap or block
// pass their `site` as a string literal for the simulator's reports.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace pld::ascend::detail {

//===----------------------------------------------------------------------===//
// C++ spellings
//===----------------------------------------------------------------------===//

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
static std::string describe(Location location) {
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

emitc::OpaqueAttr siteOf(Operation *op) {
  std::string site;
  if (auto attr = op->getAttrOfType<StringAttr>("site"))
    site = attr.getValue().str();
  else
    site =
        (op->getName().getStringRef() + " at " + describe(op->getLoc())).str();
  return opaqueAttr(op->getContext(), quoted(site));
}

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
  case Pipe::FIX:
    name = "FIX";
    break;
  case Pipe::All:
    name = "All";
    break;
  }
  return opaqueAttr(context, "pld::rt::Pipe::" + name);
}

emitc::OpaqueAttr spelled(MLIRContext *context, Core core) {
  return opaqueAttr(context, core == Core::AIC ? "pld::rt::Core::AIC"
                                               : "pld::rt::Core::AIV");
}

const char *tileHandleName(TileKind kind) {
  switch (kind) {
  case TileKind::Vec:
    return "Tile";
  case TileKind::Mat:
    return "Mat";
  case TileKind::Left:
    return "Left";
  case TileKind::Right:
    return "Right";
  case TileKind::Acc:
    return "Acc";
  }
  return "?";
}

const char *tileMakerName(TileKind kind) {
  switch (kind) {
  case TileKind::Vec:
    return "tile";
  case TileKind::Mat:
    return "mat";
  case TileKind::Left:
    return "left";
  case TileKind::Right:
    return "right";
  case TileKind::Acc:
    return "acc";
  }
  return "?";
}

emitc::OpaqueAttr elementArg(MLIRContext *context, Type element) {
  return opaqueAttr(context, cppElement(element));
}

emitc::OpaqueAttr kernelArg(MLIRContext *context, FlatSymbolRefAttr symbol) {
  return opaqueAttr(context, symbol.getValue());
}

//===----------------------------------------------------------------------===//
// The call every pattern builds
//===----------------------------------------------------------------------===//

RuntimeCall::RuntimeCall(Operation *op, StringRef callee)
    : op(op), callee(callee.str()) {}

RuntimeCall &RuntimeCall::operand(Value value) {
  args.push_back(Builder(op->getContext()).getIndexAttr(values.size()));
  values.push_back(value);
  return *this;
}

RuntimeCall &RuntimeCall::operands(ValueRange range) {
  for (Value value : range)
    operand(value);
  return *this;
}

RuntimeCall &RuntimeCall::literal(Attribute text) {
  args.push_back(text);
  hasLiteral = true;
  return *this;
}

RuntimeCall &RuntimeCall::templateArg(Attribute arg) {
  templates.push_back(arg);
  return *this;
}

ValueRange RuntimeCall::build(ConversionPatternRewriter &rewriter,
                              TypeRange results) const {
  Builder builder(op->getContext());
  ArrayAttr argsAttr = hasLiteral ? builder.getArrayAttr(args) : ArrayAttr();
  ArrayAttr templatesAttr =
      templates.empty() ? ArrayAttr() : builder.getArrayAttr(templates);
  return emitc::CallOpaqueOp::create(rewriter, op->getLoc(), results, callee,
                                     values, argsAttr, templatesAttr)
      .getResults();
}

LogicalResult RuntimeCall::replace(ConversionPatternRewriter &rewriter,
                                   TypeRange results) const {
  rewriter.replaceOp(op, build(rewriter, results));
  return success();
}

} // namespace pld::ascend::detail
