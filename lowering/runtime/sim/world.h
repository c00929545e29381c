//===- world.h - The simulated machine: windows, buffers, ranks -*- C++ -*-===//
//
// Everything here is set up by the harness before any simulated thread
// starts and is read-only afterwards, except the atomics.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_WORLD_H
#define PLD_SIM_WORLD_H

#include "pld/runtime/host.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pld::sim {

struct Task;

/// Per-rank counters (relaxed atomics: counting must not order memory, or
/// ThreadSanitizer would stop seeing races between ranks).
struct Stats {
  std::atomic<uint64_t> remote_load_bytes{0};
  std::atomic<uint64_t> remote_store_bytes{0};
  std::atomic<uint64_t> put_bytes{0};
  std::atomic<uint64_t> get_bytes{0};
  std::atomic<uint64_t> notifies{0};
  std::atomic<uint64_t> waits{0};
  std::atomic<uint64_t> wait_ns{0};
};

struct RankState {
  rt::CommContext *ctx = nullptr;
  /// alloc_window's bump area, as byte offsets into the window.
  std::atomic<uint64_t> heap_next{0};
  uint64_t heap_end = 0;
  /// handoff_workspace's bump area, as byte offsets into the rank's part of
  /// World::handoffs.
  std::atomic<uint64_t> handoff_next{0};
  Stats stats;
  /// Tasks whose kernel finished but whose deferred conditions do not hold.
  std::atomic<int32_t> deferred{0};
  /// Every task this rank submitted; only its host thread touches the vector.
  std::vector<Task *> tasks;
  /// The contexts of the comm groups this rank's host code made, by their
  /// world ranks; only its host thread touches the map.
  std::map<std::vector<int64_t>, std::unique_ptr<rt::CommContext>> groups;
};

/// What `GlobalBuffer::arg` and reports say for the hand-off space.
inline constexpr int32_t kHandoffArg = -2;

/// A per-rank global (non-window) buffer the harness registered.
struct GlobalBuffer {
  uintptr_t begin, end;
  int32_t rank;
  int32_t arg;
};

/// What reports name an argument's memory by: `%name[i, j]`, or
/// `argument K[i, j]` when the job file gives no name.
struct ArgInfo {
  std::string name; ///< The source's name, without `%`; empty: unknown.
  bool window = false;
  uint64_t offset = 0; ///< A window argument's offset in every window.
  uint64_t bytes = 0;  ///< 0 for a scalar.
  int64_t elem_bytes = 1;
  std::vector<int64_t> dims;
};

struct World {
  int32_t nranks = 0;
  uint8_t *windows = nullptr; ///< rank r's window starts at r * win_size.
  uint64_t win_size = 0;
  std::unique_ptr<RankState[]> ranks;
  std::vector<GlobalBuffer> globals;
  /// The hand-off space of mixed kernels (handoff_workspace): rank r's part
  /// starts at r * handoff_size.
  uint8_t *handoffs = nullptr;
  uint64_t handoff_size = 0;
  std::vector<ArgInfo> args; ///< By argument index.
};

World &world();

/// Where `address` lies in the hand-off space: its rank and the offset in
/// that rank's part, if it lies there.
struct HandoffPlace {
  int32_t rank;
  uint64_t offset;
};
inline std::optional<HandoffPlace> handoff_place(const World &w,
                                                 uintptr_t address) {
  auto base = reinterpret_cast<uintptr_t>(w.handoffs);
  if (!w.handoffs || address < base ||
      address - base >= w.handoff_size * static_cast<uint64_t>(w.nranks))
    return std::nullopt;
  return HandoffPlace{static_cast<int32_t>((address - base) / w.handoff_size),
                      (address - base) % w.handoff_size};
}

inline RankState &rank_state(int32_t rank) { return world().ranks[rank]; }

/// The world rank whose window is window `index` of a context: a group's
/// context numbers its members' windows from 0.
inline int32_t window_rank(const rt::CommContext &ctx, uint32_t index) {
  const World &w = world();
  return static_cast<int32_t>(
      (ctx.windowsIn[index] - reinterpret_cast<uint64_t>(w.windows)) /
      w.win_size);
}

} // namespace pld::sim

#endif // PLD_SIM_WORLD_H
