//===- Registration.cpp - register pld's dialects -------------------------===//

#include "pld/InitAllDialects.h"

#include "pld/Conversion/AscendToEmitC.h"
#include "pld/Dialect/Ascend/IR/Ascend.h"
#include "pld/Dialect/Pl/IR/Pl.h"
#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/FuncToEmitC/FuncToEmitC.h"
#include "mlir/Conversion/MemRefToEmitC/MemRefToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

void pld::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<pl::PlDialect, PldDialect, ascend::AscendDialect,
                  mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::emitc::EmitCDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  // What `convert-to-emitc` lowers: ascend with the upstream dialects it is
  // written with, under one type converter.
  ascend::registerConvertAscendToEmitCInterface(registry);
  mlir::registerConvertArithToEmitCInterface(registry);
  mlir::registerConvertFuncToEmitCInterface(registry);
  mlir::registerConvertMemRefToEmitCInterface(registry);
  mlir::registerConvertSCFToEmitCInterface(registry);
}
