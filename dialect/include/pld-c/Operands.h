/*===- pld-c/Operands.h - operands by their ODS names -------------*- C -*-===*\
|*                                                                            *|
|* The operands of a pl, pld or ascend op by the names its ODS definition     *|
|* gives them (`signal`, `peer`, `offsets`, ...), so that code outside C++    *|
|* (pld's Rust passes) never counts operand positions: a reordered operand in *|
|* ODS changes the answer with it. The table behind it is generated from the  *|
|* ODS records and checked by the C++ compiler against the accessors ODS      *|
|* generates.                                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_OPERANDS_H
#define PLD_C_OPERANDS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The operand group `name` of `op` (one operand, an optional one, or a
 * variadic list): the position of its first operand through `start` and how
 * many operands it holds through `count` (0 for an absent optional or an
 * empty list). False, with nothing written, when `op` is not a pl, pld or
 * ascend op or its definition names no operand `name`. */
MLIR_CAPI_EXPORTED bool pldOperationGetOperandGroup(MlirOperation op,
                                                    MlirStringRef name,
                                                    intptr_t *start,
                                                    intptr_t *count);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_OPERANDS_H */
