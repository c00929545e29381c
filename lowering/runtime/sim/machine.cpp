//===- machine.cpp - Setting up the ranks a job file describes ------------===//

#include "machine.h"

#include "events.h"
#include "race.h"
#include "report.h"
#include "sched.h"
#include "tasks.h"
#include "thread.h"
#include "timing.h"
#include "values.h"
#include "world.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace pld::sim {
namespace {

uint64_t round_up(uint64_t value, uint64_t to) {
  return (value + to - 1) / to * to;
}

/// `bytes` bytes from `offset` of the file at `path`, which must hold
/// `total` bytes: one launch's part of the input, read without the others.
std::vector<uint8_t> read_part(const std::string &path, uint64_t total,
                               uint64_t offset, uint64_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    usage_error("cannot read " + path);
  auto size = static_cast<uint64_t>(in.tellg());
  if (size != total)
    usage_error(path + " has " + std::to_string(size) +
                " bytes; the job's arguments need " + std::to_string(total));
  std::vector<uint8_t> part(bytes);
  in.seekg(static_cast<std::streamoff>(offset));
  if (!in.read(reinterpret_cast<char *>(part.data()),
               static_cast<std::streamsize>(bytes)))
    usage_error("cannot read " + path);
  return part;
}

} // namespace

void usage_error(const std::string &message) {
  claim_stop(kExitUsage);
  std::fprintf(stderr, "pld-run: %s\n", message.c_str());
  std::fflush(stderr);
  reported_stop(kExitUsage);
  std::exit(kExitUsage);
}

void configure(Job &job, const std::string &job_path) {
  std::string error;
  if (job.race)
    race::enable();
  if (!job.timing.empty()) {
    // Modelled time is only deterministic on the time strategy.
    timing::Model model;
    if (!job.schedule.empty())
      usage_error(job_path + ": `timing` chooses its own schedule");
    if (!timing::parse_model(job.timing, model, error))
      usage_error(job_path + ": " + error);
    job.schedule = {"schedule", "time"};
    timing::enable(model, job.ranks);
    sched::set_time_source(timing::now);
  }
  if (job.skip_values) {
    // Skipping the values only makes sense for the time they take.
    if (job.timing.empty())
      usage_error(job_path + ": `values skip` needs `timing`");
    skip_values();
  }
  if (!job.schedule.empty() && !sched::configure(job.schedule, error))
    usage_error(job_path + ": " + error);
  if (!job.events.empty())
    events::enable(job.events);
  if (!job.trace.empty() && !sched::set_trace(job.trace))
    usage_error("cannot write the trace " + job.trace);
}

uint64_t window_size(const Job &job) {
  uint64_t offset = 0;
  for (const JobArg &arg : job.args)
    if (arg.kind == ArgKind::Window)
      offset += round_up(std::max<uint64_t>(arg.bytes, 1), 4096);
  return std::max<uint64_t>(offset + round_up(job.window_heap, 4096), 4096);
}

