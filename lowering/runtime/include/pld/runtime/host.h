//===- host.h - pld runtime, host half: the simulator API -------*- C++ -*-===//
//
// The API that emitted C++ calls, implemented on a host compiler by the
// simulator in lowering/runtime/sim/ (pipeline §6). The device half
// (device.h) implements the same names with PTO ISA, so the emitted file is
// the same for both. Everything here is small and inline: the work happens
// in the simulator library, which is compiled once (see
// lowering/runtime/README.md).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_RUNTIME_HOST_H
#define PLD_RUNTIME_HOST_H

#include "pld/runtime/host/detail.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

// Emitted files put host orchestrators and entry wrappers between
// `#if PLD_HOST_CODE` and `#endif`; the device half sets it to 0.
#ifndef PLD_HOST_CODE
#define PLD_HOST_CODE 1
#endif

// CCE address-space and kernel qualifiers mean nothing on the host.
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif

namespace pld::rt {

/// The context block every kernel receives (semantics §1). The byte layout is
/// the contract with the device runtime, hence the asserts.
struct CommContext {
  uint64_t workSpace, workSpaceSize;
  uint32_t rankId, rankNum;
  uint64_t winSize;
  uint64_t windowsIn[64];
  uint64_t windowsOut[64];
};
static_assert(sizeof(CommContext) == 1056);
static_assert(offsetof(CommContext, workSpace) == 0);
static_assert(offsetof(CommContext, workSpaceSize) == 8);
static_assert(offsetof(CommContext, rankId) == 16);
static_assert(offsetof(CommContext, rankNum) == 20);
static_assert(offsetof(CommContext, winSize) == 24);
static_assert(offsetof(CommContext, windowsIn) == 32);
static_assert(offsetof(CommContext, windowsOut) == 544);

// The element types the emitter spells for f16 and bf16.
using f16 = _Float16;
using bf16 = __bf16;

// PTO's names and values (pto::comm), not pld's: pld's Ge is 1, PTO's is 3.
enum class NotifyOp : uint8_t { AtomicAdd = 0, Set = 1 };
enum class WaitCmp : uint8_t { EQ = 0, GE = 3 };
/// PTO's RoundMode, by its values (common/type.hpp:251-259).
enum class RoundMode : uint8_t { None, Rint, Round, Floor, Ceil, Trunc, Odd };

/// The hardware pipes (pipe_t) that set_flag/wait_flag synchronise; FIX is
/// the cube's fixpipe, which stores an Acc tile.
enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, All };

/// The two cores of a block of a mixed kernel: the cube core (AIC) and the
/// vector core (AIV).
enum class Core : uint8_t { AIC, AIV };

/// Bytes of unified buffer each simulated AIV thread owns.
inline constexpr int64_t kUbBytes = 196608;

/// The cube's memories of an a2a3 core (pto-isa
/// include/pto/common/buffer_limits.hpp:51-55 L1, :71-75 L0A, :91-95 L0B,
/// :111-117 L0C; A5's L0C has 256 KiB), which each simulated thread owns as
/// well, and the alignment PTO requires of a tile in any of them (:47-49,
/// :67-69, :87-89, :107-109).
inline constexpr int64_t kL1Bytes = 524288;
inline constexpr int64_t kL0aBytes = 65536;
inline constexpr int64_t kL0bBytes = 65536;
inline constexpr int64_t kL0cBytes = 131072;
inline constexpr int64_t kCubeAlignBytes = 32;

/// A handle to a tile in the calling thread's unified buffer; cheap to copy.
/// `valid_rows` x `valid_cols` is its valid shape, fixed when the handle is
/// made (a ragged tail, or a padded row's logical width): every load into
/// it, store of it and tile math on it covers exactly that region, as on the
/// device, and the simulator traps where they do not.
template <typename T, int Rows, int Cols> struct Tile {
  static_assert(Rows > 0 && Cols > 0, "a tile has a positive static shape");
  T *data = nullptr;
  int64_t valid_rows = Rows;
  int64_t valid_cols = Cols;
};

namespace detail {

/// PTO's fractal box of a cube tile (common/pto_tile.hpp:1399-1423): Mat
/// and Left tiles are 16 rows x 32 bytes boxes stored row by row
/// (SLayout::RowMajor, 512-byte fractal), Right tiles 32 bytes x 16 columns
/// (SLayout::ColMajor), Acc tiles 16 x 16 (the 1024-byte fractal).
template <CubeMemory M, typename T> constexpr int box_rows() {
  if constexpr (M == CubeMemory::L0B)
    return 32 / static_cast<int>(sizeof(T));
  return 16;
}
template <CubeMemory M, typename T> constexpr int box_cols() {
  if constexpr (M == CubeMemory::L1 || M == CubeMemory::L0A)
    return 32 / static_cast<int>(sizeof(T));
  return 16;
}

} // namespace detail

