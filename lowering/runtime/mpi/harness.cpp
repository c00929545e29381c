//===- harness.cpp - main() of a pld program on MPI processes -------------===//
//
// The MPI backend's counterpart of sim/harness.cpp: compiled with the
// emitted file and -DPLD_ENTRY=<symbol>, linked with the simulator library,
// this directory's other files and MPI, and started by mpirun.
//
//===----------------------------------------------------------------------===//

#include "main.h"

#ifndef PLD_ENTRY
#error "compile the harness with -DPLD_ENTRY=<entry symbol>"
#endif

extern "C" void PLD_ENTRY(__gm__ pld::rt::CommContext *, const pld::rt::Arg *);

int main(int argc, char **argv) {
  return pld::mpi::mpi_main(argc, argv, &PLD_ENTRY);
}
