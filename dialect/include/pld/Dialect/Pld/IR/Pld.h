//===- Pld.h - the pld distributed dialect ----------------------*- C++ -*-===//
//
// Everything a C++ user of the `pld` dialect needs: dialect, enums, types,
// attributes and ops.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_DIALECT_PLD_IR_PLD_H
#define PLD_DIALECT_PLD_IR_PLD_H

#include "pld/Dialect/Pl/IR/Pl.h"

#include "pld/Dialect/Pld/IR/PldDialect.h.inc"
#include "pld/Dialect/Pld/IR/PldEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/Dialect/Pld/IR/PldTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "pld/Dialect/Pld/IR/PldAttrs.h.inc"

#include "pld/Dialect/Pld/IR/PldOpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "pld/Dialect/Pld/IR/PldOps.h.inc"

#endif // PLD_DIALECT_PLD_IR_PLD_H
