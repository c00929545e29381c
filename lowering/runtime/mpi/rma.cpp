//===- rma.cpp - rma mode: peers' windows through MPI one-sided operations ===//
//
// Each process holds its own rank's window only: an `MPI_Win_create` window
// over its slot of a reservation that spans every rank's window at the
// addresses the simulator's layout gives them (sim/world.h). The other
// slots are PROT_NONE, so the runtime's address checks and `peer_ptr` work
// unchanged, the runtime turns every access to a peer's slot into an MPI
// operation (sim/remote.h), and a direct access to one (code that bypasses
// the runtime) faults into a trap that names it.
//
// The operations, all in one passive-target epoch (`MPI_Win_lock_all`):
// a payload read is `MPI_Get`, a write `MPI_Put`, an atomic add
// `MPI_Accumulate` (f16/bf16, which MPI cannot add, a compare-and-swap loop
// on the 32-bit word holding the element); a notify is `MPI_Fetch_and_op`
// (`MPI_SUM` or `MPI_REPLACE`) and a wait polls `MPI_Fetch_and_op` with
// `MPI_NO_OP`, on the calling rank's own cells too, since MPI's atomics and
// the CPU's do not combine on one cell. Every operation is flushed before it
// returns, so a release (`MPI_Win_flush_all`, then `MPI_Win_sync` for this
// rank's own plain stores) finds nothing outstanding; an acquire is
// `MPI_Win_sync`, which makes the peers' completed writes into this window
// visible to the plain loads of this rank's threads.
//
// Stops and deadlocks: every process exposes a control segment (its beat and
// listing for rank 0's watch; rank 0's also holds the run's stop status and
// counts), read and updated with the same one-sided operations.
//
//===----------------------------------------------------------------------===//

#include "mode.h"
#include "proxy.h"
#include "watch.h"

#include "../sim/elements.h"
#include "../sim/remote.h"
#include "../sim/report.h"
#include "../sim/world.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <mpi.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

