//===- harness.cpp - main() of a simulated pld program --------------------===//
//
// Compiled with the emitted file and -DPLD_ENTRY=<symbol>: runs that entry
// function on the ranks a job file describes (see run.h and
// lowering/runtime/README.md). The rest of the simulator does not depend on
// PLD_ENTRY, so it can be built once into a library.
//
//===----------------------------------------------------------------------===//

#include "run.h"

#ifndef PLD_ENTRY
#error "compile the harness with -DPLD_ENTRY=<entry symbol>"
#endif

extern "C" void PLD_ENTRY(__gm__ pld::rt::CommContext *, const pld::rt::Arg *);

int main(int argc, char **argv) {
  return pld::sim::run_main(argc, argv, &PLD_ENTRY);
}
