//===- pto-inst.hpp - declarations of the PTO ISA API, for tests -*- C++
//-*-===//
//
// A stand-in for PTO ISA's <pto/pto-inst.hpp> that declares the API exactly
// as shared/reference/ascend-target.md documents it (pto-isa @3186c38):
// the comm instructions of include/pto/comm/pto_comm_inst.hpp, TLOAD/TSTORE
// and the tile math of include/pto/common/pto_instr.hpp, the types of
// pto_tile.hpp and comm_types.hpp, and the CCE intrinsics of the stub
// header. Nothing is defined: compiling pld's emitted kernels against it
// with -fsyntax-only checks every call, so a signature drift between the
// runtime's device half and PTO fails a test.
//
// Assumed where the reference is silent (marked ASSUMED): the constructors
// of Shape and Stride from their dynamic extents, Tile::SetValidShape's
// parameter types, TMOV and TMATMUL (same shape as TADD), and
// save_expected_notification_counter's parameter types.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_TEST_PTO_STUB_HPP
#define PLD_TEST_PTO_STUB_HPP

#include <cstddef>
#include <cstdint>

// A host compiler checks the syntax; the device qualifiers mean nothing.
#define AICORE
#define __global__
#define __aicore__
#define __gm__
#define __ubuf__

using half = _Float16;
using bfloat16_t = __bf16;