/// A handle to a tile in one of the calling thread's cube memories; cheap to
/// copy. Its static shape is a whole number of PTO's fractal boxes, as the
/// device's Tile asserts (common/pto_tile.hpp:1516-1520, which lets a single
/// row through); its valid shape is fixed when it is made, and every op
/// covers exactly that, as for `Tile`.
template <detail::CubeMemory Memory, typename T, int Rows, int Cols>
struct CubeTile {
  static_assert(Rows > 0 && Cols > 0, "a tile has a positive static shape");
  static_assert(Rows == 1 || Rows % detail::box_rows<Memory, T>() == 0,
                "Layout rows must be divisible by inner box rows: Mat, Left "
                "and Acc rows by 16, Right rows by 32 / sizeof(T)");
  static_assert(Cols % detail::box_cols<Memory, T>() == 0,
                "Layout cols must be divisible by inner box cols: Mat and Left "
                "columns by 32 / sizeof(T), Right and Acc columns by 16");
  static_assert(Memory != detail::CubeMemory::L0C || std::is_same_v<T, float> ||
                    std::is_same_v<T, int32_t>,
                "an Acc tile holds float or int32_t");
  T *data = nullptr;
  int64_t valid_rows = Rows;
  int64_t valid_cols = Cols;
};

/// L1 (PTO's TileType::Mat), L0A (TileLeft), L0B (TileRight), L0C (TileAcc).
template <typename T, int R, int C>
using Mat = CubeTile<detail::CubeMemory::L1, T, R, C>;
template <typename T, int R, int C>
using Left = CubeTile<detail::CubeMemory::L0A, T, R, C>;
template <typename T, int R, int C>
using Right = CubeTile<detail::CubeMemory::L0B, T, R, C>;
template <typename T, int R, int C>
using Acc = CubeTile<detail::CubeMemory::L0C, T, R, C>;

/// A 2-D region of global memory, and the tensor it lies in (its first
/// element and element count; null when the emitter did not say), so that
/// an access outside its tensor traps even where it stays in its window.
template <typename T> struct View {
  __gm__ T *data;
  int64_t rows, cols, row_stride;
  __gm__ T *tensor = nullptr;
  int64_t tensor_elems = 0;
};

/// A task of this rank's host orchestrator; id 0 is "no task" (done).
struct TaskId {
  int64_t id = 0;
};

inline constexpr int kMaxDeps = 64;

struct Deps {
  int64_t count = 0;
  int64_t ids[kMaxDeps] = {};
};

/// One argument of an entry function, filled by the harness.
struct Arg {
  void *ptr;
  int64_t dims[8];
  int64_t i;
  double f;
};

namespace detail {
template <typename T, int R, int C> TileRef ref(Tile<T, R, C> t) {
  constexpr int32_t bytes = sizeof(T);
  return {t.data, R, C, t.valid_rows, t.valid_cols, DTypeOf<T>::value, bytes};
}
template <CubeMemory M, typename T, int R, int C>
TileRef ref(CubeTile<M, T, R, C> t) {
  constexpr int32_t bytes = sizeof(T);
  return {t.data, R, C, t.valid_rows, t.valid_cols, DTypeOf<T>::value, bytes};
}
template <typename T> ViewRef ref(View<T> v) {
  constexpr int32_t bytes = sizeof(T);
  return {v.data,
          v.rows,
          v.cols,
          v.row_stride,
          DTypeOf<T>::value,
          bytes,
          v.tensor,
          v.tensor_elems * bytes};
}
} // namespace detail

//===-- Context and identity ----------------------------------------------===//

// A rank outside a comm group holds its context with rankId == rankNum
// (comm_group); it has no rank in the group to answer.
inline int32_t rank(__gm__ CommContext *ctx) {
  if (ctx->rankId >= ctx->rankNum)
    detail::check_member(ctx, "pld.system.rank");
  return static_cast<int32_t>(ctx->rankId);
}
inline int32_t nranks(__gm__ CommContext *ctx) {
  if (ctx->rankId >= ctx->rankNum)
    detail::check_member(ctx, "pld.system.nranks");
  return static_cast<int32_t>(ctx->rankNum);
}
inline int64_t world_size(__gm__ CommContext *ctx) { return ctx->rankNum; }