// Its own namespace: the MPI backend's files are compiled as one unit, and
// node mode's control has helpers of the same names.
namespace pld::mpi::rma {
namespace {

using rt::detail::DType;
using sim::CellOp;
using sim::WindowByte;

/// What each process exposes in the control window.
struct Segment {
  // Rank 0's decide the run: 0 or the status it stops with; 1 once that
  // stop's report is out; ranks whose threads all finished.
  int32_t stop_status;
  int32_t reported;
  int32_t finished;
  // This process's: the length of `listing`, its last beat, its listing.
  int32_t length;
  Beat beat;
  char listing[kListingBytes];
};

int32_t g_rank = 0, g_size = 0;
MPI_Win g_windows = MPI_WIN_NULL, g_control = MPI_WIN_NULL;
uint8_t *g_reserved = nullptr;
uint64_t g_win_size = 0;
Segment *g_segment = nullptr;

/// An MPI count; the run stops where one does not fit MPI's int.
int count(int64_t value, const char *what) {
  if (value < 0 || value > INT_MAX)
    sim::trap(std::string("rma mode: ") + what + " of " +
              std::to_string(value) + " does not fit an MPI count");
  return static_cast<int>(value);
}

/// `rows` blocks of `count` elements of `base`, `stride` elements apart.
class Strided {
public:
  Strided(int64_t rows, int64_t elements, int64_t stride, MPI_Datatype base) {
    MPI_Type_vector(count(rows, "rows"), count(elements, "a row"),
                    count(stride, "a row stride"), base, &type_);
    MPI_Type_commit(&type_);
  }
  ~Strided() { MPI_Type_free(&type_); }
  Strided(const Strided &) = delete;
  Strided &operator=(const Strided &) = delete;
  MPI_Datatype type() const { return type_; }

private:
  MPI_Datatype type_;
};

MPI_Aint displacement(const WindowByte &at) {
  return static_cast<MPI_Aint>(at.offset);
}

void get(WindowByte at, int64_t rows, int64_t row_bytes, int64_t stride,
         uint8_t *out, int64_t out_pitch) {
  proxy::run([&] {
    Strided origin(rows, row_bytes, out_pitch, MPI_BYTE);
    Strided target(rows, row_bytes, stride, MPI_BYTE);
    MPI_Get(out, 1, origin.type(), at.rank, displacement(at), 1, target.type(),
            g_windows);
    MPI_Win_flush(at.rank, g_windows);
  });
}

void put(WindowByte at, int64_t rows, int64_t row_bytes, int64_t stride,
         const uint8_t *in, int64_t in_pitch) {
  proxy::run([&] {
    Strided origin(rows, row_bytes, in_pitch, MPI_BYTE);
    Strided target(rows, row_bytes, stride, MPI_BYTE);
    MPI_Put(in, 1, origin.type(), at.rank, displacement(at), 1, target.type(),
            g_windows);
    MPI_Win_flush(at.rank, g_windows);
  });
}

/// MPI's type for `dtype`'s elements; null for the types MPI cannot add.
MPI_Datatype addable(DType dtype) {
  switch (dtype) {
  case DType::I8:
    return MPI_INT8_T;
  case DType::U8:
    return MPI_UINT8_T;
  case DType::I16:
    return MPI_INT16_T;
  case DType::U16:
    return MPI_UINT16_T;
  case DType::I32:
    return MPI_INT32_T;
  case DType::U32:
    return MPI_UINT32_T;
  case DType::I64:
    return MPI_INT64_T;
  case DType::U64:
    return MPI_UINT64_T;
  case DType::F32:
    return MPI_FLOAT;
  case DType::F64:
    return MPI_DOUBLE;
  case DType::I1:
  case DType::F16:
  case DType::BF16:
    break;
  }
  return MPI_DATATYPE_NULL;
}

/// Adds `value` to the 16-bit float at `at`: a compare-and-swap loop on the
/// 32-bit word that holds it (windows are 4096-byte multiples, so the word
/// is inside). On the MPI thread.
template <typename T> void add_by_swap(WindowByte at, T value) {
  static_assert(sizeof(T) == 2);
  WindowByte word{at.rank, at.offset & ~uint64_t{3}};
  size_t shift = at.offset & 3;
  uint32_t old = 0, unused = 0, seen = 0;
  MPI_Fetch_and_op(&unused, &old, MPI_UINT32_T, word.rank, displacement(word),
                   MPI_NO_OP, g_windows);
  MPI_Win_flush(word.rank, g_windows);
  for (;;) {
    T current;
    std::memcpy(&current, reinterpret_cast<uint8_t *>(&old) + shift, sizeof(T));
    T sum = sim::add(current, value);
    uint32_t next = old;
    std::memcpy(reinterpret_cast<uint8_t *>(&next) + shift, &sum, sizeof(T));
    MPI_Compare_and_swap(&next, &old, &seen, MPI_UINT32_T, word.rank,
                         displacement(word), g_windows);
    MPI_Win_flush(word.rank, g_windows);
    if (seen == old)
      return;
    old = seen;
  }
}

void add(WindowByte at, int64_t rows, int64_t cols, int64_t stride,
         const uint8_t *in, int64_t in_pitch, DType dtype) {
  int64_t e = sim::dtype_bytes(dtype);
  proxy::run([&] {
    if (MPI_Datatype base = addable(dtype); base != MPI_DATATYPE_NULL) {
      Strided origin(rows, cols, in_pitch / e, base);
      Strided target(rows, cols, stride, base);
      MPI_Accumulate(in, 1, origin.type(), at.rank, displacement(at), 1,
                     target.type(), MPI_SUM, g_windows);
      MPI_Win_flush(at.rank, g_windows);
      return;
    }
    sim::visit(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (sizeof(T) == 2)
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c) {
            T value;
            std::memcpy(&value, in + r * in_pitch + c * e, sizeof value);
            add_by_swap(
                WindowByte{at.rank, at.offset + static_cast<uint64_t>(
                                                    (r * stride + c) * e)},
                value);
          }
    });
  });
}

int32_t cell(WindowByte at, CellOp op, int32_t value) {
  int32_t before = 0;
  MPI_Op applied = op == CellOp::Add   ? MPI_SUM
                   : op == CellOp::Set ? MPI_REPLACE
                                       : MPI_NO_OP;
  proxy::run([&] {
    MPI_Fetch_and_op(&value, &before, MPI_INT32_T, at.rank, displacement(at),
                     applied, g_windows);
    MPI_Win_flush(at.rank, g_windows);
  });
  return op == CellOp::Add   ? before + value
         : op == CellOp::Set ? value
                             : before;
}

