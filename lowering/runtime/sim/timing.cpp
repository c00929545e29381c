//===- timing.cpp - Modelled time: a virtual clock per thread -------------===//
//
// A timed run is serialized (one simulated thread runs at a time, chosen by
// sched.cpp's `time` strategy), so the shared state here needs no lock: the
// scheduler's handoff orders every access.
//
//===----------------------------------------------------------------------===//

#include "timing.h"

#include "arrivals.h"
#include "report.h"
#include "sched.h"
#include "thread.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace pld::sim::timing {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

bool g_enabled = false;
Model g_model;
int32_t g_ranks = 0;

/// When each link (from * ranks + to) and each rank's ingress is free, and
/// the bytes each link carried.
std::vector<double> g_link_free, g_ingress_free;
std::vector<uint64_t> g_link_bytes;
/// The latest end of any thread of each rank.
std::vector<double> g_rank_end;
/// End clocks by scheduler thread id.
std::vector<double> g_ends;
/// How each ended scheduler thread is named in reports, by its id.
std::unordered_map<int32_t, std::string> g_names;

/// One value a cell had: when it arrived there, and who wrote it. `set`:
/// the notify replaced the value rather than adding to it.
struct Arrival {
  double at;
  int32_t value;
  std::string thread;
  const char *site;
  double sent;
  bool set;
};
std::unordered_map<const int32_t *, std::vector<Arrival>> g_cells;

/// A wait that held its thread up: the thread, the op, when it began
/// waiting and when it went on, and the notify that let it.
struct Stall {
  const char *site;
  double from, at;
  Arrival cause; ///< A copy: the cell's log grows.
};
std::map<std::string, std::vector<Stall>> g_stalls;
/// The thread that started each one, and when: where a critical path goes
/// on from a thread that nothing held up.
struct Start {
  std::string parent;
  double at;
};
std::map<std::string, std::vector<Start>> g_parents;
/// The thread that ended last, and when.
std::string g_last_thread;
double g_last_end = 0;

/// A tile's state in the unified buffer: written when `ready`, read by
/// every op in flight by `free`.
struct TileTimes {
  double ready = 0, free = 0;
};

/// The calling thread's clocks.
struct Clocks {
  double now = 0;     ///< Where instruction issue has got to.
  double pending = 0; ///< When everything issued so far is done.
  double vector = 0;  ///< When the vector unit is free.
  double loads = 0;   ///< When the core's own-memory load engine is free.
  double stores = 0;  ///< When its store engine is free.
  double cube = 0;    ///< When the cube unit is free.
  double mte1 = 0;    ///< When the L1 -> L0A/L0B engine is free.
  double sdma = 0;    ///< When the core's SDMA session is free.
  std::unordered_map<const void *, TileTimes> tiles;
};
thread_local Clocks t_clocks;

// A mad's fixed cycles, from pto-isa's cost model for a2a3 (@3186c38,
// a2a3/cce_costmodel/cce_costmodel_cube.hpp:16, 24-34); the cube's clock
// and rates are the model's (docs/performance.md).
constexpr int64_t kMadHeadCycles = 6;

/// Whether `tile` lies in the calling thread's cube memory `memory`
/// (memory.cpp's bind_cube_tile), `bytes` long.
bool in_cube_memory(const void *tile, rt::detail::CubeMemory memory,
                    int64_t bytes) {
  const uint8_t *base = self().cube[static_cast<int>(memory)];
  const auto *at = static_cast<const uint8_t *>(tile);
  return base && at >= base && at < base + bytes;
}

/// The rate of a transfer between the core and its own rank's memory: a
/// load into L1 at GM_TO_L1, a store from L0C at L0C_TO_GM, a unified-buffer
/// tile's at the model's local rates.
double local_rate(const void *tile, bool push) {
  using rt::detail::CubeMemory;
  if (push)
    return in_cube_memory(tile, CubeMemory::L0C, rt::kL0cBytes)
               ? g_model.fixpipe_bytes_per_ns
               : g_model.local_store_bytes_per_ns;
  return in_cube_memory(tile, CubeMemory::L1, rt::kL1Bytes)
             ? g_model.l1_load_bytes_per_ns
             : g_model.local_load_bytes_per_ns;
}

