//===- device.h - pld's runtime on the device: PTO ISA ----------*- C++ -*-===//
//
// The device half of pld/runtime.h: every call the emitted kernels make,
// forwarded to PTO ISA (pto-inst.hpp) and the CCE intrinsics, as
// docs/target/pto-isa.md documents them (with the file and line of
// hw-native-sys/pto-isa each fact comes from). Enums map by name, never by
// value (pld's `ge` is 1, PTO's `GE` is 3). Host code and entry wrappers are
// not compiled here (`PLD_HOST_CODE` is 0). Deferred completion and the
// block and lane a task was dispatched for need the task runtime's API and
// live in task_runtime.h, which only modules that use them include.
//
// A mixed kernel (cube and vector work in one kernel, run_mixed) is
// compiled once per core type: every function of it must compile for both
// cores, and each core runs only its own half (see "Which core this
// compile is for" below).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_RUNTIME_DEVICE_H
#define PLD_RUNTIME_DEVICE_H

#include <cstdint>
#include <pto/pto-inst.hpp>
#include <type_traits>
#if defined(__CPU_SIM)
#include <atomic>
#include <chrono>
#include <thread>
#endif

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
using RoundMode = pto::RoundMode;
/// FIX is the cube's fixpipe (TSTORE of an Acc tile, common/event.hpp:
/// 240-244).
enum class Pipe { S, V, M, MTE1, MTE2, MTE3, FIX, All };
/// A block's two cores: the cube core and the vector core.
enum class Core : uint8_t { AIC, AIV };

//===-- Which core this compile is for ------------------------------------===//
//
// The vendor's compiler builds a mixed kernel's source once per core type,
// defining __DAV_C220_CUBE__ for the cube core and __DAV_C220_VEC__ for the
// vector core on a2a3 (__DAV_C310_* on a5); the vendor's own mixed kernels
// keep each core's instructions away from the other core's compile with
// `if constexpr` on flags made of those macros (pto-isa
// demos/baseline/flash_atten/csrc/kernel/fa_custom.cpp:75-85, used at :505,
// :848, :966, :984) or with #if on PTO's __DAV_CUBE__ / __DAV_VEC__
// (include/pto/npu/a2a3/SyncAll.hpp:24-46, TPush.hpp:122-160). Both halves
// of a pld mixed kernel are in every compile (run_mixed names both), so
// every cube wrapper below issues its PTO instruction only where the cube
// may run (kCubeCode) and every vector-only wrapper only where the vector
// core may (kVectorCode). The wrappers are templates, so the discarded
// branch is never instantiated. A build without either macro (PTO's CPU
// build, __CPU_SIM, which runs both halves, and the test stub) keeps
// everything. The chip macros, not __DAV_CUBE__ / __DAV_VEC__: the CPU
// build defines both of those (common/arch_macro.hpp:14-17).
#if defined(__DAV_C220_VEC__) || defined(__DAV_C310_VEC__)
inline constexpr bool kCubeCode = false;
#else
inline constexpr bool kCubeCode = true;
#endif
#if defined(__DAV_C220_CUBE__) || defined(__DAV_C310_CUBE__)
inline constexpr bool kVectorCode = false;
#else
inline constexpr bool kVectorCode = true;
#endif

AICORE inline int32_t rank(__gm__ CommContext *ctx) { return ctx->rankId; }
AICORE inline int32_t nranks(__gm__ CommContext *ctx) { return ctx->rankNum; }
/// The task's dispatch payload: the argument array the task runtime
/// dispatches a task's kernel with (docs/lowering.md, the kernel ABI). What
/// it holds is read through the runtime's API (task_runtime.h); a kernel
/// that only passes it on needs no more than its type.
using DispatchPayload = __gm__ int64_t *;

/// A kernel the runtime launched itself has no payload: the index queries
/// then read the hardware's registers.
AICORE inline DispatchPayload no_payload() { return nullptr; }

AICORE inline int64_t block_idx() { return get_block_idx(); }
AICORE inline int64_t subblock_idx() { return get_subblockid(); }

template <typename T>
AICORE inline __gm__ T *offset(__gm__ T *base, int64_t elements) {
  return base + elements;
}

/// A kernel's hand-off space (`__gm__ int8_t *`, the kernel ABI) as a
/// pointer to a product's elements.
template <typename T> AICORE inline __gm__ T *window_as(__gm__ int8_t *buffer) {
  return reinterpret_cast<__gm__ T *>(buffer);
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

/// `ascend.check`: the simulator stops the run where `holds` is false; the
/// device has no channel to report on, so it does not check (a kernel that
/// fails a check in the simulator is wrong here too).
AICORE inline void check(bool, const char *, const char *) {}

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
  if constexpr (kVectorCode) {
    pto::TASSIGN(t.data, ub_offset);
    t.data.SetValidShape(R, C);
  }
  return t;
}

