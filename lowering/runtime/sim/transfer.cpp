//===- transfer.cpp - tput and tget through staging tiles -----------------===//
//
// The original simulator copies put/get regions directly and ignores the
// staging tiles, so a wrong chunking cannot show. Here the data really moves
// through the tile(s), one chunk of the tile's shape at a time, rows first
// and columns inside, alternating ping and pong; a ragged chunk fills the top
// left of its tile and leaves the rest poisoned, as the device leaves it
// undefined.
//
// SDMA transfers (tget_async, tput_async) copy from global memory to
// global memory without a tile, all at the post: the engine's accesses are
// the posting thread's payload accesses, which its wait publishes (race.h),
// and in a timed run the post claims the core's SDMA session, the link and
// the receiver's ingress (timing::sdma) while the wait goes on at the
// transfer's end.
//
//===----------------------------------------------------------------------===//

#include "events.h"
#include "memory.h"
#include "race.h"
#include "remote.h"
#include "report.h"
#include "sched.h"
#include "tiles.h"
#include "timing.h"
#include "values.h"
#include "world.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace pld::rt::detail {

using namespace pld::sim;

namespace {

const char *name(Transfer kind) {
  switch (kind) {
  case Transfer::Put:
    return "tput";
  case Transfer::PutAtomicAdd:
    return "tput_atomic_add";
  case Transfer::Get:
    return "tget";
  }
  return "transfer";
}

/// Traps unless `dst` and `src`, each well formed, have the same shape.
void check_same_shape(const ViewRef &dst, const ViewRef &src, const char *op,
                      const char *site) {
  check_view_shape(dst, op, site);
  check_view_shape(src, op, site);
  if (dst.rows != src.rows || dst.cols != src.cols)
    trap(op_site(op, site) + ": the destination is " +
         std::to_string(dst.rows) + " x " + std::to_string(dst.cols) +
         " but the source is " + std::to_string(src.rows) + " x " +
         std::to_string(src.cols));
}

bool overlap(const TileRef &a, const TileRef &b) {
  auto begin_a = static_cast<const uint8_t *>(a.data);
  auto begin_b = static_cast<const uint8_t *>(b.data);
  int64_t bytes = a.rows * a.cols * a.elem_bytes;
  return begin_a < begin_b + bytes && begin_b < begin_a + bytes;
}

} // namespace

void transfer(Transfer kind, const ViewRef &dst, const ViewRef &src,
              const TileRef &ping, const TileRef *pong, const char *site) {
  doing(site);
  const char *op = name(kind);
  check_same_shape(dst, src, op, site);
  // Both stages in flight at once on the device: sharing UB would corrupt.
  if (pong && overlap(ping, *pong))
    trap(op_site(op, site) +
         ": the ping and pong staging tiles overlap in the unified buffer");
  bool atomic_add = kind == Transfer::PutAtomicAdd;
  if (atomic_add)
    check_atomic_dtype(dst.dtype, op, site);
  if (dst.rows == 0 || dst.cols == 0)
    return;
  Place from = check_view(src, op, site);
  Place to = check_view(dst, op, site);
  self().released = false;
  race::access_rows(src.data, src.rows, src.cols * src.elem_bytes,
                    src.row_stride * src.elem_bytes, race::Access::Read, op,
                    site);
  race::access_rows(dst.data, dst.rows, dst.cols * dst.elem_bytes,
                    dst.row_stride * dst.elem_bytes,
                    atomic_add ? race::Access::AtomicAdd : race::Access::Write,
                    op, site);

  const int64_t e = dst.elem_bytes;
  auto *out = static_cast<uint8_t *>(dst.data);
  const auto *in = static_cast<const uint8_t *>(src.data);
  int64_t chunk = 0;
  for (int64_t r = 0; r < dst.rows; r += ping.rows) {
    for (int64_t c = 0; c < dst.cols; c += ping.cols, ++chunk) {
      TileRef stage = pong && chunk % 2 == 1 ? *pong : ping;
      stage.valid_rows = std::min(stage.rows, dst.rows - r);
      stage.valid_cols = std::min(stage.cols, dst.cols - c);
      auto bytes =
          static_cast<uint64_t>(stage.valid_rows * stage.valid_cols * e);
      bool accounted = timing::enabled() || events::enabled();
      double began = events::enabled() ? events::now() : 0;
      load_region(stage, in + (r * src.row_stride + c) * e, stage.valid_rows,
                  stage.valid_cols, src.row_stride);
      if (accounted)
        moved(op, stage.data, bytes, route_from(from), true, began, site);
      began = events::enabled() ? events::now() : 0;
      store_region(out + (r * dst.row_stride + c) * e, dst.row_stride, stage,
                   stage.valid_rows, stage.valid_cols, atomic_add);
      if (accounted)
        moved(op, stage.data, bytes, route_to(to), false, began, site);
    }
  }

  Stats &stats = rank_state(self().id.rank).stats;
  if (kind == Transfer::Get ? is_remote(from) : is_remote(to))
    (kind == Transfer::Get ? stats.get_bytes : stats.put_bytes)
        .fetch_add(payload_bytes(dst), std::memory_order_relaxed);
}

//===-- SDMA transfers ----------------------------------------------------===//

