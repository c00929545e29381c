//===- node.cpp - Ranks as processes of one machine, over MPI -------------===//
//
// Only the main thread calls MPI (MPI_THREAD_FUNNELED): the simulated
// threads touch the shared windows with plain loads, stores and atomics,
// exactly as in the thread simulator, and the processes coordinate stops
// and deadlock detection through the control block (control.h).
//
//===----------------------------------------------------------------------===//

#include "node.h"

#include "control.h"

#include "../sim/job.h"
#include "../sim/machine.h"

#include <climits>
#include <cstring>
#include <mpi.h>
#include <string>
#include <thread>
#include <vector>

namespace pld::mpi {
namespace {

/// Rank 0's address of `win`'s shared segment of rank `q`.
uint8_t *segment(MPI_Win win, int q) {
  MPI_Aint size = 0;
  int unit = 0;
  void *base = nullptr;
  MPI_Win_shared_query(win, q, &size, &unit, &base);
  return static_cast<uint8_t *>(base);
}

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

int node_main(int argc, char **argv, sim::EntryFn entry) {
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

  // Node mode maps every rank's window: all processes must share memory.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  if (node_size != size)
    sim::usage_error("the MPI backend's node mode needs every rank on one "
                     "machine; only " +
                     std::to_string(node_size) + " of the " +
                     std::to_string(size) + " share memory with rank " +
                     std::to_string(rank));

  // The control block lives in rank 0's segment of its own window, so that
  // the ranks' windows stay exactly `win_size` bytes apart.
  void *mine = nullptr;
  MPI_Win control_win, windows_win;
  MPI_Win_allocate_shared(rank == 0 ? sizeof(Control) : 0, 1, MPI_INFO_NULL,
                          node, &mine, &control_win);
  auto *control = reinterpret_cast<Control *>(segment(control_win, 0));
  if (rank == 0)
    std::memset(static_cast<void *>(control), 0, sizeof(Control));

  uint64_t win_size = sim::window_size(job);
  MPI_Info info;
  MPI_Info_create(&info);
  // Contiguous: rank q's window at rank 0's plus q * win_size, the layout
  // the simulator's address checks assume (sim/world.h).
  MPI_Info_set(info, "alloc_shared_noncontig", "false");
  MPI_Win_allocate_shared(static_cast<MPI_Aint>(win_size), 1, info, node, &mine,
                          &windows_win);
  MPI_Info_free(&info);
  uint8_t *windows = segment(windows_win, 0);
  for (int q = 0; q < size; ++q)
    if (segment(windows_win, q) != windows + q * win_size)
      sim::usage_error("MPI did not lay the shared windows out contiguously");

  // The control block is zero before any process uses it.
  MPI_Barrier(MPI_COMM_WORLD);
  start(control, rank, size, job.timeout_s);
  sim::Machine m;
  // Open MPI backs a shared window with a new file (osc sm), which reads as
  // zero, as the simulator's anonymous windows do; nothing to clear.
  sim::lay_out(job, m, windows, rank);
  if (!job.input.empty())
    sim::read_input(job, m, rank);
  // Every rank's input is in its window before any rank runs.
  MPI_Barrier(MPI_COMM_WORLD);

  std::vector<std::thread> threads;
  sim::start_rank(job, m, rank, entry, threads);
  for (std::thread &thread : threads)
    thread.join();
  finish();

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
  MPI_Win_free(&windows_win);
  MPI_Win_free(&control_win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}

} // namespace pld::mpi