// CCE intrinsics (stub header).
enum pipe_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL = 6,
  PIPE_MTE4 = 7,
  PIPE_MTE5 = 8,
  PIPE_V2 = 9,
  PIPE_FIX = 10
};
enum event_t {
  EVENT_ID0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7
};
enum cache_line_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum dcci_dst_t {
  CACHELINE_ALL = 0,
  CACHELINE_UB,
  CACHELINE_OUT,
  CACHELINE_ATOMIC
};
enum mem_dsb_t { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
void pipe_barrier(pipe_t pipe);
void set_flag(pipe_t src, pipe_t dst, event_t id);
void wait_flag(pipe_t src, pipe_t dst, event_t id);
void dcci(__gm__ void *p, cache_line_t line);
void dcci(__gm__ void *p, cache_line_t line, dcci_dst_t dst);
void dsb(mem_dsb_t arg);
int64_t get_block_idx();
int64_t get_subblockid();

// pto_async_kernel_api.h: registers `*addr >= expected` with the scheduler.
// ASSUMED parameter types.
void save_expected_notification_counter(__gm__ void *ctx, __gm__ int32_t *addr,
                                        int32_t expected);

namespace pto {

constexpr int64_t DYNAMIC = -1;

enum class Layout { ND, DN, NZ };
enum class TileType { Vec, Mat, Left, Right, Acc };
enum class BLayout { RowMajor, ColMajor };
enum class SLayout { NoneBox, RowMajor, ColMajor };
enum class PadValue { Null, Zero, Max, Min };
enum class CompactMode { Null, Normal };
enum class AtomicType : uint8_t { AtomicNone = 0, AtomicAdd = 1 };

struct RecordEvent {};

template <int64_t N1 = DYNAMIC, int64_t N2 = DYNAMIC, int64_t N3 = DYNAMIC,
          int64_t N4 = DYNAMIC, int64_t N5 = DYNAMIC>
struct Shape {
  Shape();
  template <typename... Extents> explicit Shape(Extents... extents); // ASSUMED
};

template <int64_t S1 = DYNAMIC, int64_t S2 = DYNAMIC, int64_t S3 = DYNAMIC,
          int64_t S4 = DYNAMIC, int64_t S5 = DYNAMIC>
struct Stride {
  Stride();
  template <typename... Strides> explicit Stride(Strides... strides); // ASSUMED
};

template <typename Element_, typename Shape_, typename Stride_,
          Layout Layout_ = Layout::ND>
struct GlobalTensor {
  using RawDType = Element_;
  using DType = __gm__ RawDType;
  GlobalTensor(DType *data, const Shape_ &shape = Shape_(),
               const Stride_ &stride = Stride_());
  DType *data();
  int64_t GetShape(int dim);
  int64_t GetStride(int dim);
};

template <TileType Loc_, typename Element_, int Rows_, int Cols_,
          BLayout BLayout_ = BLayout::RowMajor, int RowValid_ = Rows_,
          int ColValid_ = Cols_, SLayout SLayout_ = SLayout::NoneBox,
          int SFractalSize_ = 512, auto PadVal_ = PadValue::Null,
          CompactMode Compact_ = CompactMode::Null>
struct Tile {
  void SetValidShape(int64_t rows, int64_t cols); // ASSUMED parameter types
};

template <typename TileData> void TASSIGN(TileData &tile, uint64_t ubAddr);

template <typename TileData, typename GlobalData, typename... WaitEvents>
RecordEvent TLOAD(TileData &dst, GlobalData &src, WaitEvents &...events);
template <typename TileData, typename GlobalData, typename... WaitEvents>
RecordEvent TSTORE(GlobalData &dst, TileData &src, WaitEvents &...events);
template <typename TileData, typename GlobalData, AtomicType atomicType,
          typename... WaitEvents>
RecordEvent TSTORE(GlobalData &dst, TileData &src, WaitEvents &...events);

template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TADD(Dst &dst, Src0 &src0, Src1 &src1, WaitEvents &...events);
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TMAX(Dst &dst, Src0 &src0, Src1 &src1, WaitEvents &...events);
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TMIN(Dst &dst, Src0 &src0, Src1 &src1, WaitEvents &...events);
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TMUL(Dst &dst, Src0 &src0, Src1 &src1, WaitEvents &...events);
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TMOV(Dst &dst, Src &src, WaitEvents &...events); // ASSUMED
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TMATMUL(Dst &dst, Src0 &src0, Src1 &src1,
                    WaitEvents &...events); // ASSUMED

namespace comm {

enum class NotifyOp : uint8_t { AtomicAdd = 0, Set = 1 };
enum class WaitCmp : uint8_t { EQ = 0, NE = 1, GT = 2, GE = 3, LT = 4, LE = 5 };
enum class ReduceOp : uint8_t { Sum = 0, Max = 1, Min = 2 };

using Signal = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 1>,
                            Stride<1, 1, 1, 1, 1>, Layout::ND>;

template <AtomicType atomicType = AtomicType::AtomicNone,
          typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TPUT(GlobalDstData &dst, GlobalSrcData &src, TileData &stagingTile,
                 WaitEvents &...ev);
template <typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TPUT(GlobalDstData &dst, GlobalSrcData &src, TileData &staging,
                 AtomicType atomicType, WaitEvents &...ev);
template <AtomicType atomicType = AtomicType::AtomicNone,
          typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TPUT(GlobalDstData &dst, GlobalSrcData &src, TileData &pingTile,
                 TileData &pongTile, WaitEvents &...ev);
template <typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TGET(GlobalDstData &dst, GlobalSrcData &src, TileData &stagingTile,
                 WaitEvents &...ev);
template <typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TGET(GlobalDstData &dst, GlobalSrcData &src, TileData &pingTile,
                 TileData &pongTile, WaitEvents &...ev);

template <typename GlobalSignalData, typename... WaitEvents>
void TNOTIFY(GlobalSignalData &dstSignalData, int32_t value, NotifyOp op,
             WaitEvents &...events);
template <typename GlobalSignalData, typename... WaitEvents>
void TWAIT(GlobalSignalData &signalData, int32_t cmpValue, WaitCmp cmp,
           WaitEvents &...events);
template <typename GlobalSignalData, typename... WaitEvents>
bool TTEST(GlobalSignalData &signalData, int32_t cmpValue, WaitCmp cmp,
           WaitEvents &...events);

} // namespace comm
} // namespace pto

#endif // PLD_TEST_PTO_STUB_HPP
