//===- control.cpp - One run across processes: stops and deadlocks --------===//

#include "control.h"

#include "../sim/monitor.h"
#include "../sim/report.h"
#include "../sim/thread.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace pld::mpi {
namespace {

using Clock = std::chrono::steady_clock;
// As the simulator's monitor (sim/monitor.cpp).
constexpr auto kStall = std::chrono::milliseconds(250);
constexpr auto kPoll = std::chrono::milliseconds(20);

Control *g_control = nullptr;
int32_t g_rank = 0, g_nranks = 0;
double g_timeout_s = 0;
std::thread g_monitor;
std::atomic<bool> g_stop{false};

/// Ends this process quietly once the run's report is out.
void exit_if_reported() {
  if (g_control->reported.load(std::memory_order_acquire))
    _exit(g_control->stop_status.load(std::memory_order_relaxed));
}

void claim(int status) {
  int32_t none = 0;
  if (g_control->stop_status.compare_exchange_strong(none, status))
    return;
  // Another process reports; end with its status once it has.
  for (;;) {
    exit_if_reported();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void reported(int) { g_control->reported.store(1, std::memory_order_release); }

void publish(Peer &peer) {
  sim::Activity activity = sim::activity();
  std::string text = sim::thread_listing();
  if (text.empty())
    text = "  rank " + std::to_string(g_rank) + ": starting\n";
  if (text.size() > kListingBytes) {
    const std::string cut = "  ... (cut)\n";
    text.resize(kListingBytes - cut.size());
    text += cut;
  }
  uint32_t seq = peer.seq.load(std::memory_order_relaxed);
  peer.seq.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  std::memcpy(peer.listing, text.data(), text.size());
  peer.length.store(static_cast<uint32_t>(text.size()),
                    std::memory_order_relaxed);
  peer.seq.store(seq + 2, std::memory_order_release);
  peer.progress.store(sim::progress(), std::memory_order_relaxed);
  peer.activity.store(static_cast<uint32_t>(activity) + 1,
                      std::memory_order_release);
  peer.beats.fetch_add(1, std::memory_order_release);
}

/// A consistent copy of a peer's listing (retried while it changes).
std::string listing(const Peer &peer, int32_t rank) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    uint32_t before = peer.seq.load(std::memory_order_acquire);
    if (before == 0)
      return "  rank " + std::to_string(rank) + ": starting\n";
    if (before % 2)
      continue;
    uint32_t length = std::min<uint32_t>(
        peer.length.load(std::memory_order_relaxed), kListingBytes);
    std::string text(peer.listing, length);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (peer.seq.load(std::memory_order_relaxed) == before)
      return text;
  }
  return "  rank " + std::to_string(rank) + ": (its listing kept changing)\n";
}

std::string all_listings() {
  std::string text;
  for (int32_t r = 0; r < g_nranks; ++r)
    text += listing(g_control->peers[r], r);
  return text;
}

void monitor() {
  Peer &mine = g_control->peers[g_rank];
  auto start = Clock::now();
  auto since = start;
  std::vector<uint64_t> last(static_cast<size_t>(g_nranks), ~uint64_t{0});
  // Each rank's publications when the current quiet stretch began.
  std::vector<uint64_t> beats_since(static_cast<size_t>(g_nranks), 0);
  while (!g_stop.load(std::memory_order_relaxed)) {
    std::this_thread::sleep_for(kPoll);
    exit_if_reported();
    publish(mine);
    if (g_rank != 0)
      continue;
    auto now = Clock::now();
    if (g_timeout_s > 0 &&
        now - start > std::chrono::duration<double>(g_timeout_s)) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", g_timeout_s);
      sim::stop_run(sim::kExitDeadlock,
                    "pld-run: timeout: the run did not finish within " +
                        std::string(seconds) + " s\n" + all_listings());
    }
    // Deadlocked: every rank stuck or finished, one at least stuck, and no
    // rank's progress moved for the stall interval.
    bool quiet = true, any_stuck = false, rechecked = true;
    for (int32_t r = 0; r < g_nranks; ++r) {
      const Peer &peer = g_control->peers[r];
      uint64_t beats = peer.beats.load(std::memory_order_acquire);
      rechecked &= beats >= beats_since[r] + 2;
      auto activity = peer.activity.load(std::memory_order_acquire);
      uint64_t progress = peer.progress.load(std::memory_order_relaxed);
      if (activity != static_cast<uint32_t>(sim::Activity::Stuck) + 1 &&
          activity != static_cast<uint32_t>(sim::Activity::Finished) + 1)
        quiet = false;
      any_stuck |= activity == static_cast<uint32_t>(sim::Activity::Stuck) + 1;
      if (progress != last[r])
        quiet = false;
      last[r] = progress;
    }
    if (!quiet || !any_stuck) {
      since = now;
      for (int32_t r = 0; r < g_nranks; ++r)
        beats_since[r] =
            g_control->peers[r].beats.load(std::memory_order_acquire);
      continue;
    }
    // Every process must have re-checked its threads since the stretch
    // began: a stale `Stuck` of a starved monitor is not a deadlock.
    if (now - since < kStall || !rechecked)
      continue;
    sim::stop_run(sim::kExitDeadlock,
                  "pld-run: deadlock: every unfinished thread is blocked and "
                  "nothing changed for " +
                      std::to_string(kStall.count()) + " ms\n" +
                      all_listings());
  }
}

} // namespace

void install_early_hooks(int32_t rank) {
  if (rank == 0)
    return;
  sim::set_stop_hooks({[](int status) {
                         // Rank 0 reports the same failure; give it the
                         // time to, then end quietly.
                         std::this_thread::sleep_for(std::chrono::seconds(1));
                         _exit(status);
                       },
                       nullptr});
}

void start(Control *control, int32_t rank, int32_t nranks, double timeout_s) {
  g_control = control;
  g_rank = rank;
  g_nranks = nranks;
  g_timeout_s = timeout_s;
  sim::set_stop_hooks({claim, reported});
  g_stop.store(false, std::memory_order_relaxed);
  g_monitor = std::thread(monitor);
}

void finish() {
  g_control->finished.fetch_add(1, std::memory_order_acq_rel);
  // Sleeping, not MPI_Barrier: Open MPI's barrier spins, and the ranks
  // still running share the cores.
  while (g_control->finished.load(std::memory_order_acquire) < g_nranks)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  g_stop.store(true, std::memory_order_relaxed);
  if (g_monitor.joinable())
    g_monitor.join();
}

} // namespace pld::mpi
