//===- values.cpp - Runs that skip the values (--timing-only) -------------===//

#include "values.h"

#include "report.h"
#include "thread.h"

#include <iterator>
#include <map>
#include <mutex>
#include <string>

namespace pld::sim {

// A named namespace, not an anonymous one: the simulator library is built
// as one translation unit.
namespace skipped_values {

/// A run of bytes a skipped store wrote, and the op that wrote it.
struct Span {
  uintptr_t end;
  const char *site;
};

/// Disjoint spans by their first byte; neighbours of one site are merged.
std::map<uintptr_t, Span> g_unknown;
std::mutex g_mutex;

/// Splits the span that holds `at` and a byte before it, so that no span
/// crosses `at`.
void cut(uintptr_t at) {
  auto it = g_unknown.upper_bound(at);
  if (it == g_unknown.begin())
    return;
  --it;
  if (it->first < at && it->second.end > at) {
    Span right = it->second;
    it->second.end = at;
    g_unknown.emplace(at, right);
  }
}

void forget(uintptr_t begin, uintptr_t end) {
  cut(begin);
  cut(end);
  g_unknown.erase(g_unknown.lower_bound(begin), g_unknown.lower_bound(end));
}

void mark(uintptr_t begin, uintptr_t end, const char *site) {
  forget(begin, end);
  auto it = g_unknown.emplace(begin, Span{end, site}).first;
  auto next = std::next(it);
  if (next != g_unknown.end() && next->first == end &&
      next->second.site == site) {
    it->second.end = next->second.end;
    g_unknown.erase(next);
  }
  if (it != g_unknown.begin()) {
    auto before = std::prev(it);
    if (before->second.end == begin && before->second.site == site) {
      before->second.end = it->second.end;
      g_unknown.erase(it);
    }
  }
}

/// The span that overlaps [begin, end), if any.
const Span *overlapping(uintptr_t begin, uintptr_t end) {
  auto it = g_unknown.upper_bound(begin);
  if (it != g_unknown.begin() && std::prev(it)->second.end > begin)
    return &std::prev(it)->second;
  if (it != g_unknown.end() && it->first < end)
    return &it->second;
  return nullptr;
}

} // namespace skipped_values

void skip_values() { detail::g_values_skipped = true; }

void values_unknown(const void *dst, int64_t rows, int64_t row_bytes,
                    int64_t stride) {
  if (rows <= 0 || row_bytes <= 0)
    return;
  Slot *slot = self().slot;
  const char *site =
      slot ? slot->last_op.load(std::memory_order_relaxed) : nullptr;
  auto at = reinterpret_cast<uintptr_t>(dst);
  std::lock_guard<std::mutex> lock(skipped_values::g_mutex);
  if (stride == row_bytes) {
    skipped_values::mark(at, at + static_cast<uintptr_t>(rows * row_bytes),
                         site);
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    uintptr_t begin = at + static_cast<uintptr_t>(r * stride);
    skipped_values::mark(begin, begin + static_cast<uintptr_t>(row_bytes),
                         site);
  }
}

void values_known(const void *p, uint64_t bytes) {
  if (!values_skipped())
    return;
  auto at = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(skipped_values::g_mutex);
  skipped_values::forget(at, at + bytes);
}

void check_values_known(const void *p, uint64_t bytes, const char *op,
                        const char *site) {
  if (!values_skipped())
    return;
  auto at = reinterpret_cast<uintptr_t>(p);
  const char *writer = nullptr;
  {
    std::lock_guard<std::mutex> lock(skipped_values::g_mutex);
    const skipped_values::Span *span =
        skipped_values::overlapping(at, at + bytes);
    if (!span)
      return;
    writer = span->site;
  }
  std::string report =
      "pld-run: --timing-only: " + op_site(op, site) + " reads " +
      describe_address(at) + ", which " +
      (writer && *writer ? std::string(writer) : std::string("a store")) +
      " wrote as bulk data: --timing-only skips those values, so this one "
      "is unknown and what depends on it could differ from a --timing run; "
      "run with --timing\n";
  report += "  thread: " + describe(self().id) + "\n";
  stop_run(kExitUsage, report);
}

} // namespace pld::sim
