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
#include "timing.h"

#include <cstdint>
#include <optional>
#include <string>

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

/// The address of the tensor whose first element is `tensor` in the window
/// or buffer `p` lies in: the same offset of `p`'s window when both are
/// window addresses, `tensor` itself when both lie in one global buffer;
/// none when they lie in no common kind of memory.
std::optional<uintptr_t> tensor_at(const void *p, const void *tensor);

/// Traps unless [p, p + bytes) lies inside the tensor of `tensor_bytes`
/// bytes at `tensor` (the same offset of another rank's window when `p` is
/// a peer address); nothing to check when `tensor` is null. `shape`
/// describes the access for the report.
void check_in_tensor(const void *p, uint64_t bytes, const void *tensor,
                     uint64_t tensor_bytes, const char *op, const char *site,
                     const std::string &shape);

/// "[1, 0]": the coordinates of the `index`-th cell of a `dims`-shaped
/// signal, row-major, the first coordinate unbounded (so that a cell past
/// the end reads as one: cell [8, 0] of a signal [8, 1]).
std::string cell_coordinates(int64_t index, const int64_t *dims, int ndims);

/// Traps unless `cell` is an aligned element of its signal, the `dims`-shaped
/// i32 tensor at `base` (at the same offset of the cell's window for a
/// peer's cell; only alignment and bounds when `base` is null); returns the
/// cell's coordinates (empty without `base`).
std::string check_signal_cell(int32_t *cell, const char *op, const char *site,
                              const int32_t *base, const int64_t *dims,
                              int ndims);

/// Checks the whole extent of a view with at least one element, inside its
/// window or global buffer and inside its tensor.
Place check_view(const rt::detail::ViewRef &view, const char *op,
                 const char *site);

/// Traps unless the view's shape and stride are non-negative.
void check_view_shape(const rt::detail::ViewRef &view, const char *op,
                      const char *site);

/// True when `place` is another rank's window (payload that crosses ranks).
bool is_remote(const Place &place);

/// Payload bytes of a view.
uint64_t payload_bytes(const rt::detail::ViewRef &view);

/// How a timed run charges moving data from `from` to `to` (one of them is
/// the calling core's unified buffer, the other `place`).
timing::Route route_from(const Place &place);
timing::Route route_to(const Place &place);

} // namespace pld::sim

#endif // PLD_SIM_MEMORY_H
