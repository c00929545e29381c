//===- mode.h - How the processes of an MPI run hold the windows -*- C++ -*-=//
//
// A run on MPI processes (main.h) is the same in both modes but for where
// the windows live and how the processes tell each other about stops and
// deadlocks: node mode (node.h) maps every rank's window into every process
// through MPI shared memory; rma mode (rma.h) holds only the process's own
// and reaches the others with MPI one-sided operations.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_MPI_MODE_H
#define PLD_MPI_MODE_H

#include "../sim/job.h"
#include "../sim/machine.h"

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace pld::mpi {

class Mode {
public:
  virtual ~Mode() = default;
  /// Lays the job's windows out for rank `rank` of `size` (sim::lay_out)
  /// and starts the watch over the run (watch.h); collective.
  virtual void set_up(const sim::Job &job, sim::Machine &m) = 0;
  /// After this rank's input is in its window: makes it visible to the
  /// other ranks' accesses; collective.
  virtual void publish_input() = 0;
  /// Returns once `threads` (this rank's) and every other rank's threads
  /// finished.
  virtual void run_to_end(std::vector<std::thread> &threads) = 0;
  /// Frees the windows; collective, before MPI_Finalize.
  virtual void tear_down() = 0;
};

/// Node mode; a usage error unless every rank shares memory with `rank`.
std::unique_ptr<Mode> node_mode(int32_t rank, int32_t size);
/// rma mode.
std::unique_ptr<Mode> rma_mode(int32_t rank, int32_t size);

} // namespace pld::mpi

#endif // PLD_MPI_MODE_H