void lay_out(const Job &job, Machine &m, uint8_t *windows, int32_t only) {
  uint64_t offset = 0;
  for (const JobArg &arg : job.args) {
    m.window_offset.push_back(offset);
    if (arg.kind == ArgKind::Window)
      offset += round_up(std::max<uint64_t>(arg.bytes, 1), 4096);
  }
  uint64_t heap_offset = offset;
  m.heap_offset = heap_offset;
  uint64_t win_size = window_size(job);

  World &w = world();
  w.nranks = job.ranks;
  w.windows = windows;
  w.win_size = win_size;
  w.ranks = std::make_unique<RankState[]>(static_cast<size_t>(job.ranks));
  // Mixed kernels' hand-off space: reserved, not committed (pages cost
  // nothing until a kernel touches them).
  w.handoff_size = kHandoffBytesPerRank;
  void *handoffs =
      mmap(nullptr, w.handoff_size * job.ranks, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (handoffs == MAP_FAILED)
    usage_error("cannot map the hand-off space");
  w.handoffs = static_cast<uint8_t *>(handoffs);
  w.args.clear();
  for (size_t i = 0; i < job.args.size(); ++i) {
    const JobArg &arg = job.args[i];
    bool buffer = arg.kind != ArgKind::Scalar;
    w.args.push_back({arg.name, arg.kind == ArgKind::Window, m.window_offset[i],
                      buffer ? arg.bytes : 0, arg.elem_bytes, arg.dims});
  }
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
    bool hosted = only < 0 || only == r;
    for (size_t i = 0; i < job.args.size(); ++i) {
      const JobArg &arg = job.args[i];
      uint8_t *data = nullptr;
      if (arg.kind == ArgKind::Window) {
        data = w.windows + r * win_size + m.window_offset[i];
      } else if (arg.kind == ArgKind::Global && hosted) {
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

void read_input(const Job &job, Machine &m, int32_t only, int32_t launch) {
  uint64_t per_launch = 0;
  for (const JobArg &arg : job.args)
    per_launch += arg.bytes;
  per_launch *= static_cast<uint64_t>(job.ranks);
  std::vector<uint8_t> bytes =
      read_part(job.input, per_launch * static_cast<uint64_t>(job.launches),
                per_launch * static_cast<uint64_t>(launch), per_launch);
  const uint8_t *at = bytes.data();
  bool windows = launch == 0 || job.reset_windows;
  for (int32_t r = 0; r < job.ranks; ++r) {
    for (size_t i = 0; i < job.args.size(); ++i) {
      const JobArg &arg = job.args[i];
      if (only >= 0 && only != r) {
        // Another process's rank.
      } else if (arg.kind == ArgKind::Window && !windows) {
        // Kept from the launch before.
      } else if (arg.kind != ArgKind::Scalar) {
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

void next_launch(const Job &job, Machine &m, int32_t launch) {
  World &w = world();
  for (int32_t r = 0; r < job.ranks; ++r)
    rank_state(r).heap_next.store(m.heap_offset);
  if (job.reset_windows) {
    // Private anonymous pages read as zero again once dropped.
    uint64_t total = w.win_size * static_cast<uint64_t>(w.nranks);
    if (madvise(w.windows, total, MADV_DONTNEED) != 0)
      std::memset(w.windows, 0, total);
    race::forget_cells(w.windows, total);
  }
  if (!job.input.empty())
    read_input(job, m, -1, launch);
}

std::vector<uint8_t> rank_output(const Job &job, const Machine &m,
                                 int32_t rank) {
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < job.args.size(); ++i)
    if (job.args[i].kind != ArgKind::Scalar)
      bytes.insert(bytes.end(), m.data[rank][i],
                   m.data[rank][i] + job.args[i].bytes);
  return bytes;
}

void write_output(const Job &job,
                  const std::vector<std::vector<uint8_t>> &parts) {
  std::ofstream out(job.output, std::ios::binary);
  for (const std::vector<uint8_t> &part : parts)
    out.write(reinterpret_cast<const char *>(part.data()),
              static_cast<std::streamsize>(part.size()));
  if (!out.flush())
    usage_error("cannot write " + job.output);
}

Counts counts(int32_t rank) {
  const Stats &s = rank_state(rank).stats;
  return {s.remote_load_bytes,
          s.remote_store_bytes,
          s.put_bytes,
          s.get_bytes,
          s.notifies,
          s.waits,
          s.wait_ns};
}

void write_stats(const Job &job, const std::vector<Counts> &ranks) {
  std::ofstream out(job.stats);
  out << "{\"ranks\": [";
  for (size_t r = 0; r < ranks.size(); ++r) {
    const Counts &s = ranks[r];
    out << (r ? ",\n  " : "\n  ") << "{\"rank\": " << r
        << ", \"remote_load_bytes\": " << s.remote_load_bytes
        << ", \"remote_store_bytes\": " << s.remote_store_bytes
        << ", \"put_bytes\": " << s.put_bytes
        << ", \"get_bytes\": " << s.get_bytes
        << ", \"notifies\": " << s.notifies << ", \"waits\": " << s.waits
        << ", \"wait_ns\": " << s.wait_ns;
    if (timing::enabled())
      out << ", \"modelled_ns\": " << timing::rank_ns(static_cast<int32_t>(r));
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

void start_rank(const Job &job, Machine &m, int32_t rank,
                void (*entry)(rt::CommContext *, const rt::Arg *),
                std::vector<std::thread> &threads) {
  rt::CommContext *ctx = &m.contexts[rank];
  const rt::Arg *args = m.args[rank].data();
  if (job.host_entry) {
    threads.push_back(spawn({rank, Role::Host, 0, 0, nullptr}, [=] {
      entry(ctx, args);
      wait_for_tasks(rank);
    }));
    return;
  }
  for (int64_t b = 0; b < job.blocks; ++b)
    threads.push_back(
        spawn({rank, Role::Kernel, b, 0, nullptr}, [=] { entry(ctx, args); }));
}

} // namespace pld::sim
