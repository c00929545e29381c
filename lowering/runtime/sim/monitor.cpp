//===- monitor.cpp - Deadlock detection and the wall-clock backstop -------===//
//
// The monitor only reads: slot states with acquire (so the identity and
// wait description written before them are visible) and signal cells with
// relaxed loads. It never releases anything to a simulated thread, so it
// adds no happens-before edge between ranks.
//
//===----------------------------------------------------------------------===//

#include "monitor.h"

#include "events.h"
#include "memory.h"
#include "remote.h"
#include "report.h"
#include "tasks.h"
#include "thread.h"
#include "world.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace pld::sim {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kStall = std::chrono::milliseconds(250);
constexpr auto kPoll = std::chrono::milliseconds(20);

std::thread g_monitor;
std::atomic<bool> g_stop{false};

std::string awaited(rt::WaitCmp cmp, int32_t expected) {
  return std::string(cmp == rt::WaitCmp::EQ ? "== " : ">= ") +
         std::to_string(expected);
}

/// "[1, 0]" from the cell's offset in its signal tensor, when the wait named
/// the tensor; empty otherwise.
std::string coordinates(const Slot &slot, const int32_t *cell) {
  const int32_t *base = slot.base.load(std::memory_order_relaxed);
  int32_t ndims = slot.ndims.load(std::memory_order_relaxed);
  if (!base || ndims <= 0)
    return "";
  int64_t index = cell - base;
  int64_t dims[8], total = 1;
  for (int32_t i = 0; i < ndims; ++i) {
    dims[i] = slot.dims[i].load(std::memory_order_relaxed);
    total *= dims[i];
  }
  if (index < 0 || index >= total)
    return "";
  return cell_coordinates(index, dims, ndims);
}

std::string describe_wait(const Slot &slot) {
  switch (slot.kind.load(std::memory_order_relaxed)) {
  case WaitKind::Signal: {
    int32_t *cell = slot.cell.load(std::memory_order_relaxed);
    std::string where = coordinates(slot, cell);
    std::string text =
        "blocked in " +
        op_site("twait", slot.site.load(std::memory_order_relaxed)) +
        " on signal cell ";
    if (!where.empty())
      text += where + " at ";
    text += describe_address(reinterpret_cast<uintptr_t>(cell)) + ": holds " +
            std::to_string(cell_value(cell, std::memory_order_relaxed)) +
            ", waits for " +
            awaited(slot.cmp.load(std::memory_order_relaxed),
                    slot.expected.load(std::memory_order_relaxed));
    return text;
  }
  case WaitKind::Dep: {
    Task *dep = slot.dep.load(std::memory_order_relaxed);
    return "waits for task " + std::to_string(dep->id) + " \"" + dep->name +
           "\"";
  }
  case WaitKind::Deferred: {
    const Task &task = *slot.id.task;
    std::string text = "deferred: its kernel finished, its completion waits";
    int32_t n = std::min(task.nconditions.load(std::memory_order_relaxed),
                         kMaxConditions);
    for (int32_t i = 0; i < n; ++i) {
      const Condition &c = task.conditions[i];
      if (condition_holds(c))
        continue;
      auto address = reinterpret_cast<uintptr_t>(c.cell);
      text += "\n    on " + op_site("defer_completion", c.site) + ": cell " +
              (c.coordinates.empty() ? "" : c.coordinates + " at ") +
              describe_address(address) + " holds " +
              std::to_string(cell_value(c.cell, std::memory_order_relaxed)) +
              ", waits for >= " + std::to_string(c.expected) + " (as uint32)";
    }
    return text;
  }
  case WaitKind::Join:
    switch (slot.id.role) {
    case Role::Runner:
      return "waits for its kernel threads";
    case Role::Kernel:
      return "waits for sub-lane 1";
    case Role::Host:
      return "waits for the kernel threads it launched";
    }
    break;
  case WaitKind::Tasks:
    return "waits for its tasks";
  case WaitKind::CrossCore: {
    // The op's name says the direction: "cross_core_wait<AIC, AIV>".
    std::string op = slot.site.load(std::memory_order_relaxed);
    std::string from = op.substr(op.find('<') + 1, 3);
    return "blocked in " + op + ": takes signal " +
           std::to_string(slot.expected.load(std::memory_order_relaxed)) +
           " of the " + from + ", which has signalled " +
           std::to_string(cell_value(slot.cell.load(std::memory_order_relaxed),
                                     std::memory_order_relaxed)) +
           " times";
  }
  case WaitKind::JoinCube:
    return "waits for its AIC half to return (run_mixed)";
  }
  return "blocked";
}

