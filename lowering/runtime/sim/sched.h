//===- sched.h - The simulator deciding every interleaving ------*- C++ -*-===//
//
// With a job's `schedule` directive the simulated threads run one at a
// time: a thread runs until its next scheduling point (a notify, a wait, a
// test, a cross-core signal or wait, a deferred condition, a join, a
// dependency, its start or its end),
// where the scheduler chooses who runs next among the threads that can
// (a wait is enabled only while its comparison holds). The order of
// notifies and waits is then the scheduler's choice alone, so a run is
// reproducible from its list of choices:
//
//   schedule replay 0,2,2,1,... [asleep=3,4]
//                                 the choices, by scheduler thread id (the
//                                 order threads were created in), then the
//                                 lowest enabled id that is not asleep; a
//                                 sleeping thread wakes when another runs
//                                 an operation that conflicts with its
//                                 pending one, and a run in which every
//                                 thread that can run sleeps ends at once
//                                 (trace line `asleep`, status 0): it could
//                                 only repeat an order explored before
//   schedule pct SEED DEPTH       PCT (Burckhardt et al., ASPLOS 2010):
//                                 random priorities, DEPTH - 1 random
//                                 priority change points, the highest
//                                 enabled priority runs; finds a bug of depth
//                                 d with probability >= 1 / (n k^(d-1))
//   schedule time                 modelled time (timing.h): the thread whose
//                                 next operation is earliest in modelled
//                                 time, ties to the lowest id
//   trace PATH                    writes every choice with every thread's
//                                 pending operation (what `pld-run
//                                 --explore` reads to explore the other
//                                 orders, docs/pld-run.md)
//
// A state where no thread can run is a deadlock, reported at once. Every
// report (trap, race, deadlock) ends with the choices that reproduce it.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_SCHED_H
#define PLD_SIM_SCHED_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pld::sim::sched {

/// Whether the run is serialized (set once, before any simulated thread).
bool enabled();

/// `replay CHOICES [asleep=IDS]`, `pct SEED DEPTH` or `time`; false with
/// `error` set otherwise.
bool configure(const std::vector<std::string> &words, std::string &error);

/// The `time` strategy's view of a thread: the calling thread's clock, read
/// when it parks (and by a thread about to start another). Set once with
/// the strategy.
void set_time_source(double (*now)());

/// When an operation that waits for something can proceed, in modelled
/// time; asked only while it can (`ready` holds).
using When = std::function<double()>;
/// Where to write the trace of choices; false if it cannot be written.
bool set_trace(const std::string &path);

/// What a pending operation touches: a signal cell, a thread's or task's
/// completion.
struct Object {
  uint64_t id;
  bool write;
  /// A read that can only run after the object's one write (a join of a
  /// thread's end, a dependency on a task's completion): exploration never
  /// tries it before that write. Traced as `a`.
  bool awaits = false;
};
std::vector<Object> cell(const void *address, bool write);
/// The end of a thread and the completion of a task, as their last point
/// writes them and as a join or a dependent awaits them.
Object finished_thread(int32_t thread);
Object finished_task(const void *task);
Object awaited_thread(int32_t thread);
Object awaited_task(const void *task);

/// A scheduler id for a thread about to be started by the calling thread
/// (or by the harness, before the first choice).
int32_t reserve();
/// The thread `id` starts: it waits for its turn.
void enter(int32_t id);
/// The calling thread ends.
void leave();
/// The calling thread's scheduler id.
int32_t self_id();
/// Whether thread `id` ended; only inside a `wait_until` predicate.
bool finished(int32_t id);

/// A scheduling point before an operation that can always proceed.
void point(const char *what, std::vector<Object> objects);
/// A scheduling point before an operation that proceeds once `ready()`:
/// the thread is chosen only while it holds (`ready` and `when` run under
/// the scheduler's lock, with every other thread parked). Without `when`,
/// the operation proceeds at the thread's clock.
void wait_until(const char *what, std::vector<Object> objects,
                const std::function<bool()> &ready, When when = {});

/// Makes the first choice, once the harness reserved and started the
/// first threads.
void begin();

/// The choices so far, as `--schedule` replays them ("0,2,2,1").
std::string choices();

} // namespace pld::sim::sched

#endif // PLD_SIM_SCHED_H
