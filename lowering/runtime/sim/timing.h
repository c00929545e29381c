//===- timing.h - Modelled time: a virtual clock per thread -----*- C++ -*-===//
//
// `pld-run --timing` (the job's `timing` directive): every simulated thread
// keeps a virtual clock that the ops it runs advance by what a machine model
// says they cost (docs/performance.md):
// - a core issues its instructions in order, each costing `issue_ns`;
// - a core's loads from its own rank's memory and its stores to it run on
//   two engines (PTO's MTE2 and MTE3), one transfer at a time each;
// - transfers are asynchronous: a load into a tile makes the tile ready when
//   it ends, a store frees its tile when it ends; a pull from a peer's
//   window (or a push into one) occupies the core's load (store) engine
//   until it ends, moving at most at one core's remote rate, the link
//   between the two ranks, one transfer at a time, at the link's rate, and
//   the receiving rank's ingress, which all its links share, at the
//   ingress rate; a transfer from or to the core's own global memory
//   occupies the core's local engine;
// - tile math starts when its operands are ready and the vector unit is
//   free, and runs at the combine rate;
// - the cube's ops are charged at pto-isa's own a2a3 cost model
//   (include/pto/costmodel/, cited in timing.cpp), not at a model parameter
//   (pld's machine model has none for the cube): a matmul starts when its
//   operands are ready and the core's cube unit is free, and runs
//   6 + ceil(m/16) * ceil(k/(32/sizeof(A))) * ceil(n/16) cycles (the
//   repeats twice for f32 inputs) at 1.85 GHz; an extraction from L1 into
//   L0A or L0B runs on the core's MTE1 engine, one at a time, at 441 or
//   220.5 GiB/s; a load into L1 and a store from L0C go through the load
//   and store engines as a tile's do, from and to the core's own rank at
//   pto-isa's GM_TO_L1 (135 GiB/s) and L0C_TO_GM (70 GiB/s) rather than
//   the model's local rates, and over a link by the remote rules;
// - a release waits for every transfer and every tile op in flight;
// - a notify reaches its cell one signal hop (`alpha_ns`) later when the
//   cell is another rank's; a wait completes when the first value of the
//   cell (after what the thread saw of it) that satisfies it has arrived;
//   a mixed kernel's cross-core flags are cells of the block's own rank
//   (mixed.cpp);
// - threads start at their parent's clock; a join, a task dependency and a
//   task's deferred conditions complete at the latest of what they wait for.
//
// The clock is deterministic: a timed run is serialized (sched.h's `time`
// strategy) and at every choice the thread whose next operation is earliest
// in modelled time runs, ties to the lowest thread id. Transfers are
// scheduling points, so links and ingress are claimed in modelled-time
// order; nothing depends on the host's scheduling.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_TIMING_H
#define PLD_SIM_TIMING_H

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