// Every operation was flushed already; the flush is what a release means in
// MPI's terms, and the sync publishes this rank's plain stores into its own
// window to the peers' operations (MPI's separate memory model needs it).
void release() {
  proxy::run([] {
    MPI_Win_flush_all(g_windows);
    MPI_Win_sync(g_windows);
  });
}

void acquire() {
  proxy::run([] { MPI_Win_sync(g_windows); });
}

const sim::Remote kRemote{get, put, add, cell, release, acquire};

//===-- Control: stops, beats, the end ------------------------------------===//

MPI_Aint field(size_t offset) { return static_cast<MPI_Aint>(offset); }

/// Rank 0's `Segment` int32 at `offset`, after `op` with `value`.
int32_t control_cell(size_t offset, MPI_Op op, int32_t value) {
  int32_t before = 0;
  proxy::run([&] {
    MPI_Fetch_and_op(&value, &before, MPI_INT32_T, 0, field(offset), op,
                     g_control);
    MPI_Win_flush(0, g_control);
  });
  return before;
}

/// Ends this process quietly once the run's report is out.
void exit_if_reported() {
  if (control_cell(offsetof(Segment, reported), MPI_NO_OP, 0))
    _exit(control_cell(offsetof(Segment, stop_status), MPI_NO_OP, 0));
}

void claim(int status) {
  int32_t none = 0, seen = 0;
  proxy::run([&] {
    MPI_Compare_and_swap(&status, &none, &seen, MPI_INT32_T, 0,
                         field(offsetof(Segment, stop_status)), g_control);
    MPI_Win_flush(0, g_control);
  });
  if (seen == 0)
    return;
  // Another process reports: end with its status once it has (on a
  // simulated thread, the MPI thread's tick may see it first).
  for (;;) {
    std::this_thread::sleep_for(kPoll);
    exit_if_reported();
  }
}

void reported(int) {
  control_cell(offsetof(Segment, reported), MPI_REPLACE, 1);
  // The others end within a tick of seeing it; until then this process
  // still serves their operations on its window.
  proxy::linger(10 * kPoll);
}

/// Publishes this process's beat and listing in its own segment. On the MPI
/// thread, between MPI calls: osc pt2pt serves rank 0's Get of the segment
/// inside this thread's MPI calls, so it never sees half a publication.
void publish(uint64_t beats) {
  std::string text = own_listing(g_rank);
  std::memcpy(g_segment->listing, text.data(), text.size());
  g_segment->length = static_cast<int32_t>(text.size());
  g_segment->beat = own_beat(beats);
}

/// Every rank's published listing, in rank order. On the MPI thread.
std::string listings() {
  std::string text;
  for (int32_t r = 0; r < g_size; ++r) {
    Segment copy;
    MPI_Get(&copy, sizeof copy, MPI_BYTE, r, 0, sizeof copy, MPI_BYTE,
            g_control);
    MPI_Win_flush(r, g_control);
    text.append(copy.listing, static_cast<size_t>(std::clamp<int32_t>(
                                  copy.length, 0, kListingBytes)));
  }
  return text;
}

/// Reports a direct access to a peer's slot of the reservation.
void on_fault(int signal, siginfo_t *info, void *context);
struct sigaction g_previous;

void install_fault_trap() {
  struct sigaction action{};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &g_previous);
}

void on_fault(int signal, siginfo_t *info, void *context) {
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  auto base = reinterpret_cast<uintptr_t>(g_reserved);
  uint64_t span = g_win_size * static_cast<uint64_t>(g_size);
  if (address >= base && address - base < span &&
      static_cast<int32_t>((address - base) / g_win_size) != g_rank) {
    // Not async-signal-safe, and sound here all the same: the fault is a
    // plain load or store of the program's own code (the runtime reaches
    // peers through MPI), so the faulting thread holds none of the locks
    // trap() and the stop take.
    sim::trap("stray access to " + sim::describe_address(address) +
                  ": in rma mode a peer's window is not this process's "
                  "memory; reach it through pld's one-sided operations",
              "");
  }
  // Not ours: whoever handled it before (Open MPI's backtrace), else the
  // default action when the access faults again.
  sigaction(SIGSEGV, &g_previous, nullptr);
  if (g_previous.sa_flags & SA_SIGINFO)
    g_previous.sa_sigaction(signal, info, context);
  else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN)
    g_previous.sa_handler(signal);
}

