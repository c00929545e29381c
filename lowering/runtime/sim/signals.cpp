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

#include "memory.h"
#include "report.h"
#include "world.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace pld::rt::detail {

using namespace pld::sim;

namespace {

std::string coordinates(int64_t index, const int64_t *dims, int ndims) {
  // Row-major, the first coordinate unbounded, so that a cell past the
  // end reads as one (cell [8, 0] of a signal [8, 1]).
  std::vector<int64_t> at(static_cast<size_t>(std::max(ndims, 1)), 0);
  for (int d = ndims - 1; d > 0; --d) {
    int64_t extent = std::max<int64_t>(dims[d], 1);
    at[d] = ((index % extent) + extent) % extent;
    index = (index - at[d]) / extent;
  }
  at[0] = index;
  std::string text = "[";
  for (size_t d = 0; d < at.size(); ++d)
    text += (d ? ", " : "") + std::to_string(at[d]);
  return text + "]";
}

/// The cell is an aligned element of its signal: the `dims`-shaped i32
/// tensor at `base` (at the same offset of the cell's window for a peer's
/// cell).
void check_cell(int32_t *cell, const char *op, const char *site,
                const int32_t *base, const int64_t *dims, int ndims) {
  check_range(cell, sizeof(int32_t), op, site);
  if (reinterpret_cast<uintptr_t>(cell) % alignof(int32_t) != 0)
    trap(op_site(op, site) + ": the signal cell at " +
         describe_address(reinterpret_cast<uintptr_t>(cell)) +
         " is not 4-byte aligned");
  if (!base)
    return;
  int64_t cells = 1;
  for (int d = 0; d < ndims; ++d)
    cells *= dims[d];
  std::optional<uintptr_t> signal = tensor_at(cell, base);
  auto address = reinterpret_cast<uintptr_t>(cell);
  int64_t index =
      signal ? (static_cast<int64_t>(address) - static_cast<int64_t>(*signal)) /
                   static_cast<int64_t>(sizeof(int32_t))
             : -1;
  if (signal && index >= 0 && index < cells)
    return;
  std::string signal_shape = "[";
  for (int d = 0; d < ndims; ++d)
    signal_shape += (d ? ", " : "") + std::to_string(dims[d]);
  signal_shape += "]";
  std::string where = signal ? coordinates(index, dims, ndims)
                             : "at " + describe_address(address);
  uintptr_t start = signal.value_or(reinterpret_cast<uintptr_t>(base));
  trap(op_site(op, site) + ": cell " + where + " outside signal " +
           signal_shape,
       "  signal: " + std::to_string(cells) + " cells at " +
           describe_address(start) + "\n");
}

bool holds(int32_t value, int32_t expected, WaitCmp cmp) {
  return cmp == WaitCmp::EQ ? value == expected : value >= expected;
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
  check_cell(cell, "tnotify", site, base, dims, ndims);
  ThreadState &t = self();
  std::memory_order order =
      t.released ? std::memory_order_release : std::memory_order_relaxed;
  std::atomic_ref<int32_t> signal(*cell);
  switch (op) {
  case NotifyOp::Set:
    signal.store(value, order);
    break;
  case NotifyOp::AtomicAdd:
    signal.fetch_add(value, order);
    break;
  default:
    trap(op_site("tnotify", site) + ": NotifyOp " +
         std::to_string(static_cast<int>(op)) +
         " is neither AtomicAdd (0) nor Set (1)");
  }
  rank_state(t.id.rank).stats.notifies.fetch_add(1, std::memory_order_relaxed);
  bump_progress();
}

void twait(int32_t *cell, int32_t expected, WaitCmp cmp, const char *site,
           const int32_t *base, const int64_t *dims, int ndims) {
  check_cell(cell, "twait", site, base, dims, ndims);
  check_cmp(cmp, "twait", site);
  ThreadState &t = self();
  auto start = std::chrono::steady_clock::now();
  std::atomic_ref<int32_t> signal(*cell);
  if (!holds(signal.load(std::memory_order_relaxed), expected, cmp)) {
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
    Backoff backoff(200);
    do
      backoff.pause();
    while (!holds(signal.load(std::memory_order_relaxed), expected, cmp));
  }
  remember(cell);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - start)
                .count();
  Stats &stats = rank_state(t.id.rank).stats;
  stats.waits.fetch_add(1, std::memory_order_relaxed);
  stats.wait_ns.fetch_add(static_cast<uint64_t>(ns), std::memory_order_relaxed);
}

bool ttest(int32_t *cell, int32_t expected, WaitCmp cmp) {
  check_cell(cell, "ttest", nullptr, nullptr, nullptr, 0);
  check_cmp(cmp, "ttest", nullptr);
  std::atomic_ref<int32_t> signal(*cell);
  if (!holds(signal.load(std::memory_order_relaxed), expected, cmp)) {
    // Code that polls ttest in a loop must not starve the notifier.
    std::this_thread::yield();
    return false;
  }
  remember(cell);
  return true;
}

void release() { self().released = true; }

void acquire() {
  std::vector<int32_t *> &waited = self().waited;
  for (int32_t *cell : waited)
    (void)std::atomic_ref<int32_t>(*cell).load(std::memory_order_acquire);
  waited.clear();
}

} // namespace pld::rt::detail
