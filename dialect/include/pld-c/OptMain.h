/*===- pld-c/OptMain.h - the pld-opt driver ----------------------*- C -*-===*\
|*                                                                            *|
|* MLIR's own opt driver (MlirOptMain) with pld's dialects and upstream's     *|
|* transform passes registered; passes registered through pldRegisterPass     *|
|* before the call are available too.                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_OPTMAIN_H
#define PLD_C_OPTMAIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the process exit code. */
int pldOptMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_OPTMAIN_H */
