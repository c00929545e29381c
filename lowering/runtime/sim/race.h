//===- race.h - pld's happens-before, checked at run time -------*- C++ -*-===//
//
// `pld-run --sanitize race` (the job's `race on`): a data-race detector that
// implements the happens-before relation of docs/design/races.md, the one
// pld-verify's static race rule judges by, instead of C++'s.
//
// Every simulated thread has two lanes with a vector clock each:
// - the payload lane: tile loads and stores, transfers, scalar reads and
//   writes; its clock `now` is what those accesses are ordered after;
// - the signal lane: notifies, waits, tests, deferred conditions and a
//   mixed kernel's cross-core signals and waits (mixed.cpp, on a cell per
//   flag); its clock `sig` is what a notify carries.
// Program order runs freely within a lane and crosses between them only
// where the device orders it: `release()` publishes the payload lane into
// the signal lane (a payload access before a notify is covered only by a
// release between them), `acquire()` brings what the waits learned into the
// payload lane (a payload access after a wait is ordered only after an
// acquire). A wait acquires exactly the clocks of the notifies that made it
// hold: those in the cell's modification order from the last Set up to the
// first position, at or after what the waiting thread already saw of the
// cell (itself, or through any thread that happens before it), where the
// comparison holds; never a later one. Threads start with
// their parent's clocks, and joins, task dependencies and task completion
// order everything.
//
// Shadow memory keeps, per byte, the last write and the reads since it; an
// access that overlaps another thread's conflicting one that its clock does
// not cover is reported (both ops with their sites and threads, the bytes,
// the missing order) and the run stops with status 5.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_RACE_H
#define PLD_SIM_RACE_H

#include "pld/runtime/host.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace pld::sim::race {

inline constexpr int kExitRace = 5;

/// Whether the run checks races (set once, before any simulated thread).
bool enabled();
void enable();

/// A vector clock over lanes.
using Clock = std::vector<uint32_t>;

/// The race state of one simulated thread.
struct Lanes {
  uint32_t payload = 0, signal = 0; ///< The lanes' indices.
  Clock now, sig;
};

/// What a thread hands the thread it starts; `fork` ticks the parent.
std::shared_ptr<Clock> fork();
/// Starts the calling thread's lanes from its parent's clock.
void start(const Clock *parent);
/// Starts the calling thread (the harness's) once, without a parent: what
/// it joins happens before the threads it starts after.
void start_harness();
/// The harness set the `bytes` at `begin` anew (a window reset between
/// launches): the signal cells there forget the notifies that made their
/// old values.
void forget_cells(const void *begin, uint64_t bytes);
/// The calling thread's final clock (both lanes), kept for whoever joins it.
std::shared_ptr<Clock> finish();
/// The calling thread now knows everything `other` knew.
void join(const Clock &other);

void release();
void acquire();

/// The clock of the calling thread's last payload access (0 when races are
/// not checked): what a later `publish` covers.
uint32_t payload_clock();
/// Publishes the calling thread's payload accesses up to clock `clock` into
/// its signal lane, as a release after them would: an SDMA transfer's
/// accesses, made when it was posted and published when its wait completes
/// it (the engine wrote global memory, not the core's cache; the core's
/// own accesses before the post were released before it).
void publish(uint32_t clock);

enum class Access : uint8_t { Read, Write, AtomicAdd };

/// A payload access of `bytes` bytes at `p` by the calling thread.
void access(const void *p, uint64_t bytes, Access kind, const char *op,
            const char *site);
/// A scalar write (`pl.write`) of `bytes` bytes at `p` by the calling
/// thread: an access as above, and, on an AI core, a write through the
/// core's data cache, whose lines are written back whole. Another core's
/// scalar write into the same 64-byte line that this one's clock does not
/// cover is reported as a race: the core that flushes last overwrites the
/// other's bytes.
void scalar_write(const void *p, uint64_t bytes, const char *site);
/// The same for every row of a 2-D region (rows `stride` bytes apart).
void access_rows(const void *p, int64_t rows, int64_t row_bytes,
                 int64_t stride_bytes, Access kind, const char *op,
                 const char *site);

/// A notify of `cell`: done by `apply` (the atomic operation itself) under
/// the cell's lock, so that the log is in the cell's modification order.
/// `set` says whether it stores `value` or adds it.
template <typename Apply>
void notify(int32_t *cell, int32_t value, bool set, const char *site,
            Apply apply);
/// A wait (or a successful test) on `cell` whose comparison held: the
/// calling thread's signal lane acquires the notifies that made it hold.
void waited(int32_t *cell, int32_t expected, rt::WaitCmp cmp);
/// The clock of the notifies that make `*cell >= expected` (compared as
/// uint32, as the task runtime does) hold, for a deferred condition, from
/// the last write of the cell the calling thread knows of.
Clock condition_clock(int32_t *cell, int32_t expected);

// Implementation of the template.
void lock_cells();
void unlock_cells();
/// Starts the cell's log (from its value now) if it has none.
void prepare(const int32_t *cell);
void notify_locked(int32_t *cell, int32_t value, bool set, const char *site);
template <typename Apply>
void notify(int32_t *cell, int32_t value, bool set, const char *site,
            Apply apply) {
  lock_cells();
  prepare(cell);
  apply();
  notify_locked(cell, value, set, site);
  unlock_cells();
}

} // namespace pld::sim::race

#endif // PLD_SIM_RACE_H
