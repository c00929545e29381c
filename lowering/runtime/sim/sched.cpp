//===- sched.cpp - The simulator deciding every interleaving --------------===//

#include "sched.h"

#include "monitor.h"
#include "report.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <set>

namespace pld::sim::sched {
namespace {

enum class Strategy { Replay, Pct, Time };

struct Thread {
  bool finished = false;
  /// Parked at a scheduling point, with what it will do next.
  bool parked = true;
  const char *what = "start";
  std::vector<Object> objects;
  std::function<bool()> ready;
  int64_t priority = 0;
  /// The `time` strategy's key: the clock when it parked, or `when`.
  double time = 0;
  When when;
};

bool g_enabled = false;
double (*g_now)() = nullptr;
Strategy g_strategy = Strategy::Replay;
std::vector<int32_t> g_replay;
/// Threads asleep once the replayed choices end (`--explore`'s sleep
/// set): each stays out of the choice until a thread runs an operation
/// that conflicts with its pending one, since running it first would only
/// repeat an order already explored.
std::set<int32_t> g_asleep;
std::mt19937_64 g_random;
int32_t g_depth = 3;
std::set<int64_t> g_change_points;
int64_t g_next_low_priority = 0;

std::mutex g_lock;
std::condition_variable g_turn;
std::vector<Thread> g_threads;
int32_t g_current = -1;
std::vector<int32_t> g_choices;
FILE *g_trace = nullptr;
thread_local int32_t t_id = -1;

bool can_run(const Thread &thread) {
  return thread.parked && !thread.finished && (!thread.ready || thread.ready());
}

void trace_state(int32_t chosen) {
  if (!g_trace)
    return;
  std::fprintf(g_trace, "step %zu chose %d\n", g_choices.size() - 1, chosen);
  for (size_t id = 0; id < g_threads.size(); ++id) {
    const Thread &thread = g_threads[id];
    if (thread.finished || !thread.parked)
      continue;
    std::fprintf(g_trace, "thread %zu %d %s %zu", id, can_run(thread) ? 1 : 0,
                 thread.what, thread.objects.size());
    for (const Object &object : thread.objects)
      std::fprintf(g_trace, " %llx:%c",
                   static_cast<unsigned long long>(object.id),
                   object.write    ? 'w'
                   : object.awaits ? 'a'
                                   : 'r');
    std::fprintf(g_trace, "\n");
  }
  std::fflush(g_trace);
}

[[noreturn]] void deadlock() {
  stop_run(kExitDeadlock,
           "pld-run: deadlock: no thread can go on (every unfinished thread "
           "waits)\n" +
               thread_listing());
}

int32_t pick(const std::vector<int32_t> &runnable) {
  size_t step = g_choices.size();
  if (g_strategy == Strategy::Replay) {
    if (step < g_replay.size()) {
      int32_t wanted = g_replay[step];
      if (std::find(runnable.begin(), runnable.end(), wanted) ==
          runnable.end()) {
        std::fprintf(stderr,
                     "pld-run: schedule: choice %zu is thread %d, which "
                     "cannot run there (schedule so far: %s)\n",
                     step, wanted, choices().c_str());
        std::fflush(stderr);
        std::_Exit(kExitUsage);
      }
      return wanted;
    }
    for (int32_t id : runnable)
      if (!g_asleep.count(id))
        return id;
    // Every thread that can run sleeps: every way on repeats an explored
    // order, so the run ends here.
    if (g_trace) {
      std::fprintf(g_trace, "asleep\n");
      std::fflush(g_trace);
    }
    std::_Exit(0);
  }
  if (g_strategy == Strategy::Time) {
    // Earliest in modelled time; `runnable` is in id order, so the first
    // of equal times is the lowest id.
    auto key = [](int32_t id) {
      const Thread &thread = g_threads[id];
      return thread.when ? thread.when() : thread.time;
    };
    int32_t chosen = runnable.front();
    double best = key(chosen);
    for (int32_t id : runnable) {
      double time = key(id);
      if (time < best) {
        best = time;
        chosen = id;
      }
    }
    return chosen;
  }
  auto highest = [&] {
    return *std::max_element(
        runnable.begin(), runnable.end(), [](int32_t a, int32_t b) {
          return g_threads[a].priority < g_threads[b].priority;
        });
  };
  int32_t chosen = highest();
  if (g_change_points.count(static_cast<int64_t>(step))) {
    // A change point: the thread about to run drops below every initial
    // priority, in the order the change points come.
    g_threads[chosen].priority = g_next_low_priority++;
    chosen = highest();
  }
  return chosen;
}

bool conflict(const std::vector<Object> &a, const std::vector<Object> &b) {
  for (const Object &x : a)
    for (const Object &y : b)
      if (x.id == y.id && (x.write || y.write))
        return true;
  return false;
}

/// Wakes the sleeping threads whose pending operation conflicts with the
/// one `chosen` is about to run.
void wake_conflicting(int32_t chosen) {
  for (auto it = g_asleep.begin(); it != g_asleep.end();) {
    if (conflict(g_threads[*it].objects, g_threads[chosen].objects))
      it = g_asleep.erase(it);
    else
      ++it;
  }
}

/// Chooses who runs next and wakes it. Requires g_lock.
void choose() {
  std::vector<int32_t> runnable;
  bool unfinished = false;
  for (size_t id = 0; id < g_threads.size(); ++id) {
    unfinished |= !g_threads[id].finished;
    if (can_run(g_threads[id]))
      runnable.push_back(static_cast<int32_t>(id));
  }
  if (runnable.empty()) {
    g_current = -1;
    if (unfinished)
      deadlock();
    g_turn.notify_all();
    return;
  }
  int32_t chosen = pick(runnable);
  if (g_choices.size() >= g_replay.size())
    wake_conflicting(chosen);
  g_choices.push_back(chosen);
  trace_state(chosen);
  g_current = chosen;
  g_turn.notify_all();
}

/// Parks the calling thread at a point and waits for its turn.
void park(const char *what, std::vector<Object> objects,
          std::function<bool()> ready, When when = {}) {
  double time = g_now ? g_now() : 0;
  std::unique_lock<std::mutex> lock(g_lock);
  Thread &me = g_threads[static_cast<size_t>(t_id)];
  me.parked = true;
  me.what = what;
  me.objects = std::move(objects);
  me.ready = std::move(ready);
  me.time = time;
  me.when = std::move(when);
  choose();
  g_turn.wait(lock, [] { return g_current == t_id; });
  g_threads[static_cast<size_t>(t_id)].parked = false;
}

bool parse_int(const std::string &text, int64_t &value) {
  char *end = nullptr;
  value = std::strtoll(text.c_str(), &end, 10);
  return !text.empty() && *end == '\0';
}

/// A comma-separated list of thread ids.
bool parse_ids(const std::string &list, std::vector<int32_t> &ids,
               std::string &error) {
  size_t at = 0;
  while (at < list.size()) {
    size_t comma = list.find(',', at);
    std::string item = list.substr(at, comma - at);
    int64_t id = 0;
    if (!parse_int(item, id) || id < 0 || id > INT32_MAX) {
      error = "`schedule replay`: `" + item + "` is not a thread id";
      return false;
    }
    ids.push_back(static_cast<int32_t>(id));
    at = comma == std::string::npos ? list.size() : comma + 1;
  }
  return true;
}

} // namespace

bool enabled() { return g_enabled; }

bool configure(const std::vector<std::string> &words, std::string &error) {
  if (words.size() >= 2 && words[1] == "replay") {
    if (words.size() > 4 ||
        (words.size() == 4 && words[3].rfind("asleep=", 0) != 0)) {
      error = "`schedule replay` takes a comma-separated list of choices "
              "and, after it, `asleep=IDS`";
      return false;
    }
    std::vector<int32_t> asleep;
    if (!parse_ids(words.size() >= 3 && words[2].rfind("asleep=", 0) != 0
                       ? words[2]
                       : "",
                   g_replay, error) ||
        !parse_ids(words.size() == 4 ? words[3].substr(7) : "", asleep, error))
      return false;
    g_asleep.insert(asleep.begin(), asleep.end());
    g_strategy = Strategy::Replay;
  } else if (words.size() == 4 && words[1] == "pct") {
    int64_t seed = 0, depth = 0;
    if (!parse_int(words[2], seed) || !parse_int(words[3], depth) ||
        depth < 1) {
      error = "`schedule pct` takes a seed and a depth >= 1";
      return false;
    }
    g_strategy = Strategy::Pct;
    g_random.seed(static_cast<uint64_t>(seed));
    g_depth = static_cast<int32_t>(depth);
    // Change points among the first steps (the runs explored here take a
    // few hundred to a few thousand).
    constexpr int64_t kSteps = 2000;
    std::uniform_int_distribution<int64_t> step(1, kSteps);
    while (static_cast<int32_t>(g_change_points.size()) < g_depth - 1)
      g_change_points.insert(step(g_random));
  } else if (words.size() == 2 && words[1] == "time") {
    g_strategy = Strategy::Time;
  } else {
    error = "`schedule` is `replay CHOICES`, `pct SEED DEPTH` or `time`";
    return false;
  }
  g_enabled = true;
  return true;
}

bool set_trace(const std::string &path) {
  g_trace = std::fopen(path.c_str(), "w");
  return g_trace != nullptr;
}

std::vector<Object> cell(const void *address, bool write) {
  return {{reinterpret_cast<uint64_t>(address), write}};
}
Object finished_thread(int32_t thread) {
  return {(uint64_t{1} << 62) | static_cast<uint32_t>(thread), true};
}
Object finished_task(const void *task) {
  return {(uint64_t{2} << 62) ^ reinterpret_cast<uint64_t>(task), true};
}
Object awaited_thread(int32_t thread) {
  return {finished_thread(thread).id, false, true};
}
Object awaited_task(const void *task) {
  return {finished_task(task).id, false, true};
}

void set_time_source(double (*now)()) { g_now = now; }

int32_t reserve() {
  double time = g_now ? g_now() : 0;
  std::lock_guard<std::mutex> guard(g_lock);
  Thread thread;
  thread.time = time;
  if (g_strategy == Strategy::Pct)
    thread.priority = g_depth + static_cast<int64_t>(g_random() >> 16);
  g_threads.push_back(std::move(thread));
  int32_t id = static_cast<int32_t>(g_threads.size()) - 1;
  // The creator's events so far happen before everything the new thread
  // does (-1: the harness, before the first choice).
  if (g_trace)
    std::fprintf(g_trace, "create %d by %d\n", id, t_id);
  return id;
}

void enter(int32_t id) {
  t_id = id;
  std::unique_lock<std::mutex> lock(g_lock);
  g_turn.wait(lock, [id] { return g_current == id; });
  g_threads[static_cast<size_t>(id)].parked = false;
}

void leave() {
  // Ending is a step of its own: it completes what joins wait for.
  park("end", {finished_thread(t_id)}, nullptr);
  std::lock_guard<std::mutex> guard(g_lock);
  g_threads[static_cast<size_t>(t_id)].finished = true;
  choose();
}

int32_t self_id() { return t_id; }

bool finished(int32_t id) {
  return g_threads[static_cast<size_t>(id)].finished;
}

void point(const char *what, std::vector<Object> objects) {
  park(what, std::move(objects), nullptr);
}

void wait_until(const char *what, std::vector<Object> objects,
                const std::function<bool()> &ready, When when) {
  park(what, std::move(objects), ready, std::move(when));
}

void begin() {
  std::lock_guard<std::mutex> guard(g_lock);
  choose();
}

std::string choices() {
  std::string text;
  for (int32_t choice : g_choices)
    text += (text.empty() ? "" : ",") + std::to_string(choice);
  return text;
}

} // namespace pld::sim::sched
