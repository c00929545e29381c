//===- report.cpp - Stopping a run with a report --------------------------===//

#include "report.h"

#include "events.h"
#include "sched.h"
#include "tasks.h"
#include "world.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <unistd.h>

namespace pld::sim {

namespace {
StopHooks g_hooks{nullptr, nullptr};
} // namespace

void set_stop_hooks(StopHooks hooks) { g_hooks = hooks; }

void claim_stop(int status) {
  if (g_hooks.claim)
    g_hooks.claim(status);
}

void reported_stop(int status) {
  if (g_hooks.reported)
    g_hooks.reported(status);
}

void stop_run(int status, const std::string &message) {
  static std::atomic<bool> stopping{false};
  if (stopping.exchange(true)) {
    // Another thread is printing its report and will end the process.
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  claim_stop(status);
  std::fflush(stdout);
  if (events::enabled())
    events::write();
  // A serialized run is reproduced by its choices (`--schedule`).
  std::string report = sched::enabled()
                           ? message + "  schedule: " + sched::choices() + "\n"
                           : message;
  const char *data = report.data();
  size_t left = report.size();
  while (left > 0) {
    ssize_t n = ::write(STDERR_FILENO, data, left);
    if (n <= 0)
      break;
    data += n;
    left -= static_cast<size_t>(n);
  }
  reported_stop(status);
  // _exit: other simulated threads are still running; destructors of the
  // runtime's globals must not run under them.
  _exit(status);
}

void trap(const std::string &what, const std::string &details) {
  std::string report = "pld-run: trap: " + what + "\n";
  report += "  thread: " + describe(self().id) + "\n";
  report += details;
  stop_run(kExitTrap, report);
}

std::string describe(const Identity &id) {
  std::string text = "rank " + std::to_string(id.rank);
  std::string task;
  if (id.task)
    task = "task " + std::to_string(id.task->id) + " \"" + id.task->name + "\"";
  switch (id.role) {
  case Role::Host:
    return text + " host";
  case Role::Runner:
    return text + " " + task;
  case Role::Kernel:
    // A mixed kernel's cube half is its block's cube core, which has no
    // sub-lanes.
    text += " block " + std::to_string(id.block) +
            (id.core == rt::Core::AIC ? std::string(" aic")
                                      : " lane " + std::to_string(id.lane));
    return id.task ? text + " (" + task + ")" : text;
  }
  return text;
}

std::string describe_address(uintptr_t address) {
  World &w = world();
  auto base = reinterpret_cast<uintptr_t>(w.windows);
  uint64_t span = w.win_size * static_cast<uint64_t>(w.nranks);
  if (w.windows && address >= base && address - base < span) {
    uint64_t offset = address - base;
    return "rank " + std::to_string(offset / w.win_size) + " window + " +
           std::to_string(offset % w.win_size);
  }
  for (const GlobalBuffer &buffer : w.globals)
    if (address >= buffer.begin && address < buffer.end)
      return "rank " + std::to_string(buffer.rank) + " global arg " +
             std::to_string(buffer.arg) + " + " +
             std::to_string(address - buffer.begin);
  return hex(address);
}

std::string op_site(const char *op, const char *site) {
  return site && *site ? std::string(op) + " (" + site + ")" : op;
}

std::string hex(uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

} // namespace pld::sim
