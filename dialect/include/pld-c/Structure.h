/*===- pld-c/Structure.h - an op's structure, for comparing ops ---*- C -*-===*\
|*                                                                            *|
|* The structure of an op and everything nested in it, as a sequence of      *|
|* tokens: two ops of one context have equal sequences exactly when they are *|
|* the same op up to locations, the root's symbol name and the names its     *|
|* symbol references use (attributes and types are uniqued in a context, so  *|
|* a token is their address). pld-verify decides a function once for every   *|
|* function of the module with its structure.                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_STRUCTURE_H
#define PLD_C_STRUCTURE_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The token that precedes a symbol reference's name in the sequence; the
 * token after it is the address of the reference's root `StringAttr`, the
 * address of the referenced symbol's `sym_name`, which the caller maps to
 * what it knows of that symbol. */
#define PLD_STRUCTURE_SYMBOL_REFERENCE UINT64_C(0xFFFFFFFFFFFFFFFF)

/* Receives the tokens, a piece at a time. */
typedef void (*PldStructureCallback)(const uint64_t *tokens, intptr_t count,
                                     void *userData);

/* Writes the tokens of `op`'s structure: each op's name, attributes (the
 * root's `sym_name` left out; a flat symbol reference as the marker above and
 * its name), result types, operands (numbered by definition), successors and
 * regions, in pre-order. */
MLIR_CAPI_EXPORTED void pldOperationStructure(MlirOperation op,
                                              PldStructureCallback callback,
                                              void *userData);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_STRUCTURE_H */