template <typename T, int R, int C>
AICORE inline Tile<T, R, C> tile(int64_t ub_offset, int64_t rows,
                                 int64_t cols) {
  Tile<T, R, C> t;
  if constexpr (kVectorCode) {
    pto::TASSIGN(t.data, ub_offset);
    t.data.SetValidShape(rows, cols);
  }
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
  if constexpr (kVectorCode) {
    Global2D<T> g = global(src);
    pto::TLOAD(t.data, g);
  }
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
  if constexpr (kVectorCode) {
    Global2D<T> g = global(dst);
    typename Tile<T, R, C>::Data region = stored(dst, t);
    pto::TSTORE(g, region);
  }
}

template <typename T, int R, int C>
AICORE inline void tstore_atomic_add(View<T> dst, Tile<T, R, C> t,
                                     const char *) {
  if constexpr (kVectorCode) {
    Global2D<T> g = global(dst);
    typename Tile<T, R, C>::Data region = stored(dst, t);
    pto::TSTORE<typename Tile<T, R, C>::Data, Global2D<T>,
                pto::AtomicType::AtomicAdd>(g, region);
  }
}

template <typename T, int R, int C>
AICORE inline void tadd(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  if constexpr (kVectorCode)
    pto::TADD(d.data, a.data, b.data);
}
template <typename T, int R, int C>
AICORE inline void tmax(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  if constexpr (kVectorCode)
    pto::TMAX(d.data, a.data, b.data);
}
template <typename T, int R, int C>
AICORE inline void tmin(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  if constexpr (kVectorCode)
    pto::TMIN(d.data, a.data, b.data);
}
// pld's `prod` reduction: PTO has no Prod ReduceOp, so it is a TMUL.
template <typename T, int R, int C>
AICORE inline void tmul(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  if constexpr (kVectorCode)
    pto::TMUL(d.data, a.data, b.data);
}
template <typename T, int R, int C>
AICORE inline void tsub(Tile<T, R, C> d, Tile<T, R, C> a, Tile<T, R, C> b,
                        const char *) {
  if constexpr (kVectorCode)
    pto::TSUB(d.data, a.data, b.data);
}
template <typename T, int R, int C>
AICORE inline void tadds(Tile<T, R, C> d, Tile<T, R, C> a, T s, const char *) {
  if constexpr (kVectorCode)
    pto::TADDS(d.data, a.data, s);
}
template <typename T, int R, int C>
AICORE inline void tsubs(Tile<T, R, C> d, Tile<T, R, C> a, T s, const char *) {
  if constexpr (kVectorCode)
    pto::TSUBS(d.data, a.data, s);
}
template <typename T, int R, int C>
AICORE inline void tmuls(Tile<T, R, C> d, Tile<T, R, C> a, T s, const char *) {
  if constexpr (kVectorCode)
    pto::TMULS(d.data, a.data, s);
}
template <typename T, int R, int C>
AICORE inline void tmaxs(Tile<T, R, C> d, Tile<T, R, C> a, T s, const char *) {
  if constexpr (kVectorCode)
    pto::TMAXS(d.data, a.data, s);
}
template <typename T, int R, int C>
AICORE inline void tmins(Tile<T, R, C> d, Tile<T, R, C> a, T s, const char *) {
  if constexpr (kVectorCode)
    pto::TMINS(d.data, a.data, s);
}
template <typename D, typename S, int R, int CD, int CS>
AICORE inline void tcvt(Tile<D, R, CD> d, Tile<S, R, CS> s, RoundMode mode,
                        const char *) {
  if constexpr (kVectorCode)
    pto::TCVT(d.data, s.data, mode);
}
template <typename T, int R, int C>
AICORE inline void texpands(Tile<T, R, C> d, T s, const char *) {
  if constexpr (kVectorCode)
    pto::TEXPANDS(d.data, s);
}
template <typename T, int R, int C>
AICORE inline void tcopy(Tile<T, R, C> d, Tile<T, R, C> s, const char *) {
  if constexpr (kVectorCode)
    pto::TMOV(d.data, s.data);
}
/// A staging tile for a transfer of `view`: TPUT and TGET move the region
/// in chunks of the staging tile's valid shape, and one that fits is one
/// TLOAD + TSTORE, whose TLOAD asserts that the region is the valid shape.
template <typename T, int R, int C>
AICORE inline typename Tile<T, R, C>::Data staging(View<T> view,
                                                   Tile<T, R, C> t) {
  typename Tile<T, R, C>::Data stage = t.data;
  if constexpr (kVectorCode)
    stage.SetValidShape(view.rows < R ? view.rows : R,
                        view.cols < C ? view.cols : C);
  return stage;
}

