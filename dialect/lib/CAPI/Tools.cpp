//===- Tools.cpp - pld's version and bug report address --------*- C++ -*-===//
//
// PLD_VERSION is defined by CMake from Cargo.toml.
//
//===----------------------------------------------------------------------===//

#include "pld-c/Tools.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#ifndef PLD_VERSION
#error "PLD_VERSION is defined by the CMake build (from Cargo.toml)"
#endif

static const char *const bugReportMessage =
    "PLEASE submit a bug report to pld's maintainers and include the crash "
    "backtrace and the input that caused it.\n";

const char *pldVersion(void) { return PLD_VERSION; }

static void printVersion(llvm::raw_ostream &os) {
  os << "pld version " PLD_VERSION "\n";
}

void pldInstallToolInfo(void) {
  static bool installed = false;
  if (installed)
    return;
  installed = true;
  llvm::setBugReportMsg(bugReportMessage);
  llvm::cl::AddExtraVersionPrinter(printVersion);
}

void pldInstallCrashHandler(const char *argv0) {
  llvm::setBugReportMsg(bugReportMessage);
  llvm::sys::PrintStackTraceOnErrorSignal(argv0 ? argv0 : "");
  llvm::EnablePrettyStackTrace();
}
