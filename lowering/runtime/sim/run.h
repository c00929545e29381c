//===- run.h - Running an entry function on N simulated ranks ---*- C++ -*-===//

#ifndef PLD_SIM_RUN_H
#define PLD_SIM_RUN_H

#include "pld/runtime/host.h"

namespace pld::sim {

using EntryFn = void (*)(rt::CommContext *, const rt::Arg *);

/// `prog JOBFILE`: sets up the ranks the job file describes, runs `entry`
/// on them, writes the outputs and the stats, and returns the exit status.
int run_main(int argc, char **argv, EntryFn entry);

} // namespace pld::sim

#endif // PLD_SIM_RUN_H
