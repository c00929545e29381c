//===- remote.h - Peer windows this process cannot address ------*- C++ -*-===//
//
// The thread simulator and the MPI backend's node mode hold every rank's
// window in this process's memory, and the runtime reaches a peer's window
// with plain loads, stores and atomics. The MPI backend's rma mode
// (../mpi/rma.h) holds only its own rank's: the other ranks' windows are an
// inaccessible reservation at the addresses the layout gives them
// (world.h), and the runtime's accesses to them go through the `Remote`
// hooks the backend installs, as MPI one-sided operations. Signal cells go
// through the hooks too, the calling rank's own included: MPI's atomics and
// the CPU's do not combine on one cell.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_REMOTE_H
#define PLD_SIM_REMOTE_H

#include "pld/runtime/host.h"

#include <atomic>
#include <cstdint>
#include <optional>

namespace pld::sim {

/// What a signal access does to its cell.
enum class CellOp { Add, Set, Load };

/// A byte of some rank's window: its rank and its offset in the window.
struct WindowByte {
  int32_t rank;
  uint64_t offset;
};

/// The hooks of a backend whose peers' windows are not this process's
/// memory. Every call is complete when it returns (the data arrived, or the
/// update is applied at the target).
struct Remote {
  /// Copies `rows` rows of `row_bytes` bytes, `stride` bytes apart from
  /// `at`, to `out`, rows `out_pitch` bytes apart.
  void (*get)(WindowByte at, int64_t rows, int64_t row_bytes, int64_t stride,
              uint8_t *out, int64_t out_pitch);
  /// The reverse of `get`: from `in`, rows `in_pitch` apart, to `at`.
  void (*put)(WindowByte at, int64_t rows, int64_t row_bytes, int64_t stride,
              const uint8_t *in, int64_t in_pitch);
  /// Element-wise atomic adds of `rows` x `cols` elements of `dtype`, rows
  /// `stride` elements apart at `at`, `in_pitch` apart at `in`.
  void (*add)(WindowByte at, int64_t rows, int64_t cols, int64_t stride,
              const uint8_t *in, int64_t in_pitch, rt::detail::DType dtype);
  /// Applies `op` with `value` to the i32 cell at `at`; returns the cell's
  /// value after it.
  int32_t (*cell)(WindowByte at, CellOp op, int32_t value);
  /// The calling thread's remote writes are complete at their targets.
  void (*release)();
  /// Remote writes into this rank's window that completed before the call
  /// are visible to the calling thread's plain loads.
  void (*acquire)();
};

/// The installed hooks; null unless a backend installed them.
const Remote *remote();
/// Installs `hooks` (once, before any simulated thread starts).
void install_remote(const Remote *hooks);

/// Where `p` is when it lies in another rank's window than the calling
/// thread's and the windows are remote; none otherwise.
std::optional<WindowByte> remote_peer_byte(const void *p);

/// Where `p` is when it lies in a window and atomic accesses go through the
/// hooks: signal cells and atomic adds, in every window, the caller's own
/// included; none otherwise.
std::optional<WindowByte> remote_atomic_byte(const void *p);

/// The value of the signal cell `cell`: an atomic load with `order`, or the
/// hooks' load when signal accesses go through them.
int32_t cell_value(const int32_t *cell, std::memory_order order);

} // namespace pld::sim

#endif // PLD_SIM_REMOTE_H
