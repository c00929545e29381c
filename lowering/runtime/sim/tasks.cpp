//===- tasks.cpp - Tasks, deferred completion, launches, sub-lanes --------===//

#include "tasks.h"

#include "events.h"
#include "memory.h"
#include "race.h"
#include "remote.h"
#include "report.h"
#include "sched.h"
#include "timing.h"
#include "world.h"

#include <algorithm>
#include <chrono>
#include <functional>

namespace pld::sim {
namespace {

using rt::CommContext;
using rt::detail::Closure;

/// The longest sleep of a task-level wait: tasks are coarse, and many
/// runners may wait at once.
constexpr int64_t kTaskBackoffUs = 1000;

/// Runs `kernel` on `blocks` threads of `id`'s rank and joins them.
void run_blocks(Identity id, int64_t blocks, CommContext *ctx,
                const Closure &kernel) {
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(blocks));
  for (int64_t b = 0; b < blocks; ++b) {
    id.block = b;
    threads.push_back(
        spawn(id, [ctx, &kernel] { kernel.invoke(kernel.self, ctx); }));
  }
  Blocked blocked(WaitKind::Join);
  for (std::thread &thread : threads)
    join(thread);
}

/// How many conditions `task` keeps (a registration past kMaxConditions
/// traps).
int32_t condition_count(const Task &task) {
  return std::min(task.nconditions.load(std::memory_order_relaxed),
                  kMaxConditions);
}

bool all_hold(const Task &task) {
  int32_t n = condition_count(task);
  for (int32_t i = 0; i < n; ++i)
    if (!condition_holds(task.conditions[i]))
      return false;
  return true;
}

bool holds_unsigned(int32_t value, int32_t expected) {
  return static_cast<uint32_t>(value) >= static_cast<uint32_t>(expected);
}

/// The condition of `task` that holds last in modelled time (null without
/// conditions), and in `at` when every condition holds (0 without any).
const Condition *latest_condition(const Task &task, double &at) {
  const Condition *latest = nullptr;
  at = 0;
  int32_t n = condition_count(task);
  for (int32_t i = 0; i < n; ++i) {
    const Condition &c = task.conditions[i];
    double held =
        timing::satisfied_at(c.cell, c.seen, holds_unsigned, c.expected);
    if (!latest || held > at) {
      latest = &c;
      at = std::max(at, held);
    }
  }
  return latest;
}

/// When every condition of `task` holds, in modelled time.
double conditions_time(const Task &task) {
  double at = 0;
  latest_condition(task, at);
  return at;
}

/// The critical path of a task held up by its deferred conditions from
/// `began`: the condition that held last, and the notify that made it.
void stalled_on_latest(const Task &task, double began) {
  double at = 0;
  if (const Condition *latest = latest_condition(task, at))
    timing::stalled(latest->cell, latest->seen, holds_unsigned,
                    latest->expected, latest->site, began, timing::now());
}

/// Waits, as `kind`, until `ready()`: a scheduling point reading `objects`
/// in a serialized run, polite polling otherwise. In a timed run the
/// thread goes on at `until()` (or its own clock, if later).
void block_until(WaitKind kind, const char *what,
                 std::vector<sched::Object> objects,
                 const std::function<bool()> &ready,
                 const std::function<double()> &until) {
  if (!sched::enabled() && ready())
    return;
  Blocked blocked(kind);
  if (sched::enabled()) {
    sched::When when;
    if (timing::enabled())
      when = [now = timing::now(), until] { return std::max(now, until()); };
    sched::wait_until(what, std::move(objects), ready, when);
    if (timing::enabled())
      timing::advance_to(when());
    return;
  }
  Backoff backoff(kTaskBackoffUs);
  do
    backoff.pause();
  while (!ready());
}

/// A deferred condition `>= expected` holds for `value` (as uint32).
bool at_least(int32_t value, int32_t expected) {
  return static_cast<uint32_t>(value) >= static_cast<uint32_t>(expected);
}

/// The trace of a task's deferred conditions, which held by now since its
/// kernel finished at `began`: a `deferred` slice each, with the arrow from
/// the notify that made it hold.
void trace_conditions(const Task &task, double began) {
  double end = std::max(events::now(), began);
  for (int32_t i = 0; i < condition_count(task); ++i) {
    const Condition &c = task.conditions[i];
    std::string what = "\"cell\": \"" + c.coordinates +
                       "\", \"awaited\": \">= " + std::to_string(c.expected) +
                       "\"";
    events::waited("deferred", c.cell, c.traced, at_least, c.expected, c.site,
                   what, began, end);
  }
}

void run_task(Task &task) {
  ThreadState &t = self();
  for (Task *dep : task.deps) {
    t.slot->dep.store(dep, std::memory_order_relaxed);
    double began = timing::now();
    block_until(
        WaitKind::Dep, "dependency", {sched::awaited_task(dep)},
        [dep] { return dep->done.load(std::memory_order_acquire); },
        [dep] { return dep->done_at; });
    if (timing::enabled())
      timing::waited_for_thread(
          describe(Identity{dep->rank, Role::Runner, 0, 0, dep}), "dependency",
          began, timing::now());
  }
  // A dependent task is ordered after everything its dependencies did.
  for (Task *dep : task.deps)
    if (dep->done_clock)
      race::join(*dep->done_clock);
  if (task.dispatch) {
    Identity id{task.rank, Role::Kernel, 0, 0, &task};
    run_blocks(id, task.blocks, rank_state(task.rank).ctx, task.kernel);
  }
  task.kernel.destroy(task.kernel.self);
  double kernel_done = events::enabled() ? events::now() : 0;
  // A serialized run makes the check a scheduling point even where the
  // conditions hold already: it reads their cells, and exploration must
  // see that read to try the orders in which a notify comes after it.
  bool held = all_hold(task);
  if (!held || (sched::enabled() && condition_count(task) > 0)) {
    RankState &rank = rank_state(task.rank);
    if (!held && rank.deferred.fetch_add(1, std::memory_order_relaxed) + 1 >
                     kMaxDeferredTasks)
      trap("more than " + std::to_string(kMaxDeferredTasks) +
           " deferred tasks wait on rank " + std::to_string(task.rank) +
           " at once");
    std::vector<sched::Object> cells;
    for (int32_t i = 0; i < condition_count(task); ++i)
      cells.push_back(sched::cell(task.conditions[i].cell, false).front());
    double began = timing::now();
    auto start = std::chrono::steady_clock::now();
    block_until(
        WaitKind::Deferred, "deferred", std::move(cells),
        [&task] { return all_hold(task); },
        [&task] { return conditions_time(task); });
    if (!held)
      rank.deferred.fetch_sub(1, std::memory_order_relaxed);
    rank.stats.wait_ns.fetch_add(
        static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - start)
                .count()),
        std::memory_order_relaxed);
    if (timing::enabled())
      stalled_on_latest(task, began);
  }
  int32_t conditions = condition_count(task);
  if (events::enabled())
    trace_conditions(task, kernel_done);
  // Each deferred condition is a wait, whether it held at once or not.
  rank_state(task.rank).stats.waits.fetch_add(static_cast<uint64_t>(conditions),
                                              std::memory_order_relaxed);
  // The task completes after the notifies that made its conditions hold.
  for (int32_t i = 0; i < conditions; ++i)
    race::join(race::condition_clock(task.conditions[i].cell,
                                     task.conditions[i].expected));
  task.done_clock = race::finish();
  if (timing::enabled())
    task.done_at = std::max(timing::now(), conditions_time(task));
  if (sched::enabled())
    sched::point("complete", {sched::finished_task(&task)});
  task.done.store(true, std::memory_order_release);
  bump_progress();
}

} // namespace

