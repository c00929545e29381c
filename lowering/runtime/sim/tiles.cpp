//===- tiles.cpp - tload, tstore and tile arithmetic ----------------------===//

#include "tiles.h"

#include "convert.h"
#include "elements.h"
#include "events.h"
#include "memory.h"
#include "race.h"
#include "remote.h"
#include "report.h"
#include "sched.h"
#include "timing.h"
#include "values.h"
#include "world.h"

#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>

namespace pld::sim {

using rt::detail::TileRef;
using rt::detail::ViewRef;

void poison(const TileRef &tile, int64_t rows, int64_t cols) {
  if (values_skipped())
    return;
  visit(tile.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T value;
    if constexpr (std::is_same_v<T, float>) {
      value = std::numeric_limits<float>::quiet_NaN();
    } else if constexpr (std::is_same_v<T, _Float16>) {
      uint16_t bits = 0x7e00; // a quiet NaN
      std::memcpy(&value, &bits, sizeof bits);
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      value.bits = 0x7fc0; // a quiet NaN
    } else if constexpr (std::is_same_v<T, double>) {
      value = std::numeric_limits<double>::quiet_NaN();
    } else {
      std::memset(&value, kPoisonByte, sizeof value);
    }
    auto *data = static_cast<T *>(tile.data);
    for (int64_t r = 0; r < tile.rows; ++r)
      for (int64_t c = 0; c < tile.cols; ++c)
        if (r >= rows || c >= cols)
          data[r * tile.cols + c] = value;
  });
}

void load_region(const TileRef &tile, const uint8_t *src, int64_t rows,
                 int64_t cols, int64_t stride) {
  if (values_skipped())
    return;
  const int64_t e = tile.elem_bytes;
  auto *dst = static_cast<uint8_t *>(tile.data);
  // The device leaves what lies outside the loaded region as it was
  // (PadValue::Null): poisoned, so that a result depending on it is wrong.
  poison(tile, rows, cols);
  if (rows > 0)
    if (std::optional<WindowByte> at = remote_peer_byte(src))
      return remote()->get(*at, rows, cols * e, stride * e, dst, tile.cols * e);
  // Payload copies are plain memory accesses on purpose: ThreadSanitizer
  // must see a read that no release -> notify -> wait -> acquire chain
  // orders after the write.
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(dst + r * tile.cols * e, src + r * stride * e,
                static_cast<size_t>(cols * e));
}

void store_region(uint8_t *dst, int64_t stride, const TileRef &tile,
                  int64_t rows, int64_t cols, bool atomic_add) {
  const int64_t e = tile.elem_bytes;
  if (values_skipped())
    return values_unknown(dst, rows, cols * e, stride * e);
  const auto *src = static_cast<const uint8_t *>(tile.data);
  // An atomic add goes through the hooks in this rank's window too: adds
  // by the CPU and by MPI do not combine on one element.
  std::optional<WindowByte> at;
  if (rows > 0)
    at = atomic_add ? remote_atomic_byte(dst) : remote_peer_byte(dst);
  if (at) {
    if (atomic_add)
      remote()->add(*at, rows, cols, stride, src, tile.cols * e, tile.dtype);
    else
      remote()->put(*at, rows, cols * e, stride * e, src, tile.cols * e);
    return;
  }
  if (!atomic_add) {
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + r * stride * e, src + r * tile.cols * e,
                  static_cast<size_t>(cols * e));
    return;
  }
  visit(tile.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t r = 0; r < rows; ++r) {
      auto *out = reinterpret_cast<T *>(dst + r * stride * e);
      const auto *in = reinterpret_cast<const T *>(src + r * tile.cols * e);
      for (int64_t c = 0; c < cols; ++c)
        sim::atomic_add(out + c, in[c]);
    }
  });
}

void moved(const char *name, const void *tile, uint64_t bytes,
           timing::Route route, bool load, double began, const char *site) {
  timing::Interval run{began, events::enabled() ? events::now() : began};
  if (timing::enabled()) {
    // Links and ingress are claimed in modelled-time order: a scheduling
    // point at the moment the transfer starts.
    double start = timing::transfer_start(tile, load);
    sched::wait_until(
        "transfer", {}, [] { return true; }, [start] { return start; });
    run = load ? timing::load(tile, bytes, route)
               : timing::store(tile, bytes, route);
  }
  if (events::enabled()) {
    std::string args = "\"bytes\": " + std::to_string(bytes);
    if (route.remote)
      args += ", \"peer\": " + std::to_string(load ? route.from : route.to);
    events::slice(name, "transfer", run.begin, run.end, site, args);
  }
}

/// Accounts for tile math on `dst` from `sources` since `began`.
void computed(const char *name, const TileRef &dst,
              std::initializer_list<const void *> sources, double began,
              const char *site) {
  uint64_t bytes =
      static_cast<uint64_t>(dst.valid_rows * dst.valid_cols * dst.elem_bytes);
  timing::Interval run{began, events::enabled() ? events::now() : began};
  if (timing::enabled())
    run = timing::math(dst.data, sources, bytes);
  if (events::enabled())
    events::slice(name, "compute", run.begin, run.end, site,
                  "\"bytes\": " + std::to_string(bytes));
}

