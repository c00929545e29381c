//===- proxy.h - One thread calls MPI for all of a process ------*- C++ -*-===//
//
// rma mode runs MPI_THREAD_FUNNELED: Open MPI 4.1 refuses
// MPI_THREAD_MULTIPLE across machines without RDMA. The main thread is the
// MPI thread: the simulated threads hand it their one-sided operations and
// wait, and between operations it keeps MPI's progress engine turning, which
// a passive target over TCP needs before a peer's Get or Accumulate can
// complete (osc pt2pt serves them inside the target's MPI calls).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_MPI_PROXY_H
#define PLD_MPI_PROXY_H

#include <chrono>
#include <functional>

namespace pld::mpi::proxy {

/// Makes the calling thread the MPI thread.
void adopt();

/// Runs `work` (MPI calls) on the MPI thread and returns once it has run:
/// at once on the MPI thread itself, else queued.
void run(const std::function<void()> &work);

/// The MPI thread's loop: runs the queued work and drives MPI's progress,
/// calls `tick` every kPoll (watch.h), and returns once `done()` holds.
void serve(const std::function<bool()> &done,
           const std::function<void()> &tick);

/// Waits `duration`: on the MPI thread, serving (so that peers' operations
/// on this process's window still complete), elsewhere asleep.
void linger(std::chrono::milliseconds duration);

} // namespace pld::mpi::proxy

#endif // PLD_MPI_PROXY_H