template <typename T> __gm__ T *offset(__gm__ T *base, int64_t elements) {
  return base + elements;
}

template <typename T>
__gm__ T *peer_ptr(__gm__ CommContext *ctx, __gm__ T *local, int64_t peer,
                   const char *site) {
  return static_cast<T *>(detail::peer_ptr(ctx, local, peer, site));
}

inline int64_t block_idx() { return detail::block_idx(); }
inline int64_t subblock_idx() { return detail::subblock_idx(); }
// The simulator's threads know their block and lane whoever dispatched
// them; on the device a task's come from its payload (task_runtime.h).
inline int64_t block_idx(DispatchPayload) { return detail::block_idx(); }
inline int64_t subblock_idx(DispatchPayload) { return detail::subblock_idx(); }
inline DispatchPayload no_payload() { return DispatchPayload{nullptr}; }

/// `ascend.check`: the run stops with `message` at `site` unless `holds`.
inline void check(bool holds, const char *message, const char *site) {
  if (!holds)
    detail::check_failed(message, site);
}

//===-- Tiles -------------------------------------------------------------===//

template <typename T, int R, int C>
Tile<T, R, C> tile(int64_t ub_offset_bytes, int64_t valid_rows,
                   int64_t valid_cols) {
  void *data = detail::bind_tile(ub_offset_bytes, sizeof(T) * R * C, alignof(T),
                                 R, C, valid_rows, valid_cols);
  return {static_cast<T *>(data), valid_rows, valid_cols};
}
template <typename T, int R, int C>
Tile<T, R, C> tile(int64_t ub_offset_bytes) {
  return tile<T, R, C>(ub_offset_bytes, R, C);
}

template <typename T>
View<T> view(__gm__ T *data, int64_t rows, int64_t cols, int64_t row_stride) {
  return {data, rows, cols, row_stride};
}
template <typename T>
View<T> view(__gm__ T *data, int64_t rows, int64_t cols, int64_t row_stride,
             __gm__ T *tensor, int64_t tensor_elems) {
  return {data, rows, cols, row_stride, tensor, tensor_elems};
}

template <typename T, int R, int C>
void tload(Tile<T, R, C> dst, View<T> src, const char *site) {
  detail::tload(detail::ref(dst), detail::ref(src), site);
}
template <typename T, int R, int C>
void tstore(View<T> dst, Tile<T, R, C> src, const char *site) {
  detail::tstore(detail::ref(dst), detail::ref(src), false, site);
}
template <typename T, int R, int C>
void tstore_atomic_add(View<T> dst, Tile<T, R, C> src, const char *site) {
  detail::tstore(detail::ref(dst), detail::ref(src), true, site);
}

template <typename T, int R, int C> int64_t valid_rows(Tile<T, R, C> t) {
  return t.valid_rows;
}
template <typename T, int R, int C> int64_t valid_cols(Tile<T, R, C> t) {
  return t.valid_cols;
}

// Tile math over the destination's valid shape, which both operands must
// share (PTO asserts it on the device).
template <typename T, int R, int C>
void tadd(Tile<T, R, C> dst, Tile<T, R, C> a, Tile<T, R, C> b,
          const char *site) {
  detail::tile_binary(detail::BinOp::Add, detail::ref(dst), detail::ref(a),
                      detail::ref(b), site);
}
template <typename T, int R, int C>
void tmax(Tile<T, R, C> dst, Tile<T, R, C> a, Tile<T, R, C> b,
          const char *site) {
  detail::tile_binary(detail::BinOp::Max, detail::ref(dst), detail::ref(a),
                      detail::ref(b), site);
}
template <typename T, int R, int C>
void tmin(Tile<T, R, C> dst, Tile<T, R, C> a, Tile<T, R, C> b,
          const char *site) {
  detail::tile_binary(detail::BinOp::Min, detail::ref(dst), detail::ref(a),
                      detail::ref(b), site);
}
template <typename T, int R, int C>
void tmul(Tile<T, R, C> dst, Tile<T, R, C> a, Tile<T, R, C> b,
          const char *site) {
  detail::tile_binary(detail::BinOp::Mul, detail::ref(dst), detail::ref(a),
                      detail::ref(b), site);
}
template <typename T, int R, int C>
void tsub(Tile<T, R, C> dst, Tile<T, R, C> a, Tile<T, R, C> b,
          const char *site) {
  detail::tile_binary(detail::BinOp::Sub, detail::ref(dst), detail::ref(a),
                      detail::ref(b), site);
}

