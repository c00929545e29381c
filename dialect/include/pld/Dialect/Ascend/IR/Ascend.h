//===- Ascend.h - the ascend target dialect ---------------------*- C++ -*-===//
//
// Everything a C++ user of the `ascend` dialect needs: dialect, enums,
// types, attributes and ops.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_ASCEND_IR_ASCEND_H
#define PLD_DIALECT_ASCEND_IR_ASCEND_H

#include "pld/Dialect/Pld/IR/Pld.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

#include "pld/Dialect/Ascend/IR/AscendDialect.h.inc"
#include "pld/Dialect/Ascend/IR/AscendEnums.h.inc"
#include "pld/Dialect/Ascend/IR/AscendTraits.h"

#include "pld/Dialect/Ascend/IR/AscendOpInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/Dialect/Ascend/IR/AscendTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "pld/Dialect/Ascend/IR/AscendAttrs.h.inc"

#define GET_OP_CLASSES
#include "pld/Dialect/Ascend/IR/AscendOps.h.inc"

#endif // PLD_DIALECT_ASCEND_IR_ASCEND_H
