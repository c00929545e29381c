//===- Registration.cpp - register pld's dialects -------------------------===//

#include "pld/InitAllDialects.h"

#include "pld/Dialect/Pl/IR/Pl.h"
#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

void pld::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<pl::PlDialect, PldDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
}
