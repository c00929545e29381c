//===- pto-inst.hpp - The PTO ISA API and its static checks, for tests ----===//
//
// A stand-in for PTO ISA's <pto/pto-inst.hpp> (hw-native-sys/pto-isa
// @3186c38) that declares the API pld's device half calls with the
// signatures of the real headers and enforces, at compile time, the
// constraints the real headers enforce (docs/target/pto-isa.md has each
// source, file and line), so that pld's own tests fail where a build
// against PTO would:
// - a row-major Vec tile's row is a whole number of 32-byte blocks
//   (common/pto_tile.hpp:1522-1534);
// - TLOAD and TSTORE move i8..i64, f16, bf16 and f32 tiles of Vec or Mat
//   kind (common/arch/memory/tload_common.hpp:302-310,
//   tstore_common.hpp:328-335); an atomic TSTORE adds f16, f32, i16, i32,
//   i8 and bf16 (tstore_common.hpp:151-155);
// - TADD/TMAX/TMIN/TMUL take one element type, row-major tiles, and the
//   types of the chip: a2a3 (the default) i16, i32, f16, f32
//   (npu/a2a3/TAdd.hpp:59-69, ...); a5 (PTO_NPU_ARCH_A5) also i8 (not for
//   TMUL), i64, u*, bf16 (npu/a5/TAdd.hpp:60-71, ...);
// - TMOV between tiles of one shape (npu/a2a3/TMov.hpp:139-141);
// - TPUT/TGET move one element type through a tile of it (comm/a2a3/
//   TPut.hpp, TGet.hpp:253-257); signals are int32 (comm/a2a3/
//   TNotify.hpp:40, TWait.hpp:59);
// - SetValidShape only on tiles with a dynamic valid shape
//   (common/pto_tile.hpp:1632-1638);
// - `cache_line_t`'s enumerators are qualified: the CPU build's is a struct
//   (common/cpu_stub.hpp:127-131);
// - set_flag/wait_flag take their pipes and event as immediates: consteval
//   here, so a value computed at run time does not compile.
// Bodies exist only to carry the checks; the stub is compiled with
// -fsyntax-only and never run.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_TEST_PTO_STUB_HPP
#define PLD_TEST_PTO_STUB_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

// A host compiler checks the syntax; the device qualifiers mean nothing.
#define AICORE
#define __global__
#define __aicore__
#define __gm__
#define __ubuf__

using half = _Float16;
using bfloat16_t = __bf16;

// CCE intrinsics (the device's names; CPU_SIM's values differ, which is why
// pld maps its pipes by name).
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
struct cache_line_t {
  static constexpr int SINGLE_CACHE_LINE = 0;
  static constexpr int ENTIRE_DATA_CACHE = 1;
};
enum mem_dsb_t { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
void pipe_barrier(pipe_t pipe);
consteval void set_flag(pipe_t, pipe_t, event_t) {}
consteval void wait_flag(pipe_t, pipe_t, event_t) {}
void dcci(const volatile void *p, int line);
void dcci(const volatile void *p, int line, int dst);
void dsb(mem_dsb_t arg);
int64_t get_block_idx();
int64_t get_subblockid();

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
  template <typename... Extents> explicit Shape(Extents... extents);
};

template <int64_t S1 = DYNAMIC, int64_t S2 = DYNAMIC, int64_t S3 = DYNAMIC,
          int64_t S4 = DYNAMIC, int64_t S5 = DYNAMIC>
struct Stride {
  Stride();
  template <typename... Strides> explicit Stride(Strides... strides);
};

template <typename Element_, typename Shape_, typename Stride_,
          Layout Layout_ = Layout::ND>
struct GlobalTensor {
  using RawDType = Element_;
  using DType = __gm__ RawDType;
  static constexpr Layout layout = Layout_;
  GlobalTensor(DType *data, const Shape_ &shape = Shape_(),
               const Stride_ &stride = Stride_());
  DType *data();
  int64_t GetShape(int dim);
  int64_t GetStride(int dim);
};

template <typename T, typename... Allowed>
constexpr bool is_one_of = (std::is_same_v<T, Allowed> || ...);

