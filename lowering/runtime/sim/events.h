//===- events.h - A trace of what every thread did ---------------*- C++
//-*-===//
//
// `pld-run --trace FILE` (the job's `events PATH` directive): the run's
// events as Chrome trace-event JSON, which Perfetto and chrome://tracing
// open. A process per rank, a track per simulated thread (rank, task,
// block, lane or aic) with the thread's life on it and, in a timed run,
// extra tracks for the transfers a thread has in flight at once; slices
// for waits (the cell, the value awaited and the value seen), a task's
// deferred conditions, transfers (bytes, the peer) and tile math; a flow
// arrow from every notify to each wait or condition it released (a mixed
// kernel's cross-core signals and waits are notifies and waits of their
// flag, mixed.cpp); after a deadlock, what each thread was blocked on.
// Times are modelled nanoseconds in a timed run (timing.h), wall-clock ones
// since the program started otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_EVENTS_H
#define PLD_SIM_EVENTS_H

#include <cstdint>
#include <optional>
#include <string>

namespace pld::sim {
struct Slot;
} // namespace pld::sim

namespace pld::sim::events {

/// Whether the run records its events (set once, before any thread).
bool enabled();
void enable(const std::string &path);

/// The clock events are stamped with, in nanoseconds.
double now();

/// A slice of work that runs beside the calling thread (a transfer, tile
/// math): `name` from `begin` to `end`, with `args` (a JSON object's
/// members, e.g. `"bytes": 64`), on the first of the thread's engine
/// tracks that is free (transfers in flight together overlap).
void slice(const char *name, const char *category, double begin, double end,
           const char *site, const std::string &args);

/// A notify of `cell` by the calling thread, now, that left `value` there;
/// `set`: it replaced the value. `arrives`: when it arrived in modelled time
/// (later than now for a remote one); a wall-clock trace has none.
void notified(const int32_t *cell, int32_t value, bool set, const char *site,
              std::optional<double> arrives);
/// How many values `cell` has had: a waiter's starting point.
size_t seen(const int32_t *cell);
/// A wait on `cell` from position `from` that began at `begin` and held at
/// `end`: a slice named `name` (`wait`, or `deferred` for a task's
/// completion condition), and a flow from the notify that made it hold.
void waited(const char *name, const int32_t *cell, size_t from,
            bool (*holds)(int32_t value, int32_t expected), int32_t expected,
            const char *site, const std::string &what, double begin,
            double end);

/// The program starts now: times count from here (a wall-clock trace).
void begin_run();

/// The calling thread ends: a slice from `began` to now on its own track,
/// named by what the thread is (`host`, `task "name"`, `kernel`, ...), so
/// that every thread has a track, whatever it did.
void lifetime(double began);

/// The calling thread blocks now: its track (made if it has none) and the
/// time go into its slot, for a deadlock's `blocked` slices.
void blocking();

/// A deadlock or a timeout stops the run: a `blocked` slice, from when
/// each blocked thread blocked to the end of the trace, saying on what.
void blocked(const Slot &slot, const std::string &on);

/// Writes the trace: after every thread ended, or when a report stops the
/// run (then as far as it got).
void write();

} // namespace pld::sim::events

#endif // PLD_SIM_EVENTS_H
