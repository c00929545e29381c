//===- transfer.cpp - tput and tget through staging tiles -----------------===//
//
// The original simulator copies put/get regions directly and ignores the
// staging tiles, so a wrong chunking cannot show. Here the data really moves
// through the tile(s), one chunk of the tile's shape at a time, rows first
// and columns inside, alternating ping and pong; a ragged chunk fills the top
// left of its tile and leaves the rest poisoned, as the device leaves it
// undefined.
//
//===----------------------------------------------------------------------===//

#include "events.h"
#include "memory.h"
#include "race.h"
#include "report.h"
#include "tiles.h"
#include "world.h"

#include <algorithm>

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
  check_view_shape(dst, op, site);
  check_view_shape(src, op, site);
  if (dst.rows != src.rows || dst.cols != src.cols)
    trap(op_site(op, site) + ": the destination is " +
         std::to_string(dst.rows) + " x " + std::to_string(dst.cols) +
         " but the source is " + std::to_string(src.rows) + " x " +
         std::to_string(src.cols));
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

} // namespace pld::rt::detail