void check_atomic_dtype(rt::detail::DType dtype, const char *op,
                        const char *site) {
  if (dtype == rt::detail::DType::I1)
    trap(op_site(op, site) + ": i1 has no atomic add");
}

std::string shape(int64_t rows, int64_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

std::string tile_shape(const TileRef &tile) {
  return "a " + shape(tile.rows, tile.cols) + " tile with valid shape " +
         shape(tile.valid_rows, tile.valid_cols);
}

namespace {

/// TLOAD and TSTORE move exactly the tile's valid shape: PTO asserts that
/// the view has it (TSTORE would otherwise write the valid shape through
/// the view's strides, past a smaller view).
void check_transfer_shape(const char *op, const char *site, const ViewRef &view,
                          const TileRef &tile) {
  if (view.rows == tile.valid_rows && view.cols == tile.valid_cols)
    return;
  trap(op_site(op, site) + ": the region is not the tile's valid shape",
       "  region: " + shape(view.rows, view.cols) +
           "\n  tile: " + tile_shape(tile) + "\n");
}

/// Tile math covers the destination's valid shape, which PTO asserts every
/// operand shares.
void check_same_valid(const char *op, const char *site, const TileRef &dst,
                      std::initializer_list<const TileRef *> operands) {
  for (const TileRef *operand : operands) {
    if (operand->valid_rows == dst.valid_rows &&
        operand->valid_cols == dst.valid_cols)
      continue;
    std::string details = "  destination: " + tile_shape(dst) + "\n";
    for (const TileRef *each : operands)
      details += "  operand: " + tile_shape(*each) + "\n";
    trap(op_site(op, site) +
             ": an operand's valid shape differs from the destination's",
         details);
  }
}

} // namespace
} // namespace pld::sim

namespace pld::sim {
namespace {

/// Whether the site names `op` as the op the user wrote: the lowering's
/// sites start with it (`pld.tensor.put at k.mlir:3:5`, `pld.tensor.put in
/// pld.tensor.allgather at ...` for a chunk of an expanded put), so the
/// counters file a transfer under the op the user wrote, not the tile op it
/// became.
bool written_as(const char *site, const char *op) {
  size_t length = std::strlen(op);
  return site && std::strncmp(site, op, length) == 0 && site[length] == ' ';
}

} // namespace

void store_tile(const char *op, const ViewRef &dst, const TileRef &src,
                const TileRef &payload, bool atomic_add, const char *site) {
  doing(site);
  check_view_shape(dst, op, site);
  check_transfer_shape(op, site, dst, src);
  if (atomic_add)
    check_atomic_dtype(src.dtype, op, site);
  if (dst.rows == 0 || dst.cols == 0)
    return;
  Place place = check_view(dst, op, site);
  self().released = false;
  race::access_rows(dst.data, dst.rows, dst.cols * dst.elem_bytes,
                    dst.row_stride * dst.elem_bytes,
                    atomic_add ? race::Access::AtomicAdd : race::Access::Write,
                    op, site);
  double began = events::enabled() ? events::now() : 0;
  store_region(static_cast<uint8_t *>(dst.data), dst.row_stride, payload,
               dst.rows, dst.cols, atomic_add);
  if (timing::enabled() || events::enabled())
    moved(op, src.data, payload_bytes(dst), route_to(place), false, began,
          site);
  if (is_remote(place)) {
    Stats &stats = rank_state(self().id.rank).stats;
    (written_as(site, "pld.tensor.put") ? stats.put_bytes
                                        : stats.remote_store_bytes)
        .fetch_add(payload_bytes(dst), std::memory_order_relaxed);
  }
}

} // namespace pld::sim

