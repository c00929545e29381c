//===- run.cpp - Running an entry function on N simulated ranks -----------===//

#include "run.h"

#include "events.h"
#include "job.h"
#include "monitor.h"
#include "race.h"
#include "report.h"
#include "sched.h"
#include "tasks.h"
#include "thread.h"
#include "timing.h"
#include "world.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/mman.h>

namespace pld::sim {
namespace {

[[noreturn]] void usage_error(const std::string &message) {
  std::fprintf(stderr, "pld-run: %s\n", message.c_str());
  std::exit(kExitUsage);
}

uint64_t round_up(uint64_t value, uint64_t to) {
  return (value + to - 1) / to * to;
}

std::vector<uint8_t> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    usage_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Where every argument of every rank lives, plus the harness-side values.
struct Machine {
  std::vector<uint64_t> window_offset; ///< Per argument; windows only.
  std::vector<rt::CommContext> contexts;
  std::vector<std::vector<uint8_t *>> data; ///< [rank][arg]; null: scalar.
  std::vector<std::vector<rt::Arg>> args;   ///< [rank][arg]
};

void lay_out(const Job &job, Machine &m) {
  uint64_t offset = 0;
  for (const JobArg &arg : job.args) {
    m.window_offset.push_back(offset);
    if (arg.kind == ArgKind::Window)
      offset += round_up(std::max<uint64_t>(arg.bytes, 1), 4096);
  }
  uint64_t heap_offset = offset;
  uint64_t win_size = offset + round_up(job.window_heap, 4096);
  win_size = std::max<uint64_t>(win_size, 4096);
  uint64_t total = win_size * static_cast<uint64_t>(job.ranks);
  if (total > (uint64_t{1} << 40))
    usage_error("the windows need " + std::to_string(total) + " bytes");
  // Anonymous pages read as zero and cost nothing until touched.
  void *windows = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (windows == MAP_FAILED)
    usage_error("cannot map " + std::to_string(total) + " bytes of windows");

  World &w = world();
  w.nranks = job.ranks;
  w.windows = static_cast<uint8_t *>(windows);
  w.win_size = win_size;
  w.ranks = std::make_unique<RankState[]>(static_cast<size_t>(job.ranks));
  m.contexts.assign(static_cast<size_t>(job.ranks), rt::CommContext{});
  m.data.assign(static_cast<size_t>(job.ranks), {});
  m.args.assign(static_cast<size_t>(job.ranks), {});
  for (int32_t r = 0; r < job.ranks; ++r) {
    rt::CommContext &ctx = m.contexts[r];
    ctx.rankId = static_cast<uint32_t>(r);
    ctx.rankNum = static_cast<uint32_t>(job.ranks);
    ctx.winSize = win_size;
    for (int32_t q = 0; q < job.ranks; ++q) {
      ctx.windowsIn[q] = reinterpret_cast<uint64_t>(w.windows) + q * win_size;
      ctx.windowsOut[q] = ctx.windowsIn[q];
    }
    RankState &rank = w.ranks[r];
    rank.ctx = &ctx;
    rank.heap_next.store(heap_offset);
    rank.heap_end = win_size;
    for (size_t i = 0; i < job.args.size(); ++i) {
      const JobArg &arg = job.args[i];
      uint8_t *data = nullptr;
      if (arg.kind == ArgKind::Window) {
        data = w.windows + r * win_size + m.window_offset[i];
      } else if (arg.kind == ArgKind::Global) {
        // Padded to 64 bytes so that a 16-bit atomic add's 32-bit
        // compare-and-swap stays inside the allocation.
        size_t size = round_up(std::max<uint64_t>(arg.bytes, 1), 64);
        data = static_cast<uint8_t *>(std::aligned_alloc(64, size));
        std::memset(data, 0, size);
        auto begin = reinterpret_cast<uintptr_t>(data);
        w.globals.push_back(
            {begin, begin + arg.bytes, r, static_cast<int32_t>(i)});
      }
      rt::Arg value{};
      value.ptr = data;
      std::copy(arg.dims.begin(), arg.dims.end(), value.dims);
      m.data[r].push_back(data);
      m.args[r].push_back(value);
    }
  }
}

void read_input(const Job &job, Machine &m) {
  std::vector<uint8_t> bytes = read_file(job.input);
  uint64_t expected = 0;
  for (const JobArg &arg : job.args)
    expected += arg.bytes;
  expected *= static_cast<uint64_t>(job.ranks);
  if (bytes.size() != expected)
    usage_error(job.input + " has " + std::to_string(bytes.size()) +
                " bytes; the job's arguments need " + std::to_string(expected));
  const uint8_t *at = bytes.data();
  for (int32_t r = 0; r < job.ranks; ++r) {
    for (size_t i = 0; i < job.args.size(); ++i) {
      const JobArg &arg = job.args[i];
      if (arg.kind != ArgKind::Scalar) {
        std::memcpy(m.data[r][i], at, arg.bytes);
      } else if (arg.is_float) {
        std::memcpy(&m.args[r][i].f, at, 8);
      } else {
        std::memcpy(&m.args[r][i].i, at, 8);
      }
      at += arg.bytes;
    }
  }
}

void write_output(const Job &job, const Machine &m) {
  std::ofstream out(job.output, std::ios::binary);
  for (int32_t r = 0; r < job.ranks; ++r)
    for (size_t i = 0; i < job.args.size(); ++i)
      if (job.args[i].kind != ArgKind::Scalar)
        out.write(reinterpret_cast<const char *>(m.data[r][i]),
                  static_cast<std::streamsize>(job.args[i].bytes));
  if (!out.flush())
    usage_error("cannot write " + job.output);
}

void write_stats(const Job &job) {
  std::ofstream out(job.stats);
  out << "{\"ranks\": [";
  for (int32_t r = 0; r < job.ranks; ++r) {
    const Stats &s = rank_state(r).stats;
    out << (r ? ",\n  " : "\n  ") << "{\"rank\": " << r
        << ", \"remote_load_bytes\": " << s.remote_load_bytes
        << ", \"remote_store_bytes\": " << s.remote_store_bytes
        << ", \"put_bytes\": " << s.put_bytes
        << ", \"get_bytes\": " << s.get_bytes
        << ", \"notifies\": " << s.notifies << ", \"waits\": " << s.waits
        << ", \"wait_ns\": " << s.wait_ns;
    if (timing::enabled())
      out << ", \"modelled_ns\": " << timing::rank_ns(r);
    out << "}";
  }
  out << "\n]";
  if (timing::enabled()) {
    out << ",\n";
    timing::write_json(out, timing::model());
  }
  out << "}\n";
  if (!out.flush())
    usage_error("cannot write " + job.stats);
}

} // namespace

int run_main(int argc, char **argv, EntryFn entry) {
  if (argc != 2)
    usage_error(std::string("usage: ") + (argc ? argv[0] : "prog") +
                " JOBFILE");
  Job job;
  std::string error;
  if (!parse_job(argv[1], job, error))
    usage_error(error);
  if (job.race)
    race::enable();
  if (!job.timing.empty()) {
    // Modelled time is only deterministic on the time strategy.
    timing::Model model;
    if (!job.schedule.empty())
      usage_error(argv[1] + std::string(": `timing` chooses its own schedule"));
    if (!timing::parse_model(job.timing, model, error))
      usage_error(argv[1] + std::string(": ") + error);
    job.schedule = {"schedule", "time"};
    timing::enable(model, job.ranks);
    sched::set_time_source(timing::now);
  }
  if (!job.schedule.empty() && !sched::configure(job.schedule, error))
    usage_error(argv[1] + std::string(": ") + error);
  if (!job.events.empty())
    events::enable(job.events);
  if (!job.trace.empty() && !sched::set_trace(job.trace))
    usage_error("cannot write the trace " + job.trace);
  Machine m;
  lay_out(job, m);
  if (!job.input.empty())
    read_input(job, m);

  start_monitor(job.timeout_s);
  std::vector<std::thread> threads;
  for (int32_t r = 0; r < job.ranks; ++r) {
    rt::CommContext *ctx = &m.contexts[r];
    const rt::Arg *args = m.args[r].data();
    if (job.host_entry) {
      threads.push_back(spawn({r, Role::Host, 0, 0, nullptr}, [=] {
        entry(ctx, args);
        wait_for_tasks(r);
      }));
      continue;
    }
    for (int64_t b = 0; b < job.blocks; ++b)
      threads.push_back(
          spawn({r, Role::Kernel, b, 0, nullptr}, [=] { entry(ctx, args); }));
  }
  if (sched::enabled())
    sched::begin();
  for (std::thread &thread : threads)
    thread.join();
  stop_monitor();

  if (!job.output.empty())
    write_output(job, m);
  if (!job.stats.empty())
    write_stats(job);
  if (events::enabled())
    events::write();
  return 0;
}

} // namespace pld::sim
