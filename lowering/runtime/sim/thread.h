//===- thread.h - Simulated threads and what they wait for ------*- C++ -*-===//
//
// Every simulated thread (a rank's host orchestrator, a task's runner, a
// kernel block, its AIV sub-lane or the cube core of a mixed kernel's block)
// is a std::thread started by spawn(). Each
// owns a Slot that the deadlock monitor reads. Slots are written with atomics
// only: a mutex here would give ThreadSanitizer happens-before edges between
// ranks that the hardware does not have, and hide the races it must report.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_THREAD_H
#define PLD_SIM_THREAD_H

#include "pld/runtime/host.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace pld::sim {

struct Task;
struct CrossCore;

enum class Role : uint8_t { Host, Runner, Kernel };

/// Who a simulated thread is; fixed for its lifetime.
struct Identity {
  int32_t rank = -1;
  Role role = Role::Host;
  int64_t block = 0;
  int64_t lane = 0;
  Task *task = nullptr; ///< The task a runner or kernel thread belongs to.
  /// A kernel thread's core: the vector core (a block, a sub-lane) or, for
  /// the cube half of a mixed kernel (run_mixed), the cube core.
  rt::Core core = rt::Core::AIV;
};

enum class SlotState : uint8_t { Free, Running, Blocked, Finished };

/// What a blocked thread waits for.
enum class WaitKind : uint8_t {
  Signal,    ///< twait on `cell`.
  Dep,       ///< a task runner waits for task `dep`.
  Deferred,  ///< a task runner waits for its deferred conditions.
  Join,      ///< waits for threads it started.
  Tasks,     ///< a host thread waits for all its tasks.
  CrossCore, ///< cross_core_wait: `cell` is the flag's count of signals,
             ///< `expected` the signal the wait takes, `site` the op.
  JoinCube   ///< a mixed kernel's vector half waits for its cube half.
};

struct Slot {
  std::atomic<SlotState> state{SlotState::Free};
  Identity id; ///< Written before `state` leaves Free (release).
  std::atomic<WaitKind> kind{WaitKind::Join};
  std::atomic<const char *> site{nullptr};
  std::atomic<int32_t *> cell{nullptr};
  std::atomic<int32_t> expected{0};
  std::atomic<rt::WaitCmp> cmp{rt::WaitCmp::EQ};
  std::atomic<const int32_t *> base{nullptr};
  std::atomic<int32_t> ndims{0};
  std::atomic<int64_t> dims[8];
  std::atomic<Task *> dep{nullptr};
  /// The op the thread ran last ("<op> at FILE:LINE:COL"), for a timeout
  /// report about a thread that is running.
  std::atomic<const char *> last_op{nullptr};
  /// The thread's own track in the trace (`--trace`; 0: none yet), and
  /// when it blocked last, in the trace's clock.
  std::atomic<int32_t> trace_track{0};
  std::atomic<double> blocked_at{0};
};

inline constexpr int32_t kMaxSlots = 1 << 15;

/// The slots in use are [0, slot_count()).
Slot *slots();
int32_t slot_count();
/// Threads spawned that have not published their slot yet.
int32_t pending_starts();

/// Bumped by every notify and every thread state change; the monitor calls
/// a run stalled when it stops moving.
void bump_progress();
uint64_t progress();

struct ThreadState {
  Identity id;
  Slot *slot = nullptr;
  uint8_t *ub = nullptr;
  /// L1, L0A, L0B and L0C (rt::detail::CubeMemory's order), as `ub`.
  uint8_t *cube[4] = {};
  bool released = false; ///< release() ran since the last payload access.
  std::vector<int32_t *> waited; ///< Cells waited on since the last acquire().
  /// The flags of the run_mixed the thread runs a half of (its sub-lanes
  /// inherit them), or null.
  CrossCore *mixed = nullptr;
  /// Inside run_on_lanes, where the thread is one AIV sub-block of two.
  bool in_lanes = false;
};

/// The calling thread's state.
ThreadState &self();

/// Notes that the calling thread runs the op at `site` (its slot's
/// `last_op`; a relaxed store, cheap enough for every op).
inline void doing(const char *site) {
  if (site && self().slot)
    self().slot->last_op.store(site, std::memory_order_relaxed);
}

/// Starts a simulated thread with identity `id` running `body`.
std::thread spawn(const Identity &id, std::function<void()> body);

/// Joins a thread spawn() started: the caller then knows all it did (for
/// `--sanitize race`, whose clocks a std::thread::join does not carry).
void join(std::thread &thread);

/// The harness's end of a launch (`launches`): joins the launch's threads
/// and makes all they did happen before whatever the calling thread starts
/// next, in the race checker's order and in modelled time (every rank
/// finishes one launch before any starts the next). The calling thread
/// becomes a thread of the race checker's on its first launch.
void join_launch(std::vector<std::thread> &threads);

/// Marks the calling thread blocked for its lifetime. Fill the slot's wait
/// description first: the monitor reads it once the state says Blocked.
class Blocked {
public:
  explicit Blocked(WaitKind kind);
  ~Blocked();
  Blocked(const Blocked &) = delete;
  Blocked &operator=(const Blocked &) = delete;
};

/// Polite waiting: a few yields, then sleeps that double up to `cap_us`.
/// CI has two cores and runs up to 8 ranks of several threads each, so a bare
/// spin would starve the thread everybody waits for.
class Backoff {
public:
  explicit Backoff(int64_t cap_us) : cap_us_(cap_us) {}
  void pause();

private:
  int64_t cap_us_;
  unsigned n_ = 0;
};

} // namespace pld::sim

#endif // PLD_SIM_THREAD_H
