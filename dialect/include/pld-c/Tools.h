/*===- pld-c/Tools.h - what every pld tool says about itself ------*- C -*-===*\
|*                                                                            *|
|* pld's version, for the tools' --version, and the crash report every tool   *|
|* prints. The version is the workspace's in Cargo.toml, read by CMake.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_TOOLS_H
#define PLD_C_TOOLS_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pld's version, e.g. "0.1.0". */
MLIR_CAPI_EXPORTED const char *pldVersion(void);

/* For a tool built on an LLVM tool main (MlirOptMain, mlirTranslateMain,
 * MlirLspServerMain, mlirReduceMain): a crash report asks for a report to
 * pld's maintainers (llvm::setBugReportMsg) and --version prints pld's version
 * after LLVM's (llvm::cl::AddExtraVersionPrinter). Call once, before the main.
 */
MLIR_CAPI_EXPORTED void pldInstallToolInfo(void);

/* For a tool whose main is not LLVM's (pld-run): the same bug report
 * message, printed by LLVM's crash handler with a stack trace on a fatal
 * signal, which this installs. */
MLIR_CAPI_EXPORTED void pldInstallCrashHandler(const char *argv0);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_TOOLS_H */
