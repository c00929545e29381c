//===- proxy.cpp - One thread calls MPI for all of a process --------------===//

#include "proxy.h"

#include "watch.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mpi.h>
#include <mutex>
#include <thread>

namespace pld::mpi::proxy {
namespace {

struct Request {
  const std::function<void()> *work;
  bool done = false;
};

std::thread::id g_mpi_thread;
std::mutex g_mutex;
std::condition_variable g_queued, g_finished;
std::deque<Request *> g_queue;

/// How long the MPI thread sleeps between progress calls when nothing is
/// queued: short, since a peer's operation on this rank's window completes
/// only in this process's MPI calls; long enough that a few processes
/// polling on two cores leave the simulated threads their time.
constexpr auto kIdle = std::chrono::microseconds(50);

void drain() {
  std::unique_lock<std::mutex> lock(g_mutex);
  while (!g_queue.empty()) {
    Request *request = g_queue.front();
    g_queue.pop_front();
    lock.unlock();
    (*request->work)();
    lock.lock();
    request->done = true;
    g_finished.notify_all();
  }
}

void progress() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
             MPI_STATUS_IGNORE);
}

} // namespace

void adopt() { g_mpi_thread = std::this_thread::get_id(); }

void run(const std::function<void()> &work) {
  if (std::this_thread::get_id() == g_mpi_thread) {
    work();
    return;
  }
  Request request{&work};
  std::unique_lock<std::mutex> lock(g_mutex);
  g_queue.push_back(&request);
  g_queued.notify_one();
  g_finished.wait(lock, [&] { return request.done; });
}

void serve(const std::function<bool()> &done,
           const std::function<void()> &tick) {
  auto next_tick = std::chrono::steady_clock::now() + kPoll;
  while (!done()) {
    drain();
    progress();
    if (std::chrono::steady_clock::now() >= next_tick) {
      tick();
      next_tick = std::chrono::steady_clock::now() + kPoll;
    }
    std::unique_lock<std::mutex> lock(g_mutex);
    g_queued.wait_for(lock, kIdle, [] { return !g_queue.empty(); });
  }
  drain();
}

void linger(std::chrono::milliseconds duration) {
  if (std::this_thread::get_id() != g_mpi_thread) {
    std::this_thread::sleep_for(duration);
    return;
  }
  auto until = std::chrono::steady_clock::now() + duration;
  serve([&] { return std::chrono::steady_clock::now() >= until; }, [] {});
}

} // namespace pld::mpi::proxy
