/*===- pld-c/ReduceMain.h - the pld-reduce driver ----------------*- C -*-===*\
|*                                                                            *|
|* MLIR's test case reducer (mlirReduceMain) with pld's dialects, upstream's  *|
|* transform passes and every pass registered through pldRegisterPass before *|
|* the call (pld's own, for opt-reduction-pass).                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_REDUCEMAIN_H
#define PLD_C_REDUCEMAIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the process exit code. */
int pldReduceMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_REDUCEMAIN_H */
