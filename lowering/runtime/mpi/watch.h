//===- watch.h - Deadlocks and timeouts of a run across processes -*- C++ -*-//
//
// Both MPI modes make one run of many processes the same way: every 20 ms
// each process publishes a beat (what its threads do, its progress count)
// and the listing of its threads; rank 0 watches the beats and stops the run
// at a deadlock of all ranks or at the timeout, with every rank's listing.
// How beats and listings travel is the mode's: shared memory in node mode
// (control.h), one-sided MPI in rma mode (rma.h).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_MPI_WATCH_H
#define PLD_MPI_WATCH_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pld::mpi {

/// The most text a rank's listing may have.
inline constexpr size_t kListingBytes = 16384;
/// How often a process publishes and rank 0 watches.
inline constexpr auto kPoll = std::chrono::milliseconds(20);

/// What one process last published.
struct Beat {
  uint32_t activity; ///< sim::Activity + 1; 0 before the process starts.
  uint64_t progress; ///< sim::progress().
  /// Publications so far: rank 0 trusts a `Stuck` only once the process has
  /// re-checked it since the stall began (its monitor may have been slow).
  uint64_t beats;
};

/// This process's beat now, its `beats`-th publication.
Beat own_beat(uint64_t beats);

/// This process's threads (sim::thread_listing()) for rank `rank`, at most
/// kListingBytes of it.
std::string own_listing(int32_t rank);

/// Rank 0's judgement of a run.
class Watch {
public:
  Watch(int32_t nranks, double timeout_s);

  /// Stops the run (sim::stop_run) when the timeout has passed, or when
  /// every rank is stuck or finished, one at least stuck, and no progress
  /// count moved for 250 ms; `listings` gives every rank's listing, in rank
  /// order, for the report.
  void observe(const std::vector<Beat> &beats,
               const std::function<std::string()> &listings);

private:
  using Clock = std::chrono::steady_clock;
  double timeout_s_;
  Clock::time_point start_, since_;
  std::vector<uint64_t> last_progress_;
  /// Each rank's publications when the current quiet stretch began.
  std::vector<uint64_t> beats_since_;
};

} // namespace pld::mpi

#endif // PLD_MPI_WATCH_H
