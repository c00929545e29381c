//===- memory.h - Bounds checks on global memory ----------------*- C++ -*-===//
//
// Every global-memory access of the simulated program goes through one of
// these checks: its byte range must lie inside one rank's window or one
// registered global buffer, or the run stops with a trap.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_MEMORY_H
#define PLD_SIM_MEMORY_H

#include "pld/runtime/host.h"

#include <cstdint>

namespace pld::sim {

/// The window or global buffer an access lies in.
struct Place {
  bool window;
  int32_t rank;
};

/// Checks that [p, p + bytes) lies inside one window or global buffer; `op`
/// and `site` name the access in the trap report. `bytes` must be positive.
Place check_range(const void *p, uint64_t bytes, const char *op,
                  const char *site);

/// Checks the whole extent of a view with at least one element.
Place check_view(const rt::detail::ViewRef &view, const char *op,
                 const char *site);

/// Traps unless the view's shape and stride are non-negative.
void check_view_shape(const rt::detail::ViewRef &view, const char *op,
                      const char *site);

/// True when `place` is another rank's window (payload that crosses ranks).
bool is_remote(const Place &place);

/// Payload bytes of a view.
uint64_t payload_bytes(const rt::detail::ViewRef &view);

} // namespace pld::sim

#endif // PLD_SIM_MEMORY_H
