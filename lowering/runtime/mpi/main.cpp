//===- main.cpp - Ranks as MPI processes ----------------------------------===//
//
// Only the main thread calls MPI (MPI_THREAD_FUNNELED): set-up, the
// barrier after every rank's input is in place, the end, and in rma mode
// every one-sided operation (proxy.h).
//
//===----------------------------------------------------------------------===//

#include "main.h"

#include "control.h"
#include "mode.h"

#include "../sim/job.h"
#include "../sim/machine.h"

#include <climits>
#include <mpi.h>
#include <string>
#include <thread>
#include <vector>

namespace pld::mpi {
namespace {

/// The job directives that need one process to see every rank.
void reject_serial_directives(const sim::Job &job, const std::string &path) {
  const char *directive = job.race                ? "race"
                          : !job.schedule.empty() ? "schedule"
                          : !job.timing.empty()   ? "timing"
                          : !job.trace.empty()    ? "trace"
                          : !job.events.empty()   ? "events"
                                                  : nullptr;
  if (directive)
    sim::usage_error(path + ": `" + directive +
                     "` needs every rank in one process (the thread "
                     "simulator); the MPI backend runs ranks freely");
}

/// Rank 0 gets every rank's `part`, in rank order.
std::vector<std::vector<uint8_t>> gather(const std::vector<uint8_t> &part,
                                         int rank, int size) {
  if (part.size() > INT_MAX)
    sim::usage_error("a rank's output has more than INT_MAX bytes");
  int mine = static_cast<int>(part.size());
  std::vector<int> sizes(static_cast<size_t>(size)), offsets(sizes.size());
  MPI_Gather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<uint8_t> all;
  if (rank == 0) {
    long long total = 0;
    for (int q = 0; q < size; ++q) {
      if (total > INT_MAX)
        sim::usage_error("the output has more than INT_MAX bytes");
      offsets[q] = static_cast<int>(total);
      total += sizes[q];
    }
    all.resize(static_cast<size_t>(total));
  }
  MPI_Gatherv(part.data(), mine, MPI_BYTE, all.data(), sizes.data(),
              offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  std::vector<std::vector<uint8_t>> parts;
  if (rank == 0)
    for (int q = 0; q < size; ++q)
      parts.emplace_back(all.begin() + offsets[q],
                         all.begin() + offsets[q] + sizes[q]);
  return parts;
}

} // namespace

int mpi_main(int argc, char **argv, sim::EntryFn entry) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  install_early_hooks(rank);
  if (argc != 2)
    sim::usage_error(std::string("usage: mpirun -n N ") +
                     (argc ? argv[0] : "prog") + " JOBFILE");
  sim::Job job;
  std::string error;
  if (!sim::parse_job(argv[1], job, error))
    sim::usage_error(error);
  reject_serial_directives(job, argv[1]);
  if (job.ranks != size)
    sim::usage_error(std::string(argv[1]) + " has " +
                     std::to_string(job.ranks) + " ranks; mpirun started " +
                     std::to_string(size) + " processes");

  std::unique_ptr<Mode> mode =
      job.mpi_rma ? rma_mode(rank, size) : node_mode(rank, size);
  sim::Machine m;
  mode->set_up(job, m);
  if (!job.input.empty())
    sim::read_input(job, m, rank);
  // Every rank's input is in its window before any rank runs.
  mode->publish_input();

  std::vector<std::thread> threads;
  sim::start_rank(job, m, rank, entry, threads);
  mode->run_to_end(threads);

  std::vector<std::vector<uint8_t>> parts =
      gather(sim::rank_output(job, m, rank), rank, size);
  sim::Counts counts = sim::counts(rank);
  std::vector<sim::Counts> all(static_cast<size_t>(size));
  static_assert(sizeof(sim::Counts) == 7 * sizeof(uint64_t));
  MPI_Gather(&counts, 7, MPI_UINT64_T, all.data(), 7, MPI_UINT64_T, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    if (!job.output.empty())
      sim::write_output(job, parts);
    if (!job.stats.empty())
      sim::write_stats(job, all);
  }
  mode->tear_down();
  MPI_Finalize();
  return 0;
}

} // namespace pld::mpi