// Tile-scalar math (TADDS, ...): the scalar has the tiles' element type.
template <typename T, int R, int C>
void tadds(Tile<T, R, C> dst, Tile<T, R, C> a, T s, const char *site) {
  detail::tile_scalar(detail::BinOp::Add, detail::ref(dst), detail::ref(a), &s,
                      site);
}
template <typename T, int R, int C>
void tsubs(Tile<T, R, C> dst, Tile<T, R, C> a, T s, const char *site) {
  detail::tile_scalar(detail::BinOp::Sub, detail::ref(dst), detail::ref(a), &s,
                      site);
}
template <typename T, int R, int C>
void tmuls(Tile<T, R, C> dst, Tile<T, R, C> a, T s, const char *site) {
  detail::tile_scalar(detail::BinOp::Mul, detail::ref(dst), detail::ref(a), &s,
                      site);
}
template <typename T, int R, int C>
void tmaxs(Tile<T, R, C> dst, Tile<T, R, C> a, T s, const char *site) {
  detail::tile_scalar(detail::BinOp::Max, detail::ref(dst), detail::ref(a), &s,
                      site);
}
template <typename T, int R, int C>
void tmins(Tile<T, R, C> dst, Tile<T, R, C> a, T s, const char *site) {
  detail::tile_scalar(detail::BinOp::Min, detail::ref(dst), detail::ref(a), &s,
                      site);
}
/// TCVT: `src` converted to `dst`'s element type (tiles of one shape; their
/// padded widths may differ).
template <typename D, typename S, int R, int CD, int CS>
void tcvt(Tile<D, R, CD> dst, Tile<S, R, CS> src, RoundMode mode,
          const char *site) {
  detail::tile_convert(detail::ref(dst), detail::ref(src),
                       static_cast<uint8_t>(mode), site);
}
/// TEXPANDS: `s` in every element of `dst`'s valid shape.
template <typename T, int R, int C>
void texpands(Tile<T, R, C> dst, T s, const char *site) {
  detail::tile_fill(detail::ref(dst), &s, site);
}

/// TMOV: copies `src`'s valid shape into `dst`, which has the same one.
template <typename T, int R, int C>
void tcopy(Tile<T, R, C> dst, Tile<T, R, C> src, const char *site) {
  detail::tile_copy(detail::ref(dst), detail::ref(src), site);
}

//===-- The cube: L1, L0A, L0B and L0C tiles and the matrix unit ---------===//

namespace detail {
template <CubeMemory M, typename T, int R, int C>
CubeTile<M, T, R, C> cube_tile(int64_t offset, int64_t valid_rows,
                               int64_t valid_cols) {
  void *data = bind_cube_tile(M, offset, sizeof(T) * R * C, R, C, valid_rows,
                              valid_cols);
  return {static_cast<T *>(data), valid_rows, valid_cols};
}

/// The element types TEXTRACT moves (npu/a2a3/TExtract.hpp:18-28).
template <typename T>
inline constexpr bool kExtractType =
    std::is_same_v<T, int8_t> || std::is_same_v<T, _Float16> ||
    std::is_same_v<T, __bf16> || std::is_same_v<T, float>;

/// PTO's CheckStaticMad (npu/a2a3/TMatmul.hpp:77-98): (Acc, Left, Right).
template <typename C, typename A, typename B>
inline constexpr bool kMadTypes =
    (std::is_same_v<C, int32_t> && std::is_same_v<A, int8_t> &&
     std::is_same_v<B, int8_t>) ||
    (std::is_same_v<C, float> && std::is_same_v<A, B> &&
     (std::is_same_v<A, _Float16> || std::is_same_v<A, __bf16> ||
      std::is_same_v<A, float>));

/// What the fixpipe writes from an Acc tile of T: T itself, or f16/bf16
/// from float (pld's contract; PTO's cast modes, npu/a2a3/common.hpp:19-31).
template <typename U, typename T>
inline constexpr bool kFixpipeCast =
    std::is_same_v<U, T> ||
    (std::is_same_v<T, float> &&
     (std::is_same_v<U, _Float16> || std::is_same_v<U, __bf16>));
} // namespace detail

