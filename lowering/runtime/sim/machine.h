//===- machine.h - Setting up the ranks a job file describes ----*- C++ -*-===//
//
// The steps of a run that do not depend on how ranks are hosted: laying the
// windows and buffers out, reading the input, collecting the output and the
// counters. The thread simulator (run.cpp) does them for every rank in one
// process; the MPI backend (../mpi) for its own rank in each process.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_MACHINE_H
#define PLD_SIM_MACHINE_H

#include "job.h"
#include "pld/runtime/host.h"

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace pld::sim {

/// Where every argument of every rank lives, plus the harness-side values.
struct Machine {
  std::vector<uint64_t> window_offset; ///< Per argument; windows only.
  std::vector<rt::CommContext> contexts;
  std::vector<std::vector<uint8_t *>> data; ///< [rank][arg]; null: scalar.
  std::vector<std::vector<rt::Arg>> args;   ///< [rank][arg]
  uint64_t heap_offset = 0; ///< Where alloc_window's heap starts.
};

/// Stops the run with status 2 and `pld-run: <message>`.
[[noreturn]] void usage_error(const std::string &message);

/// Applies the job's checking and scheduling directives (race, timing,
/// schedule, events, trace) to the runtime; `job_path` names the file in
/// errors.
void configure(Job &job, const std::string &job_path);

/// Bytes of one rank's window: the window arguments, each rounded up to
/// 4096 bytes, then the heap.
uint64_t window_size(const Job &job);

/// The hand-off space each rank's mixed kernels can take in one run
/// (handoff_workspace): every launch of such a kernel takes its own part,
/// never reused, so that tasks in flight together never share one.
inline constexpr uint64_t kHandoffBytesPerRank = uint64_t{1} << 30;

/// Lays the job's arguments out over `windows`, `window_size(job)` bytes
/// per rank and rank after rank, zero-filled, and fills the world. Global
/// buffers are allocated for `only` (every rank when -1): another process
/// hosts the others.
void lay_out(const Job &job, Machine &m, uint8_t *windows, int32_t only = -1);

/// Reads launch `launch`'s part of the job's input into rank `only`'s
/// arguments (every rank's when -1); a later launch's windows only with
/// `windows reset` (they keep what the launch before left otherwise).
void read_input(const Job &job, Machine &m, int32_t only = -1,
                int32_t launch = 0);

/// Readies the machine for launch `launch` (after the first): the window
/// heap starts over (host code allocates the same buffers again, at the
/// same offsets), the windows are zeroed with `windows reset`, and the
/// arguments take the launch's inputs.
void next_launch(const Job &job, Machine &m, int32_t launch);

/// Rank `rank`'s part of the output file: its buffer arguments' bytes.
std::vector<uint8_t> rank_output(const Job &job, const Machine &m,
                                 int32_t rank);

/// Writes the output file, the ranks' parts in rank order.
void write_output(const Job &job,
                  const std::vector<std::vector<uint8_t>> &parts);

/// A rank's counters (world.h's Stats), as plain numbers.
struct Counts {
  uint64_t remote_load_bytes, remote_store_bytes, put_bytes, get_bytes,
      notifies, waits, wait_ns;
};

Counts counts(int32_t rank);

/// Writes the stats JSON of `ranks` (one per rank, in order).
void write_stats(const Job &job, const std::vector<Counts> &ranks);

/// Starts rank `rank`'s threads on `entry`: its host thread, or its kernel
/// blocks.
void start_rank(const Job &job, Machine &m, int32_t rank,
                void (*entry)(rt::CommContext *, const rt::Arg *),
                std::vector<std::thread> &threads);

} // namespace pld::sim

#endif // PLD_SIM_MACHINE_H
