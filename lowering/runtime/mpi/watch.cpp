//===- watch.cpp - Deadlocks and timeouts of a run across processes -------===//

#include "watch.h"

#include "../sim/monitor.h"
#include "../sim/report.h"
#include "../sim/thread.h"

#include <cstdio>

namespace pld::mpi {
namespace {

// As the simulator's monitor (sim/monitor.cpp).
constexpr auto kStall = std::chrono::milliseconds(250);

constexpr uint32_t published(sim::Activity activity) {
  return static_cast<uint32_t>(activity) + 1;
}

} // namespace

Beat own_beat(uint64_t beats) {
  return {published(sim::activity()), sim::progress(), beats};
}

std::string own_listing(int32_t rank) {
  std::string text = sim::thread_listing();
  if (text.empty())
    text = "  rank " + std::to_string(rank) + ": starting\n";
  if (text.size() > kListingBytes) {
    const std::string cut = "  ... (cut)\n";
    text.resize(kListingBytes - cut.size());
    text += cut;
  }
  return text;
}

Watch::Watch(int32_t nranks, double timeout_s)
    : timeout_s_(timeout_s), start_(Clock::now()), since_(start_),
      last_progress_(static_cast<size_t>(nranks), ~uint64_t{0}),
      beats_since_(static_cast<size_t>(nranks), 0) {}

void Watch::observe(const std::vector<Beat> &beats,
                    const std::function<std::string()> &listings) {
  auto now = Clock::now();
  if (timeout_s_ > 0 &&
      now - start_ > std::chrono::duration<double>(timeout_s_)) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s_);
    sim::stop_run(sim::kExitDeadlock,
                  "pld-run: timeout: the run did not finish within " +
                      std::string(seconds) + " s\n" + listings());
  }
  bool quiet = true, any_stuck = false, rechecked = true;
  for (size_t r = 0; r < beats.size(); ++r) {
    const Beat &beat = beats[r];
    rechecked &= beat.beats >= beats_since_[r] + 2;
    if (beat.activity != published(sim::Activity::Stuck) &&
        beat.activity != published(sim::Activity::Finished))
      quiet = false;
    any_stuck |= beat.activity == published(sim::Activity::Stuck);
    if (beat.progress != last_progress_[r])
      quiet = false;
    last_progress_[r] = beat.progress;
  }
  if (!quiet || !any_stuck) {
    since_ = now;
    for (size_t r = 0; r < beats.size(); ++r)
      beats_since_[r] = beats[r].beats;
    return;
  }
  // Every process must have re-checked its threads since the stretch
  // began: a stale `Stuck` of a starved monitor is not a deadlock.
  if (now - since_ < kStall || !rechecked)
    return;
  sim::stop_run(sim::kExitDeadlock,
                "pld-run: deadlock: every unfinished thread is blocked and "
                "nothing changed for " +
                    std::to_string(kStall.count()) + " ms\n" + listings());
}

} // namespace pld::mpi