/// Makers: `offset` is the tile's byte offset in its memory (32-byte
/// aligned); the valid shape defaults to the whole tile.
template <typename T, int R, int C>
Mat<T, R, C> mat(int64_t offset, int64_t valid_rows, int64_t valid_cols) {
  return detail::cube_tile<detail::CubeMemory::L1, T, R, C>(offset, valid_rows,
                                                            valid_cols);
}
template <typename T, int R, int C> Mat<T, R, C> mat(int64_t offset) {
  return mat<T, R, C>(offset, R, C);
}
template <typename T, int R, int C>
Left<T, R, C> left(int64_t offset, int64_t valid_rows, int64_t valid_cols) {
  return detail::cube_tile<detail::CubeMemory::L0A, T, R, C>(offset, valid_rows,
                                                             valid_cols);
}
template <typename T, int R, int C> Left<T, R, C> left(int64_t offset) {
  return left<T, R, C>(offset, R, C);
}
template <typename T, int R, int C>
Right<T, R, C> right(int64_t offset, int64_t valid_rows, int64_t valid_cols) {
  return detail::cube_tile<detail::CubeMemory::L0B, T, R, C>(offset, valid_rows,
                                                             valid_cols);
}
template <typename T, int R, int C> Right<T, R, C> right(int64_t offset) {
  return right<T, R, C>(offset, R, C);
}
template <typename T, int R, int C>
Acc<T, R, C> acc(int64_t offset, int64_t valid_rows, int64_t valid_cols) {
  return detail::cube_tile<detail::CubeMemory::L0C, T, R, C>(offset, valid_rows,
                                                             valid_cols);
}
template <typename T, int R, int C> Acc<T, R, C> acc(int64_t offset) {
  return acc<T, R, C>(offset, R, C);
}

template <detail::CubeMemory M, typename T, int R, int C>
int64_t valid_rows(CubeTile<M, T, R, C> t) {
  return t.valid_rows;
}
template <detail::CubeMemory M, typename T, int R, int C>
int64_t valid_cols(CubeTile<M, T, R, C> t) {
  return t.valid_cols;
}

/// TLOAD into L1 (MTE2): as for a UB tile, the view is the valid shape.
template <typename T, int R, int C>
void tload(Mat<T, R, C> dst, View<T> src, const char *site) {
  detail::tload(detail::ref(dst), detail::ref(src), site);
}

/// TEXTRACT (MTE1): `dst`'s valid shape from `src` at (row, col). PTO copies
/// L1's boxes into L0A as they are (common/arch/memory/textract_common.hpp:
/// 450-476, TExtractToA :80-86) and transposes each into L0B (:479-501,
/// TExtractToB :205-211, one-byte types TExtractToBCompact :369-384); the
/// static shapes it asserts are checked here, the offsets by the simulator.
template <typename T, int R, int C, int R2, int C2>
void textract(Left<T, R, C> dst, Mat<T, R2, C2> src, int64_t row, int64_t col,
              const char *site) {
  static_assert(detail::kExtractType<T>, "TExtract: Invalid data type.");
  static_assert(R % 16 == 0 && R2 % 16 == 0,
                "textract into a Left tile: both tiles' rows must be "
                "multiples of 16");
  detail::textract(detail::ref(dst), detail::CubeMemory::L0A, detail::ref(src),
                   row, col, site);
}
template <typename T, int R, int C, int R2, int C2>
void textract(Right<T, R, C> dst, Mat<T, R2, C2> src, int64_t row, int64_t col,
              const char *site) {
  static_assert(detail::kExtractType<T>, "TExtract: Invalid data type.");
  constexpr int box = sizeof(T) == 1 ? 32 : 16;
  static_assert(R % box == 0 && R2 % box == 0 && C2 % box == 0,
                "textract into a Right tile: its rows and the Mat tile's rows "
                "and columns must be multiples of 16 (32 for one-byte types), "
                "the boxes PTO transposes");
  detail::textract(detail::ref(dst), detail::CubeMemory::L0B, detail::ref(src),
                   row, col, site);
}