namespace pld::sim::timing {

/// The machine model (pld_passes::model::Model on the Rust side, which
/// gives every parameter its value and source).
struct Model {
  double alpha_ns = 0;
  double link_bytes_per_ns = 1;
  double link_write_bytes_per_ns = 1;
  double ingress_bytes_per_ns = 1;
  double local_load_bytes_per_ns = 1;
  double local_store_bytes_per_ns = 1;
  double core_pull_bytes_per_ns = 1;
  double core_push_bytes_per_ns = 1;
  double sdma_launch_ns = 0;
  double sdma_bytes_per_ns = 1;
  double combine_bytes_per_ns = 1;
  double issue_ns = 0;
  double cube_cycles_per_ns = 1;
  double l1_load_bytes_per_ns = 1;
  double l0a_bytes_per_ns = 1;
  double l0b_bytes_per_ns = 1;
  double fixpipe_bytes_per_ns = 1;
};

/// Reads `KEY=VALUE` words into `model`; false with `error` set otherwise.
bool parse_model(const std::vector<std::string> &words, Model &model,
                 std::string &error);

/// Whether the run keeps modelled time (set once, before any thread).
bool enabled();
void enable(const Model &model, int32_t ranks);

/// The calling thread's clock: what a thread it starts begins at.
double now();
/// The calling (new) thread begins at `at`, started by the thread named
/// `parent` (none for a rank's first thread).
void start(double at, const std::string &parent);
/// The calling thread ends: its clock moves to when everything it issued
/// is done, which it returns.
double finish();
/// The clock at which scheduler thread `id` ended (after it did).
double end_of(int32_t sched_id);
/// The calling thread waited for something that completed at `at`.
void advance_to(double at);

/// Where a transfer's bytes go: between a core and its own rank's memory,
/// or over the link from rank `from` to rank `to`.
struct Route {
  bool remote;
  int32_t from, to;
};

/// When an asynchronous operation runs, in modelled time.
struct Interval {
  double begin, end;
};

/// When a load into (`load`) or a store from the tile at `tile` issued now
/// would start: once the tile and the core's engine allow it. A remote
/// transfer waits for its turn until then (sched.h's `when`), so that
/// transfers claim links and ingress in the order they start, not in the
/// order their cores issued them.
double transfer_start(const void *tile, bool load);
/// Global memory into the tile whose unified-buffer data is at `tile`.
Interval load(const void *tile, uint64_t bytes, Route route);
/// The tile at `tile` into global memory.
Interval store(const void *tile, uint64_t bytes, Route route);
/// An SDMA transfer (TGET_ASYNC, TPUT_ASYNC) of `bytes` from global memory
/// to global memory over `route` (`push`: the issuing rank writes the
/// peer, TPUT_ASYNC; a pull otherwise): issued now, it runs on the core's SDMA
/// session, one transfer at a time, for `sdma_launch_ns` and then at the
/// SDMA rate, claiming the link and the receiver's ingress as a core's
/// transfer does. The calling thread goes on at once; its next release
/// (or a wait for the transfer's event, `advance_to(end)`) waits for it.
Interval sdma(uint64_t bytes, Route route, bool push);
/// Tile math writing `dst` from `sources`, `bytes` of one operand.
Interval math(const void *dst, std::initializer_list<const void *> sources,
              uint64_t bytes);
/// TEXTRACT of `bytes` from the L1 tile at `src` into the L0A (`left`) or
/// L0B tile at `dst`, on the core's MTE1 engine.
Interval extract(const void *dst, const void *src, uint64_t bytes, bool left);
/// TMATMUL writing the Acc tile at `dst` from `sources` (the Acc tile too
/// when it accumulates): an m x k by k x n product of `a_bytes`-byte
/// (`a_float`: f32) inputs, on the core's cube unit.
Interval matmul(const void *dst, std::initializer_list<const void *> sources,
                int64_t m, int64_t k, int64_t n, int64_t a_bytes, bool a_float);
/// A scalar access of global memory (`remote`: another rank's window).
void scalar(bool remote);
void release();

/// A notify of `cell` that left `value` in it; `remote`: another rank's;
/// `set`: it replaced the value. Returns when it arrives.
double notified(const int32_t *cell, int32_t value, bool remote, bool set,
                const char *site);
/// How many values `cell` has had: a waiter's starting point.
size_t seen(const int32_t *cell);
/// When the first value of `cell` from position `from` on that satisfies
/// `holds` was there: when the last notify it sums up arrived (0 for the
/// cell's initial value); infinity if none did.
double satisfied_at(const int32_t *cell, size_t from,
                    bool (*holds)(int32_t value, int32_t expected),
                    int32_t expected);
/// The calling thread waited on `cell` at `site` from position `from` and
/// went on at `at` (kept for the critical path).
void waited(const int32_t *cell, size_t from,
            bool (*holds)(int32_t value, int32_t expected), int32_t expected,
            const char *site, double at);
/// The calling thread, held up from `began` until `at`, went on once
/// `cell` held (a task's deferred condition; its clock has moved already).
void stalled(const int32_t *cell, size_t from,
             bool (*holds)(int32_t value, int32_t expected), int32_t expected,
             const char *site, double began, double at);
/// The calling thread, held up from `began` until `at` by `what` (`kJoin`,
/// or a task dependency), went on when thread `thread` ended: the critical
/// path continues there.
extern const char *const kJoin;
void waited_for_thread(const std::string &thread, const char *what,
                       double began, double at);
/// How scheduler thread `id` is named in reports, once it has ended.
std::string name_of(int32_t sched_id);

/// The per-rank modelled times, the bytes over every link and the critical
/// path, as JSON members (`"modelled_ns"` per rank is written by the
/// caller through `rank_ns`).
double rank_ns(int32_t rank);
void write_json(std::ostream &out, const Model &model);

/// The model in use.
const Model &model();

} // namespace pld::sim::timing

#endif // PLD_SIM_TIMING_H
