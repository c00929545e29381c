/*===- pld-c/LspServerMain.h - the pld-lsp-server driver ---------*- C -*-===*\
|*                                                                            *|
|* MLIR's language server (MlirLspServerMain) with pld's dialects: editors    *|
|* get diagnostics, hovers, definitions and completion for pld files.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_LSPSERVERMAIN_H
#define PLD_C_LSPSERVERMAIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the process exit code. */
int pldLspServerMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_LSPSERVERMAIN_H */
