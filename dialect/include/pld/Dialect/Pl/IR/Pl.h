//===- Pl.h - the pl core dialect -------------------------------*- C++ -*-===//
//
// Everything a C++ user of the `pl` dialect needs: dialect, enums, types,
// attributes and ops.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_PL_IR_PL_H
#define PLD_DIALECT_PL_IR_PL_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "pld/Dialect/Pl/IR/PlDialect.h.inc"
#include "pld/Dialect/Pl/IR/PlEnums.h.inc"

#include "pld/Dialect/Pl/IR/MemoryAccess.h"
#include "pld/Dialect/Pl/IR/PlOpInterfaces.h.inc"
#include "pld/Dialect/Pl/IR/PlTypeInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/Dialect/Pl/IR/PlTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "pld/Dialect/Pl/IR/PlAttrs.h.inc"

#define GET_OP_CLASSES
#include "pld/Dialect/Pl/IR/PlOps.h.inc"

#endif // PLD_DIALECT_PL_IR_PL_H
