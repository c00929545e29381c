//===- report.h - Stopping a run with a report ------------------*- C++ -*-===//
//
// Exit statuses follow pld-run (pipeline §7): 2 bad usage, 3 deadlock or
// timeout, 4 a trap (out-of-bounds access, runtime limit).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_REPORT_H
#define PLD_SIM_REPORT_H

#include "thread.h"

#include <cstdint>
#include <string>

namespace pld::sim {

inline constexpr int kExitUsage = 2;
inline constexpr int kExitDeadlock = 3;
inline constexpr int kExitTrap = 4;

/// Prints `report` to stderr and ends the process with `status`. The first
/// caller wins; a thread that comes second waits for the process to end, so
/// reports never interleave.
[[noreturn]] void stop_run(int status, const std::string &report);

/// What a run that spans processes (the MPI backend) does so that one
/// process reports: `claim` runs before a report is printed and returns only
/// in the process that prints it (in the others it waits to be ended);
/// `reported` runs once the report is out.
struct StopHooks {
  void (*claim)(int status);
  void (*reported)(int status);
};
void set_stop_hooks(StopHooks hooks);

/// The hooks' calls; nothing without hooks.
void claim_stop(int status);
void reported_stop(int status);

/// Stops the run with a report whose first line is
/// `pld-run: trap: <what>`, then the calling thread, then `details` (lines
/// that each start with two spaces and end with a newline).
[[noreturn]] void trap(const std::string &what,
                       const std::string &details = "");

/// "rank 0 block 1 lane 0", "rank 0 block 1 aic", "rank 0 host",
/// "rank 0 task 3 \"name\"", ...
std::string describe(const Identity &id);

/// What reports call argument `arg`: "%ws" (its source name) or
/// "argument 3".
std::string arg_label(int32_t arg);

/// Where `address` is: the element of a window or global argument that
/// holds it, "rank 1 %ws[1, 0]" ("rank 1 argument 3[1, 0]" without a name);
/// else "rank 1 window + 64" (the heap, padding) or the raw address when
/// nothing registered contains it.
std::string describe_address(uintptr_t address);

/// The bytes [begin, end): "rank 1 %ws[1, 0] .. %ws[1, 299] (1200 bytes)"
/// when one argument holds them (its first and last element; just one
/// element when they are in one), else "rank 1 window + [256, 512), 256
/// bytes" or the raw addresses.
std::string describe_range(uintptr_t begin, uintptr_t end);

/// "tload (pld.tile.remote_load at f.mlir:12:5)": the op and the site it was
/// emitted for; just the op when there is no site.
std::string op_site(const char *op, const char *site);

std::string hex(uintptr_t value);

} // namespace pld::sim

#endif // PLD_SIM_REPORT_H
