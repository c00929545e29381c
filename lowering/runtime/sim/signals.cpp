//===- signals.cpp - tnotify, twait, ttest, release, acquire --------------===//
//
// The memory-ordering model, chosen so that ThreadSanitizer reports what a
// missing fence would break on the device (it does not model
// std::atomic_thread_fence, so none is used):
// - release() marks the thread "released"; any later payload access clears
//   the mark (a write: the notify publishes it; a read: the notify tells
//   the peer it may overwrite what was read);
// - tnotify is a release operation only while the mark is set;
// - twait polls with relaxed loads and remembers the cell; acquire()
//   re-loads every remembered cell with memory_order_acquire.
// So a payload is ordered before a peer's read only through
// write -> release -> notify -> wait -> acquire -> read, and a read before
// the peer's overwrite only through read -> release -> notify -> wait ->
// acquire -> write.
//
//===----------------------------------------------------------------------===//

#include "events.h"
#include "memory.h"
#include "race.h"
#include "remote.h"
#include "report.h"
#include "sched.h"
#include "timing.h"
#include "world.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

namespace pld::rt::detail {

using namespace pld::sim;

namespace {

bool holds_eq(int32_t value, int32_t expected) { return value == expected; }
bool holds_ge(int32_t value, int32_t expected) { return value >= expected; }
bool differs(int32_t value, int32_t seen) { return value != seen; }

using Holds = bool (*)(int32_t, int32_t);
Holds comparison(WaitCmp cmp) {
  return cmp == WaitCmp::EQ ? holds_eq : holds_ge;
}

bool holds(int32_t value, int32_t expected, WaitCmp cmp) {
  return comparison(cmp)(value, expected);
}

/// Whether `cell` lies in another rank's window than the calling thread's.
bool is_peer_cell(const int32_t *cell, const char *op, const char *site) {
  return check_range(cell, sizeof(int32_t), op, site).rank != self().id.rank;
}

/// When a wait from position `from` of `cell` can go on (a timed run).
sched::When wait_time(int32_t *cell, size_t from, Holds holds,
                      int32_t expected) {
  return [now = timing::now(), cell, from, holds, expected] {
    return std::max(now, timing::satisfied_at(cell, from, holds, expected));
  };
}

void check_cmp(WaitCmp cmp, const char *op, const char *site) {
  if (cmp != WaitCmp::EQ && cmp != WaitCmp::GE)
    trap(op_site(op, site) + ": comparison " +
         std::to_string(static_cast<int>(cmp)) +
         " is neither EQ (0) nor GE (3)");
}

void remember(int32_t *cell) {
  std::vector<int32_t *> &waited = self().waited;
  if (std::find(waited.begin(), waited.end(), cell) == waited.end())
    waited.push_back(cell);
}

} // namespace

void tnotify(int32_t *cell, int32_t value, NotifyOp op, const char *site,
             const int32_t *base, const int64_t *dims, int ndims) {
  doing(site);
  check_signal_cell(cell, "tnotify", site, base, dims, ndims);
  ThreadState &t = self();
  std::memory_order order =
      t.released ? std::memory_order_release : std::memory_order_relaxed;
  if (op != NotifyOp::Set && op != NotifyOp::AtomicAdd)
    trap(op_site("tnotify", site) + ": NotifyOp " +
         std::to_string(static_cast<int>(op)) +
         " is neither AtomicAdd (0) nor Set (1)");
  if (sched::enabled())
    sched::point("notify", sched::cell(cell, true));
  std::atomic_ref<int32_t> signal(*cell);
  auto apply = [&] {
    if (std::optional<WindowByte> at = remote_atomic_byte(cell))
      remote()->cell(*at, op == NotifyOp::Set ? CellOp::Set : CellOp::Add,
                     value);
    else if (op == NotifyOp::Set)
      signal.store(value, order);
    else
      signal.fetch_add(value, order);
  };
  if (race::enabled())
    race::notify(cell, value, op == NotifyOp::Set, site, apply);
  else
    apply();
  std::optional<double> arrives;
  if (timing::enabled())
    arrives = timing::notified(cell, signal.load(std::memory_order_relaxed),
                               is_peer_cell(cell, "tnotify", site),
                               op == NotifyOp::Set, site);
  if (events::enabled())
    events::notified(cell, signal.load(std::memory_order_relaxed),
                     op == NotifyOp::Set, site, arrives);
  rank_state(t.id.rank).stats.notifies.fetch_add(1, std::memory_order_relaxed);
  bump_progress();
}

void twait(int32_t *cell, int32_t expected, WaitCmp cmp, const char *site,
           const int32_t *base, const int64_t *dims, int ndims) {
  doing(site);
  std::string where = check_signal_cell(cell, "twait", site, base, dims, ndims);
  check_cmp(cmp, "twait", site);
  ThreadState &t = self();
  auto start = std::chrono::steady_clock::now();
  size_t traced_from = events::enabled() ? events::seen(cell) : 0;
  double traced_begin = events::enabled() ? events::now() : 0;
  std::atomic_ref<int32_t> signal(*cell);
  auto ready = [&] {
    return holds(cell_value(cell, std::memory_order_relaxed), expected, cmp);
  };
  // A serialized run always stops here: the wait is ordered against the
  // cell's notifies by the scheduler's choice.
  if (sched::enabled() || !ready()) {
    if (Slot *slot = t.slot) {
      slot->site.store(site, std::memory_order_relaxed);
      slot->cell.store(cell, std::memory_order_relaxed);
      slot->expected.store(expected, std::memory_order_relaxed);
      slot->cmp.store(cmp, std::memory_order_relaxed);
      slot->base.store(base, std::memory_order_relaxed);
      int n = std::clamp(ndims, 0, 8);
      slot->ndims.store(n, std::memory_order_relaxed);
      for (int i = 0; i < n; ++i)
        slot->dims[i].store(dims[i], std::memory_order_relaxed);
    }
    Blocked blocked(WaitKind::Signal);
    if (timing::enabled()) {
      size_t from = timing::seen(cell);
      sched::When when = wait_time(cell, from, comparison(cmp), expected);
      sched::wait_until("wait", sched::cell(cell, false), ready, when);
      timing::waited(cell, from, comparison(cmp), expected, site, when());
    } else if (sched::enabled()) {
      sched::wait_until("wait", sched::cell(cell, false), ready);
    } else {
      Backoff backoff(200);
      do
        backoff.pause();
      while (!ready());
    }
  }
  race::waited(cell, expected, cmp);
  remember(cell);
  if (events::enabled())
    events::waited("wait", cell, traced_from, comparison(cmp), expected, site,
                   "\"cell\": \"" + where + " at " +
                       describe_address(reinterpret_cast<uintptr_t>(cell)) +
                       "\", \"awaits\": \"" +
                       (cmp == WaitCmp::EQ ? "== " : ">= ") +
                       std::to_string(expected) + "\", \"saw\": " +
                       std::to_string(signal.load(std::memory_order_relaxed)),
                   traced_begin, events::now());
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - start)
                .count();
  Stats &stats = rank_state(t.id.rank).stats;
  stats.waits.fetch_add(1, std::memory_order_relaxed);
  stats.wait_ns.fetch_add(static_cast<uint64_t>(ns), std::memory_order_relaxed);
}