void issue() { t_clocks.now += g_model.issue_ns; }

void done_at(double end) { t_clocks.pending = std::max(t_clocks.pending, end); }

/// Claims the link from `route.from` to `route.to` (at the pull or push
/// rate) and the receiver's ingress for `b` bytes from `start`; returns
/// when both have carried them.
double cross(double start, double b, Route route, bool push) {
  size_t link = static_cast<size_t>(route.from) * g_ranks + route.to;
  double rate =
      push ? g_model.link_write_bytes_per_ns : g_model.link_bytes_per_ns;
  double link_start = std::max(start, g_link_free[link]);
  g_link_free[link] = link_start + b / rate;
  double &ingress = g_ingress_free[static_cast<size_t>(route.to)];
  double ingress_start = std::max(start, ingress);
  ingress = ingress_start + b / g_model.ingress_bytes_per_ns;
  g_link_bytes[link] += static_cast<uint64_t>(b);
  return std::max(g_link_free[link], ingress);
}

/// Claims the resources of a transfer of `bytes` into or out of `tile`
/// that may start at `earliest`; returns when it runs.
Interval transfer(const void *tile, double earliest, uint64_t bytes,
                  Route route, bool push) {
  auto b = static_cast<double>(bytes);
  // The core's MTE2 (a load) or MTE3 (a store; the fixpipe for L0C) runs
  // one transfer at a time.
  double &engine = push ? t_clocks.stores : t_clocks.loads;
  double start = std::max(earliest, engine);
  if (!route.remote) {
    engine = start + b / local_rate(tile, push);
    return {start, engine};
  }
  // A remote transfer is still the core's own instruction: the engine
  // moves at most one core's remote rate and is busy until the bytes have
  // crossed the link and the receiver's ingress, which other cores'
  // transfers share.
  double core_end = start + b / (push ? g_model.core_push_bytes_per_ns
                                      : g_model.core_pull_bytes_per_ns);
  engine = std::max(core_end, cross(start, b, route, push));
  return {start, engine};
}

/// Every parameter by the name `--model` and the job file give it, in the
/// order pld_passes::model::PARAMETERS prints them.
constexpr std::pair<const char *, double Model::*> kParameters[] = {
    {"alpha_ns", &Model::alpha_ns},
    {"link_bytes_per_ns", &Model::link_bytes_per_ns},
    {"link_write_bytes_per_ns", &Model::link_write_bytes_per_ns},
    {"ingress_bytes_per_ns", &Model::ingress_bytes_per_ns},
    {"local_load_bytes_per_ns", &Model::local_load_bytes_per_ns},
    {"local_store_bytes_per_ns", &Model::local_store_bytes_per_ns},
    {"core_pull_bytes_per_ns", &Model::core_pull_bytes_per_ns},
    {"core_push_bytes_per_ns", &Model::core_push_bytes_per_ns},
    {"sdma_launch_ns", &Model::sdma_launch_ns},
    {"sdma_bytes_per_ns", &Model::sdma_bytes_per_ns},
    {"combine_bytes_per_ns", &Model::combine_bytes_per_ns},
    {"issue_ns", &Model::issue_ns},
    {"cube_cycles_per_ns", &Model::cube_cycles_per_ns},
    {"l1_load_bytes_per_ns", &Model::l1_load_bytes_per_ns},
    {"l0a_bytes_per_ns", &Model::l0a_bytes_per_ns},
    {"l0b_bytes_per_ns", &Model::l0b_bytes_per_ns},
    {"fixpipe_bytes_per_ns", &Model::fixpipe_bytes_per_ns},
};

std::string json_string(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out + "\"";
}

} // namespace

