//===- race.cpp - pld's happens-before, checked at run time ---------------===//
//
// See race.h for the model. One lock guards the shadow memory and the cells'
// logs: the detector is for correctness runs, and simulated threads already
// share two cores.
//
//===----------------------------------------------------------------------===//

#include "race.h"

#include "report.h"
#include "thread.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

namespace pld::sim::race {
namespace {

std::atomic<bool> g_enabled{false};
/// Lanes come in pairs, 2k (payload) and 2k + 1 (signal), from k = 1; lane
/// 0 stands for "none".
std::atomic<uint32_t> g_next_thread{1};
std::mutex g_lock;

struct ThreadRace {
  bool started = false;
  Lanes lanes;
  /// Per cell, the position in its log this thread last wrote or saw.
  std::unordered_map<const int32_t *, int64_t> seen;
};
thread_local ThreadRace t_race;

uint32_t &at(Clock &clock, uint32_t lane) {
  if (clock.size() <= lane)
    clock.resize(lane + 1, 0);
  return clock[lane];
}
uint32_t get(const Clock &clock, uint32_t lane) {
  return lane < clock.size() ? clock[lane] : 0;
}
void join_into(Clock &into, const Clock &other) {
  if (into.size() < other.size())
    into.resize(other.size(), 0);
  for (size_t i = 0; i < other.size(); ++i)
    into[i] = std::max(into[i], other[i]);
}
uint32_t thread_of(uint32_t lane) { return lane / 2; }

//===-- Who did what, for reports -----------------------------------------===//

struct Doer {
  Identity id;
  const char *op;
  const char *site;
  Access kind;
};
/// Indexed by the value a shadow epoch keeps; entry 0 is unused.
std::vector<Doer> g_doers(1);
std::map<std::tuple<uint32_t, const char *, const char *, Access>, uint32_t>
    g_doer_index;
/// Identity by thread number (lane / 2).
std::vector<Identity> g_threads(1);

uint32_t doer(const char *op, const char *site, Access kind) {
  uint32_t thread = thread_of(t_race.lanes.payload);
  auto key = std::make_tuple(thread, op, site, kind);
  auto [it, added] = g_doer_index.emplace(key, 0);
  if (added) {
    it->second = static_cast<uint32_t>(g_doers.size());
    g_doers.push_back({g_threads[thread], op, site, kind});
  }
  return it->second;
}

//===-- Shadow memory -----------------------------------------------------===//

struct Epoch {
  uint32_t lane = 0;
  uint32_t clock = 0;
  uint32_t doer = 0;
};

/// Per byte: the last plain write, and the reads and atomic adds since it.
/// Atomic adds are kept like reads, not in place of the write: two of them
/// do not race with each other, but each does with a read or a write, so
/// neither the write before them nor an unordered earlier one may be
/// forgotten.
struct Cell {
  Epoch write;
  Epoch since;
  uint32_t shared = 0; ///< Index into g_since_sets when there are several.
};

constexpr uint64_t kPageBits = 12;
constexpr uint64_t kPageBytes = uint64_t{1} << kPageBits;
std::unordered_map<uintptr_t, std::unique_ptr<Cell[]>> g_pages;
std::vector<std::vector<Epoch>> g_since_sets(1);

Cell &cell_at(uintptr_t address) {
  std::unique_ptr<Cell[]> &page = g_pages[address >> kPageBits];
  if (!page)
    page = std::make_unique<Cell[]>(kPageBytes);
  return page[address & (kPageBytes - 1)];
}

bool atomic_kind(Access kind) { return kind == Access::AtomicAdd; }

bool covered(const Clock &clock, const Epoch &epoch) {
  return get(clock, epoch.lane) >= epoch.clock;
}

std::string verb(Access kind, bool past) {
  switch (kind) {
  case Access::Read:
    return past ? "read" : "reads";
  case Access::Write:
    return past ? "wrote" : "writes";
  case Access::AtomicAdd:
    return past ? "atomically added to" : "atomically adds to";
  }
  return "accesses";
}

/// The user's op, where it has a site.
std::string name(const Doer &d) {
  return d.site && *d.site ? std::string(d.site) : d.op;
}

/// The payload clock each thread's last release published, by thread.
std::vector<uint32_t> g_released(1);

/// Thread `thread`'s entry of g_released, made if it has none yet.
uint32_t &released(uint32_t thread) {
  if (g_released.size() <= thread)
    g_released.resize(thread + 1, 0);
  return g_released[thread];
}

/// Why `first` is not ordered before the calling thread's access.
std::string missing(const Epoch &first, const Doer &then) {
  const Doer &was = g_doers[first.doer];
  std::string second = describe(then.id);
  std::string first_thread = describe(was.id);
  if (covered(t_race.lanes.sig, first))
    return "a wait of " + second + " orders it, but no acquire() comes " +
           "between that wait and the " + then.op +
           ": its data cache may still hold stale lines";
  uint32_t thread = thread_of(first.lane);
  bool payload_write = first.lane % 2 == 0 && was.kind != Access::Read;
  if (payload_write &&
      (thread >= g_released.size() || g_released[thread] < first.clock))
    return first_thread + " has not released its " + was.op +
           " (no release() after it), so no notify publishes it";
  return "no notify -> wait chain orders " + first_thread + "'s " + was.op +
         " before " + second + "'s " + then.op;
}

[[noreturn]] void report(const Epoch &first, uintptr_t begin, uintptr_t end,
                         const Doer &then) {
  const Doer &was = g_doers[first.doer];
  std::string text = "pld-run: race: " + name(then) + " on " +
                     describe(then.id) + " " + verb(then.kind, false) +
                     " what " + name(was) + " on " + describe(was.id) + " " +
                     verb(was.kind, true) + ", unordered\n";
  text += "  first: " + std::string(was.op) + " (" + name(was) + "), " +
          describe(was.id) + "\n";
  text += "  then:  " + std::string(then.op) + " (" + name(then) + "), " +
          describe(then.id) + "\n";
  text += "  bytes: " + describe_range(begin, end) + "\n";
  text += "  missing: " + missing(first, then) + "\n";
  stop_run(kExitRace, text);
}

Access kind_of(const Epoch &epoch) { return g_doers[epoch.doer].kind; }

/// The earlier access of `cell` that conflicts with one of `kind` by the
/// calling thread at `clock`, if any.
const Epoch *conflict(const Cell &cell, Access kind, const Clock &clock) {
  uint32_t me = thread_of(t_race.lanes.payload);
  auto races = [&](const Epoch &earlier) {
    Access earlier_kind = kind_of(earlier);
    return earlier.lane && thread_of(earlier.lane) != me &&
           !covered(clock, earlier) &&
           !(earlier_kind == Access::Read && kind == Access::Read) &&
           !(atomic_kind(earlier_kind) && atomic_kind(kind));
  };
  if (races(cell.write))
    return &cell.write;
  if (cell.shared) {
    for (const Epoch &earlier : g_since_sets[cell.shared])
      if (races(earlier))
        return &earlier;
  } else if (races(cell.since)) {
    return &cell.since;
  }
  return nullptr;
}

/// Adds `now` to the accesses since the last write, dropping those of its
/// kind it supersedes: the same thread's, and those `clock` covers. (One
/// of the other kind stays: a later access may race with it and not with
/// `now`, as a read with an atomic add but not with a read.)
void remember(Cell &cell, const Epoch &now, const Clock &clock) {
  uint32_t me = thread_of(now.lane);
  auto superseded = [&](const Epoch &earlier) {
    return kind_of(earlier) == kind_of(now) &&
           (thread_of(earlier.lane) == me || covered(clock, earlier));
  };
  if (cell.shared) {
    std::vector<Epoch> &since = g_since_sets[cell.shared];
    std::erase_if(since, superseded);
    since.push_back(now);
    return;
  }
  if (!cell.since.lane || superseded(cell.since)) {
    cell.since = now;
    return;
  }
  cell.shared = static_cast<uint32_t>(g_since_sets.size());
  g_since_sets.push_back({cell.since, now});
}

void record(Cell &cell, Access kind, const Epoch &now, const Clock &clock) {
  if (kind != Access::Write) {
    remember(cell, now, clock);
    return;
  }
  // Every earlier access is ordered before it or was reported.
  cell.write = now;
  cell.since = {};
  cell.shared = 0;
}

/// Checks and records bytes [p, p + bytes) for an access by the calling
/// thread's `lane` at `clock`. Requires g_lock.
void shadow(uintptr_t p, uint64_t bytes, Access kind, uint32_t lane,
            const Clock &clock, const char *op, const char *site) {
  Epoch now{lane, get(clock, lane), doer(op, site, kind)};
  for (uint64_t i = 0; i < bytes; ++i) {
    Cell &cell = cell_at(p + i);
    if (const Epoch *earlier = conflict(cell, kind, clock)) {
      Epoch first = *earlier;
      uint64_t end = i + 1;
      while (end < bytes) {
        const Epoch *next = conflict(cell_at(p + end), kind, clock);
        if (!next || next->lane != first.lane || next->clock != first.clock)
          break;
        ++end;
      }
      report(first, p + i, p + end, g_doers[now.doer]);
    }
    record(cell, kind, now, clock);
  }
}

//===-- Signal cells ------------------------------------------------------===//

struct Entry {
  bool set;
  int32_t value;
  Clock clock;
  /// The notifier's signal lane and its tick there: whoever's clock
  /// reaches the tick knows this write happened.
  uint32_t lane, tick;
};
struct Log {
  int32_t initial = 0;
  std::vector<Entry> entries;
};
std::unordered_map<const int32_t *, Log> g_logs;

Log &log_of(const int32_t *cell) {
  auto [it, added] = g_logs.try_emplace(cell);
  if (added)
    it->second.initial = std::atomic_ref<int32_t>(*const_cast<int32_t *>(cell))
                             .load(std::memory_order_relaxed);
  return it->second;
}

/// The cell's value after entry `position` (-1: before any).
int32_t value_at(const Log &log, int64_t position) {
  int32_t value = log.initial;
  for (int64_t i = 0; i <= position; ++i) {
    const Entry &entry = log.entries[static_cast<size_t>(i)];
    value = entry.set
                ? entry.value
                : static_cast<int32_t>(static_cast<uint32_t>(value) +
                                       static_cast<uint32_t>(entry.value));
  }
  return value;
}

/// The first position at or after `from` where `holds(value)`, or -2.
template <typename Holds>
int64_t first_holding(const Log &log, int64_t from, Holds holds) {
  int32_t value = value_at(log, from);
  for (int64_t position = from;; ++position) {
    if (position >= 0) {
      const Entry &entry = log.entries[static_cast<size_t>(position)];
      if (position > from)
        value = entry.set
                    ? entry.value
                    : static_cast<int32_t>(static_cast<uint32_t>(value) +
                                           static_cast<uint32_t>(entry.value));
    }
    if (holds(value))
      return position;
    if (position + 1 >= static_cast<int64_t>(log.entries.size()))
      return -2;
  }
}

/// The position a wait of the calling thread starts from: the later of what
/// it saw of the cell itself (`seen`) and the last write its clock says
/// happened before it (a thread started after, or joined with, another
/// that saw the cell knows what that one saw: a kernel launched after the
/// previous call's kernel ended does not read the previous call's values).
int64_t known_position(const Log &log, int64_t seen, const Clock &knows) {
  for (int64_t i = static_cast<int64_t>(log.entries.size()) - 1; i > seen;
       --i) {
    const Entry &entry = log.entries[static_cast<size_t>(i)];
    if (get(knows, entry.lane) >= entry.tick)
      return i;
  }
  return seen;
}

/// The joined clocks of the entries that make up the value at `position`:
/// from the last Set at or before it.
Clock clock_of(const Log &log, int64_t position) {
  Clock clock;
  int64_t start = position;
  while (start > 0 && !log.entries[static_cast<size_t>(start)].set)
    --start;
  for (int64_t i = std::max<int64_t>(start, 0); i <= position; ++i)
    join_into(clock, log.entries[static_cast<size_t>(i)].clock);
  return clock;
}

} // namespace

bool enabled() { return g_enabled.load(std::memory_order_relaxed); }
void enable() { g_enabled.store(true, std::memory_order_relaxed); }

std::shared_ptr<Clock> fork() {
  if (!enabled() || !t_race.started)
    return nullptr;
  std::lock_guard<std::mutex> guard(g_lock);
  auto parent = std::make_shared<Clock>(t_race.lanes.now);
  join_into(*parent, t_race.lanes.sig);
  // The parent's later events are not the child's to know.
  ++at(t_race.lanes.now, t_race.lanes.payload);
  ++at(t_race.lanes.sig, t_race.lanes.signal);
  return parent;
}

void start(const Clock *parent) {
  if (!enabled())
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  uint32_t thread = g_next_thread.fetch_add(1, std::memory_order_relaxed);
  if (g_threads.size() <= thread)
    g_threads.resize(thread + 1);
  g_threads[thread] = self().id;
  Lanes &lanes = t_race.lanes;
  lanes.payload = 2 * thread;
  lanes.signal = 2 * thread + 1;
  if (parent) {
    lanes.now = *parent;
    lanes.sig = *parent;
  }
  at(lanes.now, lanes.payload) = 1;
  at(lanes.sig, lanes.signal) = 1;
  t_race.started = true;
}

void start_harness() {
  if (enabled() && !t_race.started)
    start(nullptr);
}

std::shared_ptr<Clock> finish() {
  if (!enabled() || !t_race.started)
    return nullptr;
  std::lock_guard<std::mutex> guard(g_lock);
  auto clock = std::make_shared<Clock>(t_race.lanes.now);
  join_into(*clock, t_race.lanes.sig);
  return clock;
}

void join(const Clock &other) {
  if (!enabled() || !t_race.started)
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  join_into(t_race.lanes.now, other);
  join_into(t_race.lanes.sig, other);
}

void release() {
  if (!enabled() || !t_race.started)
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  Lanes &lanes = t_race.lanes;
  released(thread_of(lanes.payload)) = get(lanes.now, lanes.payload);
  join_into(lanes.sig, lanes.now);
  ++at(lanes.now, lanes.payload);
}

uint32_t payload_clock() {
  if (!enabled() || !t_race.started)
    return 0;
  std::lock_guard<std::mutex> guard(g_lock);
  const Lanes &lanes = t_race.lanes;
  return get(lanes.now, lanes.payload) - 1;
}

void publish(uint32_t clock) {
  if (!enabled() || !t_race.started || clock == 0)
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  Lanes &lanes = t_race.lanes;
  uint32_t &last = released(thread_of(lanes.payload));
  last = std::max(last, clock);
  uint32_t &published = at(lanes.sig, lanes.payload);
  published = std::max(published, clock);
}

void acquire() {
  if (!enabled() || !t_race.started)
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  Lanes &lanes = t_race.lanes;
  join_into(lanes.now, lanes.sig);
  ++at(lanes.sig, lanes.signal);
}

void access(const void *p, uint64_t bytes, Access kind, const char *op,
            const char *site) {
  access_rows(p, 1, static_cast<int64_t>(bytes), 0, kind, op, site);
}

void access_rows(const void *p, int64_t rows, int64_t row_bytes,
                 int64_t stride_bytes, Access kind, const char *op,
                 const char *site) {
  if (!enabled() || !t_race.started || rows <= 0 || row_bytes <= 0)
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  Lanes &lanes = t_race.lanes;
  auto base = reinterpret_cast<uintptr_t>(p);
  for (int64_t r = 0; r < rows; ++r)
    shadow(base + static_cast<uintptr_t>(r * stride_bytes),
           static_cast<uint64_t>(row_bytes), kind, lanes.payload, lanes.now, op,
           site);
  ++at(lanes.now, lanes.payload);
}

namespace {

/// A core's data cache writes back whole lines of this many bytes.
constexpr uintptr_t kCacheLine = 64;

/// Per 64-byte line of global memory, the last scalar write into it by an
/// AI core (the host's are not kept).
struct LineWrite {
  Epoch epoch;
  uintptr_t begin, end;
};
std::unordered_map<uintptr_t, LineWrite> g_lines;

/// Whether a thread is an AI core's (its scalar writes go through that
/// core's data cache), not the host's.
bool on_a_core(const Identity &id) { return id.role == Role::Kernel; }

[[noreturn]] void report_line(const LineWrite &first, uintptr_t line,
                              const Doer &then, uintptr_t begin,
                              uintptr_t end) {
  const Doer &was = g_doers[first.epoch.doer];
  std::string text = "pld-run: race: " + name(then) + " on " +
                     describe(then.id) + " and " + name(was) + " on " +
                     describe(was.id) +
                     " write scalars into one 64-byte cache line, unordered\n";
  text += "  first: write (" + name(was) + "), " + describe(was.id) + ", " +
          describe_range(first.begin, first.end) + "\n";
  text += "  then:  write (" + name(then) + "), " + describe(then.id) + ", " +
          describe_range(begin, end) + "\n";
  text += "  line: " + describe_range(line, line + kCacheLine) + "\n";
  text += "  missing: a core's data cache writes a whole line back (dcci), so "
          "the core that flushes last overwrites the other's bytes with what "
          "it held before (hw-native-sys/simpler, "
          "docs/aicore-kernel-programming.md, section 2): give each core its "
          "own 64-byte line, or order the writes with a notify and a wait\n";
  stop_run(kExitRace, text);
}

} // namespace

void scalar_write(const void *p, uint64_t bytes, const char *site) {
  if (!enabled() || !t_race.started || bytes == 0)
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  Lanes &lanes = t_race.lanes;
  auto begin = reinterpret_cast<uintptr_t>(p);
  // The bytes themselves first: a write of the same bytes is a plain race.
  shadow(begin, bytes, Access::Write, lanes.payload, lanes.now, "write", site);
  Epoch now{lanes.payload, get(lanes.now, lanes.payload),
            doer("write", site, Access::Write)};
  const Doer &then = g_doers[now.doer];
  if (on_a_core(then.id)) {
    uint32_t me = thread_of(now.lane);
    for (uintptr_t line = begin / kCacheLine * kCacheLine; line < begin + bytes;
         line += kCacheLine) {
      auto [it, added] =
          g_lines.try_emplace(line, LineWrite{now, begin, begin + bytes});
      const LineWrite &last = it->second;
      if (!added && thread_of(last.epoch.lane) != me &&
          !covered(lanes.now, last.epoch))
        report_line(last, line, then, begin, begin + bytes);
      it->second = {now, begin, begin + bytes};
    }
  }
  ++at(lanes.now, lanes.payload);
}

void lock_cells() { g_lock.lock(); }
void unlock_cells() { g_lock.unlock(); }

void notify_locked(int32_t *cell, int32_t value, bool set, const char *site) {
  Lanes &lanes = t_race.lanes;
  Log &log = g_logs.at(cell);
  log.entries.push_back(
      {set, value, lanes.sig, lanes.signal, get(lanes.sig, lanes.signal)});
  t_race.seen[cell] = static_cast<int64_t>(log.entries.size()) - 1;
  // The notify is an atomic write of the cell: it races with plain accesses
  // only.
  shadow(reinterpret_cast<uintptr_t>(cell), sizeof(int32_t), Access::AtomicAdd,
         lanes.signal, lanes.sig, "tnotify", site);
  ++at(lanes.sig, lanes.signal);
}

void prepare(const int32_t *cell) { (void)log_of(cell); }

void waited(int32_t *cell, int32_t expected, rt::WaitCmp cmp) {
  if (!enabled() || !t_race.started)
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  const Log &log = log_of(cell);
  auto seen = t_race.seen.find(cell);
  int64_t from = known_position(
      log, seen == t_race.seen.end() ? -1 : seen->second, t_race.lanes.sig);
  int64_t position = first_holding(log, from, [&](int32_t value) {
    return cmp == rt::WaitCmp::EQ ? value == expected : value >= expected;
  });
  if (position < -1) // Held only through a write outside the log.
    return;
  t_race.seen[cell] = position;
  if (position >= 0)
    join_into(t_race.lanes.sig, clock_of(log, position));
  ++at(t_race.lanes.sig, t_race.lanes.signal);
}

void forget_cells(const void *begin, uint64_t bytes) {
  if (!enabled())
    return;
  std::lock_guard<std::mutex> guard(g_lock);
  auto from = reinterpret_cast<uintptr_t>(begin);
  for (auto &[cell, log] : g_logs) {
    auto at = reinterpret_cast<uintptr_t>(cell);
    if (at < from || at - from >= bytes)
      continue;
    log.entries.clear();
    log.initial = std::atomic_ref<int32_t>(*const_cast<int32_t *>(cell))
                      .load(std::memory_order_relaxed);
  }
}

Clock condition_clock(int32_t *cell, int32_t expected) {
  if (!enabled())
    return {};
  std::lock_guard<std::mutex> guard(g_lock);
  const Log &log = log_of(cell);
  int64_t from =
      t_race.started ? known_position(log, -1, t_race.lanes.sig) : -1;
  int64_t position = first_holding(log, from, [&](int32_t value) {
    return static_cast<uint32_t>(value) >= static_cast<uint32_t>(expected);
  });
  return position >= 0 ? clock_of(log, position) : Clock{};
}

} // namespace pld::sim::race