/// TMATMUL (M pipe): c = a x b over the valid shapes (m = a's rows, k = a's
/// columns = b's rows, n = b's columns; c is m x n).
template <typename TC, typename TA, typename TB, int M, int K, int N>
void tmatmul(Acc<TC, M, N> c, Left<TA, M, K> a, Right<TB, K, N> b,
             const char *site) {
  static_assert(detail::kMadTypes<TC, TA, TB>,
                "tmatmul: (acc, left, right) must be (int32_t, int8_t, "
                "int8_t), (float, f16, f16), (float, bf16, bf16) or (float, "
                "float, float)");
  detail::tmatmul(detail::ref(c), detail::ref(a), detail::ref(b), false, site);
}
/// TMATMUL_ACC: c += a x b.
template <typename TC, typename TA, typename TB, int M, int K, int N>
void tmatmul_acc(Acc<TC, M, N> c, Left<TA, M, K> a, Right<TB, K, N> b,
                 const char *site) {
  static_assert(detail::kMadTypes<TC, TA, TB>,
                "tmatmul_acc: (acc, left, right) must be (int32_t, int8_t, "
                "int8_t), (float, f16, f16), (float, bf16, bf16) or (float, "
                "float, float)");
  detail::tmatmul(detail::ref(c), detail::ref(a), detail::ref(b), true, site);
}

/// TSTORE from L0C through the fixpipe: the view is the valid shape; float
/// may be rounded to f16 or bf16 (to nearest, ties to even) on the way.
template <typename U, typename T, int R, int C>
void tstore(View<U> dst, Acc<T, R, C> src, const char *site) {
  static_assert(detail::kFixpipeCast<U, T>,
                "tstore of an Acc tile writes its own type, or f16 or bf16 "
                "from float");
  detail::tstore_acc(detail::ref(dst), detail::ref(src), site);
}

//===-- Put / get through staging tiles -----------------------------------===//

template <typename T, int R, int C>
void tput(View<T> dst, View<T> src, Tile<T, R, C> stage, const char *site) {
  detail::transfer(detail::Transfer::Put, detail::ref(dst), detail::ref(src),
                   detail::ref(stage), nullptr, site);
}
template <typename T, int R, int C>
void tput(View<T> dst, View<T> src, Tile<T, R, C> ping, Tile<T, R, C> pong,
          const char *site) {
  detail::TileRef second = detail::ref(pong);
  detail::transfer(detail::Transfer::Put, detail::ref(dst), detail::ref(src),
                   detail::ref(ping), &second, site);
}
template <typename T, int R, int C>
void tput_atomic_add(View<T> dst, View<T> src, Tile<T, R, C> stage,
                     const char *site) {
  detail::transfer(detail::Transfer::PutAtomicAdd, detail::ref(dst),
                   detail::ref(src), detail::ref(stage), nullptr, site);
}
template <typename T, int R, int C>
void tput_atomic_add(View<T> dst, View<T> src, Tile<T, R, C> ping,
                     Tile<T, R, C> pong, const char *site) {
  detail::TileRef second = detail::ref(pong);
  detail::transfer(detail::Transfer::PutAtomicAdd, detail::ref(dst),
                   detail::ref(src), detail::ref(ping), &second, site);
}
template <typename T, int R, int C>
void tget(View<T> dst, View<T> src, Tile<T, R, C> stage, const char *site) {
  detail::transfer(detail::Transfer::Get, detail::ref(dst), detail::ref(src),
                   detail::ref(stage), nullptr, site);
}
template <typename T, int R, int C>
void tget(View<T> dst, View<T> src, Tile<T, R, C> ping, Tile<T, R, C> pong,
          const char *site) {
  detail::TileRef second = detail::ref(pong);
  detail::transfer(detail::Transfer::Get, detail::ref(dst), detail::ref(src),
                   detail::ref(ping), &second, site);
}

//===-- SDMA transfers: global memory to global memory --------------------===//

/// The SDMA workspace host code passes the kernels it launches that move
/// data with SDMA (the device's host runtime has its own).
inline SdmaWorkspace sdma_workspace(__gm__ CommContext *ctx) {
  return {detail::sdma_workspace(ctx)};
}

/// The kernel's SDMA session on the 256 bytes of unified buffer at
/// `ub_offset`; traps without a workspace or with a sync id outside 0..7,
/// where the device's BuildAsyncSession fails.
inline AsyncSession sdma_session(SdmaWorkspace workspace, int32_t sync_id,
                                 int64_t ub_offset, const char *site) {
  return detail::sdma_session(workspace.token, sync_id, ub_offset, site);
}
/// The same in a task's kernel: the simulator has no channels to share.
inline AsyncSession sdma_session(SdmaWorkspace workspace, int32_t sync_id,
                                 int64_t ub_offset, const char *site,
                                 DispatchPayload) {
  return sdma_session(workspace, sync_id, ub_offset, site);
}

