//===- monitor.h - Deadlock detection and the timeout -----------*- C++ -*-===//

#ifndef PLD_SIM_MONITOR_H
#define PLD_SIM_MONITOR_H

#include <string>

namespace pld::sim {

/// Starts the monitor thread. It stops the run with status 3 when every
/// unfinished simulated thread is blocked and nothing changed for the stall
/// interval (a deadlock), or when `timeout_s` seconds of wall clock passed.
void start_monitor(double timeout_s);

/// Stops and joins the monitor thread.
void stop_monitor();

/// One line per unfinished simulated thread, by rank, saying what it waits
/// for (what a deadlock report lists); a rank whose threads all finished
/// is "done".
std::string thread_listing();

/// What this process's simulated threads do, for a monitor that spans
/// processes (the MPI backend): `Stuck` when every unfinished thread is
/// blocked on a condition that still fails and none is starting; `Finished`
/// when threads ran and all finished.
enum class Activity { Running, Stuck, Finished };
Activity activity();

} // namespace pld::sim

#endif // PLD_SIM_MONITOR_H
