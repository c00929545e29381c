//===- run.cpp - Running an entry function on N simulated ranks -----------===//

#include "run.h"

#include "events.h"
#include "job.h"
#include "machine.h"
#include "monitor.h"
#include "sched.h"
#include "thread.h"

#include <string>
#include <sys/mman.h>
#include <vector>

namespace pld::sim {

int run_main(int argc, char **argv, EntryFn entry) {
  if (argc != 2)
    usage_error(std::string("usage: ") + (argc ? argv[0] : "prog") +
                " JOBFILE");
  Job job;
  std::string error;
  if (!parse_job(argv[1], job, error))
    usage_error(error);
  configure(job, argv[1]);

  uint64_t total = window_size(job) * static_cast<uint64_t>(job.ranks);
  if (total > (uint64_t{1} << 40))
    usage_error("the windows need " + std::to_string(total) + " bytes");
  // Anonymous pages read as zero and cost nothing until touched.
  void *windows = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (windows == MAP_FAILED)
    usage_error("cannot map " + std::to_string(total) + " bytes of windows");
  Machine m;
  lay_out(job, m, static_cast<uint8_t *>(windows));
  if (!job.input.empty())
    read_input(job, m);

  if (events::enabled())
    events::begin_run();
  start_monitor(job.timeout_s);
  // What each launch left, launch after launch, rank after rank.
  std::vector<std::vector<uint8_t>> parts;
  for (int32_t launch = 0; launch < job.launches; ++launch) {
    if (launch > 0)
      next_launch(job, m, launch);
    std::vector<std::thread> threads;
    for (int32_t r = 0; r < job.ranks; ++r)
      start_rank(job, m, r, entry, threads);
    if (sched::enabled())
      sched::begin();
    if (job.launches > 1) {
      join_launch(threads);
    } else {
      for (std::thread &thread : threads)
        thread.join();
    }
    if (!job.output.empty())
      for (int32_t r = 0; r < job.ranks; ++r)
        parts.push_back(rank_output(job, m, r));
  }
  stop_monitor();

  if (!job.output.empty())
    write_output(job, parts);
  if (!job.stats.empty()) {
    std::vector<Counts> ranks;
    for (int32_t r = 0; r < job.ranks; ++r)
      ranks.push_back(counts(r));
    write_stats(job, ranks);
  }
  if (events::enabled())
    events::write();
  return 0;
}

} // namespace pld::sim