bool parse_model(const std::vector<std::string> &words, Model &model,
                 std::string &error) {
  for (const std::string &word : words) {
    size_t eq = word.find('=');
    std::string key = word.substr(0, eq);
    auto found = std::find_if(std::begin(kParameters), std::end(kParameters),
                              [&](const auto &k) { return key == k.first; });
    char *end = nullptr;
    double value =
        eq == std::string::npos ? -1 : std::strtod(word.c_str() + eq + 1, &end);
    bool rate =
        key.size() > 7 && key.compare(key.size() - 7, 7, "_per_ns") == 0;
    if (found == std::end(kParameters) || !end || *end != '\0' ||
        !(value >= 0) || (rate && value == 0)) {
      error = "`timing` takes KEY=VALUE model parameters; `" + word +
              "` is not one";
      return false;
    }
    model.*(found->second) = value;
  }
  return true;
}

bool enabled() { return g_enabled; }

void enable(const Model &model, int32_t ranks) {
  g_enabled = true;
  g_model = model;
  g_ranks = ranks;
  size_t links = static_cast<size_t>(ranks) * static_cast<size_t>(ranks);
  g_link_free.assign(links, 0);
  g_link_bytes.assign(links, 0);
  g_ingress_free.assign(static_cast<size_t>(ranks), 0);
  g_rank_end.assign(static_cast<size_t>(ranks), 0);
}

const Model &model() { return g_model; }

double now() { return g_enabled ? t_clocks.now : 0; }

void start(double at, const std::string &parent) {
  t_clocks = Clocks{at, at, at, at, at, at, at, at, {}};
  if (!parent.empty())
    g_parents[describe(self().id)].push_back({parent, at});
}

double finish() {
  double end = std::max(t_clocks.now, t_clocks.pending);
  t_clocks.now = end;
  int32_t rank = self().id.rank;
  if (rank >= 0 && rank < g_ranks)
    g_rank_end[static_cast<size_t>(rank)] =
        std::max(g_rank_end[static_cast<size_t>(rank)], end);
  int32_t id = sched::self_id();
  if (id >= 0) {
    if (g_ends.size() <= static_cast<size_t>(id))
      g_ends.resize(static_cast<size_t>(id) + 1, 0);
    g_ends[static_cast<size_t>(id)] = end;
    g_names[id] = describe(self().id);
  }
  if (end >= g_last_end) {
    g_last_end = end;
    g_last_thread = describe(self().id);
  }
  return end;
}

double end_of(int32_t sched_id) {
  return static_cast<size_t>(sched_id) < g_ends.size()
             ? g_ends[static_cast<size_t>(sched_id)]
             : 0;
}

void advance_to(double at) { t_clocks.now = std::max(t_clocks.now, at); }

namespace {

/// When a transfer on `tile` may start, once issued: a load when the tile's
/// earlier writer and readers are done, a store when its writer is.
double tile_allows(const void *tile, bool load) {
  const TileTimes &times = t_clocks.tiles[tile];
  return load ? std::max({t_clocks.now, times.ready, times.free})
              : std::max(t_clocks.now, times.ready);
}

} // namespace

double transfer_start(const void *tile, bool load) {
  Clocks &c = t_clocks;
  double now = c.now;
  c.now += g_model.issue_ns;
  double start = std::max(tile_allows(tile, load), load ? c.loads : c.stores);
  c.now = now;
  return start;
}

Interval load(const void *tile, uint64_t bytes, Route route) {
  issue();
  Interval run = transfer(tile, tile_allows(tile, true), bytes, route, false);
  TileTimes &times = t_clocks.tiles[tile];
  times.ready = run.end;
  done_at(run.end);
  return run;
}

Interval store(const void *tile, uint64_t bytes, Route route) {
  issue();
  Interval run = transfer(tile, tile_allows(tile, false), bytes, route, true);
  TileTimes &times = t_clocks.tiles[tile];
  times.free = std::max(times.free, run.end);
  done_at(run.end);
  return run;
}