template <typename T, int R, int C>
AICORE inline void tput(View<T> dst, View<T> src, Tile<T, R, C> stage,
                        const char *) {
  if constexpr (kVectorCode) {
    Global2D<T> d = global(dst), s = global(src);
    typename Tile<T, R, C>::Data ping = staging(src, stage);
    pto::comm::TPUT(d, s, ping);
  }
}
template <typename T, int R, int C>
AICORE inline void tput(View<T> dst, View<T> src, Tile<T, R, C> ping,
                        Tile<T, R, C> pong, const char *) {
  if constexpr (kVectorCode) {
    Global2D<T> d = global(dst), s = global(src);
    typename Tile<T, R, C>::Data first = staging(src, ping),
                                 second = staging(src, pong);
    pto::comm::TPUT(d, s, first, second);
  }
}
template <typename T, int R, int C>
AICORE inline void tput_atomic_add(View<T> dst, View<T> src,
                                   Tile<T, R, C> stage, const char *) {
  if constexpr (kVectorCode) {
    Global2D<T> d = global(dst), s = global(src);
    typename Tile<T, R, C>::Data ping = staging(src, stage);
    pto::comm::TPUT<pto::AtomicType::AtomicAdd>(d, s, ping);
  }
}
template <typename T, int R, int C>
AICORE inline void tput_atomic_add(View<T> dst, View<T> src, Tile<T, R, C> ping,
                                   Tile<T, R, C> pong, const char *) {
  if constexpr (kVectorCode) {
    Global2D<T> d = global(dst), s = global(src);
    typename Tile<T, R, C>::Data first = staging(src, ping),
                                 second = staging(src, pong);
    pto::comm::TPUT<pto::AtomicType::AtomicAdd>(d, s, first, second);
  }
}
template <typename T, int R, int C>
AICORE inline void tget(View<T> dst, View<T> src, Tile<T, R, C> stage,
                        const char *) {
  if constexpr (kVectorCode) {
    Global2D<T> d = global(dst), s = global(src);
    typename Tile<T, R, C>::Data ping = staging(src, stage);
    pto::comm::TGET(d, s, ping);
  }
}
template <typename T, int R, int C>
AICORE inline void tget(View<T> dst, View<T> src, Tile<T, R, C> ping,
                        Tile<T, R, C> pong, const char *) {
  if constexpr (kVectorCode) {
    Global2D<T> d = global(dst), s = global(src);
    typename Tile<T, R, C>::Data first = staging(src, ping),
                                 second = staging(src, pong);
    pto::comm::TGET(d, s, first, second);
  }
}

//===-- SDMA transfers: global memory to global memory --------------------===//
//
// PTO ISA's asynchronous transfers (pto-isa include/pto/comm/
// pto_comm_inst.hpp:339-400): a kernel builds an `AsyncSession` once from
// the SDMA workspace and sync id its launcher passes and a 256-byte scratch
// tile in the unified buffer (comm/async_common/async_event_impl.hpp:27-43;
// kernels/manual/a2a3/tget_bandwidth/tget_bandwidth_kernel.cpp:243-274),
// then `TGET_ASYNC(dst, src, session)` / `TPUT_ASYNC` post a copy to the
// SDMA engine and return an `AsyncEvent`, which `event.Wait(session)`
// completes. A post moves one flat contiguous line
// (comm/async_common/TGetAsyncCommonDetail.hpp:77-84, TPutAsyncCommonDetail
// .hpp:77-84), so a view whose rows are not one line goes row by row. The
// session keeps the engine's queue state (mutated through const references,
// async_types.hpp:141-144): it is passed by reference, never copied.
// PTO's CPU build (__CPU_SIM) has neither BuildAsyncSession nor
// AsyncEvent::Wait (pto_comm_inst.hpp:18-20 includes
// async_event_impl.hpp only outside it): its TGET_ASYNC / TPUT_ASYNC copy
// at once and ignore the session (cpu/comm/TGet.hpp:69-74,
// cpu/comm/TPut.hpp:30-35), so there the session is not built and nothing
// is waited for.

/// What a kernel that moves data with SDMA receives after its context (and
/// its dispatch payload, if it takes one), with a sync id: the SDMA
/// workspace the host runtime set up (`SdmaWorkspaceManager`;
/// tget_bandwidth_kernel.cpp:243-245 takes the same pair).
using SdmaWorkspace = __gm__ uint8_t *;
using AsyncSession = pto::comm::AsyncSession;
using AsyncEvent = pto::comm::AsyncEvent;

