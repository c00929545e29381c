//===- cube.cpp - textract, tmatmul and the Acc tile's store --------------===//
//
// The cube path: tiles in L1 (Mat), L0A (Left), L0B (Right) and L0C (Acc),
// each memory the calling thread's own (memory.cpp's bind_cube_tile). A Mat
// tile is loaded by tiles.cpp's tload, as a UB tile is.
//
// On the device these tiles are laid out in fractal boxes (NZ in L1 and
// L0A, ZN in L0B, 16 x 16 in L0C). The simulator keeps every one in logical
// row-major order instead, rows `cols` elements apart as in a UB tile: PTO's
// own CPU implementations of TEXTRACT and TMATMUL are layout-agnostic (they
// read and write through GetElement/SetElement, include/pto/cpu/
// TExtract.hpp:22-46, cpu/TMatmul.hpp:51-76), so no value depends on it.
//
//===----------------------------------------------------------------------===//

#include "elements.h"
#include "events.h"
#include "report.h"
#include "thread.h"
#include "tiles.h"
#include "timing.h"
#include "values.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace pld::sim {
namespace {

using rt::detail::CubeMemory;
using rt::detail::TileRef;
using rt::detail::ViewRef;

/// TMATMUL's m, k and n lie in [1, 4095] (npu/a2a3/TMatmul.hpp:17, 99-107).
constexpr int64_t kMadMaxLength = 4095;

std::string coordinates(int64_t row, int64_t col) {
  return "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
}

/// TEXTRACT copies the destination's static shape from (row, col), which
/// must lie inside the source's static shape (npu/a2a3/TExtract.hpp:52-60),
/// and its valid shape from inside the source's valid shape
/// (cpu/TExtract.hpp:25); the offsets are whole boxes of the copy
/// (common/arch/memory/textract_common.hpp:85-86 into L0A, :210-211 and
/// :382-383 into L0B).
void check_extract(const TileRef &dst, CubeMemory to, const TileRef &src,
                   int64_t row, int64_t col, const char *site) {
  std::string details = "  destination: " + tile_shape(dst) +
                        "\n  source: " + tile_shape(src) + "\n";
  if (row < 0 || col < 0 || row + dst.rows > src.rows ||
      col + dst.cols > src.cols)
    trap(op_site("textract", site) + ": the destination's static shape at " +
             coordinates(row, col) + " does not fit in the source's",
         details);
  if (row + dst.valid_rows > src.valid_rows ||
      col + dst.valid_cols > src.valid_cols)
    trap(op_site("textract", site) + ": the region at " +
             coordinates(row, col) + " leaves the source's valid shape",
         details);
  // L0A takes L1's 16-row x 32-byte boxes as they are; L0B transposes
  // square ones, 16 x 16 (32 x 32 for one-byte types).
  int64_t e = dst.elem_bytes;
  int64_t box_rows = to == CubeMemory::L0A ? 16 : (e == 1 ? 32 : 16);
  int64_t box_cols = to == CubeMemory::L0A ? 32 / e : box_rows;
  if (row % box_rows != 0 || col % box_cols != 0)
    trap(op_site("textract", site) + ": the offset " + coordinates(row, col) +
             " is not a multiple of the " + shape(box_rows, box_cols) +
             " box PTO copies",
         details);
}

/// m = a's valid rows, k = a's valid columns = b's valid rows, n = b's valid
/// columns; c's valid shape is m x n (PTO computes that much, as its CPU
/// TMatmul does, cpu/TMatmul.hpp:55-57); the types are PTO's CheckStaticMad
/// (npu/a2a3/TMatmul.hpp:77-98), which host.h asserts.
void check_matmul(const char *op, const TileRef &c, const TileRef &a,
                  const TileRef &b, const char *site) {
  using rt::detail::DType;
  std::string details = "  acc: " + tile_shape(c) +
                        "\n  left: " + tile_shape(a) +
                        "\n  right: " + tile_shape(b) + "\n";
  int64_t m = a.valid_rows, k = a.valid_cols, n = b.valid_cols;
  if (b.valid_rows != k)
    trap(op_site(op, site) +
             ": the left tile's valid columns are not the right tile's "
             "valid rows",
         details);
  if (c.valid_rows != m || c.valid_cols != n)
    trap(op_site(op, site) + ": the acc tile's valid shape is not " +
             shape(m, n),
         details);
  auto in_range = [](int64_t x) { return x >= 1 && x <= kMadMaxLength; };
  if (!in_range(m) || !in_range(k) || !in_range(n))
    trap(op_site(op, site) + ": m, k and n must lie in [1, 4095]; they are " +
             std::to_string(m) + ", " + std::to_string(k) + " and " +
             std::to_string(n),
         details);
  bool int8 = c.dtype == DType::I32 && a.dtype == DType::I8;
  bool floats = c.dtype == DType::F32 &&
                (a.dtype == DType::F16 || a.dtype == DType::BF16 ||
                 a.dtype == DType::F32);
  if ((!int8 && !floats) || b.dtype != a.dtype)
    trap(op_site(op, site) + ": the cube has no such element types", details);
}

/// c (+)= a x b over the valid shapes, as the target computes it: inputs
/// widened to the accumulator's type, each product summed in k order from
/// zero (f32 through fused multiply-adds, integers exactly, wrapping) and
/// the sum then added to what c held (PTO's CPU TMatmul, cpu/TMatmul.hpp:
/// 59-74).
template <typename A, typename C>
void multiply(const TileRef &c, const TileRef &a, const TileRef &b,
              bool accumulate) {
  if (values_skipped())
    return;
  auto *out = static_cast<C *>(c.data);
  const auto *x = static_cast<const A *>(a.data);
  const auto *y = static_cast<const A *>(b.data);
  for (int64_t i = 0; i < a.valid_rows; ++i) {
    for (int64_t j = 0; j < b.valid_cols; ++j) {
      C sum = 0;
      for (int64_t k = 0; k < a.valid_cols; ++k) {
        const A &u = x[i * a.cols + k];
        const A &v = y[k * b.cols + j];
        if constexpr (std::is_same_v<C, float>)
          sum = std::fma(to_float(u), to_float(v), sum);
        else
          sum = add(sum, mul(static_cast<C>(u), static_cast<C>(v)));
      }
      C &cell = out[i * c.cols + j];
      cell = accumulate ? add(cell, sum) : sum;
    }
  }
}

/// The Acc tile's valid shape as the fixpipe writes it to a view of
/// `dtype`: rounded from float to f16 or bf16, to nearest with ties to even
/// (npu/a2a3/TStore.hpp:264-266 and npu/a2a3/common.hpp:19-31, F322F16
/// and F322BF16), rows packed.
std::vector<uint8_t> fixpipe(const TileRef &src, rt::detail::DType dtype,
                             const char *site) {
  using rt::detail::DType;
  if (src.dtype != DType::F32 || (dtype != DType::F16 && dtype != DType::BF16))
    trap(op_site("tstore", site) +
         ": the fixpipe converts only float to f16 or bf16");
  int64_t count = src.valid_rows * src.valid_cols;
  std::vector<uint8_t> out(static_cast<size_t>(count * 2));
  const auto *in = static_cast<const float *>(src.data);
  for (int64_t r = 0; r < src.valid_rows; ++r) {
    for (int64_t c = 0; c < src.valid_cols; ++c) {
      float value = in[r * src.cols + c];
      uint8_t *to = out.data() + (r * src.valid_cols + c) * 2;
      if (dtype == DType::F16) {
        auto narrow = static_cast<_Float16>(value);
        std::memcpy(to, &narrow, 2);
      } else {
        BFloat16 bf16 = narrow_bf16(value);
        std::memcpy(to, &bf16.bits, 2);
      }
    }
  }
  return out;
}

} // namespace
} // namespace pld::sim