/// TGET_ASYNC / TPUT_ASYNC: the engine copies `src` into `dst` (one extent),
/// from global memory to global memory; the returned event completes it.
template <typename T>
AsyncEvent tget_async(View<T> dst, View<T> src, AsyncSession &session,
                      const char *site) {
  return detail::sdma_transfer(false, detail::ref(dst), detail::ref(src),
                               session, site);
}
template <typename T>
AsyncEvent tput_async(View<T> dst, View<T> src, AsyncSession &session,
                      const char *site) {
  return detail::sdma_transfer(true, detail::ref(dst), detail::ref(src),
                               session, site);
}

/// AsyncEvent::Wait: the transfer has completed.
inline void wait_async(AsyncEvent event, AsyncSession &session,
                       const char *site) {
  detail::wait_async(event, session, site);
}

//===-- Signals and ordering ----------------------------------------------===//

// `dims` are the signal tensor's dimensions; with `signal_base` they only
// serve reports, which name the cell by its coordinates.
template <typename... D>
void tnotify(__gm__ int32_t *cell, int32_t value, NotifyOp op, const char *site,
             __gm__ int32_t *signal_base, D... dims) {
  const int64_t shape[sizeof...(D) + 1] = {static_cast<int64_t>(dims)...};
  detail::tnotify(cell, value, op, site, signal_base, shape, sizeof...(D));
}
template <typename... D>
void twait(__gm__ int32_t *cell, int32_t expected, WaitCmp cmp,
           const char *site, __gm__ int32_t *signal_base, D... dims) {
  const int64_t shape[sizeof...(D) + 1] = {static_cast<int64_t>(dims)...};
  detail::twait(cell, expected, cmp, site, signal_base, shape, sizeof...(D));
}
inline bool ttest(__gm__ int32_t *cell, int32_t expected, WaitCmp cmp) {
  return detail::ttest(cell, expected, cmp);
}

/// set_flag/wait_flag: `Dst` waits until `Src` got here. The simulator runs
/// every op to completion in program order, so there is nothing to wait for.
template <Pipe Src, Pipe Dst> void pipe_sync() {}

/// Payload written so far is visible before the next notify.
inline void release() { detail::release(); }
/// Payload published before the notifies that satisfied this thread's waits
/// is visible from here on.
inline void acquire() { detail::acquire(); }

// A scalar access, optionally with the tensor it must stay in. Relaxed
// atomics: a scalar access is how a kernel reads a signal cell after its wait
// (the handshake's pl.read), which a peer's notify updates atomically; as a
// plain access that would be a C++ data race ThreadSanitizer reports in every
// correct handshake. pld's own ordering of payloads, scalar ones included,
// is what `--sanitize race` checks.
template <typename T>
T read(__gm__ T *p, const char *site, __gm__ T *tensor = nullptr,
       int64_t tensor_elems = 0) {
  T value;
  if (!detail::check_read(p, sizeof(T), site, tensor, tensor_elems * sizeof(T),
                          &value))
    __atomic_load(p, &value, __ATOMIC_RELAXED);
  return value;
}
// `v` does not take part in deduction: write(i64_ptr, 0, site) must compile.
template <typename T>
void write(__gm__ T *p, typename detail::NonDeduced<T>::type v,
           const char *site, __gm__ T *tensor = nullptr,
           int64_t tensor_elems = 0) {
  if (!detail::check_write(p, sizeof(T), site, tensor, tensor_elems * sizeof(T),
                           &v))
    __atomic_store(p, &v, __ATOMIC_RELAXED);
}

//===-- Entry wrappers: the harness's argument array ----------------------===//

template <typename T> __gm__ T *arg_ptr(const Arg *args, int64_t index) {
  return static_cast<T *>(args[index].ptr);
}
inline int64_t arg_dim(const Arg *args, int64_t index, int64_t dim) {
  return args[index].dims[dim];
}
/// Converted by the library (a bf16 conversion here would need a compiler
/// runtime function that Debian 12's libgcc lacks).
template <typename T> T arg_scalar(const Arg *args, int64_t index) {
  T value;
  detail::scalar_as(args[index].i, args[index].f, detail::DTypeOf<T>::value,
                    &value);
  return value;
}

//===-- Host side: windows and tasks --------------------------------------===//

