//===- events.cpp - A trace of what every thread did ----------------------===//

#include "events.h"

#include "arrivals.h"

#include "report.h"
#include "tasks.h"
#include "thread.h"
#include "timing.h"
#include "world.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace pld::sim::events {
namespace {

bool g_enabled = false;
std::string g_path;
std::chrono::steady_clock::time_point g_start;

std::mutex g_lock;
std::vector<std::string> g_events;
/// Where the latest slice so far ends: where a deadlock's `blocked` slices
/// end.
double g_latest = 0;
std::atomic<int32_t> g_next_track{1};
uint64_t g_next_flow = 1;

/// One value a cell had, and where its notify stands in the trace (the
/// arrow starts at `issued`); arrivals.h reads `value`, `set` and `at`.
struct Written {
  int32_t value;
  bool set;
  int32_t rank, track;
  double issued, at;
};
std::unordered_map<const int32_t *, std::vector<Written>> g_cells;

/// The calling thread's tracks: the first is its own, the others carry
/// the slices that overlap earlier ones (transfers in flight together);
/// `ends` is when each track's last slice ends.
struct Tracks {
  int32_t first = 0;
  std::vector<double> ends;
};
constexpr size_t kTracks = 16;
thread_local Tracks t_tracks;

std::string quoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out + "\"";
}

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

/// Microseconds, the trace format's unit.
std::string us(double ns) { return number(ns / 1000.0); }

void emit(std::string event, double end = 0) {
  std::lock_guard<std::mutex> guard(g_lock);
  g_events.push_back(std::move(event));
  g_latest = std::max(g_latest, end);
}

int32_t rank() { return self().id.rank; }

void name_track(int32_t track, const std::string &name) {
  emit("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " +
       std::to_string(rank()) + ", \"tid\": " + std::to_string(track) +
       ", \"args\": {\"name\": " + quoted(name) + "}}");
}

/// The track of a slice from `begin` to `end` on the calling thread: its
/// own for what the thread itself does in order (waits, notifies); for
/// what runs beside it (transfers, tile math), the first of its other
/// tracks that is free by `begin`.
int32_t track_for(double begin, double end, bool beside) {
  Tracks &tracks = t_tracks;
  if (tracks.ends.empty()) {
    tracks.first = g_next_track.fetch_add(kTracks, std::memory_order_relaxed);
    name_track(tracks.first, describe(self().id));
    tracks.ends.push_back(0);
    if (Slot *slot = self().slot)
      slot->trace_track.store(tracks.first, std::memory_order_relaxed);
  }
  size_t i = 0;
  if (beside) {
    i = 1;
    while (i < tracks.ends.size() && tracks.ends[i] > begin)
      ++i;
    if (i == kTracks)
      i = kTracks - 1;
    if (i == tracks.ends.size()) {
      name_track(tracks.first + static_cast<int32_t>(i),
                 describe(self().id) + " engines " + std::to_string(i));
      tracks.ends.push_back(0);
    }
  }
  tracks.ends[i] = std::max(tracks.ends[i], end);
  return tracks.first + static_cast<int32_t>(i);
}

/// A slice on track `track` of rank `pid`'s process.
std::string slice_event(int32_t pid, const char *name, const char *category,
                        int32_t track, double begin, double end,
                        const char *site, const std::string &args) {
  std::string members = args;
  if (site)
    members +=
        std::string(members.empty() ? "" : ", ") + "\"op\": " + quoted(site);
  return "{\"ph\": \"X\", \"name\": " + quoted(name) +
         ", \"cat\": " + quoted(category) +
         ", \"pid\": " + std::to_string(pid) +
         ", \"tid\": " + std::to_string(track) + ", \"ts\": " + us(begin) +
         ", \"dur\": " + us(std::max(end - begin, 1.0)) + ", \"args\": {" +
         members + "}}";
}

} // namespace

bool enabled() { return g_enabled; }

void enable(const std::string &path) {
  g_enabled = true;
  g_path = path;
  g_start = std::chrono::steady_clock::now();
}

double now() {
  if (timing::enabled())
    return timing::now();
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - g_start)
          .count());
}

void begin_run() { g_start = std::chrono::steady_clock::now(); }

void slice(const char *name, const char *category, double begin, double end,
           const char *site, const std::string &args) {
  emit(slice_event(rank(), name, category, track_for(begin, end, true), begin,
                   end, site, args),
       end);
}

