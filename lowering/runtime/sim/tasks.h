//===- tasks.h - The per-rank task runtime ----------------------*- C++ -*-===//
//
// A host orchestrator submits tasks; each task has a runner thread that waits
// for the task's deps, runs its kernel on `blocks` threads, then waits for
// the conditions defer_completion registered, and marks the task done.
// Completion is a release store that dependents load with acquire: a task
// boundary orders memory, as kernel completion does on the device.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_TASKS_H
#define PLD_SIM_TASKS_H

#include "pld/runtime/host.h"
#include "race.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace pld::sim {

/// Limits from semantics §3 (defer_wait).
inline constexpr int32_t kMaxConditions = 64;
inline constexpr int32_t kMaxDeferredTasks = 64;

/// `*cell >= expected`, compared as uint32 (the runtime polls counters).
struct Condition {
  int32_t *cell;
  int32_t expected;
  const char *site;
  std::string coordinates; ///< In its signal, for reports ("[1, 0]").
  size_t seen = 0;         ///< The cell's values before it (a timed run).
  size_t traced = 0; ///< The cell's notifies in the trace before it (--trace).
};

struct Task {
  int64_t id;
  const char *name;
  int32_t rank;
  int64_t blocks;
  bool dispatch;
  std::vector<Task *> deps;
  rt::detail::Closure kernel;
  /// Registrations so far; may exceed kMaxConditions by the ones that trap.
  std::atomic<int32_t> nconditions{0};
  Condition conditions[kMaxConditions];
  std::atomic<bool> done{false};
  /// What the task's completion carries (`--sanitize race`), set before
  /// `done`.
  std::shared_ptr<race::Clock> done_clock;
  /// When it completed, in modelled time (a timed run), set before `done`.
  double done_at = 0;
  std::thread runner;
};

bool condition_holds(const Condition &condition);

/// Called by a rank's host thread after its entry returned.
void wait_for_tasks(int32_t rank);

} // namespace pld::sim

#endif // PLD_SIM_TASKS_H
