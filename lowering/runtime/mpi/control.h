//===- control.h - One run across processes: stops and deadlocks -*- C++
//-*-===//
//
// Node mode hosts each rank in its own process, so the simulator's monitor
// (sim/monitor.h), which sees one process's threads, cannot tell a deadlock
// from a rank waiting for another process, and sim/report.h's stop_run ends
// one process only. The control block is a small shared-memory area all
// processes map: each publishes what its threads do (sim::activity()) and
// what they wait for (sim::thread_listing()); rank 0 decides deadlocks and
// timeouts from all of them; the first process to stop the run (a trap, a
// deadlock, a usage error) reports for all, and the others then exit with
// its status without a word.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_MPI_CONTROL_H
#define PLD_MPI_CONTROL_H

#include "watch.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace pld::mpi {

inline constexpr int32_t kMaxRanks = 64;

/// What one process publishes. Every field is a lock-free atomic or is
/// guarded by `seq`, so that processes share it without a lock.
struct alignas(64) Peer {
  // The fields of a Beat (watch.h).
  std::atomic<uint32_t> activity;
  std::atomic<uint64_t> progress;
  std::atomic<uint64_t> beats;
  /// A sequence lock on `length` and `listing`: odd while they change.
  std::atomic<uint32_t> seq;
  std::atomic<uint32_t> length;
  char listing[kListingBytes];
};

/// The shared block. The zero bytes a fresh shared mapping holds are a
/// valid initial state of each member (every atomic lock-free, 0).
struct Control {
  std::atomic<int32_t> stop_status; ///< 0, or the status the run stops with.
  std::atomic<int32_t> reported;    ///< 1 once its report is printed.
  std::atomic<int32_t> finished;    ///< Ranks whose threads all finished.
  Peer peers[kMaxRanks];
};

/// Before the control block exists: a stop in rank 0 reports, a stop in
/// another rank exits quietly (every rank reads the same job, so they fail
/// alike).
void install_early_hooks(int32_t rank);

/// Uses `control` for stops, and starts this process's monitor thread: it
/// publishes rank `rank`'s threads, and in rank 0 stops the run at a
/// deadlock of all `nranks` or after `timeout_s` seconds.
void start(Control *control, int32_t rank, int32_t nranks, double timeout_s);

/// Marks this rank finished and waits, sleeping, until every rank is; then
/// stops the monitor thread.
void finish();

} // namespace pld::mpi

#endif // PLD_MPI_CONTROL_H