namespace detail {

/// The session's scratch buffer: a Vec tile of UB_ALIGN_SIZE bytes
/// (async_types.hpp:27, :31; tget_bandwidth_kernel.cpp:250).
using SdmaScratch =
    pto::Tile<pto::TileType::Vec, uint8_t, 1, pto::comm::sdma::UB_ALIGN_SIZE>;

/// A flat line of `n` elements as TGET_ASYNC takes one: shape (1, 1, 1, 1,
/// n) with packed strides (tget_bandwidth_kernel.cpp:247-249, :263-264).
using LineShape = pto::Shape<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC,
                             pto::DYNAMIC, pto::DYNAMIC>;
using LineStride = pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC,
                               pto::DYNAMIC, pto::DYNAMIC>;
template <typename T>
using Line = pto::GlobalTensor<T, LineShape, LineStride, pto::Layout::ND>;

template <bool Push, typename T>
AICORE inline AsyncEvent sdma_post(__gm__ T *dst, __gm__ T *src, int64_t n,
                                   AsyncSession &session) {
  Line<T> d(dst, LineShape(1, 1, 1, 1, n), LineStride(n, n, n, n, 1));
  Line<T> s(src, LineShape(1, 1, 1, 1, n), LineStride(n, n, n, n, 1));
  if constexpr (Push)
    return pto::comm::TPUT_ASYNC(d, s, session);
  else
    return pto::comm::TGET_ASYNC(d, s, session);
}

/// The copy of `src` into `dst`: one post when the rows of both are one
/// line, else one per row, each waited for before the next; the event of
/// the last.
template <bool Push, typename T>
AICORE inline AsyncEvent sdma_copy(View<T> dst, View<T> src,
                                   AsyncSession &session) {
  AsyncEvent event;
  if constexpr (kVectorCode) {
    if (dst.rows <= 1 || (dst.stride == dst.cols && src.stride == src.cols))
      return sdma_post<Push>(dst.data, src.data, dst.rows * dst.cols, session);
    for (int64_t r = 0; r < dst.rows; ++r) {
#if !defined(__CPU_SIM)
      if (r > 0)
        (void)event.Wait(session);
#endif
      event = sdma_post<Push>(dst.data + r * dst.stride,
                              src.data + r * src.stride, dst.cols, session);
    }
  }
  return event;
}

} // namespace detail

namespace detail {

/// BuildAsyncSession on the scratch tile at `ub_offset`, on the SDMA channel
/// of AIV lane `lane` of this core's cluster: PTO's default channel is
/// `get_block_idx()` (sdma_async_intrin.hpp:107-108), which both AIVs of a
/// block share, and the workspace has a channel per AIV core
/// (kSdmaMaxChannel = 48, comm/async/sdma/sdma_types.hpp:30;
/// WarmupSdmaControlPathForAiv, sdma_async_detail_post.hpp:176-186), so the
/// channel is the AIV's index over the launch, `get_block_idx() *
/// get_subblockdim() + lane` (get_subblockdim() is 1 in an AIV-only launch,
/// 2 in a mixed one: cannmirror/asc-devkit @2cdc3f1,
/// docs/api/context/c_api/sys_var/asc_get_sub_block_num.md and
/// impl/c_api/c_api_instr_impl/sys_var/get_sub_block_num/asc_2201/
/// get_sub_block_num_impl.h:15-18).
AICORE inline AsyncSession sdma_session_on_lane(SdmaWorkspace workspace,
                                                int32_t sync_id,
                                                int64_t ub_offset,
                                                int64_t lane) {
  AsyncSession session;
#if defined(__CPU_SIM)
  (void)workspace;
  (void)sync_id;
  (void)ub_offset;
  (void)lane;
#else
  if constexpr (kVectorCode) {
    SdmaScratch scratch;
    pto::TASSIGN(scratch, ub_offset);
    uint32_t channel =
        static_cast<uint32_t>(get_block_idx() * get_subblockdim() + lane);
    pto::comm::sdma::SdmaBaseConfig config{
        pto::comm::sdma::kDefaultSdmaBlockBytes, 0, 1};
    (void)pto::comm::BuildAsyncSession<pto::comm::DmaEngine::SDMA>(
        scratch, workspace, session, static_cast<uint32_t>(sync_id), config,
        channel);
  }
#endif
  return session;
}

} // namespace detail

/// The kernel's SDMA session on this AIV core's own channel, its lane read
/// from the register: a kernel the runtime launched itself (task_runtime.h
/// has the task runtime's form).
AICORE inline AsyncSession sdma_session(SdmaWorkspace workspace,
                                        int32_t sync_id, int64_t ub_offset,
                                        const char *) {
  return detail::sdma_session_on_lane(workspace, sync_id, ub_offset,
                                      get_subblockid());
}

