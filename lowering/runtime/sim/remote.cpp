//===- remote.cpp - Peer windows this process cannot address --------------===//

#include "remote.h"

#include "thread.h"
#include "world.h"

namespace pld::sim {
namespace {

const Remote *g_remote = nullptr;

std::optional<WindowByte> window_byte(const void *p) {
  const World &w = world();
  auto address = reinterpret_cast<uintptr_t>(p);
  auto base = reinterpret_cast<uintptr_t>(w.windows);
  uint64_t span = w.win_size * static_cast<uint64_t>(w.nranks);
  if (!w.windows || address < base || address - base >= span)
    return std::nullopt;
  return WindowByte{static_cast<int32_t>((address - base) / w.win_size),
                    (address - base) % w.win_size};
}

} // namespace

const Remote *remote() { return g_remote; }

void install_remote(const Remote *hooks) { g_remote = hooks; }

std::optional<WindowByte> remote_peer_byte(const void *p) {
  if (!g_remote)
    return std::nullopt;
  std::optional<WindowByte> at = window_byte(p);
  if (at && at->rank == self().id.rank)
    return std::nullopt;
  return at;
}

std::optional<WindowByte> remote_atomic_byte(const void *p) {
  return g_remote ? window_byte(p) : std::nullopt;
}

int32_t cell_value(const int32_t *cell, std::memory_order order) {
  if (std::optional<WindowByte> at = remote_atomic_byte(cell))
    return g_remote->cell(*at, CellOp::Load, 0);
  return std::atomic_ref<int32_t>(*const_cast<int32_t *>(cell)).load(order);
}

} // namespace pld::sim