namespace {

/// Copies `rows` rows of `row_bytes` from `src` (rows `src_stride` bytes
/// apart) to `dst` (`dst_stride` apart), through the backend's hooks where
/// a side is a peer's window this process cannot address.
void copy_rows(uint8_t *dst, int64_t dst_stride, const uint8_t *src,
               int64_t src_stride, int64_t rows, int64_t row_bytes) {
  if (values_skipped())
    return values_unknown(dst, rows, row_bytes, dst_stride);
  std::optional<WindowByte> from = remote_peer_byte(src);
  std::optional<WindowByte> to = remote_peer_byte(dst);
  if (from && to) {
    // Between two peers: through a buffer of this process.
    std::vector<uint8_t> bounce(static_cast<size_t>(rows * row_bytes));
    remote()->get(*from, rows, row_bytes, src_stride, bounce.data(), row_bytes);
    remote()->put(*to, rows, row_bytes, dst_stride, bounce.data(), row_bytes);
    return;
  }
  if (from)
    return remote()->get(*from, rows, row_bytes, src_stride, dst, dst_stride);
  if (to)
    return remote()->put(*to, rows, row_bytes, dst_stride, src, src_stride);
  // Plain accesses, as a tile's payload copies are: ThreadSanitizer must see
  // what no release -> notify -> wait -> acquire chain orders. memmove: the
  // device leaves overlapping regions undefined; here they are not torn.
  for (int64_t r = 0; r < rows; ++r)
    std::memmove(dst + r * dst_stride, src + r * src_stride,
                 static_cast<size_t>(row_bytes));
}

} // namespace

const void *sdma_workspace(const CommContext *ctx) { return ctx; }

AsyncSession sdma_session(const void *workspace, int32_t sync_id,
                          int64_t ub_offset, const char *site) {
  doing(site);
  if (!workspace)
    trap(op_site("sdma_session", site) +
         ": no SDMA workspace (the kernel's launcher passed none)");
  // BuildAsyncSession refuses a sync id above 7 (pto-isa
  // comm/async/sdma/sdma_async_intrin.hpp:110-113): the transfers would
  // silently not happen.
  if (sync_id < 0 || sync_id > 7)
    trap(op_site("sdma_session", site) + ": sync id " +
         std::to_string(sync_id) + " is outside 0..7");
  constexpr int64_t kScratchBytes = 256;
  void *scratch = bind_tile(ub_offset, kScratchBytes, 1, 1, kScratchBytes, 1,
                            kScratchBytes);
  return {scratch, sync_id};
}

AsyncEvent sdma_transfer(bool push, const ViewRef &dst, const ViewRef &src,
                         AsyncSession &session, const char *site) {
  doing(site);
  const char *op = push ? "tput_async" : "tget_async";
  if (!session.scratch)
    trap(op_site(op, site) + ": the SDMA session was never built");
  check_same_shape(dst, src, op, site);
  AsyncEvent event;
  if (dst.rows == 0 || dst.cols == 0)
    return event;
  Place from = check_view(src, op, site);
  Place to = check_view(dst, op, site);
  const int64_t e = dst.elem_bytes;
  const int64_t row_bytes = dst.cols * e;
  race::access_rows(src.data, src.rows, row_bytes, src.row_stride * e,
                    race::Access::Read, op, site);
  race::access_rows(dst.data, dst.rows, row_bytes, dst.row_stride * e,
                    race::Access::Write, op, site);
  event.accessed = race::payload_clock();
  double began = events::enabled() ? events::now() : 0;
  copy_rows(static_cast<uint8_t *>(dst.data), dst.row_stride * e,
            static_cast<const uint8_t *>(src.data), src.row_stride * e,
            dst.rows, row_bytes);

  timing::Interval run{began, events::enabled() ? events::now() : began};
  uint64_t bytes = payload_bytes(dst);
  if (timing::enabled()) {
    timing::Route route{is_remote(from) || is_remote(to), from.rank, to.rank};
    // PTO posts one contiguous line (TGetAsyncCommonDetail.hpp:77-84):
    // rows that are not one are posted one at a time, each waited for
    // before the next (device.h).
    bool line = dst.rows == 1 ||
                (dst.row_stride == dst.cols && src.row_stride == src.cols);
    int64_t posts = line ? 1 : dst.rows;
    uint64_t post_bytes = line ? bytes : static_cast<uint64_t>(row_bytes);
    for (int64_t p = 0; p < posts; ++p) {
      if (p > 0)
        timing::advance_to(event.end);
      // Links and ingress are claimed in modelled-time order: a scheduling
      // point at the moment the post is issued.
      double start = timing::now();
      sched::wait_until(
          "transfer", {}, [] { return true; }, [start] { return start; });
      timing::Interval post = timing::sdma(post_bytes, route, push);
      if (p == 0)
        run.begin = post.begin;
      run.end = event.end = post.end;
    }
  }
  if (events::enabled()) {
    std::string args = "\"bytes\": " + std::to_string(bytes);
    if (is_remote(from) || is_remote(to))
      args += ", \"peer\": " + std::to_string(push ? to.rank : from.rank);
    events::slice(op, "transfer", run.begin, run.end, site, args);
  }

  Stats &stats = rank_state(self().id.rank).stats;
  if (push ? is_remote(to) : is_remote(from))
    (push ? stats.put_bytes : stats.get_bytes)
        .fetch_add(bytes, std::memory_order_relaxed);
  return event;
}

void wait_async(const AsyncEvent &event, AsyncSession &session,
                const char *site) {
  doing(site);
  if (!session.scratch)
    trap(op_site("wait_async", site) + ": the SDMA session was never built");
  // The engine's writes are in global memory once the wait returns: a
  // notify after it publishes them without a release (the core's own
  // payload accesses before the post were released before it, and
  // ascend-insert-sync releases those after it before a notify).
  race::publish(event.accessed);
  self().released = true;
  if (timing::enabled())
    timing::advance_to(event.end);
}

} // namespace pld::rt::detail