bool condition_holds(const Condition &condition) {
  // Acquire: the runtime orders the publisher's payload before the tasks
  // that depend on this one, as the device runtime does.
  int32_t value = cell_value(condition.cell, std::memory_order_acquire);
  return static_cast<uint32_t>(value) >=
         static_cast<uint32_t>(condition.expected);
}

void wait_for_tasks(int32_t rank) {
  Blocked blocked(WaitKind::Tasks);
  for (Task *task : rank_state(rank).tasks)
    if (task->runner.joinable())
      join(task->runner);
}

} // namespace pld::sim

namespace pld::rt::detail {

using namespace pld::sim;

namespace {

/// The world rank that uses `ctx`, which traps when that rank is outside the
/// context's comm group (comm_group gives such a rank rankId == rankNum).
int32_t member_rank(const CommContext *ctx, const std::string &what) {
  if (ctx->rankId < ctx->rankNum)
    return window_rank(*ctx, ctx->rankId);
  std::string ranks;
  for (uint32_t i = 0; i < ctx->rankNum; ++i)
    ranks += (i ? ", " : "") + std::to_string(window_rank(*ctx, i));
  trap(what + " on rank " + std::to_string(self().id.rank) +
       ", which is not a member of the comm group [" + ranks +
       "] whose windows it uses (guard it with the rank, as a host dispatches "
       "to the group's devices only)");
}

} // namespace

void check_member(const CommContext *ctx, const char *what) {
  member_rank(ctx, what);
}

CommContext *comm_group(const CommContext *ctx, const int64_t *ranks,
                        int64_t count) {
  World &w = world();
  int32_t me = member_rank(ctx, "comm_group");
  std::vector<int64_t> members(ranks, ranks + count);
  std::string what = "comm_group of ranks [";
  for (int64_t i = 0; i < count; ++i)
    what += (i ? ", " : "") + std::to_string(ranks[i]);
  what += "]";
  for (int64_t i = 0; i < count; ++i) {
    if (ranks[i] < 0 || ranks[i] >= w.nranks)
      trap(what + ": rank " + std::to_string(ranks[i]) +
           " is outside the world of " + std::to_string(w.nranks) + " ranks");
    if (i > 0 && ranks[i] <= ranks[i - 1])
      trap(what + ": the ranks are not ascending, each once");
  }
  std::unique_ptr<CommContext> &group = rank_state(me).groups[members];
  if (!group) {
    const CommContext &world_ctx = *rank_state(me).ctx;
    group = std::make_unique<CommContext>(world_ctx);
    auto size = static_cast<uint32_t>(count);
    group->rankNum = size;
    group->rankId = size; // Not a member, until found below.
    for (uint32_t i = 0; i < size; ++i) {
      group->windowsIn[i] = world_ctx.windowsIn[ranks[i]];
      group->windowsOut[i] = world_ctx.windowsOut[ranks[i]];
      if (ranks[i] == me)
        group->rankId = i;
    }
    for (uint32_t i = size; i < 64; ++i)
      group->windowsIn[i] = group->windowsOut[i] = 0;
  }
  return group.get();
}

uint8_t *alloc_window(const CommContext *ctx, int64_t bytes, const char *name) {
  RankState &rank = rank_state(member_rank(ctx, "alloc_window"));
  auto fail = [&](const std::string &why) {
    trap("alloc_window(\"" + std::string(name ? name : "") + "\", " +
         std::to_string(bytes) + " bytes): " + why);
  };
  if (bytes < 0)
    fail("a negative size");
  uint64_t size = (static_cast<uint64_t>(bytes) + 31) & ~uint64_t{31};
  uint64_t offset = rank.heap_next.fetch_add(size, std::memory_order_relaxed);
  if (offset > rank.heap_end || size > rank.heap_end - offset)
    fail("the window heap is exhausted (" +
         std::to_string(rank.heap_end - std::min(offset, rank.heap_end)) +
         " bytes left; raise `window_heap` in the job file)");
  // No memset: the window starts zeroed and the heap never reuses bytes; a
  // fast peer may already have written into this buffer.
  return reinterpret_cast<uint8_t *>(ctx->windowsIn[ctx->rankId] + offset);
}

uint8_t *handoff_workspace(const CommContext *ctx, int64_t bytes) {
  int32_t rank_id = member_rank(ctx, "handoff_workspace");
  RankState &rank = rank_state(rank_id);
  if (bytes < 0)
    trap("handoff_workspace(" + std::to_string(bytes) +
         " bytes): a negative size");
  // Every launch gets bytes of its own (tasks of one kernel may run at once),
  // 512-byte aligned as a fixpipe store's and a TLOAD's addresses want.
  uint64_t size = (static_cast<uint64_t>(bytes) + 511) & ~uint64_t{511};
  World &w = world();
  uint64_t offset =
      rank.handoff_next.fetch_add(size, std::memory_order_relaxed);
  if (offset > w.handoff_size || size > w.handoff_size - offset)
    trap("handoff_workspace(" + std::to_string(bytes) + " bytes): rank " +
         std::to_string(rank_id) + "'s hand-off space (" +
         std::to_string(w.handoff_size) +
         " bytes, one part per launch of a mixed kernel) is exhausted");
  return w.handoffs + static_cast<uint64_t>(rank_id) * w.handoff_size + offset;
}

int64_t submit(CommContext *ctx, const char *name, int64_t blocks,
               bool dispatch, const int64_t *deps, int64_t ndeps,
               Closure kernel) {
  std::string what = "submit of task \"" + std::string(name) + "\"";
  int32_t rank_id = member_rank(ctx, what);
  RankState &rank = rank_state(rank_id);
  if (blocks < 0 || blocks > 4096)
    trap(what + ": " + std::to_string(blocks) + " blocks");
  auto task = new Task;
  task->id = static_cast<int64_t>(rank.tasks.size()) + 1;
  task->name = name;
  task->rank = rank_id;
  task->blocks = blocks;
  task->dispatch = dispatch;
  task->kernel = kernel;
  for (int64_t i = 0; i < ndeps; ++i) {
    if (deps[i] == 0)
      continue; // A task that was never submitted counts as done.
    if (deps[i] < 0 || deps[i] >= task->id)
      trap(what + ": dependency on unknown task id " + std::to_string(deps[i]));
    task->deps.push_back(rank.tasks[static_cast<size_t>(deps[i] - 1)]);
  }
  rank.tasks.push_back(task);
  Identity id{rank_id, Role::Runner, 0, 0, task};
  task->runner = spawn(id, [task] { run_task(*task); });
  return task->id;
}

void *current_task() { return self().id.task; }

void defer_completion(void *payload, int32_t *cell, int32_t expected,
                      const char *site, const int32_t *base,
                      const int64_t *dims, int ndims) {
  auto *task = static_cast<Task *>(payload);
  std::string what = op_site("defer_completion", site);
  if (!task)
    trap(what + " outside a task");
  // The payload a kernel receives is the one of the task it runs for.
  if (task != self().id.task)
    trap(what + " with the dispatch payload of another task");
  std::string where =
      check_signal_cell(cell, "defer_completion", site, base, dims, ndims);
  if (expected < 0)
    trap(what + ": expected value " + std::to_string(expected) +
         " is negative");
  int32_t index = task->nconditions.fetch_add(1, std::memory_order_relaxed);
  if (index >= kMaxConditions)
    trap(what + ": more than " + std::to_string(kMaxConditions) +
         " completion conditions in task " + std::to_string(task->id) + " \"" +
         task->name + "\"");
  task->conditions[index] = {cell,
                             expected,
                             site,
                             where,
                             timing::enabled() ? timing::seen(cell) : 0,
                             events::enabled() ? events::seen(cell) : 0};
}

void launch(CommContext *ctx, int64_t blocks, Closure kernel) {
  if (blocks < 0 || blocks > 4096)
    trap("launch of " + std::to_string(blocks) + " blocks");
  Identity id = self().id;
  id.rank = member_rank(ctx, "launch of a kernel");
  id.role = Role::Kernel;
  id.lane = 0;
  run_blocks(id, blocks, ctx, kernel);
  kernel.destroy(kernel.self);
}

void run_on_lanes(CommContext *ctx, Closure body) {
  ThreadState &t = self();
  // The AIV sub-blocks are the vector core's; the cube core has none.
  if (t.id.core == rt::Core::AIC)
    trap("run_on_lanes on the AIC: split regions run on the AIV sub-blocks");
  Identity helper = t.id;
  helper.role = Role::Kernel;
  helper.lane = 1;
  // Sub-lane 1 is the same vector core's other sub-block: in a mixed
  // kernel, it belongs to the same run_mixed.
  CrossCore *mixed = t.mixed;
  // The region continues the core's program: what the core released before
  // it is released on both sub-lanes (signals.cpp's model).
  bool released = t.released;
  std::thread lane1 = spawn(helper, [ctx, &body, mixed, released] {
    self().mixed = mixed;
    self().in_lanes = true;
    self().released = released;
    body.invoke(body.self, ctx);
  });
  bool in_lanes = t.in_lanes;
  t.in_lanes = true;
  body.invoke(body.self, ctx);
  t.in_lanes = in_lanes;
  {
    Blocked blocked(WaitKind::Join);
    join(lane1);
  }
  body.destroy(body.self);
}

} // namespace pld::rt::detail
