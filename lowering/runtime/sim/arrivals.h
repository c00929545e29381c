//===- arrivals.h - Which notify made a wait hold --------------*- C++ -*-===//
//
// The critical path (timing.cpp) and the trace's flow arrows (events.cpp)
// keep their own log of each cell's notifies; both name the notify that
// released a wait by this one rule, so they agree.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_ARRIVALS_H
#define PLD_SIM_ARRIVALS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pld::sim {

/// The notify that made a wait hold, in `log` (a cell's notifies in the
/// order they were issued; each entry has the `value` it left, whether it
/// was a `set`, and when it arrived, `at`): the first value at or after
/// position `from` that satisfies `holds`, and of the notifies it sums up
/// (those since the last set at or before it) the one that arrived last,
/// since the value is there only once all of them are. A remote add issued
/// before a local one (a waiter taking its count back) arrives after it,
/// so the write that reached the value in issue order need not be the one
/// the wait waited for. Null, with `found` false, when no value from
/// `from` on satisfies it.
template <typename Entry>
const Entry *satisfying(const std::vector<Entry> &log, size_t from,
                        bool (*holds)(int32_t, int32_t), int32_t expected,
                        bool &found) {
  found = false;
  const Entry *latest = nullptr;
  for (size_t i = 0; i < log.size(); ++i) {
    if (log[i].set || !latest || log[i].at > latest->at)
      latest = &log[i];
    if (i >= from && holds(log[i].value, expected)) {
      found = true;
      return latest;
    }
  }
  return nullptr;
}

} // namespace pld::sim

#endif // PLD_SIM_ARRIVALS_H