namespace pld::rt::detail {

using namespace pld::sim;

void tload(const TileRef &dst, const ViewRef &src, const char *site) {
  doing(site);
  check_view_shape(src, "tload", site);
  check_transfer_shape("tload", site, src, dst);
  if (src.rows == 0 || src.cols == 0) {
    load_region(dst, nullptr, 0, 0, 0);
    return;
  }
  Place place = check_view(src, "tload", site);
  self().released = false;
  race::access_rows(src.data, src.rows, src.cols * src.elem_bytes,
                    src.row_stride * src.elem_bytes, race::Access::Read,
                    "tload", site);
  double began = events::enabled() ? events::now() : 0;
  load_region(dst, static_cast<const uint8_t *>(src.data), src.rows, src.cols,
              src.row_stride);
  if (timing::enabled() || events::enabled())
    moved("tload", dst.data, payload_bytes(src), route_from(place), true, began,
          site);
  if (is_remote(place)) {
    Stats &stats = rank_state(self().id.rank).stats;
    (written_as(site, "pld.tensor.get") ? stats.get_bytes
                                        : stats.remote_load_bytes)
        .fetch_add(payload_bytes(src), std::memory_order_relaxed);
  }
}

void tstore(const ViewRef &dst, const TileRef &src, bool atomic_add,
            const char *site) {
  store_tile(atomic_add ? "tstore_atomic_add" : "tstore", dst, src, src,
             atomic_add, site);
}

/// One element-wise operation, as the vector unit computes it.
template <typename T> T combine(BinOp op, T u, T v) {
  switch (op) {
  case BinOp::Add:
    return sim::add(u, v);
  case BinOp::Max:
    return sim::max(u, v);
  case BinOp::Min:
    return sim::min(u, v);
  case BinOp::Mul:
    return sim::mul(u, v);
  case BinOp::Sub:
    return sim::sub(u, v);
  }
  return u;
}

void tile_binary(BinOp op, const TileRef &dst, const TileRef &a,
                 const TileRef &b, const char *site) {
  doing(site);
  static const char *const names[] = {"tadd", "tmax", "tmin", "tmul", "tsub"};
  check_same_valid(names[static_cast<int>(op)], site, dst, {&a, &b});
  double began = events::enabled() ? events::now() : 0;
  visit(dst.dtype, [&](auto tag) {
    if (values_skipped())
      return;
    using T = typename decltype(tag)::type;
    auto *out = static_cast<T *>(dst.data);
    const auto *x = static_cast<const T *>(a.data);
    const auto *y = static_cast<const T *>(b.data);
    // Element by element over the valid shape, reading both inputs first:
    // dst may alias a or b. What lies outside it is left as it was.
    for (int64_t r = 0; r < dst.valid_rows; ++r) {
      for (int64_t c = 0; c < dst.valid_cols; ++c) {
        int64_t i = r * dst.cols + c;
        out[i] = combine(op, x[i], y[i]);
      }
    }
  });
  if (timing::enabled() || events::enabled())
    computed(names[static_cast<int>(op)], dst, {a.data, b.data}, began, site);
}

void tile_scalar(BinOp op, const TileRef &dst, const TileRef &a,
                 const void *scalar, const char *site) {
  doing(site);
  static const char *const names[] = {"tadds", "tmaxs", "tmins", "tmuls",
                                      "tsubs"};
  check_same_valid(names[static_cast<int>(op)], site, dst, {&a});
  double began = events::enabled() ? events::now() : 0;
  visit(dst.dtype, [&](auto tag) {
    if (values_skipped())
      return;
    using T = typename decltype(tag)::type;
    auto *out = static_cast<T *>(dst.data);
    const auto *x = static_cast<const T *>(a.data);
    T v;
    std::memcpy(&v, scalar, sizeof(T));
    for (int64_t r = 0; r < dst.valid_rows; ++r)
      for (int64_t c = 0; c < dst.valid_cols; ++c) {
        int64_t i = r * dst.cols + c;
        out[i] = combine(op, x[i], v);
      }
  });
  if (timing::enabled() || events::enabled())
    computed(names[static_cast<int>(op)], dst, {a.data}, began, site);
}

void tile_convert(const TileRef &dst, const TileRef &src, uint8_t round,
                  const char *site) {
  doing(site);
  check_same_valid("tcvt", site, dst, {&src});
  double began = events::enabled() ? events::now() : 0;
  auto mode = static_cast<sim::Round>(round);
  visit(dst.dtype, [&](auto to) {
    visit(src.dtype, [&](auto from) {
      if (values_skipped())
        return;
      using D = typename decltype(to)::type;
      using S = typename decltype(from)::type;
      auto *out = static_cast<D *>(dst.data);
      const auto *in = static_cast<const S *>(src.data);
      for (int64_t r = 0; r < dst.valid_rows; ++r)
        for (int64_t c = 0; c < dst.valid_cols; ++c)
          out[r * dst.cols + c] =
              sim::convert<D, S>(in[r * src.cols + c], mode);
    });
  });
  if (timing::enabled() || events::enabled())
    computed("tcvt", dst, {src.data}, began, site);
}

void tile_fill(const TileRef &dst, const void *scalar, const char *site) {
  doing(site);
  double began = events::enabled() ? events::now() : 0;
  const int64_t e = dst.elem_bytes;
  for (int64_t r = 0; r < dst.valid_rows && !values_skipped(); ++r)
    for (int64_t c = 0; c < dst.valid_cols; ++c)
      std::memcpy(static_cast<uint8_t *>(dst.data) + (r * dst.cols + c) * e,
                  scalar, static_cast<size_t>(e));
  if (timing::enabled() || events::enabled())
    computed("texpands", dst, {}, began, site);
}

void tile_copy(const TileRef &dst, const TileRef &src, const char *site) {
  check_same_valid("tcopy", site, dst, {&src});
  double began = events::enabled() ? events::now() : 0;
  const int64_t e = dst.elem_bytes;
  for (int64_t r = 0; r < dst.valid_rows && !values_skipped(); ++r)
    std::memmove(static_cast<uint8_t *>(dst.data) + r * dst.cols * e,
                 static_cast<const uint8_t *>(src.data) + r * src.cols * e,
                 static_cast<size_t>(dst.valid_cols * e));
  if (timing::enabled() || events::enabled())
    computed("tcopy", dst, {src.data}, began, site);
}

} // namespace pld::rt::detail
