//===- mixed.cpp - Mixed kernels: a block's cube and vector cores ---------===//
//
// A mixed kernel's block runs on two cores at once (pto-isa
// docs/reference/pto-cvid-cluster-id-mapping.md:33-40: one AIC and its
// AIVs, every core of a block seeing the same block index): run_mixed runs
// the cube half on a new simulated thread of the same block, with its own
// L1 and L0 memories (ThreadState::cube, made on first use), and the
// vector half on the calling thread, which is the block's vector core.
//
// The block's intra-block flags count (pto-isa
// docs/isa/scalar/ops/pipeline-sync/set-cross-core.md:13-20, :64: a set
// adds one, a wait takes one, four bits of count): per run_mixed, one count
// of signals per direction, kept in a signal cell as the simulator's
// notifies keep theirs, so that the race checker, the scheduler, modelled
// time, the trace and the deadlock monitor treat a signal as a notify that
// adds one and the k-th wait as a wait for the count to reach k:
// - race: the k-th wait acquires the clocks of the signals up to the k-th
//   (race.h); a release() before the signal and an acquire() after the
//   wait carry the payload, as for a notify;
// - timing: a signal costs `issue_ns` and reaches the other core at once,
//   as a notify of a cell of the thread's own rank does (no `alpha_ns`
//   hop): pto-isa's own cost model charges ffts_cross_core_sync and
//   wait_flag_dev one cycle each (costmodel/a2a3/cce_costmodel/
//   cce_costmodel_sync.hpp:20-26, :162-167, EstimateConstCycles at
//   cce_costmodel_core.hpp:135) and its pipeline simulator lets a waiter
//   through at the cycle the signal completes (costmodel/perf_sim/
//   pipe_model.hpp:64-72, pipe_model_sim_impl.inl:310-316, :346-369); the
//   wait completes at max(its clock, the arrival of the signal it takes);
// - the deadlock monitor reads the wait from the thread's slot
//   (WaitKind::CrossCore).
//
// Only the vector half's own thread, not its sub-lanes, uses the flags: on
// a2a3 a flag set by the AIC reaches both AIVs and the AIC's wait takes a
// set from each (set-cross-core.md:15-18), so a flag set or awaited inside
// a split region (one sub-block's thread here) means something else on the
// device than on one thread; the simulator refuses it instead of guessing.
//
//===----------------------------------------------------------------------===//

#include "events.h"
#include "race.h"
#include "report.h"
#include "sched.h"
#include "thread.h"
#include "timing.h"

#include <algorithm>
#include <atomic>
#include <string>

namespace pld::sim {

/// The flags of one run_mixed: direction 0 is AIV -> AIC, 1 AIC -> AIV.
struct CrossCore {
  /// Signals so far: a signal cell, only ever read and added to atomically.
  int32_t signals[2] = {0, 0};
  /// Waits completed so far; only the waiting core writes it.
  std::atomic<int32_t> taken[2] = {0, 0};
};

} // namespace pld::sim

