//===- thread.cpp - Simulated threads and their slots ---------------------===//

#include "thread.h"

#include "events.h"
#include "race.h"
#include "report.h"
#include "sched.h"
#include "timing.h"
#include "world.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>

namespace pld::sim {
namespace {

// Constructed one by one at run time: as an array initialiser, the compiler
// tries to evaluate all of them at compile time, which costs seconds.
Slot *make_slots() {
  auto *all = static_cast<Slot *>(::operator new(sizeof(Slot) * kMaxSlots));
  for (int32_t i = 0; i < kMaxSlots; ++i)
    new (all + i) Slot;
  return all;
}
Slot *const g_slots = make_slots();
std::atomic<int32_t> g_slot_count{0};
std::atomic<int32_t> g_pending_starts{0};
std::atomic<uint64_t> g_progress{0};
thread_local ThreadState t_self;
/// When the calling thread started, in the trace's clock (`--trace`).
thread_local double t_began = 0;

void set_state(SlotState state) {
  if (Slot *slot = t_self.slot) {
    slot->state.store(state, std::memory_order_release);
    bump_progress();
  }
}

/// Where a spawned thread leaves its final race clock.
using FinalClock = std::shared_ptr<std::shared_ptr<race::Clock>>;

/// Each unjoined thread's FinalClock, by id. The id names the thread only
/// until it is joined: the OS hands it to the next thread right after, so
/// the entry is taken out before the join, and the thread writes the clock
/// into its own FinalClock, never through the id (a clock kept by id was
/// overwritten, now and then under load, by a thread that reused the id
/// between a join and the lookup, and the joiner learnt the wrong clock).
std::mutex g_finished_lock;
std::unordered_map<std::thread::id, FinalClock> g_finished;

/// Scheduler ids of started threads, until they are joined.
std::unordered_map<std::thread::id, int32_t> g_sched_ids;

void enter(const Identity &id, const race::Clock *parent, int32_t sched_id,
           double started, const std::string &starter) {
  t_self.id = id;
  if (sched::enabled())
    sched::enter(sched_id);
  if (timing::enabled())
    timing::start(started, starter);
  race::start(parent);
  int32_t index = g_slot_count.fetch_add(1, std::memory_order_relaxed);
  if (index >= kMaxSlots) {
    g_pending_starts.fetch_sub(1, std::memory_order_relaxed);
    trap("more than " + std::to_string(kMaxSlots) +
         " simulated threads in one run");
  }
  Slot &slot = g_slots[index];
  slot.id = id;
  t_self.slot = &slot;
  if (events::enabled())
    t_began = events::now();
  set_state(SlotState::Running);
  g_pending_starts.fetch_sub(1, std::memory_order_relaxed);
}

/// Joins `thread`; the calling thread then knows all it did: its final
/// race clock.
void join_with_clock(std::thread &thread) {
  FinalClock final;
  {
    std::lock_guard<std::mutex> guard(g_finished_lock);
    auto it = g_finished.find(thread.get_id());
    if (it != g_finished.end()) {
      final = std::move(it->second);
      g_finished.erase(it);
    }
  }
  thread.join();
  if (final && *final)
    race::join(**final);
}

void leave(const FinalClock &final) {
  if (timing::enabled())
    timing::finish();
  if (events::enabled())
    events::lifetime(t_began);
  *final = race::finish();
  set_state(SlotState::Finished);
  std::free(t_self.ub);
  t_self.ub = nullptr;
  for (uint8_t *&memory : t_self.cube) {
    std::free(memory);
    memory = nullptr;
  }
}

} // namespace

Slot *slots() { return g_slots; }

int32_t slot_count() {
  return std::min(g_slot_count.load(std::memory_order_acquire), kMaxSlots);
}

int32_t pending_starts() {
  return g_pending_starts.load(std::memory_order_relaxed);
}

void bump_progress() { g_progress.fetch_add(1, std::memory_order_relaxed); }

uint64_t progress() { return g_progress.load(std::memory_order_relaxed); }

ThreadState &self() { return t_self; }

std::thread spawn(const Identity &id, std::function<void()> body) {
  g_pending_starts.fetch_add(1, std::memory_order_relaxed);
  int32_t sched_id = sched::enabled() ? sched::reserve() : -1;
  // Named for a critical path through the new thread (timing.cpp).
  std::string starter = timing::enabled() ? describe(self().id) : "";
  auto final = std::make_shared<std::shared_ptr<race::Clock>>();
  std::thread thread([id, body = std::move(body), parent = race::fork(),
                      sched_id, started = timing::now(),
                      starter = std::move(starter), final] {
    enter(id, parent.get(), sched_id, started, starter);
    body();
    leave(final);
    if (sched::enabled())
      sched::leave();
  });
  {
    std::lock_guard<std::mutex> guard(g_finished_lock);
    g_finished[thread.get_id()] = std::move(final);
    if (sched::enabled())
      g_sched_ids[thread.get_id()] = sched_id;
  }
  return thread;
}

void join(std::thread &thread) {
  std::thread::id id = thread.get_id();
  if (sched::enabled()) {
    int32_t child = -1;
    {
      std::lock_guard<std::mutex> guard(g_finished_lock);
      child = g_sched_ids[id];
    }
    // The thread's end as the scheduler sees it; the OS thread ends right
    // after it.
    sched::When when;
    if (timing::enabled())
      when = [now = timing::now(), child] {
        return std::max(now, timing::end_of(child));
      };
    sched::wait_until(
        "join", {sched::awaited_thread(child)},
        [child] { return sched::finished(child); }, when);
    if (timing::enabled()) {
      double began = timing::now();
      timing::advance_to(timing::end_of(child));
      timing::waited_for_thread(timing::name_of(child), timing::kJoin, began,
                                timing::now());
    }
  }
  join_with_clock(thread);
}

void join_launch(std::vector<std::thread> &threads) {
  if (race::enabled())
    race::start_harness();
  for (std::thread &thread : threads)
    join_with_clock(thread);
  threads.clear();
  if (timing::enabled())
    for (int32_t rank = 0; rank < world().nranks; ++rank)
      timing::advance_to(timing::rank_ns(rank));
}

Blocked::Blocked(WaitKind kind) {
  if (events::enabled())
    events::blocking();
  if (Slot *slot = t_self.slot)
    slot->kind.store(kind, std::memory_order_relaxed);
  set_state(SlotState::Blocked);
}

Blocked::~Blocked() { set_state(SlotState::Running); }

void Backoff::pause() {
  constexpr unsigned kYields = 4;
  if (n_ < kYields) {
    ++n_;
    std::this_thread::yield();
    return;
  }
  unsigned shift = std::min(n_ - kYields, 20u);
  int64_t us = std::min(int64_t{1} << shift, cap_us_);
  ++n_;
  std::this_thread::sleep_for(std::chrono::microseconds(us));
}

} // namespace pld::sim