template <typename T>
AICORE inline AsyncEvent tget_async(View<T> dst, View<T> src,
                                    AsyncSession &session, const char *) {
  return detail::sdma_copy<false>(dst, src, session);
}
template <typename T>
AICORE inline AsyncEvent tput_async(View<T> dst, View<T> src,
                                    AsyncSession &session, const char *) {
  return detail::sdma_copy<true>(dst, src, session);
}

/// AsyncEvent::Wait (async_event_impl.hpp:108-127).
AICORE inline void wait_async(AsyncEvent event, AsyncSession &session,
                              const char *) {
#if defined(__CPU_SIM)
  (void)event;
  (void)session;
#else
  if constexpr (kVectorCode)
    (void)event.Wait(session);
#endif
}

//===-- The cube: L1, L0A, L0B and L0C tiles and the matrix unit ---------===//

/// A tile in L1: PTO's Mat tile in the NZ layout (column-major 16-row x
/// 32-byte boxes, rows inside a box), which TLOAD fills from an ND view
/// (common/arch/memory/tload_common.hpp:362-370) and TEXTRACT reads into
/// L0A as it is and into L0B transposed (textract_common.hpp:450-501).
template <typename T, int R, int C> struct Mat {
  using Data =
      pto::Tile<pto::TileType::Mat, T, R, C, pto::BLayout::ColMajor,
                pto::DYNAMIC, pto::DYNAMIC, pto::SLayout::RowMajor, 512>;
  Data data;
};
/// L0A, L0B and L0C: PTO's own aliases (common/pto_tile.hpp:1714-1773; the
/// Left tile's layout differs between a2a3 and the other chips, CPU_SIM
/// included).
template <typename T, int R, int C> struct Left {
  using Data = pto::TileLeft<T, R, C, pto::DYNAMIC, pto::DYNAMIC>;
  Data data;
};
template <typename T, int R, int C> struct Right {
  using Data = pto::TileRight<T, R, C, pto::DYNAMIC, pto::DYNAMIC>;
  Data data;
};
template <typename T, int R, int C> struct Acc {
  using Data = pto::TileAcc<T, R, C, pto::DYNAMIC, pto::DYNAMIC>;
  Data data;
};

/// A cube handle at `offset` of its memory with a valid shape.
template <typename Handle>
AICORE inline Handle cube_tile(int64_t offset, int64_t rows, int64_t cols) {
  Handle t;
  if constexpr (kCubeCode) {
    pto::TASSIGN(t.data, offset);
    t.data.SetValidShape(rows, cols);
  }
  return t;
}

template <typename T, int R, int C>
AICORE inline Mat<T, R, C> mat(int64_t offset) {
  return cube_tile<Mat<T, R, C>>(offset, R, C);
}
template <typename T, int R, int C>
AICORE inline Mat<T, R, C> mat(int64_t offset, int64_t rows, int64_t cols) {
  return cube_tile<Mat<T, R, C>>(offset, rows, cols);
}
template <typename T, int R, int C>
AICORE inline Left<T, R, C> left(int64_t offset) {
  return cube_tile<Left<T, R, C>>(offset, R, C);
}
template <typename T, int R, int C>
AICORE inline Left<T, R, C> left(int64_t offset, int64_t rows, int64_t cols) {
  return cube_tile<Left<T, R, C>>(offset, rows, cols);
}
template <typename T, int R, int C>
AICORE inline Right<T, R, C> right(int64_t offset) {
  return cube_tile<Right<T, R, C>>(offset, R, C);
}
template <typename T, int R, int C>
AICORE inline Right<T, R, C> right(int64_t offset, int64_t rows, int64_t cols) {
  return cube_tile<Right<T, R, C>>(offset, rows, cols);
}
template <typename T, int R, int C>
AICORE inline Acc<T, R, C> acc(int64_t offset) {
  return cube_tile<Acc<T, R, C>>(offset, R, C);
}
template <typename T, int R, int C>
AICORE inline Acc<T, R, C> acc(int64_t offset, int64_t rows, int64_t cols) {
  return cube_tile<Acc<T, R, C>>(offset, rows, cols);
}

// A cube handle's valid shape (a UB tile's `valid_rows` above is the more
// specialized overload for `Tile`).
template <template <typename, int, int> class Handle, typename T, int R, int C>
AICORE inline int64_t valid_rows(Handle<T, R, C> t) {
  return t.data.GetValidRow();
}
template <template <typename, int, int> class Handle, typename T, int R, int C>
AICORE inline int64_t valid_cols(Handle<T, R, C> t) {
  return t.data.GetValidCol();
}

