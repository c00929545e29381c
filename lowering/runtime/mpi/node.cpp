//===- node.cpp - Node mode: every window mapped into every process -------===//
//
// The windows are one MPI shared-memory allocation that every process maps,
// so the simulated threads touch them with plain loads, stores and atomics,
// exactly as in the thread simulator, and the processes coordinate stops
// and deadlock detection through the control block (control.h).
//
//===----------------------------------------------------------------------===//

#include "control.h"
#include "mode.h"

#include "../sim/report.h"

#include <cstring>
#include <mpi.h>
#include <string>

namespace pld::mpi {
namespace {

/// This process's address of `win`'s shared segment of rank `q`.
uint8_t *segment(MPI_Win win, int q) {
  MPI_Aint size = 0;
  int unit = 0;
  void *base = nullptr;
  MPI_Win_shared_query(win, q, &size, &unit, &base);
  return static_cast<uint8_t *>(base);
}

class Node final : public Mode {
public:
  Node(int32_t rank, int32_t size, MPI_Comm node)
      : rank_(rank), size_(size), node_(node) {}

  void set_up(const sim::Job &job, sim::Machine &m) override {
    // The control block lives in rank 0's segment of its own window, so
    // that the ranks' windows stay exactly `win_size` bytes apart.
    void *mine = nullptr;
    MPI_Win_allocate_shared(rank_ == 0 ? sizeof(Control) : 0, 1, MPI_INFO_NULL,
                            node_, &mine, &control_win_);
    auto *control = reinterpret_cast<Control *>(segment(control_win_, 0));
    if (rank_ == 0)
      std::memset(static_cast<void *>(control), 0, sizeof(Control));

    uint64_t win_size = sim::window_size(job);
    MPI_Info info;
    MPI_Info_create(&info);
    // Contiguous: rank q's window at rank 0's plus q * win_size, the layout
    // the simulator's address checks assume (sim/world.h).
    MPI_Info_set(info, "alloc_shared_noncontig", "false");
    MPI_Win_allocate_shared(static_cast<MPI_Aint>(win_size), 1, info, node_,
                            &mine, &windows_win_);
    MPI_Info_free(&info);
    uint8_t *windows = segment(windows_win_, 0);
    for (int q = 0; q < size_; ++q)
      if (segment(windows_win_, q) != windows + q * win_size)
        sim::usage_error("MPI did not lay the shared windows out contiguously");

    // The control block is zero before any process uses it.
    MPI_Barrier(MPI_COMM_WORLD);
    start(control, rank_, size_, job.timeout_s);
    // Open MPI backs a shared window with a new file (osc sm), which reads
    // as zero, as the simulator's anonymous windows do; nothing to clear.
    sim::lay_out(job, m, windows, rank_);
  }

  void publish_input() override { MPI_Barrier(MPI_COMM_WORLD); }

  void run_to_end(std::vector<std::thread> &threads) override {
    for (std::thread &thread : threads)
      thread.join();
    finish();
  }

  void tear_down() override {
    MPI_Win_free(&windows_win_);
    MPI_Win_free(&control_win_);
    MPI_Comm_free(&node_);
  }

private:
  int32_t rank_, size_;
  MPI_Comm node_;
  MPI_Win control_win_ = MPI_WIN_NULL, windows_win_ = MPI_WIN_NULL;
};

} // namespace

std::unique_ptr<Mode> node_mode(int32_t rank, int32_t size) {
  // Node mode maps every rank's window: all processes must share memory.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  if (node_size != size)
    sim::usage_error("the MPI backend's node mode needs every rank on one "
                     "machine; only " +
                     std::to_string(node_size) + " of the " +
                     std::to_string(size) + " share memory with rank " +
                     std::to_string(rank) +
                     " (pld-run --mpi-mode rma runs across machines)");
  return std::make_unique<Node>(rank, size, node);
}

} // namespace pld::mpi