/// Re-checks a blocked thread's condition: a thread that has not noticed yet
/// that it may go on is slow, not deadlocked.
bool still_blocked(const Slot &slot) {
  switch (slot.kind.load(std::memory_order_relaxed)) {
  case WaitKind::Signal:
  case WaitKind::CrossCore: {
    int32_t value = cell_value(slot.cell.load(std::memory_order_relaxed),
                               std::memory_order_relaxed);
    int32_t expected = slot.expected.load(std::memory_order_relaxed);
    return slot.cmp.load(std::memory_order_relaxed) == rt::WaitCmp::EQ
               ? value != expected
               : value < expected;
  }
  case WaitKind::Dep:
    return !slot.dep.load(std::memory_order_relaxed)
                ->done.load(std::memory_order_relaxed);
  case WaitKind::Deferred: {
    const Task &task = *slot.id.task;
    int32_t n = std::min(task.nconditions.load(std::memory_order_relaxed),
                         kMaxConditions);
    for (int32_t i = 0; i < n; ++i)
      if (!condition_holds(task.conditions[i]))
        return true;
    return false;
  }
  case WaitKind::Join:
  case WaitKind::Tasks:
  case WaitKind::JoinCube:
    break;
  }
  return true;
}

/// Orders a rank's threads: its host thread, then each task's runner and
/// kernel threads by task id, then kernel threads by block, its vector
/// core's lanes before its cube core.
std::tuple<int64_t, int, int64_t, bool, int64_t> order(const Identity &id) {
  return {id.task ? id.task->id : 0, static_cast<int>(id.role), id.block,
          id.core == rt::Core::AIC, id.lane};
}

} // namespace

std::string thread_listing() {
  Slot *all = slots();
  int32_t count = slot_count();
  std::string text;
  for (int32_t rank = 0; rank < world().nranks; ++rank) {
    bool any = false;
    std::vector<std::pair<decltype(order({})), std::string>> lines;
    for (int32_t i = 0; i < count; ++i) {
      Slot &slot = all[i];
      SlotState state = slot.state.load(std::memory_order_acquire);
      if (state == SlotState::Free || slot.id.rank != rank)
        continue;
      any = true;
      if (state == SlotState::Finished)
        continue;
      std::string what = "running";
      if (state == SlotState::Blocked)
        what = describe_wait(slot);
      else if (const char *op = slot.last_op.load(std::memory_order_relaxed))
        what += ", last in " + std::string(op);
      lines.emplace_back(order(slot.id),
                         "  " + describe(slot.id) + ": " + what + "\n");
    }
    std::sort(lines.begin(), lines.end());
    for (const auto &line : lines)
      text += line.second;
    if (any && lines.empty())
      text += "  rank " + std::to_string(rank) + ": done\n";
  }
  return text;
}

namespace {

/// How many threads have started and not finished, and how many of them
/// are blocked.
struct Census {
  int32_t live = 0, blocked = 0;
};

Census census() {
  Census census;
  Slot *all = slots();
  for (int32_t i = 0, count = slot_count(); i < count; ++i) {
    SlotState state = all[i].state.load(std::memory_order_acquire);
    census.live += state == SlotState::Running || state == SlotState::Blocked;
    census.blocked += state == SlotState::Blocked;
  }
  return census;
}

/// Whether every blocked thread's condition, checked again, still fails.
bool blocked_for_good() {
  Slot *all = slots();
  for (int32_t i = 0, count = slot_count(); i < count; ++i)
    if (all[i].state.load(std::memory_order_acquire) == SlotState::Blocked &&
        !still_blocked(all[i]))
      return false;
  return true;
}

} // namespace

Activity activity() {
  Census threads = census();
  if (pending_starts() > 0 || slot_count() == 0)
    return Activity::Running;
  if (threads.live == 0)
    return Activity::Finished;
  if (threads.blocked < threads.live || !blocked_for_good())
    return Activity::Running;
  return Activity::Stuck;
}

namespace {

/// A stopped run's trace shows what every blocked thread waited on.
void trace_blocked() {
  if (!events::enabled())
    return;
  Slot *all = slots();
  for (int32_t i = 0, count = slot_count(); i < count; ++i)
    if (all[i].state.load(std::memory_order_acquire) == SlotState::Blocked)
      events::blocked(all[i], describe_wait(all[i]));
}

void run(double timeout_s) {
  auto start = Clock::now();
  auto since = start;
  uint64_t last = progress();
  while (!g_stop.load(std::memory_order_relaxed)) {
    std::this_thread::sleep_for(kPoll);
    auto now = Clock::now();
    if (timeout_s > 0 &&
        now - start > std::chrono::duration<double>(timeout_s)) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", timeout_s);
      trace_blocked();
      stop_run(kExitDeadlock, "pld-run: timeout: the run did not finish "
                              "within " +
                                  std::string(seconds) + " s\n" +
                                  thread_listing());
    }
    Census threads = census();
    uint64_t current = progress();
    if (pending_starts() > 0 || threads.live == 0 ||
        threads.blocked < threads.live || current != last) {
      last = current;
      since = now;
      continue;
    }
    if (now - since < kStall)
      continue;
    if (!blocked_for_good()) {
      since = now;
      continue;
    }
    trace_blocked();
    stop_run(kExitDeadlock,
             "pld-run: deadlock: every unfinished thread is blocked and "
             "nothing changed for " +
                 std::to_string(kStall.count()) + " ms\n" + thread_listing());
  }
}

} // namespace

void start_monitor(double timeout_s) {
  g_stop.store(false, std::memory_order_relaxed);
  g_monitor = std::thread(run, timeout_s);
}

void stop_monitor() {
  g_stop.store(true, std::memory_order_relaxed);
  if (g_monitor.joinable())
    g_monitor.join();
}

} // namespace pld::sim