// Window buffers are `!ascend.gm<i8>`, which EmitC spells `int8_t *`.
inline __gm__ int8_t *alloc_window(__gm__ CommContext *ctx, int64_t bytes,
                                   const char *name) {
  return reinterpret_cast<int8_t *>(detail::alloc_window(ctx, bytes, name));
}
/// The context of the comm group of world ranks `Ranks` (ascending), which
/// host code passes the kernels and tasks that take the group's windows.
template <int64_t... Ranks>
inline __gm__ CommContext *comm_group(__gm__ CommContext *ctx) {
  static_assert(sizeof...(Ranks) > 0, "a comm group has a rank");
  static constexpr int64_t ranks[] = {Ranks...};
  return detail::comm_group(ctx, ranks, sizeof...(Ranks));
}
/// The hand-off space host code passes a mixed kernel whose vector work
/// uses a pl.matmul product (the kernel ABI, docs/lowering.md): `bytes` of
/// global memory of this launch's own.
inline __gm__ int8_t *handoff_workspace(__gm__ CommContext *ctx,
                                        int64_t bytes) {
  return reinterpret_cast<int8_t *>(detail::handoff_workspace(ctx, bytes));
}
template <typename T> __gm__ T *window_as(__gm__ int8_t *buffer) {
  return reinterpret_cast<T *>(buffer);
}

template <typename... T> Deps deps(T... ids) {
  static_assert(sizeof...(T) <= kMaxDeps, "too many task dependencies");
  return {static_cast<int64_t>(sizeof...(T)), {ids.id...}};
}

template <typename... P, typename... A>
TaskId submit(__gm__ CommContext *ctx, const char *name, int64_t blocks,
              bool dispatch, Deps deps,
              void (*kernel)(__gm__ CommContext *, P...), A... args) {
  return {detail::submit(ctx, name, blocks, dispatch, deps.ids, deps.count,
                         detail::bind_task(kernel, args...))};
}

template <typename... D>
void defer_completion(DispatchPayload payload, __gm__ int32_t *cell,
                      int32_t expected, const char *site,
                      __gm__ int32_t *signal_base, D... dims) {
  const int64_t shape[sizeof...(D) + 1] = {static_cast<int64_t>(dims)...};
  detail::defer_completion(payload.task, cell, expected, site, signal_base,
                           shape, sizeof...(D));
}

template <typename... P, typename... A>
void launch(__gm__ CommContext *ctx, int64_t blocks,
            void (*kernel)(__gm__ CommContext *, P...), A... args) {
  detail::launch(ctx, blocks, detail::bind(kernel, args...));
}

template <typename... P, typename... A>
void run_on_lanes(__gm__ CommContext *ctx,
                  void (*body)(__gm__ CommContext *, P...), A... args) {
  detail::run_on_lanes(ctx, detail::bind(body, args...));
}

//===-- Mixed kernels: the cube core and the vector core of a block -------===//

/// The FFTS base address a mixed kernel takes after its context (the
/// kernel ABI; device.h). The simulator has no FFTS: host code passes a
/// null address and the kernel's set_ffts_base_addr does nothing.
using FftsAddr = __gm__ uint8_t *;

inline FftsAddr ffts_addr(__gm__ CommContext *ctx) {
  (void)ctx;
  return nullptr;
}

inline void set_ffts_base_addr(FftsAddr addr) { (void)addr; }

/// Runs both halves of one block of a mixed kernel at once: `aic` on the
/// block's cube core (a new simulated thread with its own L1 and L0
/// memories), `aiv` on its vector core (the calling thread); returns when
/// both returned.
template <typename... P, typename... A>
void run_mixed(__gm__ CommContext *ctx, void (*aic)(__gm__ CommContext *, P...),
               void (*aiv)(__gm__ CommContext *, P...), A... args) {
  detail::run_mixed(ctx, detail::bind(aic, args...),
                    detail::bind(aiv, args...));
}

/// The block's intra-block flag from `Src` to `Dst`, which counts: each
/// signal adds one, each wait blocks until there is one and takes it. The
/// k-th wait happens after the k-th signal, as a wait after its notify:
/// payload is published by a release() before the signal and seen after
/// an acquire() after the wait.
template <Core Src, Core Dst> void cross_core_signal() {
  static_assert(Src != Dst, "a cross-core flag goes to the other core");
  detail::cross_core_signal(Src, Dst);
}
template <Core Src, Core Dst> void cross_core_wait() {
  static_assert(Src != Dst, "a cross-core flag comes from the other core");
  detail::cross_core_wait(Src, Dst);
}

} // namespace pld::rt

#endif // PLD_RUNTIME_HOST_H
