//===- main.h - Ranks as MPI processes ---------------------------*- C++
//-*-===//

#ifndef PLD_MPI_MAIN_H
#define PLD_MPI_MAIN_H

#include "../sim/run.h"

namespace pld::mpi {

/// `mpirun -n N prog JOBFILE`: each of the N processes hosts one rank of the
/// job, its windows held as the job's `mpi` directive says (mode.h); the
/// emitted code and the simulator's checks run unchanged. Returns the exit
/// status (rank 0 writes the output and the stats).
int mpi_main(int argc, char **argv, sim::EntryFn entry);

} // namespace pld::mpi

#endif // PLD_MPI_MAIN_H