void lifetime(double began) {
  const Identity &id = self().id;
  std::string name;
  switch (id.role) {
  case Role::Host:
    name = "host";
    break;
  case Role::Runner:
    name = id.task ? "task \"" + std::string(id.task->name) + "\"" : "task";
    break;
  case Role::Kernel:
    name = id.core == rt::Core::AIC ? "aic" : "lane " + std::to_string(id.lane);
    break;
  }
  double end = std::max(now(), began + 1);
  emit(slice_event(rank(), name.c_str(), "thread", track_for(began, end, false),
                   began, end, nullptr, "\"thread\": " + quoted(describe(id))),
       end);
}

void blocking() {
  Slot *slot = self().slot;
  if (!slot)
    return;
  double at = now();
  track_for(at, at, false);
  slot->blocked_at.store(at, std::memory_order_relaxed);
}

void blocked(const Slot &slot, const std::string &on) {
  int32_t track = slot.trace_track.load(std::memory_order_relaxed);
  if (track == 0)
    return;
  // The report's lines, as one.
  std::string what;
  for (char c : on)
    what += c == '\n' ? std::string("; ") : std::string(1, c);
  double begin = slot.blocked_at.load(std::memory_order_relaxed);
  // Threads still running (a timeout) may be emitting.
  std::lock_guard<std::mutex> guard(g_lock);
  double end = std::max(g_latest, begin + 1);
  g_events.push_back(slice_event(slot.id.rank, "blocked", "blocked", track,
                                 begin, end, nullptr,
                                 "\"on\": " + quoted(what)));
}

void notified(const int32_t *cell, int32_t value, bool set, const char *site,
              std::optional<double> arrives) {
  double at = now();
  int32_t track = track_for(at, at + 1, false);
  emit(slice_event(rank(), "notify", "signal", track, at, at + 1, site,
                   "\"value after\": " + std::to_string(value)),
       at + 1);
  std::lock_guard<std::mutex> guard(g_lock);
  g_cells[cell].push_back(
      {value, set, rank(), track, at, arrives.value_or(at)});
}

size_t seen(const int32_t *cell) {
  std::lock_guard<std::mutex> guard(g_lock);
  auto it = g_cells.find(cell);
  return it == g_cells.end() || it->second.empty() ? 0 : it->second.size() - 1;
}

void waited(const char *name, const int32_t *cell, size_t from,
            bool (*holds)(int32_t, int32_t), int32_t expected, const char *site,
            const std::string &what, double begin, double end) {
  int32_t track = track_for(begin, end, false);
  emit(slice_event(rank(), name, "signal", track, begin, end, site, what), end);
  std::lock_guard<std::mutex> guard(g_lock);
  auto it = g_cells.find(cell);
  if (it == g_cells.end())
    return;
  // The notify the critical path names too (arrivals.h).
  bool found = false;
  const Written *w = satisfying(it->second, from, holds, expected, found);
  if (!w)
    return;
  // A flow per (notify, wait): one notify may release several waits.
  std::string id = std::to_string(g_next_flow++);
  g_events.push_back("{\"ph\": \"s\", \"name\": \"released\", \"cat\": "
                     "\"signal\", \"id\": " +
                     id + ", \"pid\": " + std::to_string(w->rank) +
                     ", \"tid\": " + std::to_string(w->track) +
                     ", \"ts\": " + us(w->issued) + "}");
  g_events.push_back("{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"released\", "
                     "\"cat\": \"signal\", \"id\": " +
                     id + ", \"pid\": " + std::to_string(rank()) +
                     ", \"tid\": " + std::to_string(track) +
                     ", \"ts\": " + us(end) + "}");
}

void write() {
  // A run stopped by a report may have a thread inside `emit`: wait for it
  // a little, never forever.
  std::unique_lock<std::mutex> guard(g_lock, std::defer_lock);
  for (int attempt = 0; attempt < 100 && !guard.try_lock(); ++attempt)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!guard.owns_lock())
    return;
  for (int32_t r = 0; r < world().nranks; ++r)
    g_events.push_back("{\"ph\": \"M\", \"name\": \"process_name\", "
                       "\"pid\": " +
                       std::to_string(r) + ", \"args\": {\"name\": \"rank " +
                       std::to_string(r) + "\"}}");
  std::ofstream out(g_path);
  out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  for (size_t i = 0; i < g_events.size(); ++i)
    out << g_events[i] << (i + 1 < g_events.size() ? ",\n" : "\n");
  out << "]}\n";
}

} // namespace pld::sim::events