/// TLOAD into L1 (MTE2): the Mat tile's valid shape, which the view's
/// extent equals, as for a UB tile (tload_common.hpp:55-64).
template <typename T, int R, int C>
AICORE inline void tload(Mat<T, R, C> t, View<T> src, const char *) {
  if constexpr (kCubeCode) {
    Global2D<T> g = global(src);
    pto::TLOAD(t.data, g);
  }
}

/// TEXTRACT (MTE1): the destination's shape from (row, col) of the Mat
/// tile; PTO asserts that it lies inside the source
/// (npu/a2a3/TExtract.hpp:52-60) and takes the offsets as uint16_t
/// (common/pto_instr.hpp:896-903).
template <typename T, int R, int C, int R2, int C2>
AICORE inline void textract(Left<T, R, C> dst, Mat<T, R2, C2> src, int64_t row,
                            int64_t col, const char *) {
  if constexpr (kCubeCode)
    pto::TEXTRACT(dst.data, src.data, static_cast<uint16_t>(row),
                  static_cast<uint16_t>(col));
}
template <typename T, int R, int C, int R2, int C2>
AICORE inline void textract(Right<T, R, C> dst, Mat<T, R2, C2> src, int64_t row,
                            int64_t col, const char *) {
  if constexpr (kCubeCode)
    pto::TEXTRACT(dst.data, src.data, static_cast<uint16_t>(row),
                  static_cast<uint16_t>(col));
}

/// TMATMUL (M pipe): c = a x b, m and k from a's valid shape, n from b's
/// (npu/a2a3/TMatmul.hpp:155-180); the element types are checked there
/// (CheckStaticMad, :77-98).
template <typename TC, typename TA, typename TB, int M, int K, int N>
AICORE inline void tmatmul(Acc<TC, M, N> c, Left<TA, M, K> a, Right<TB, K, N> b,
                           const char *) {
  if constexpr (kCubeCode)
    pto::TMATMUL(c.data, a.data, b.data);
}
/// TMATMUL_ACC with c as both accumulator in and out: c += a x b.
template <typename TC, typename TA, typename TB, int M, int K, int N>
AICORE inline void tmatmul_acc(Acc<TC, M, N> c, Left<TA, M, K> a,
                               Right<TB, K, N> b, const char *) {
  if constexpr (kCubeCode)
    pto::TMATMUL_ACC(c.data, c.data, a.data, b.data);
}

/// As `stored` for a UB tile: the Acc tile's region the view covers.
template <typename U, typename T, int R, int C>
AICORE inline typename Acc<T, R, C>::Data stored(View<U> dst, Acc<T, R, C> t) {
  typename Acc<T, R, C>::Data region = t.data;
  int64_t rows = t.data.GetValidRow(), cols = t.data.GetValidCol();
  region.SetValidShape(dst.rows < rows ? dst.rows : rows,
                       dst.cols < cols ? dst.cols : cols);
  return region;
}

