//===- monitor.h - Deadlock detection and the timeout -----------*- C++ -*-===//

#ifndef PLD_SIM_MONITOR_H
#define PLD_SIM_MONITOR_H

namespace pld::sim {

/// Starts the monitor thread. It stops the run with status 3 when every
/// unfinished simulated thread is blocked and nothing changed for the stall
/// interval (a deadlock), or when `timeout_s` seconds of wall clock passed.
void start_monitor(double timeout_s);

/// Stops and joins the monitor thread.
void stop_monitor();

} // namespace pld::sim

#endif // PLD_SIM_MONITOR_H