bool ttest(int32_t *cell, int32_t expected, WaitCmp cmp) {
  check_signal_cell(cell, "ttest", nullptr, nullptr, nullptr, 0);
  check_cmp(cmp, "ttest", nullptr);
  if (sched::enabled())
    sched::point("test", sched::cell(cell, false));
  if (timing::enabled())
    timing::scalar(false);
  std::atomic_ref<int32_t> signal(*cell);
  int32_t seen = cell_value(cell, std::memory_order_relaxed);
  if (!holds(seen, expected, cmp)) {
    // Code that polls ttest in a loop must not starve the notifier. A
    // serialized run parks the poller until the cell changes: polling
    // again before that would see the same value, so the orders worth
    // exploring are those of the cell's writes.
    if (sched::enabled()) {
      size_t from = timing::enabled() ? timing::seen(cell) : 0;
      sched::When when;
      if (timing::enabled())
        when = wait_time(cell, from, differs, seen);
      sched::wait_until(
          "retest", sched::cell(cell, false),
          [&signal, seen] {
            return signal.load(std::memory_order_relaxed) != seen;
          },
          when);
      if (timing::enabled())
        timing::advance_to(when());
    } else
      std::this_thread::yield();
    return false;
  }
  race::waited(cell, expected, cmp);
  remember(cell);
  return true;
}

void release() {
  if (const Remote *hooks = remote())
    hooks->release();
  self().released = true;
  race::release();
  if (timing::enabled())
    timing::release();
}

void acquire() {
  std::vector<int32_t *> &waited = self().waited;
  if (const Remote *hooks = remote())
    hooks->acquire();
  else
    for (int32_t *cell : waited)
      (void)std::atomic_ref<int32_t>(*cell).load(std::memory_order_acquire);
  waited.clear();
  race::acquire();
}

} // namespace pld::rt::detail