/// TSTORE from L0C through the fixpipe (npu/a2a3/TStore.hpp:264-272), which
/// converts float to f16 or bf16 on the way (F322F16, F322BF16:
/// npu/a2a3/common.hpp:19-31); pld stores nothing else from an Acc tile.
template <typename U, typename T, int R, int C>
AICORE inline void tstore(View<U> dst, Acc<T, R, C> t, const char *) {
  static_assert(std::is_same_v<U, T> ||
                    (std::is_same_v<T, float> &&
                     (std::is_same_v<U, f16> || std::is_same_v<U, bf16>)),
                "tstore of an Acc tile writes its own type, or f16 or bf16 "
                "from float");
  if constexpr (kCubeCode) {
    Global2D<U> g = global(dst);
    typename Acc<T, R, C>::Data region = stored(dst, t);
    pto::TSTORE(g, region);
  }
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
  case Pipe::FIX:
    return PIPE_FIX;
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

//===-- Mixed kernels: the cube core and the vector core of a block -------===//
//
// On a2a3 a block of a mixed kernel is a cluster of one AIC and two AIVs
// (pto-isa docs/isa/scalar/ops/pipeline-sync/set-cross-core.md:13); each
// AIV runs the whole vector half (as every sub-block runs a kernel's
// vector code, run_on_lanes above). The hand-overs are FFTS flags in mode
// 2, between the AIC and the AIVs of one cluster: `ffts_cross_core_sync
// (pipe, msg)` adds one to the flag's count on the other side once the
// named pipe got there, `wait_flag_dev(id)` waits for a count and takes it
// (set-cross-core.md:20, :64; npu/a2a3/custom/TSync_Custom.hpp:87-111).
// Mode 2 is asymmetric (set-cross-core.md:15-18; SyncAll.hpp:38-45, where
// the AIC waits once at :39 for the set both AIVs make at :44; likewise
// demos/baseline/flash_atten/csrc/kernel/fa_custom.cpp:980 and :992):
// - a set by the AIC reaches both AIVs: each AIV's wait takes one AIC
//   signal, and both AIVs must wait for it (here they do: both run the
//   whole vector half), or the other's count grows until its four bits
//   overflow at 16 (set-cross-core.md:64);
// - the AIC's one wait returns once both AIVs have set the flag: the AIC
//   side therefore issues one wait_flag_dev per hand-over, not one per AIV,
//   and a vector half that hands over on one sub-block only (under a
//   `subblock_idx()` test, or inside a split region run by one lane) hangs
//   the AIC. The simulator refuses hand-overs inside split regions.

namespace detail {

/// The flag ids of pld's two directions. Ascend C gives a2a3 kernels ids
/// 0-10 (its devkit, mirrored as github.com/cannmirror/asc-devkit:
/// docs/api/context/CrossCoreSetFlag(ISASI).md @0a2e47c, flagId "0-10";
/// docs/api/context/c_api/sync/asc_sync_block_wait.md @f8b5673, "[0,10]");
/// PTO's SYNCALL uses 11-14 (common/type.hpp:277-280) and TSyncCVID
/// reserves 12-15 (npu/a2a3/custom/TSyncCVID.hpp:22-28). pld takes the top
/// two of the kernels' range, below both, and leaves 0-8 to others.
inline constexpr uint16_t kAivToAicFlag = 9;
inline constexpr uint16_t kAicToAivFlag = 10;

/// ffts_cross_core_sync's message: a count of 1 in bits 0-3, the mode in
/// bits 4-5 (2: AIC and AIVs of a cluster, CV_CORE_SYNC) and the flag id
/// in bits 8-11 (npu/a2a3/TSync.hpp:17-22, :44-49;
/// npu/a2a3/custom/TSyncCVID.hpp:34-39; TPush.hpp:48-54).
AICORE constexpr uint64_t cross_core_msg(uint16_t flag) {
  return 0x1 | (uint64_t{2} << 4) | (uint64_t{flag} << 8);
}

/// The pipe a hand-over is issued from: the cube signals after its Acc
/// tile's TSTORE, which runs on the fixpipe, the vector core after its
/// TSTORE on MTE3, as PTO's cross-core producers do
/// (npu/a2a3/custom/TSync_Custom.hpp:87-96; TPush.hpp:147-160; SyncAll.hpp:
/// 40, :44). The release() the emitter puts before every hand-over has
/// drained every pipe already (pipe_barrier(PIPE_ALL)); the pipe keeps the
/// signal behind the store even without it.
template <Core Src> AICORE constexpr pipe_t cross_core_pipe() {
  return Src == Core::AIC ? PIPE_FIX : PIPE_MTE3;
}

#if defined(__CPU_SIM)
/// PTO's CPU build has no FFTS flags (common/cpu_stub.hpp:543-571 declares
/// no ffts_cross_core_sync or wait_flag_dev): run_mixed runs the two halves
/// on two threads that share one count per direction, [0] AIV -> AIC and
/// [1] AIC -> AIV, made afresh (zero) by each run_mixed.
struct CrossCoreFlags {
  std::atomic<int32_t> count[2] = {0, 0};
};
inline thread_local CrossCoreFlags *t_cross_core = nullptr;
#endif

} // namespace detail

/// The block's flag from `Src` to `Dst`: adds one to its count once the
/// signalling core's stores got there (after release()).
template <Core Src, Core Dst> AICORE inline void cross_core_signal() {
  static_assert(Src != Dst, "a cross-core flag goes to the other core");
  // Only the signalling core's compile issues it, like its other
  // instructions.
  if constexpr (Src == Core::AIC ? kCubeCode : kVectorCode) {
#if defined(__CPU_SIM)
    detail::t_cross_core->count[Dst == Core::AIC ? 0 : 1].fetch_add(
        1, std::memory_order_release);
#elif defined(__DAV_C310_CUBE__) || defined(__DAV_C310_VEC__)
    static_assert(Src == Dst, "A5's AIC-AIV flags (set_intra_block, "
                              "npu/a5/TPush.hpp:102-118) are not written");
#else
    constexpr uint16_t flag =
        Src == Core::AIC ? detail::kAicToAivFlag : detail::kAivToAicFlag;
    ffts_cross_core_sync(detail::cross_core_pipe<Src>(),
                         detail::cross_core_msg(flag));
#endif
  }
}

/// Waits until the flag from `Src` has a count, and takes it; an acquire()
/// after it makes what the other core stored before its signal visible.
template <Core Src, Core Dst> AICORE inline void cross_core_wait() {
  static_assert(Src != Dst, "a cross-core flag comes from the other core");
  if constexpr (Dst == Core::AIC ? kCubeCode : kVectorCode) {
#if defined(__CPU_SIM)
    // As PTO's CPU TWAIT polls (cpu/comm/TWait.hpp:124-166: acquire loads,
    // 10 us apart), but without its give-up after a number of polls: a
    // hand-over that never comes hangs, as on the device.
    std::atomic<int32_t> &count =
        detail::t_cross_core->count[Dst == Core::AIC ? 0 : 1];
    for (;;) {
      int32_t now = count.load(std::memory_order_acquire);
      if (now > 0 &&
          count.compare_exchange_weak(now, now - 1, std::memory_order_acquire))
        return;
      if (now <= 0)
        std::this_thread::sleep_for(std::chrono::microseconds(10));
    }
#elif defined(__DAV_C310_CUBE__) || defined(__DAV_C310_VEC__)
    static_assert(Src == Dst, "A5's AIC-AIV flags (wait_intra_block, "
                              "npu/a5/TPush.hpp:102-118) are not written");
#else
    // One wait on either side: on the AIC it takes the sets of both AIVs.
    wait_flag_dev(Src == Core::AIC ? detail::kAicToAivFlag
                                   : detail::kAivToAicFlag);
#endif
  }
}

/// The FFTS base address a mixed kernel takes after its context (and its
/// dispatch payload, if it takes one): the address of the FFTS control
/// block the flags above go through, which the host runtime gets from
/// rtGetC2cCtrlAddr and passes as a `__gm__ uint8_t *`, as the vendor's
/// mixed kernels take it (kernels/manual/a2a3/distributed_ffn_grid/
/// distributed_ffn_grid_reducesum_compute_kernel.cpp:76, :84, main_reducesum
/// .cpp:270, :488; dispatch_mega_combine/kernel_launch.cpp:47-48, :61).
using FftsAddr = __gm__ uint8_t *;

/// Sets the FFTS base address at a mixed kernel's entry, before its halves
/// run and raise or wait for a flag, on each core, as PTO's cross-core
/// Event does (npu/a2a3/TSync.hpp:71-77). PTO's CPU build has no FFTS
/// (common/cpu_stub.hpp declares no set_ffts_base_addr) and A5 sets no
/// address (npu/a5/TSync.hpp:57): there it does nothing.
AICORE inline void set_ffts_base_addr(FftsAddr addr) {
#if defined(__CPU_SIM) || defined(__DAV_C310_CUBE__) ||                        \
    defined(__DAV_C310_VEC__)
  (void)addr;
#else
  ::set_ffts_base_addr(reinterpret_cast<uint64_t>(addr));
#endif
}

/// Both halves of one block of a mixed kernel: the cube core runs `aic`,
/// the vector core (each AIV) `aiv`. The vendor's compiler builds the
/// kernel once per core type, so each compile calls its own core's half
/// (fa_custom.cpp:75-85); PTO's CPU build runs the halves on two threads,
/// the cube's with the block's index, and returns when both returned.
template <typename... P, typename... A>
AICORE inline void
run_mixed(__gm__ CommContext *ctx, void (*aic)(__gm__ CommContext *, P...),
          void (*aiv)(__gm__ CommContext *, P...), A... args) {
#if defined(__DAV_C220_CUBE__) || defined(__DAV_C310_CUBE__)
  (void)aiv;
  aic(ctx, args...);
#elif defined(__DAV_C220_VEC__) || defined(__DAV_C310_VEC__)
  (void)aic;
  aiv(ctx, args...);
#elif defined(__CPU_SIM)
  detail::CrossCoreFlags flags;
  // The cube thread is the same block's other core (cpu_stub.hpp:464-505:
  // the block index is per thread).
  uint32_t block = get_block_idx(), subblocks = get_subblockdim();
  std::thread cube([&] {
    pto::cpu_sim::ScopedExecutionContext core(block, 0, subblocks);
    detail::t_cross_core = &flags;
    aic(ctx, args...);
  });
  detail::CrossCoreFlags *outer = detail::t_cross_core;
  detail::t_cross_core = &flags;
  aiv(ctx, args...);
  cube.join();
  detail::t_cross_core = outer;
#else
  // Neither core nor the CPU build: the test stub's syntax check, which
  // compiles both halves as one build would and never runs them.
  aic(ctx, args...);
  aiv(ctx, args...);
#endif
}

} // namespace pld::rt

#endif // PLD_RUNTIME_DEVICE_H
