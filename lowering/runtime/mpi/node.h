//===- node.h - Ranks as processes of one machine, over MPI -----*- C++ -*-===//

#ifndef PLD_MPI_NODE_H
#define PLD_MPI_NODE_H

#include "../sim/run.h"

namespace pld::mpi {

/// `mpirun -n N prog JOBFILE`: each of the N processes hosts one rank of the
/// job. The windows are one MPI shared-memory allocation that every process
/// maps, so the emitted code and the simulator's own atomics and checks run
/// unchanged; returns the exit status (rank 0 writes the output and the
/// stats).
int node_main(int argc, char **argv, sim::EntryFn entry);

} // namespace pld::mpi

#endif // PLD_MPI_NODE_H