template <TileType Loc_, typename Element_, int Rows_, int Cols_,
          BLayout BFractal_ = BLayout::RowMajor, int RowValid_ = Rows_,
          int ColValid_ = Cols_, SLayout SFractal_ = SLayout::NoneBox,
          int SFractalSize_ = 512, auto PadVal_ = PadValue::Null,
          CompactMode Compact_ = CompactMode::Null>
struct Tile {
  using DType = Element_;
  static constexpr TileType Loc = Loc_;
  static constexpr int Rows = Rows_;
  static constexpr int Cols = Cols_;
  static constexpr int ValidRow = RowValid_;
  static constexpr int ValidCol = ColValid_;
  static constexpr bool isRowMajor = BFractal_ == BLayout::RowMajor;
  static_assert(Rows > 0 && ValidRow <= Rows && Cols > 0 && ValidCol <= Cols,
                "Invalid Tile Layout.");
  static_assert(!(BFractal_ == BLayout::RowMajor &&
                  SFractal_ == SLayout::NoneBox) ||
                    Cols * sizeof(DType) % 32 == 0,
                "BFractal_ is RowMajor and SFractal_ is NoneBox: Rows must be "
                "32 bytes align");
  unsigned GetValidRow() const;
  unsigned GetValidCol() const;
  void SetValidShape(unsigned rowMask, unsigned colMask) {
    static_assert(ValidCol == DYNAMIC && ValidRow == DYNAMIC,
                  "Only Dynamic Valid Shape Support Set Value.");
    (void)rowMask;
    (void)colMask;
  }
};

template <typename TileData> void TASSIGN(TileData &tile, uint64_t ubAddr);

template <typename TileData, typename GlobalData>
constexpr void check_tile_transfer() {
  using T = typename TileData::DType;
  static_assert(is_one_of<T, int8_t, uint8_t, int16_t, uint16_t, int32_t,
                          uint32_t, int64_t, uint64_t, half, bfloat16_t, float>,
                "Fix: Data type must be "
                "int8_t/uint8_t/int16_t/uint16_t/int32_t/uint32_t/half/"
                "bfloat16_t/float/int64_t/uint64_t!");
  static_assert(TileData::Loc == TileType::Vec ||
                    TileData::Loc == TileType::Mat,
                "Fix: Dst TileType must be Vec or Mat!");
  static_assert(sizeof(T) == sizeof(typename GlobalData::RawDType),
                "Fix: Source dtype must be same with dst dtype!");
}

template <typename TileData, typename GlobalData, typename... WaitEvents>
RecordEvent TLOAD(TileData &, GlobalData &, WaitEvents &...) {
  check_tile_transfer<TileData, GlobalData>();
  return {};
}
template <typename TileData, typename GlobalData, typename... WaitEvents>
RecordEvent TSTORE(GlobalData &, TileData &, WaitEvents &...) {
  check_tile_transfer<TileData, GlobalData>();
  return {};
}
template <typename TileData, typename GlobalData, AtomicType atomicType,
          typename... WaitEvents>
RecordEvent TSTORE(GlobalData &, TileData &, WaitEvents &...) {
  check_tile_transfer<TileData, GlobalData>();
  using T = typename GlobalData::RawDType;
  static_assert(
      atomicType != AtomicType::AtomicAdd ||
          is_one_of<T, half, float, int16_t, int32_t, int8_t, bfloat16_t>,
      "Dst and src must be half / float / int16_t / int32_t / int8_t "
      "/ bfloat16_t.");
  return {};
}

/// The element types of the vector unit's element-wise tile math.
template <typename T, bool IsMul> constexpr bool math_type() {
#if defined(PTO_NPU_ARCH_A5)
  if constexpr (IsMul)
    return is_one_of<T, int64_t, uint64_t, int32_t, uint32_t, float, int16_t,
                     uint16_t, half, bfloat16_t>;
  else
    return is_one_of<T, int64_t, uint64_t, int32_t, uint32_t, float, int16_t,
                     uint16_t, half, bfloat16_t, uint8_t, int8_t>;
#else
  return is_one_of<T, int32_t, int16_t, half, float>;
#endif
}

