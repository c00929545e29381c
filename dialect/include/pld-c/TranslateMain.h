/*===- pld-c/TranslateMain.h - the pld-translate driver ----------*- C -*-===*\
|*                                                                            *|
|* MLIR's own translate driver (mlirTranslateMain) with the translation      *|
|* `--pld-to-cce`: pld-level input, pld-to-cce-pipeline, then C++ through    *|
|* translateToCpp. pld's Rust passes must be registered before the call      *|
|* (the pipeline runs them).                                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_TRANSLATEMAIN_H
#define PLD_C_TRANSLATEMAIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the process exit code. */
int pldTranslateMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_TRANSLATEMAIN_H */
