//===- control.cpp - One run across processes: stops and deadlocks --------===//

#include "control.h"

#include "watch.h"

#include "../sim/report.h"

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
  Beat beat = own_beat(peer.beats.load(std::memory_order_relaxed) + 1);
  std::string text = own_listing(g_rank);
  uint32_t seq = peer.seq.load(std::memory_order_relaxed);
  peer.seq.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  std::memcpy(peer.listing, text.data(), text.size());
  peer.length.store(static_cast<uint32_t>(text.size()),
                    std::memory_order_relaxed);
  peer.seq.store(seq + 2, std::memory_order_release);
  peer.progress.store(beat.progress, std::memory_order_relaxed);
  peer.activity.store(beat.activity, std::memory_order_release);
  peer.beats.store(beat.beats, std::memory_order_release);
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
  Watch watch(g_nranks, g_timeout_s);
  std::vector<Beat> beats(static_cast<size_t>(g_nranks));
  while (!g_stop.load(std::memory_order_relaxed)) {
    std::this_thread::sleep_for(kPoll);
    exit_if_reported();
    publish(mine);
    if (g_rank != 0)
      continue;
    for (int32_t r = 0; r < g_nranks; ++r) {
      const Peer &peer = g_control->peers[r];
      beats[r] = {peer.activity.load(std::memory_order_acquire),
                  peer.progress.load(std::memory_order_relaxed),
                  peer.beats.load(std::memory_order_acquire)};
    }
    watch.observe(beats, all_listings);
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