namespace pld::rt::detail {

using namespace pld::sim;

namespace {

/// On a2a3 a flag's count is four bits: a set past 15 overflows
/// (pto-isa docs/isa/scalar/ops/pipeline-sync/set-cross-core.md:64).
constexpr int32_t kMaxPending = 15;

int direction(Core dst) { return dst == Core::AIC ? 0 : 1; }

const char *core_name(Core core) { return core == Core::AIC ? "AIC" : "AIV"; }

/// The op's name, as reports and traces show it (static strings: a slot
/// keeps the pointer).
const char *op_name(bool wait, Core src) {
  if (wait)
    return src == Core::AIV ? "cross_core_wait<AIV, AIC>"
                            : "cross_core_wait<AIC, AIV>";
  return src == Core::AIV ? "cross_core_signal<AIV, AIC>"
                          : "cross_core_signal<AIC, AIV>";
}

/// Whether the count of signals has reached the one a wait takes.
bool reached(int32_t signals, int32_t ticket) { return signals >= ticket; }

/// The calling thread's flags for a signal (or, `wait`, a wait) from `src`
/// to `dst`, after checking that it may use them.
CrossCore &flags_for(const char *op, bool wait, Core src, Core dst) {
  ThreadState &t = self();
  if (src == dst || (src != Core::AIC && src != Core::AIV) ||
      (dst != Core::AIC && dst != Core::AIV))
    trap(std::string(op) + ": the flag does not go from one core to the other");
  if (t.in_lanes)
    trap(std::string(op) +
         " inside a split region: on the device each AIV sub-block signals "
         "and waits for itself (a flag from the AIC reaches both, the AIC's "
         "wait takes one signal of each), which one simulated vector core "
         "does not model; hand over outside run_on_lanes");
  if (!t.mixed)
    trap(std::string(op) + " outside run_mixed: only the two halves of a "
                           "mixed kernel's block share its flags");
  Core core = t.id.core;
  if (core != (wait ? dst : src))
    trap(std::string(op) + " on the " + core_name(core) +
         ": the flag goes from the " + core_name(src) + " to the " +
         core_name(dst));
  return *t.mixed;
}

} // namespace

void run_mixed(CommContext *ctx, Closure aic, Closure aiv) {
  ThreadState &t = self();
  if (t.id.role != Role::Kernel || t.id.core != Core::AIV || t.mixed ||
      t.in_lanes)
    trap("run_mixed outside a kernel block's own thread: a mixed kernel's "
         "entry runs it once per block");
  // Never freed: the cells' addresses key the race checker's, the
  // scheduler's and the clock's logs, which must not see a later
  // run_mixed's flags at the same address. 16 bytes per block launch.
  auto *flags = new CrossCore;
  Identity cube = t.id;
  cube.core = Core::AIC;
  cube.lane = 0;
  std::thread aic_thread = spawn(cube, [ctx, &aic, flags] {
    self().mixed = flags;
    aic.invoke(aic.self, ctx);
    self().mixed = nullptr;
  });
  t.mixed = flags;
  aiv.invoke(aiv.self, ctx);
  t.mixed = nullptr;
  {
    Blocked blocked(WaitKind::JoinCube);
    join(aic_thread);
  }
  aic.destroy(aic.self);
  aiv.destroy(aiv.self);
}

void cross_core_signal(Core src, Core dst) {
  const char *op = op_name(false, src);
  doing(op);
  CrossCore &flags = flags_for(op, false, src, dst);
  int d = direction(dst);
  int32_t *cell = &flags.signals[d];
  ThreadState &t = self();
  if (sched::enabled())
    sched::point("cross_core_signal", sched::cell(cell, true));
  std::atomic_ref<int32_t> signals(*cell);
  // A release operation only after release(), as a notify (signals.cpp).
  std::memory_order order =
      t.released ? std::memory_order_release : std::memory_order_relaxed;
  int32_t after = 0;
  auto apply = [&] { after = signals.fetch_add(1, order) + 1; };
  if (race::enabled())
    race::notify(cell, 1, false, op, apply);
  else
    apply();
  int32_t pending = after - flags.taken[d].load(std::memory_order_relaxed);
  if (pending > kMaxPending)
    trap(std::string(op) + ": " + std::to_string(pending) + " signals the " +
         core_name(dst) +
         " has not waited for: an a2a3 cross-core flag counts to " +
         std::to_string(kMaxPending) + " and overflows");
  std::optional<double> arrives;
  if (timing::enabled())
    arrives = timing::notified(cell, after, false, false, op);
  if (events::enabled())
    events::notified(cell, after, false, op, arrives);
  bump_progress();
}

void cross_core_wait(Core src, Core dst) {
  const char *op = op_name(true, src);
  doing(op);
  CrossCore &flags = flags_for(op, true, src, dst);
  int d = direction(dst);
  int32_t *cell = &flags.signals[d];
  // Waits take signals in order: this one takes signal `ticket`.
  int32_t ticket = flags.taken[d].load(std::memory_order_relaxed) + 1;
  ThreadState &t = self();
  size_t traced_from = events::enabled() ? events::seen(cell) : 0;
  double traced_begin = events::enabled() ? events::now() : 0;
  std::atomic_ref<int32_t> signals(*cell);
  auto ready = [&signals, ticket] {
    return signals.load(std::memory_order_relaxed) >= ticket;
  };
  // As twait (signals.cpp): a serialized run always stops here.
  if (sched::enabled() || !ready()) {
    if (Slot *slot = t.slot) {
      slot->site.store(op, std::memory_order_relaxed);
      slot->cell.store(cell, std::memory_order_relaxed);
      slot->expected.store(ticket, std::memory_order_relaxed);
      slot->cmp.store(WaitCmp::GE, std::memory_order_relaxed);
      slot->base.store(nullptr, std::memory_order_relaxed);
      slot->ndims.store(0, std::memory_order_relaxed);
    }
    Blocked blocked(WaitKind::CrossCore);
    if (timing::enabled()) {
      size_t from = timing::seen(cell);
      sched::When when = [now = timing::now(), cell, from, ticket] {
        return std::max(now, timing::satisfied_at(cell, from, reached, ticket));
      };
      sched::wait_until("cross_core_wait", sched::cell(cell, false), ready,
                        when);
      timing::waited(cell, from, reached, ticket, op, when());
    } else if (sched::enabled()) {
      sched::wait_until("cross_core_wait", sched::cell(cell, false), ready);
    } else {
      Backoff backoff(200);
      do
        backoff.pause();
      while (!ready());
    }
  }
  flags.taken[d].store(ticket, std::memory_order_relaxed);
  race::waited(cell, ticket, WaitCmp::GE);
  // acquire() re-loads the cell with acquire, as after a twait.
  if (std::find(t.waited.begin(), t.waited.end(), cell) == t.waited.end())
    t.waited.push_back(cell);
  if (events::enabled())
    events::waited("wait", cell, traced_from, reached, ticket, op,
                   std::string("\"flag\": \"") + core_name(src) + " -> " +
                       core_name(dst) + "\", \"takes signal\": " +
                       std::to_string(ticket) + ", \"signals\": " +
                       std::to_string(signals.load(std::memory_order_relaxed)),
                   traced_begin, events::now());
  bump_progress();
}

} // namespace pld::rt::detail
