//===- values.h - Runs that skip the values (--timing-only) -----*- C++ -*-===//
//
// `pld-run --timing-only` (the job's `values skip` directive) models time
// without computing the bulk data: tile math, the cube's matmuls and
// extracts, and the element copies of loads, stores and transfers are
// skipped, while every thread, signal, wait, task and transfer runs, and is
// timed, as in a `--timing` run. What control flow or addresses can depend
// on keeps its value: signal cells, scalar reads and writes (pl.read,
// pl.write), scalar arguments and the inputs. Memory that a skipped store
// or transfer would have written holds no known value; a scalar read or a
// signal operation on it stops the run (status 2) instead of going on with
// a value the run did not compute, so a run either models the same time as
// `--timing` or says why it cannot.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_VALUES_H
#define PLD_SIM_VALUES_H

#include <cstdint>

namespace pld::sim {

namespace detail {
inline bool g_values_skipped = false;
} // namespace detail

/// Whether this run skips the bulk values: guard element loops with it.
inline bool values_skipped() { return detail::g_values_skipped; }

/// Makes the run skip the values; before any simulated thread starts.
void skip_values();

/// Notes that `rows` rows of `row_bytes` bytes at `dst`, `stride` bytes
/// apart, were not written by a store or transfer whose values were
/// skipped: their contents are unknown from here on. The calling thread's
/// current op names the writer in a later report.
void values_unknown(const void *dst, int64_t rows, int64_t row_bytes,
                    int64_t stride);

/// Notes that [p, p + bytes) holds a value the run computed (a scalar
/// write).
void values_known(const void *p, uint64_t bytes);

/// Stops the run (status 2) when [p, p + bytes), which `op` at `site` is
/// about to read as a scalar or a signal cell, holds a skipped value.
void check_values_known(const void *p, uint64_t bytes, const char *op,
                        const char *site);

} // namespace pld::sim

#endif // PLD_SIM_VALUES_H