class Rma final : public Mode {
public:
  void set_up(const sim::Job &job, sim::Machine &m) override {
    proxy::adopt();
    g_win_size = sim::window_size(job);
    uint64_t span = g_win_size * static_cast<uint64_t>(g_size);
    void *reserved = mmap(nullptr, span, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED)
      sim::usage_error("cannot reserve " + std::to_string(span) +
                       " bytes of address space for the windows");
    g_reserved = static_cast<uint8_t *>(reserved);
    uint8_t *own = g_reserved + static_cast<uint64_t>(g_rank) * g_win_size;
    // Fresh anonymous memory reads as zero, as the simulator's windows do.
    if (mmap(own, g_win_size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
      sim::usage_error("cannot map this rank's window");
    MPI_Win_create(own, static_cast<MPI_Aint>(g_win_size), 1, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &g_windows);

    void *segment = nullptr;
    MPI_Win_allocate(sizeof(Segment), 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                     &segment, &g_control);
    g_segment = static_cast<Segment *>(segment);
    std::memset(static_cast<void *>(g_segment), 0, sizeof(Segment));
    MPI_Win_lock_all(MPI_MODE_NOCHECK, g_windows);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, g_control);
    // Every segment is zero before any process reads one.
    MPI_Barrier(MPI_COMM_WORLD);

    sim::set_stop_hooks({claim, reported});
    sim::install_remote(&kRemote);
    install_fault_trap();
    sim::lay_out(job, m, g_reserved, g_rank);
    watch_ = std::make_unique<Watch>(g_size, job.timeout_s);
  }

  void publish_input() override {
    MPI_Win_sync(g_windows);
    MPI_Barrier(MPI_COMM_WORLD);
  }

  void run_to_end(std::vector<std::thread> &threads) override {
    std::atomic<bool> joined{false};
    std::thread joiner([&] {
      for (std::thread &thread : threads)
        thread.join();
      joined.store(true, std::memory_order_release);
    });
    bool counted = false, all_finished = false;
    uint64_t beats = 0;
    std::vector<Beat> seen(static_cast<size_t>(g_size));
    proxy::serve([&] { return all_finished; },
                 [&] {
                   exit_if_reported();
                   publish(++beats);
                   if (!counted && joined.load(std::memory_order_acquire)) {
                     control_cell(offsetof(Segment, finished), MPI_SUM, 1);
                     counted = true;
                   }
                   if (counted)
                     all_finished = control_cell(offsetof(Segment, finished),
                                                 MPI_NO_OP, 0) == g_size;
                   if (g_rank != 0 || all_finished)
                     return;
                   for (int32_t r = 0; r < g_size; ++r) {
                     MPI_Get(&seen[r], sizeof(Beat), MPI_BYTE, r,
                             field(offsetof(Segment, beat)), sizeof(Beat),
                             MPI_BYTE, g_control);
                     MPI_Win_flush(r, g_control);
                   }
                   watch_->observe(seen, listings);
                 });
    joiner.join();
    // The peers' last writes into this window, for the output.
    MPI_Win_sync(g_windows);
  }

  void tear_down() override {
    MPI_Win_unlock_all(g_control);
    MPI_Win_unlock_all(g_windows);
    MPI_Win_free(&g_control);
    MPI_Win_free(&g_windows);
  }

private:
  std::unique_ptr<Watch> watch_;
};

} // namespace
} // namespace pld::mpi::rma

namespace pld::mpi {

std::unique_ptr<Mode> rma_mode(int32_t rank, int32_t size) {
  rma::g_rank = rank;
  rma::g_size = size;
  return std::make_unique<rma::Rma>();
}

} // namespace pld::mpi
