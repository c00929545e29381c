//===- report.cpp - Stopping a run with a report --------------------------===//

#include "report.h"

#include "events.h"
#include "sched.h"
#include "tasks.h"
#include "world.h"

#include <algorithm>
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

namespace {

/// An address inside a window or global buffer: its rank, the argument
/// that holds it (-1: none, e.g. the heap) and its offset in that argument,
/// else in the window or buffer.
struct Located {
  bool found = false;
  bool window = false;
  int32_t rank = 0;
  int32_t arg = -1;
  uint64_t offset = 0;
  uint64_t raw = 0; ///< The offset in the window or buffer.
};

Located locate(uintptr_t address) {
  World &w = world();
  Located at;
  auto base = reinterpret_cast<uintptr_t>(w.windows);
  uint64_t span = w.win_size * static_cast<uint64_t>(w.nranks);
  if (w.windows && address >= base && address - base < span) {
    uint64_t offset = address - base;
    at = {true,
          true,
          static_cast<int32_t>(offset / w.win_size),
          -1,
          offset % w.win_size,
          offset % w.win_size};
    for (size_t i = 0; i < w.args.size(); ++i) {
      const ArgInfo &arg = w.args[i];
      if (arg.window && at.offset >= arg.offset &&
          at.offset - arg.offset < arg.bytes) {
        at.arg = static_cast<int32_t>(i);
        at.offset -= arg.offset;
        break;
      }
    }
    return at;
  }
  if (std::optional<HandoffPlace> in = handoff_place(w, address))
    return {true, false, in->rank, kHandoffArg, in->offset, in->offset};
  for (const GlobalBuffer &buffer : w.globals)
    if (address >= buffer.begin && address < buffer.end)
      return {true,
              false,
              buffer.rank,
              buffer.arg,
              address - buffer.begin,
              address - buffer.begin};
  return at;
}

/// "[1, 0]": the element of `arg` whose bytes hold `offset`, row-major.
std::string element(const ArgInfo &arg, uint64_t offset) {
  auto index = static_cast<int64_t>(
      offset / static_cast<uint64_t>(std::max<int64_t>(arg.elem_bytes, 1)));
  std::vector<int64_t> at(std::max<size_t>(arg.dims.size(), 1), 0);
  for (size_t d = arg.dims.size(); d-- > 1;) {
    int64_t extent = std::max<int64_t>(arg.dims[d], 1);
    at[d] = index % extent;
    index /= extent;
  }
  at[0] = index;
  std::string text = "[";
  for (size_t d = 0; d < at.size(); ++d)
    text += (d ? ", " : "") + std::to_string(at[d]);
  return text + "]";
}

/// "%ws[1, 0]" for a located address inside an argument.
std::string named(const Located &at) {
  return arg_label(at.arg) + element(world().args[at.arg], at.offset);
}

/// The raw text for an address outside every argument: "window + 64" or
/// "global arg 2 + 8" (after "rank R ").
std::string unnamed(const Located &at) {
  if (at.window)
    return "window + " + std::to_string(at.raw);
  if (at.arg == kHandoffArg)
    return "hand-off space + " + std::to_string(at.raw);
  return "global arg " + std::to_string(at.arg) + " + " +
         std::to_string(at.raw);
}

bool in_arg(const Located &at) {
  return at.found && at.arg >= 0 &&
         static_cast<size_t>(at.arg) < world().args.size();
}

} // namespace

std::string arg_label(int32_t arg) {
  const World &w = world();
  if (arg == kHandoffArg)
    return "hand-off space";
  if (arg >= 0 && static_cast<size_t>(arg) < w.args.size() &&
      !w.args[arg].name.empty())
    return "%" + w.args[arg].name;
  return "argument " + std::to_string(arg);
}

std::string describe_address(uintptr_t address) {
  Located at = locate(address);
  if (!at.found)
    return hex(address);
  std::string rank = "rank " + std::to_string(at.rank) + " ";
  return rank + (in_arg(at) ? named(at) : unnamed(at));
}

std::string describe_range(uintptr_t begin, uintptr_t end) {
  std::string bytes = std::to_string(end - begin) + " bytes";
  if (end <= begin)
    return describe_address(begin) + ", " + bytes;
  Located first = locate(begin);
  Located last = locate(end - 1);
  if (in_arg(first) && in_arg(last) && first.rank == last.rank &&
      first.arg == last.arg && first.window == last.window &&
      last.offset - first.offset == end - 1 - begin) {
    std::string text = "rank " + std::to_string(first.rank) + " ";
    std::string from = named(first), to = named(last);
    text += from == to ? from : from + " .. " + to;
    return text + " (" + bytes + ")";
  }
  if (!first.found)
    return "[" + hex(begin) + ", " + hex(end) + "), " + bytes;
  std::string text = "rank " + std::to_string(first.rank) + " ";
  if (first.window)
    text += "window";
  else if (first.arg == kHandoffArg)
    text += "hand-off space";
  else
    text += "global arg " + std::to_string(first.arg);
  return text + " + [" + std::to_string(first.raw) + ", " +
         std::to_string(first.raw + (end - begin)) + "), " + bytes;
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