template <bool IsMul, typename Dst, typename Src0, typename Src1>
constexpr void check_tile_math() {
  using T = typename Dst::DType;
  static_assert(std::is_same_v<T, typename Src0::DType> &&
                    std::is_same_v<T, typename Src1::DType>,
                "Fix: the data type of dst must be consistent with of src0 "
                "and src1.");
  static_assert(math_type<T, IsMul>(), "Fix: has invalid data type.");
  static_assert(Dst::isRowMajor && Src0::isRowMajor && Src1::isRowMajor,
                "Fix: only support row major layout.");
}

template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TADD(Dst &, Src0 &, Src1 &, WaitEvents &...) {
  check_tile_math<false, Dst, Src0, Src1>();
  return {};
}
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TMAX(Dst &, Src0 &, Src1 &, WaitEvents &...) {
  check_tile_math<false, Dst, Src0, Src1>();
  return {};
}
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TMIN(Dst &, Src0 &, Src1 &, WaitEvents &...) {
  check_tile_math<false, Dst, Src0, Src1>();
  return {};
}
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TMUL(Dst &, Src0 &, Src1 &, WaitEvents &...) {
  check_tile_math<true, Dst, Src0, Src1>();
  return {};
}
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TMOV(Dst &, Src &, WaitEvents &...) {
  static_assert(Src::Rows == Dst::Rows && Src::Cols == Dst::Cols,
                "TMov: The shape of src needs to be the same as that of dst.");
  static_assert(sizeof(typename Src::DType) == sizeof(typename Dst::DType),
                "TMOV: src and dst data type is different!");
  return {};
}

namespace comm {

enum class NotifyOp : uint8_t { AtomicAdd = 0, Set = 1 };
enum class WaitCmp : uint8_t { EQ = 0, NE = 1, GT = 2, GE = 3, LT = 4, LE = 5 };
enum class ReduceOp : uint8_t { Sum = 0, Max = 1, Min = 2 };

using Signal = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 1>,
                            Stride<1, 1, 1, 1, 1>, Layout::ND>;

template <typename GlobalDstData, typename GlobalSrcData, typename TileData>
constexpr void check_transfer() {
  using T = typename GlobalSrcData::RawDType;
  static_assert(std::is_same_v<typename GlobalDstData::RawDType, T>,
                "src/dst element type mismatch");
  static_assert(std::is_same_v<T, typename TileData::DType>,
                "TileData element type must match GlobalData element type");
}

template <AtomicType atomicType = AtomicType::AtomicNone,
          typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TPUT(GlobalDstData &, GlobalSrcData &, TileData &,
                 WaitEvents &...) {
  check_transfer<GlobalDstData, GlobalSrcData, TileData>();
  return {};
}
template <AtomicType atomicType = AtomicType::AtomicNone,
          typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TPUT(GlobalDstData &, GlobalSrcData &, TileData &, TileData &,
                 WaitEvents &...) {
  check_transfer<GlobalDstData, GlobalSrcData, TileData>();
  return {};
}
template <typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TGET(GlobalDstData &, GlobalSrcData &, TileData &,
                 WaitEvents &...) {
  check_transfer<GlobalDstData, GlobalSrcData, TileData>();
  return {};
}
template <typename GlobalDstData, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
RecordEvent TGET(GlobalDstData &, GlobalSrcData &, TileData &, TileData &,
                 WaitEvents &...) {
  check_transfer<GlobalDstData, GlobalSrcData, TileData>();
  return {};
}

template <typename GlobalSignalData, typename... WaitEvents>
void TNOTIFY(GlobalSignalData &, int32_t, NotifyOp, WaitEvents &...) {
  static_assert(std::is_same_v<typename GlobalSignalData::RawDType, int32_t>,
                "TNOTIFY: signal type must be int32_t");
}
template <typename GlobalSignalData, typename... WaitEvents>
void TWAIT(GlobalSignalData &, int32_t, WaitCmp, WaitEvents &...) {
  static_assert(std::is_same_v<typename GlobalSignalData::RawDType, int32_t>,
                "TWAIT: signal type must be int32_t");
}
template <typename GlobalSignalData, typename... WaitEvents>
bool TTEST(GlobalSignalData &, int32_t, WaitCmp, WaitEvents &...) {
  static_assert(std::is_same_v<typename GlobalSignalData::RawDType, int32_t>,
                "TTEST: signal type must be int32_t");
  return false;
}

} // namespace comm
} // namespace pto

#endif // PLD_TEST_PTO_STUB_HPP
