//===- job.h - The job file the harness runs --------------------*- C++ -*-===//
//
// One directive per line, `#` starts a comment (lowering/runtime/README.md
// documents the format). Relative paths are relative to the working
// directory.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_JOB_H
#define PLD_SIM_JOB_H

#include <cstdint>
#include <string>
#include <vector>

namespace pld::sim {

enum class ArgKind { Window, Global, Scalar };

struct JobArg {
  ArgKind kind;
  std::string dtype;
  int64_t elem_bytes;
  bool is_float;
  std::vector<int64_t> dims; ///< Empty for a scalar.
  uint64_t bytes;            ///< Payload bytes; 8 for a scalar in the input.
  /// The entry signature's name for it, without `%` (`name=NAME`); empty
  /// when the job file does not say.
  std::string name;
};

struct Job {
  int32_t ranks = 0;
  int64_t blocks = 1;
  /// How many times the entry runs, each launch after every rank finished
  /// the one before (`launches`).
  int32_t launches = 1;
  /// Whether a launch after the first starts with the windows as the first
  /// did (`windows reset`) rather than as the launch before left them.
  bool reset_windows = false;
  bool host_entry = false;
  bool race = false; ///< Check pld's happens-before (`--sanitize race`).
  /// The `schedule` directive's words (empty: threads run freely).
  std::vector<std::string> schedule;
  std::string trace; ///< Where a serialized run writes its choices.
  /// The `timing` directive's model parameters (`KEY=VALUE` words; empty:
  /// no modelled time).
  std::vector<std::string> timing;
  /// `values skip` (`--timing-only`): a timed run that skips the bulk
  /// values (values.h).
  bool skip_values = false;
  std::string events; ///< Where a traced run writes its trace events.
  /// The MPI backend's mode (`mpi rma`): windows reached through MPI
  /// one-sided operations rather than mapped (the thread simulator ignores
  /// it).
  bool mpi_rma = false;
  double timeout_s = 60;
  uint64_t window_heap = 16 << 20;
  std::string stats, input, output;
  std::vector<JobArg> args; ///< By index.
};

/// Reads the job file at `path`; on failure returns false and sets `error`.
bool parse_job(const std::string &path, Job &job, std::string &error);

} // namespace pld::sim

#endif // PLD_SIM_JOB_H
