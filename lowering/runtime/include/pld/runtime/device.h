//===- device.h - pld's runtime on the device: PTO ISA ----------*- C++ -*-===//
//
// The device half of pld/runtime.h: every call the emitted kernels make,
// forwarded to PTO ISA (pto-inst.hpp) and the CCE intrinsics, as
// docs/target/pto-isa.md documents them (with the file and line of
// hw-native-sys/pto-isa each fact comes from). Enums map by name, never by
// value (pld's `ge` is 1, PTO's `GE` is 3). Host code and entry wrappers are
// not compiled here (`PLD_HOST_CODE` is 0). Deferred completion needs the
// task runtime's API and lives in deferred.h, which only modules that defer
// include.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_RUNTIME_DEVICE_H
#define PLD_RUNTIME_DEVICE_H

#include <cstdint>
#include <pto/pto-inst.hpp>

#define PLD_HOST_CODE 0

namespace pld::rt {

using f16 = half;
using bf16 = bfloat16_t;

/// semantics §1: the context the runtime hands every kernel.
struct CommContext {
  uint64_t workSpace;
  uint64_t workSpaceSize;
  uint32_t rankId;
  uint32_t rankNum;
  uint64_t winSize;
  uint64_t windowsIn[64];
  uint64_t windowsOut[64];
};
static_assert(sizeof(CommContext) == 1056, "CommContext is 1056 bytes");
static_assert(offsetof(CommContext, rankId) == 16, "rankId at byte 16");
static_assert(offsetof(CommContext, rankNum) == 20, "rankNum at byte 20");
static_assert(offsetof(CommContext, winSize) == 24, "winSize at byte 24");
static_assert(offsetof(CommContext, windowsIn) == 32, "windowsIn at byte 32");
static_assert(offsetof(CommContext, windowsOut) == 544, "windowsOut at 544");

enum class NotifyOp { AtomicAdd, Set };
enum class WaitCmp { EQ, GE };
enum class Pipe { S, V, M, MTE1, MTE2, MTE3, All };

AICORE inline int32_t rank(__gm__ CommContext *ctx) { return ctx->rankId; }
AICORE inline int32_t nranks(__gm__ CommContext *ctx) { return ctx->rankNum; }
AICORE inline int64_t block_idx() { return get_block_idx(); }
AICORE inline int64_t subblock_idx() { return get_subblockid(); }

template <typename T>
AICORE inline __gm__ T *offset(__gm__ T *base, int64_t elements) {
  return base + elements;
}

/// The same window element on rank `peer`:
/// windowsIn[peer] + (local - windowsIn[rankId]).
template <typename T>
AICORE inline __gm__ T *peer_ptr(__gm__ CommContext *ctx, __gm__ T *local,
                                 int64_t peer, const char *) {
  uint64_t delta =
      reinterpret_cast<uint64_t>(local) - ctx->windowsIn[ctx->rankId];
  return reinterpret_cast<__gm__ T *>(ctx->windowsIn[peer] + delta);
}

/// A 2-D region of global memory and its PTO view.
template <typename T> struct View {
  __gm__ T *data;
  int64_t rows, cols, stride;
};
template <typename T>
using Global2D =
    pto::GlobalTensor<T, pto::Shape<1, 1, 1, pto::DYNAMIC, pto::DYNAMIC>,
                      pto::Stride<1, 1, 1, pto::DYNAMIC, 1>>;

template <typename T>
AICORE inline View<T> view(__gm__ T *data, int64_t rows, int64_t cols,
                           int64_t stride) {
  return View<T>{data, rows, cols, stride};
}
/// The tensor a view lies in only serves the simulator's bounds check.
template <typename T>
AICORE inline View<T> view(__gm__ T *data, int64_t rows, int64_t cols,
                           int64_t stride, __gm__ T *, int64_t) {
  return View<T>{data, rows, cols, stride};
}

template <typename T> AICORE inline Global2D<T> global(View<T> view) {
  return Global2D<T>(
      view.data,
      pto::Shape<1, 1, 1, pto::DYNAMIC, pto::DYNAMIC>(view.rows, view.cols),
      pto::Stride<1, 1, 1, pto::DYNAMIC, 1>(view.stride));
}

/// A UB tile with a dynamic valid shape: a ragged tail, or the logical
/// width of a row padded to whole 32-byte blocks. The valid shape is set
/// when the handle is made; TLOAD, TSTORE and the tile math cover it.
template <typename T, int R, int C> struct Tile {
  using Data = pto::Tile<pto::TileType::Vec, T, R, C, pto::BLayout::RowMajor,
                         pto::DYNAMIC, pto::DYNAMIC>;
  Data data;
};

template <typename T, int R, int C>
AICORE inline Tile<T, R, C> tile(int64_t ub_offset) {
  Tile<T, R, C> t;
  pto::TASSIGN(t.data, ub_offset);
  t.data.SetValidShape(R, C);
  return t;
}

template <typename T, int R, int C>
AICORE inline Tile<T, R, C> tile(int64_t ub_offset, int64_t rows,
                                 int64_t cols) {
  Tile<T, R, C> t;
  pto::TASSIGN(t.data, ub_offset);
  t.data.SetValidShape(rows, cols);
  return t;
}

template <typename T, int R, int C>
AICORE inline int64_t valid_rows(Tile<T, R, C> t) {
  return t.data.GetValidRow();
}
template <typename T, int R, int C>
AICORE inline int64_t valid_cols(Tile<T, R, C> t) {
  return t.data.GetValidCol();
}

/// TLOAD fills the tile's valid shape, which the view's extent equals (PTO
/// asserts it); the rest of the tile stays undefined.
template <typename T, int R, int C>
AICORE inline void tload(Tile<T, R, C> t, View<T> src, const char *) {
  Global2D<T> g = global(src);
  pto::TLOAD(t.data, g);
}

/// TSTORE writes the tile's valid shape through the view's strides. The
/// lowering makes the two equal and the simulator traps where they are
/// not; should they differ on the device all the same, the handle stored
/// covers only what both have, so that a store writes neither past its
/// view nor elements its tile never held (a TLOAD leaves the tail
/// undefined).
template <typename T, int R, int C>
AICORE inline typename Tile<T, R, C>::Data stored(View<T> dst,
                                                  Tile<T, R, C> t) {
  typename Tile<T, R, C>::Data region = t.data;
  int64_t rows = t.data.GetValidRow(), cols = t.data.GetValidCol();
  region.SetValidShape(dst.rows < rows ? dst.rows : rows,
                       dst.cols < cols ? dst.cols : cols);
  return region;
}

template <typename T, int R, int C>
AICORE inline void tstore(View<T> dst, Tile<T, R, C> t, const char *) {
  Global2D<T> g = global(dst);
  typename Tile<T, R, C>::Data region = stored(dst, t);
  pto::TSTORE(g, region);
}

template <typename T, int R, int C>
AICORE inline void tstore_atomic_add(View<T> dst, Tile<T, R, C> t,
                                     const char *) {
  Global2D<T> g = global(dst);
  typename Tile<T, R, C>::Data region = stored(dst, t);
  pto::TSTORE<typename Tile<T, R, C>::Data, Global2D<T>,
              pto::AtomicType::AtomicAdd>(g, region);
}

template <typename T, int R, int C>
AICORE inline void tadd(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  pto::TADD(d.data, a.data, b.data);
}
template <typename T, int R, int C>
AICORE inline void tmax(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  pto::TMAX(d.data, a.data, b.data);
}
template <typename T, int R, int C>
AICORE inline void tmin(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  pto::TMIN(d.data, a.data, b.data);
}
// pld's `prod` reduction: PTO has no Prod ReduceOp, so it is a TMUL.
template <typename T, int R, int C>
AICORE inline void tmul(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  pto::TMUL(d.data, a.data, b.data);
}
template <typename T, int R, int C>
AICORE inline void tcopy(Tile<T, R, C> d, Tile<T, R, C> s, const char *) {
  pto::TMOV(d.data, s.data);
}
/// A staging tile for a transfer of `view`: TPUT and TGET move the region
/// in chunks of the staging tile's valid shape, and one that fits is one
/// TLOAD + TSTORE, whose TLOAD asserts that the region is the valid shape.
template <typename T, int R, int C>
AICORE inline typename Tile<T, R, C>::Data staging(View<T> view,
                                                   Tile<T, R, C> t) {
  typename Tile<T, R, C>::Data stage = t.data;
  stage.SetValidShape(view.rows < R ? view.rows : R,
                      view.cols < C ? view.cols : C);
  return stage;
}

template <typename T, int R, int C>
AICORE inline void tput(View<T> dst, View<T> src, Tile<T, R, C> stage,
                        const char *) {
  Global2D<T> d = global(dst), s = global(src);
  typename Tile<T, R, C>::Data ping = staging(src, stage);
  pto::comm::TPUT(d, s, ping);
}
template <typename T, int R, int C>
AICORE inline void tput(View<T> dst, View<T> src, Tile<T, R, C> ping,
                        Tile<T, R, C> pong, const char *) {
  Global2D<T> d = global(dst), s = global(src);
  typename Tile<T, R, C>::Data first = staging(src, ping),
                               second = staging(src, pong);
  pto::comm::TPUT(d, s, first, second);
}
template <typename T, int R, int C>
AICORE inline void tput_atomic_add(View<T> dst, View<T> src,
                                   Tile<T, R, C> stage, const char *) {
  Global2D<T> d = global(dst), s = global(src);
  typename Tile<T, R, C>::Data ping = staging(src, stage);
  pto::comm::TPUT<pto::AtomicType::AtomicAdd>(d, s, ping);
}
template <typename T, int R, int C>
AICORE inline void tput_atomic_add(View<T> dst, View<T> src, Tile<T, R, C> ping,
                                   Tile<T, R, C> pong, const char *) {
  Global2D<T> d = global(dst), s = global(src);
  typename Tile<T, R, C>::Data first = staging(src, ping),
                               second = staging(src, pong);
  pto::comm::TPUT<pto::AtomicType::AtomicAdd>(d, s, first, second);
}
template <typename T, int R, int C>
AICORE inline void tget(View<T> dst, View<T> src, Tile<T, R, C> stage,
                        const char *) {
  Global2D<T> d = global(dst), s = global(src);
  typename Tile<T, R, C>::Data ping = staging(src, stage);
  pto::comm::TGET(d, s, ping);
}
template <typename T, int R, int C>
AICORE inline void tget(View<T> dst, View<T> src, Tile<T, R, C> ping,
                        Tile<T, R, C> pong, const char *) {
  Global2D<T> d = global(dst), s = global(src);
  typename Tile<T, R, C>::Data first = staging(src, ping),
                               second = staging(src, pong);
  pto::comm::TGET(d, s, first, second);
}

/// The signal cell as PTO's one-cell signal view.
AICORE inline pto::comm::Signal signal_at(__gm__ int32_t *cell) {
  return pto::comm::Signal(cell);
}

// By name: pld's `ge` (1) is PTO's `GE` (3).
AICORE inline pto::comm::WaitCmp pto_cmp(WaitCmp cmp) {
  return cmp == WaitCmp::GE ? pto::comm::WaitCmp::GE : pto::comm::WaitCmp::EQ;
}

template <typename... Dims>
AICORE inline void tnotify(__gm__ int32_t *cell, int32_t value, NotifyOp op,
                           const char *, __gm__ int32_t *, Dims...) {
  pto::comm::Signal s = signal_at(cell);
  pto::comm::TNOTIFY(s, value,
                     op == NotifyOp::AtomicAdd ? pto::comm::NotifyOp::AtomicAdd
                                               : pto::comm::NotifyOp::Set);
}

template <typename... Dims>
AICORE inline void twait(__gm__ int32_t *cell, int32_t expected, WaitCmp cmp,
                         const char *, __gm__ int32_t *, Dims...) {
  pto::comm::Signal s = signal_at(cell);
  pto::comm::TWAIT(s, expected, pto_cmp(cmp));
}

AICORE inline bool ttest(__gm__ int32_t *cell, int32_t expected, WaitCmp cmp) {
  pto::comm::Signal s = signal_at(cell);
  return pto::comm::TTEST(s, expected, pto_cmp(cmp));
}

/// Before a notify that follows payload accesses: clean the data cache,
/// drain every pipe (loads still in flight included), commit to DDR. The
/// enumerator is qualified: the CPU build's `cache_line_t` is a struct
/// (pto/common/cpu_stub.hpp), the device's an enum; both accept this.
AICORE inline void release() {
  dcci((__gm__ void *)0, cache_line_t::ENTIRE_DATA_CACHE);
  pipe_barrier(PIPE_ALL);
  dsb(DSB_DDR);
}

/// After a wait, before payload accesses: invalidate the data cache.
AICORE inline void acquire() {
  dcci((__gm__ void *)0, cache_line_t::ENTIRE_DATA_CACHE);
}

/// PTO's pipe for pld's, by name: `pipe_t`'s values differ between headers.
AICORE constexpr pipe_t pto_pipe(Pipe pipe) {
  switch (pipe) {
  case Pipe::S:
    return PIPE_S;
  case Pipe::V:
    return PIPE_V;
  case Pipe::M:
    return PIPE_M;
  case Pipe::MTE1:
    return PIPE_MTE1;
  case Pipe::MTE2:
    return PIPE_MTE2;
  case Pipe::MTE3:
    return PIPE_MTE3;
  case Pipe::All:
    break;
  }
  return PIPE_ALL;
}

/// `dst` waits until `src` reached this point. The pipes are compile-time
/// constants, as the intrinsics require.
template <Pipe Src, Pipe Dst> AICORE inline void pipe_sync() {
  constexpr pipe_t src = pto_pipe(Src);
  constexpr pipe_t dst = pto_pipe(Dst);
  set_flag(src, dst, EVENT_ID0);
  wait_flag(src, dst, EVENT_ID0);
}

// The tensor an access lies in only serves the simulator's bounds check.
template <typename T>
AICORE inline T read(__gm__ T *p, const char *, __gm__ T * = nullptr,
                     int64_t = 0) {
  return *p;
}
template <typename T> struct NonDeduced {
  using type = T;
};
// `value` does not take part in deduction, as on the host.
template <typename T>
AICORE inline void write(__gm__ T *p, typename NonDeduced<T>::type value,
                         const char *, __gm__ T * = nullptr, int64_t = 0) {
  *p = value;
}

/// A split-AIV region: every AIV sub-lane runs the kernel, so each runs
/// the body itself.
template <typename... P, typename... A>
AICORE inline void run_on_lanes(__gm__ CommContext *ctx,
                                void (*body)(__gm__ CommContext *, P...),
                                A... args) {
  body(ctx, args...);
}

} // namespace pld::rt

#endif // PLD_RUNTIME_DEVICE_H