Interval sdma(uint64_t bytes, Route route, bool push) {
  issue();
  double start = std::max(t_clocks.now, t_clocks.sdma);
  auto b = static_cast<double>(bytes);
  double moving = start + g_model.sdma_launch_ns;
  double end = moving + b / g_model.sdma_bytes_per_ns;
  if (route.remote)
    end = std::max(end, cross(moving, b, route, push));
  t_clocks.sdma = end;
  done_at(end);
  return {start, end};
}

namespace {

/// Issues an op that runs for `duration` on `unit` (the vector or cube
/// unit, an engine) once the unit is free, its sources are ready and
/// `dst`'s earlier readers and writer are done; its sources are free and
/// `dst` ready when it ends.
Interval occupy(double &unit, const void *dst,
                std::initializer_list<const void *> sources, double duration) {
  issue();
  double start = std::max(t_clocks.now, unit);
  for (const void *source : sources)
    start = std::max(start, t_clocks.tiles[source].ready);
  TileTimes &out = t_clocks.tiles[dst];
  start = std::max({start, out.ready, out.free});
  double end = start + duration;
  unit = end;
  for (const void *source : sources)
    t_clocks.tiles[source].free = std::max(t_clocks.tiles[source].free, end);
  out.ready = end;
  done_at(end);
  return {start, end};
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace

Interval math(const void *dst, std::initializer_list<const void *> sources,
              uint64_t bytes) {
  return occupy(t_clocks.vector, dst, sources,
                static_cast<double>(bytes) / g_model.combine_bytes_per_ns);
}

Interval extract(const void *dst, const void *src, uint64_t bytes, bool left) {
  double rate = left ? g_model.l0a_bytes_per_ns : g_model.l0b_bytes_per_ns;
  return occupy(t_clocks.mte1, dst, {src}, static_cast<double>(bytes) / rate);
}

Interval matmul(const void *dst, std::initializer_list<const void *> sources,
                int64_t m, int64_t k, int64_t n, int64_t a_bytes,
                bool a_float) {
  // A repeat per 16 x (32 bytes of k) x 16 block, two for f32 inputs.
  int64_t repeats =
      ceil_div(m, 16) * ceil_div(k, 32 / a_bytes) * ceil_div(n, 16);
  int64_t cycles = kMadHeadCycles + repeats * (a_float ? 2 : 1);
  return occupy(t_clocks.cube, dst, sources,
                static_cast<double>(cycles) / g_model.cube_cycles_per_ns);
}

void scalar(bool remote) {
  issue();
  if (remote)
    t_clocks.now += g_model.alpha_ns;
}

void release() { t_clocks.now = std::max(t_clocks.now, t_clocks.pending); }

double notified(const int32_t *cell, int32_t value, bool remote, bool set,
                const char *site) {
  issue();
  double at = t_clocks.now + (remote ? g_model.alpha_ns : 0);
  g_cells[cell].push_back(
      {at, value, describe(self().id), site, t_clocks.now, set});
  return at;
}

size_t seen(const int32_t *cell) {
  auto it = g_cells.find(cell);
  // The value the thread sees now is the last one written (or the
  // initial one, position 0 of an empty log).
  return it == g_cells.end() || it->second.empty() ? 0 : it->second.size() - 1;
}

namespace {

/// The arrival that completed the first value at or after position `from`
/// that satisfies the comparison (arrivals.h): a value is there only once
/// every notify it sums up has arrived, so a remote add issued before a
/// local one holds back the value after both until its hop is over. Null
/// when the cell's initial value (never written) satisfies it.
const Arrival *satisfying(const int32_t *cell, size_t from,
                          bool (*holds)(int32_t, int32_t), int32_t expected,
                          bool &found) {
  auto it = g_cells.find(cell);
  if (it == g_cells.end() || it->second.empty()) {
    found = holds(*cell, expected);
    return nullptr;
  }
  return sim::satisfying(it->second, from, holds, expected, found);
}

} // namespace

double satisfied_at(const int32_t *cell, size_t from,
                    bool (*holds)(int32_t, int32_t), int32_t expected) {
  bool found = false;
  const Arrival *arrival = satisfying(cell, from, holds, expected, found);
  if (!found)
    return kNever;
  return arrival ? arrival->at : 0;
}

void stalled(const int32_t *cell, size_t from, bool (*holds)(int32_t, int32_t),
             int32_t expected, const char *site, double began, double at) {
  bool found = false;
  const Arrival *cause = satisfying(cell, from, holds, expected, found);
  if (cause && at > began)
    g_stalls[describe(self().id)].push_back({site, began, at, *cause});
}

void waited(const int32_t *cell, size_t from, bool (*holds)(int32_t, int32_t),
            int32_t expected, const char *site, double at) {
  double began = t_clocks.now;
  advance_to(at);
  stalled(cell, from, holds, expected, site, began, at);
}

const char *const kJoin = "join";

void waited_for_thread(const std::string &thread, const char *what,
                       double began, double at) {
  if (at > began)
    g_stalls[describe(self().id)].push_back(
        {what, began, at, Arrival{at, 0, thread, "its end", at, false}});
}

std::string name_of(int32_t sched_id) {
  auto it = g_names.find(sched_id);
  return it == g_names.end() ? std::string() : it->second;
}

double rank_ns(int32_t rank) {
  return rank >= 0 && rank < g_ranks ? g_rank_end[static_cast<size_t>(rank)]
                                     : 0;
}

void write_json(std::ostream &out, const Model &m) {
  out << "\"model\": {";
  const char *separator = "";
  for (const auto &[name, field] : kParameters) {
    out << separator << "\"" << name << "\": " << m.*field;
    separator = ", ";
  }
  out << "},\n\"modelled_ns\": " << g_last_end << ",\n\"links\": [";
  bool first = true;
  for (int32_t from = 0; from < g_ranks; ++from)
    for (int32_t to = 0; to < g_ranks; ++to) {
      uint64_t bytes = g_link_bytes[static_cast<size_t>(from) * g_ranks + to];
      if (!bytes)
        continue;
      out << (first ? "" : ", ") << "{\"from\": " << from << ", \"to\": " << to
          << ", \"bytes\": " << bytes << "}";
      first = false;
    }
  // The critical path, backwards from the thread that ended last: the
  // latest wait that held it up, then the thread whose notify released
  // that wait, from the moment it notified. A join leads on to the thread
  // it waited for, and a thread that nothing held up to the thread that
  // started it, from then, without steps of their own.
  out << "],\n\"critical_path\": [";
  std::string thread = g_last_thread;
  double until = g_last_end;
  first = true;
  std::set<std::pair<std::string, double>> visited;
  for (int shown = 0; shown < 64 && visited.insert({thread, until}).second;) {
    const Stall *latest = nullptr;
    if (auto it = g_stalls.find(thread); it != g_stalls.end())
      for (const Stall &stall : it->second)
        if (stall.at <= until && (!latest || stall.at > latest->at))
          latest = &stall;
    if (!latest) {
      // Threads of one name (a rank's kernel launches) started one after
      // the other: the one running at `until` started last before it.
      const Start *start = nullptr;
      if (auto it = g_parents.find(thread); it != g_parents.end())
        for (const Start &s : it->second)
          if (s.at <= until && (!start || s.at >= start->at))
            start = &s;
      if (!start)
        break;
      thread = start->parent;
      until = start->at;
      continue;
    }
    if (latest->site != kJoin) {
      out << (first ? "" : ",\n  ") << "{\"thread\": " << json_string(thread)
          << ", \"site\": " << json_string(latest->site ? latest->site : "")
          << ", \"from_ns\": " << latest->from
          << ", \"until_ns\": " << latest->at
          << ", \"released_by\": " << json_string(latest->cause.thread)
          << ", \"release_site\": "
          << json_string(latest->cause.site ? latest->cause.site : "") << "}";
      first = false;
      ++shown;
    }
    thread = latest->cause.thread;
    until = latest->cause.sent;
  }
  out << "]";
}

} // namespace pld::sim::timing
