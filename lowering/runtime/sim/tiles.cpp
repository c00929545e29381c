//===- tiles.cpp - tload, tstore and tile arithmetic ----------------------===//

#include "tiles.h"

#include "elements.h"
#include "memory.h"
#include "report.h"
#include "world.h"

#include <cstring>
#include <vector>

namespace pld::sim {

using rt::detail::TileRef;
using rt::detail::ViewRef;

void load_region(const TileRef &tile, const uint8_t *src, int64_t rows,
                 int64_t cols, int64_t stride) {
  const int64_t e = tile.elem_bytes;
  auto *dst = static_cast<uint8_t *>(tile.data);
  std::memset(dst, 0, static_cast<size_t>(tile.rows * tile.cols * e));
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
  const auto *src = static_cast<const uint8_t *>(tile.data);
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

void check_atomic_dtype(rt::detail::DType dtype, const char *op,
                        const char *site) {
  if (dtype == rt::detail::DType::I1)
    trap(op_site(op, site) + ": i1 has no atomic add");
}

namespace {

[[noreturn]] void shape_mismatch(const char *op, const char *site,
                                 const ViewRef &view, const TileRef &tile) {
  trap(op_site(op, site) + ": a " + std::to_string(view.rows) + " x " +
       std::to_string(view.cols) + " region does not fit a " +
       std::to_string(tile.rows) + " x " + std::to_string(tile.cols) + " tile");
}

} // namespace
} // namespace pld::sim

namespace pld::rt::detail {

using namespace pld::sim;

void tload(const TileRef &dst, const ViewRef &src, const char *site) {
  check_view_shape(src, "tload", site);
  if (src.rows > dst.rows || src.cols > dst.cols)
    shape_mismatch("tload", site, src, dst);
  if (src.rows == 0 || src.cols == 0) {
    load_region(dst, nullptr, 0, 0, 0);
    return;
  }
  Place place = check_view(src, "tload", site);
  self().released = false;
  load_region(dst, static_cast<const uint8_t *>(src.data), src.rows, src.cols,
              src.row_stride);
  if (is_remote(place))
    rank_state(self().id.rank)
        .stats.remote_load_bytes.fetch_add(payload_bytes(src),
                                           std::memory_order_relaxed);
}

void tstore(const ViewRef &dst, const TileRef &src, bool atomic_add,
            const char *site) {
  const char *op = atomic_add ? "tstore_atomic_add" : "tstore";
  check_view_shape(dst, op, site);
  if (dst.rows > src.rows || dst.cols > src.cols)
    shape_mismatch(op, site, dst, src);
  if (atomic_add)
    check_atomic_dtype(src.dtype, op, site);
  if (dst.rows == 0 || dst.cols == 0)
    return;
  Place place = check_view(dst, op, site);
  self().released = false;
  store_region(static_cast<uint8_t *>(dst.data), dst.row_stride, src, dst.rows,
               dst.cols, atomic_add);
  if (is_remote(place))
    rank_state(self().id.rank)
        .stats.remote_store_bytes.fetch_add(payload_bytes(dst),
                                            std::memory_order_relaxed);
}

void tile_binary(BinOp op, DType dtype, void *dst, const void *a, const void *b,
                 int64_t elements) {
  visit(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto *out = static_cast<T *>(dst);
    const auto *x = static_cast<const T *>(a);
    const auto *y = static_cast<const T *>(b);
    // Element by element, reading both inputs first: dst may alias a or b.
    for (int64_t i = 0; i < elements; ++i) {
      T u = x[i], v = y[i];
      switch (op) {
      case BinOp::Add:
        out[i] = sim::add(u, v);
        break;
      case BinOp::Max:
        out[i] = sim::max(u, v);
        break;
      case BinOp::Min:
        out[i] = sim::min(u, v);
        break;
      case BinOp::Mul:
        out[i] = sim::mul(u, v);
        break;
      }
    }
  });
}

void tile_copy(void *dst, const void *src, int64_t bytes) {
  std::memmove(dst, src, static_cast<size_t>(bytes));
}

void tile_matmul(DType tc, DType ta, DType tb, void *dst, const void *a,
                 const void *b, int64_t m, int64_t n, int64_t k) {
  auto widen = [](DType dtype, const void *data, int64_t elements) {
    std::vector<float> out(static_cast<size_t>(elements));
    visit(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t i = 0; i < elements; ++i)
        out[i] = to_float(static_cast<const T *>(data)[i]);
    });
    return out;
  };
  std::vector<float> x = widen(ta, a, m * k), y = widen(tb, b, k * n);
  visit(tc, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += x[i * k + l] * y[l * n + j];
        static_cast<T *>(dst)[i * n + j] = from_float<T>(sum);
      }
    }
  });
}

} // namespace pld::rt::detail