namespace pld::rt::detail {

using namespace pld::sim;

void textract(const TileRef &dst, CubeMemory to, const TileRef &src,
              int64_t row, int64_t col, const char *site) {
  doing(site);
  check_extract(dst, to, src, row, col, site);
  double began = events::enabled() ? events::now() : 0;
  // What lies outside the valid shape is undefined: PTO copies whole
  // boxes, from wherever the source's own undefined elements lie.
  poison(dst, dst.valid_rows, dst.valid_cols);
  const int64_t e = dst.elem_bytes;
  for (int64_t r = 0; r < dst.valid_rows && !values_skipped(); ++r)
    std::memcpy(static_cast<uint8_t *>(dst.data) + r * dst.cols * e,
                static_cast<const uint8_t *>(src.data) +
                    ((row + r) * src.cols + col) * e,
                static_cast<size_t>(dst.valid_cols * e));
  if (!timing::enabled() && !events::enabled())
    return;
  // The engine moves the destination's whole static shape.
  auto bytes = static_cast<uint64_t>(dst.rows * dst.cols * e);
  timing::Interval run{began, events::enabled() ? events::now() : began};
  if (timing::enabled())
    run = timing::extract(dst.data, src.data, bytes, to == CubeMemory::L0A);
  if (events::enabled())
    events::slice("textract", "transfer", run.begin, run.end, site,
                  "\"bytes\": " + std::to_string(bytes));
}

void tmatmul(const TileRef &c, const TileRef &a, const TileRef &b,
             bool accumulate, const char *site) {
  doing(site);
  const char *op = accumulate ? "tmatmul_acc" : "tmatmul";
  check_matmul(op, c, a, b, site);
  double began = events::enabled() ? events::now() : 0;
  switch (a.dtype) {
  case DType::I8:
    multiply<int8_t, int32_t>(c, a, b, accumulate);
    break;
  case DType::F16:
    multiply<_Float16, float>(c, a, b, accumulate);
    break;
  case DType::BF16:
    multiply<BFloat16, float>(c, a, b, accumulate);
    break;
  default:
    multiply<float, float>(c, a, b, accumulate);
    break;
  }
  if (!timing::enabled() && !events::enabled())
    return;
  int64_t m = a.valid_rows, k = a.valid_cols, n = b.valid_cols;
  timing::Interval run{began, events::enabled() ? events::now() : began};
  if (timing::enabled()) {
    bool f32 = a.dtype == DType::F32;
    run = accumulate ? timing::matmul(c.data, {a.data, b.data, c.data}, m, k, n,
                                      a.elem_bytes, f32)
                     : timing::matmul(c.data, {a.data, b.data}, m, k, n,
                                      a.elem_bytes, f32);
  }
  if (events::enabled())
    events::slice(op, "compute", run.begin, run.end, site,
                  "\"m\": " + std::to_string(m) + ", \"k\": " +
                      std::to_string(k) + ", \"n\": " + std::to_string(n));
}

void tstore_acc(const ViewRef &dst, const TileRef &src, const char *site) {
  if (dst.dtype == src.dtype)
    return store_tile("tstore", dst, src, src, false, site);
  std::vector<uint8_t> converted = fixpipe(src, dst.dtype, site);
  TileRef payload{converted.data(), src.valid_rows, src.valid_cols,
                  src.valid_rows,   src.valid_cols, dst.dtype,
                  dst.elem_bytes};
  store_tile("tstore", dst, src, payload, false, site);
}

} // namespace pld::rt::detail
