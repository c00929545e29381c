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
// - TADD/TMAX/TMIN/TMUL/TSUB take one element type, row-major tiles, and the
//   types of the chip: a2a3 (the default) i16, i32, f16, f32
//   (npu/a2a3/TAdd.hpp:59-69, TSub.hpp:58-66, ...); a5 (PTO_NPU_ARCH_A5) also
//   i8 (not for TMUL), i64, u*, bf16 (npu/a5/TAdd.hpp:60-71, ...);
// - TMOV between tiles of one shape (npu/a2a3/TMov.hpp:139-141);
// - TPUT/TGET move one element type through a tile of it (comm/a2a3/
//   TPut.hpp, TGet.hpp:253-257); signals are int32 (comm/a2a3/
//   TNotify.hpp:40, TWait.hpp:59);
// - SetValidShape only on tiles with a dynamic valid shape
//   (common/pto_tile.hpp:1632-1638);
// - the cube (a2a3's layouts): a boxed tile's static shape is a whole
//   number of fractal boxes (common/pto_tile.hpp:1399-1423, 1514-1535);
//   TileLeft, TileRight and TileAcc as on a2a3 (:1714-1773); TEXTRACT moves
//   i8, f16, bf16, f32 (npu/a2a3/TExtract.hpp:18-28) from a Mat tile into
//   L0A as it is and into L0B transposed, in whole boxes
//   (common/arch/memory/textract_common.hpp:63-97, 182-214, 358-390,
//   450-501); TMATMUL/TMATMUL_ACC take (Acc, Left, Right) of (i32, i8, i8),
//   (f32, f16, f16), (f32, f32, f32) or (f32, bf16, bf16)
//   (npu/a2a3/TMatmul.hpp:77-98); TSTORE from an Acc tile writes i32, f32,
//   f16 or bf16 to an ND view of at most 8192 x 4095
//   (npu/a2a3/TStore.hpp:191-239, 242-266);
// - `cache_line_t`'s enumerators are qualified: the CPU build's is a struct
//   (common/cpu_stub.hpp:127-131);
// - set_flag/wait_flag take their pipes and event as immediates: consteval
//   here, so a value computed at run time does not compile;
// - a mixed kernel is compiled once per core type, with __DAV_C220_CUBE__
//   or __DAV_C220_VEC__ (demos/baseline/flash_atten/csrc/kernel/
//   fa_custom.cpp:75-85): pld's device half keeps the other core's
//   instructions out of each compile, as the vendor's mixed kernels do
//   (fa_custom.cpp:505, :848, :966, :984; npu/a2a3/SyncAll.hpp:24-46), and
//   the stub rejects a vector instruction (on a Vec tile, TADD..TMOV,
//   TPUT/TGET) in the cube's compile and a cube one (on a Mat, Left, Right
//   or Acc tile, TEXTRACT, TMATMUL) in the vector core's, so that a
//   wrapper without its guard fails here;
// - the SDMA transfers (comm/pto_comm_inst.hpp:339-400): TGET_ASYNC and
//   TPUT_ASYNC take two GlobalTensors of one element type and layout
//   (comm/async_common/TGetAsyncCommonDetail.hpp:57-65,
//   TPutAsyncCommonDetail.hpp:57-65) and a const AsyncSession&, and return
//   an AsyncEvent (comm/comm_types.hpp:173-188) whose Wait takes the
//   session; BuildAsyncSession builds the session on a Vec scratch tile
//   (comm/async_common/async_event_impl.hpp:27-43;
//   comm/async/sdma/sdma_async_detail_basic.hpp:84-91); AsyncSession,
//   SdmaBaseConfig and the constants as comm/async_common/async_types.hpp
//   declares them (here only the members pld's code may name);
// - the FFTS cross-core flags, ffts_cross_core_sync(pipe_t, uint64_t) and
//   wait_flag_dev(int64_t), with the types Ascend C passes them (its
//   devkit, mirrored as github.com/cannmirror/asc-devkit @1bab725:
//   impl/c_api/instr_impl/npu_arch_2201/sync_impl/
//   asc_sync_block_arrive_impl.h, asc_sync_block_wait_impl.h); pto-isa's
//   cost model takes them as `auto` (costmodel/a2a3/cce_costmodel/
//   cce_costmodel_sync.hpp:20, :162);
// - set_ffts_base_addr(uint64_t), which a mixed kernel calls at its entry
//   with the FFTS base address it takes (npu/a2a3/TSync.hpp:71-77 passes a
//   uint64_t; distributed_ffn_grid_reducesum_compute_kernel.cpp:84 casts the
//   kernel's `__gm__ uint8_t *` to one).
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
int64_t get_subblockdim();
void ffts_cross_core_sync(pipe_t pipe, uint64_t config);
void wait_flag_dev(int64_t flagID);
void set_ffts_base_addr(uint64_t addr);

namespace pto {

constexpr int64_t DYNAMIC = -1;

enum class Layout { ND, DN, NZ };
enum class TileType { Vec, Mat, Left, Right, Acc };
enum class BLayout { RowMajor, ColMajor };
enum class SLayout { NoneBox, RowMajor, ColMajor };
enum class PadValue { Null, Zero, Max, Min };
enum class CompactMode { Null, Normal };
enum class AtomicType : uint8_t { AtomicNone = 0, AtomicAdd = 1 };
// common/type.hpp:251-259.
enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT = 1,
  CAST_ROUND = 2,
  CAST_FLOOR = 3,
  CAST_CEIL = 4,
  CAST_TRUNC = 5,
  CAST_ODD = 6
};

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

// Which core this compile is for; a build with neither macro has both.
#if defined(__DAV_C220_VEC__)
constexpr bool kCubeCompile = false;
#else
constexpr bool kCubeCompile = true;
#endif
#if defined(__DAV_C220_CUBE__)
constexpr bool kVectorCompile = false;
#else
constexpr bool kVectorCompile = true;
#endif

/// An instruction on a tile of kind `Loc` belongs to the vector core (Vec)
/// or the cube (the others).
template <TileType Loc> constexpr void check_core() {
  if constexpr (Loc == TileType::Vec)
    static_assert(kVectorCompile && Loc == TileType::Vec,
                  "pld stub: a vector instruction in the cube core's "
                  "compile (__DAV_C220_CUBE__)");
  else
    static_assert(kCubeCompile && Loc != TileType::Vec,
                  "pld stub: a cube instruction in the vector core's "
                  "compile (__DAV_C220_VEC__)");
}

namespace TileConfig {
constexpr int alignedSize = 32;
constexpr int fixedRowSize = 16;
constexpr int fixedColSize = 16;
constexpr int fixedMxRowSize = 16;
constexpr int fixedMxColSize = 2;
constexpr int fractalABSize = 512;
constexpr int fractalCSize = 1024;
constexpr int fractalMxSize = 32;
} // namespace TileConfig

/// A fractal box's rows and columns (common/pto_tile.hpp:1399-1423).
template <typename T, SLayout S, int FractalSize> constexpr int inner_rows() {
  if constexpr (FractalSize == TileConfig::fractalCSize)
    return TileConfig::fixedRowSize;
  else if constexpr (FractalSize == TileConfig::fractalMxSize)
    return S == SLayout::RowMajor ? TileConfig::fixedMxRowSize
                                  : TileConfig::fixedMxColSize;
  else if constexpr (S == SLayout::NoneBox)
    return 1;
  else
    return S == SLayout::RowMajor ? TileConfig::fixedRowSize
                                  : TileConfig::alignedSize / int(sizeof(T));
}
template <typename T, SLayout S, int FractalSize> constexpr int inner_cols() {
  if constexpr (FractalSize == TileConfig::fractalCSize)
    return TileConfig::fixedColSize;
  else if constexpr (FractalSize == TileConfig::fractalMxSize)
    return S == SLayout::RowMajor ? TileConfig::fixedMxColSize
                                  : TileConfig::fixedMxRowSize;
  else if constexpr (S == SLayout::NoneBox)
    return 1;
  else
    return S == SLayout::RowMajor ? TileConfig::alignedSize / int(sizeof(T))
                                  : TileConfig::fixedColSize;
}

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
  static constexpr SLayout SFractal = SFractal_;
  static constexpr int SFractalSize = SFractalSize_;
  static constexpr int InnerRows =
      inner_rows<DType, SFractal_, SFractalSize_>();
  static constexpr int InnerCols =
      inner_cols<DType, SFractal_, SFractalSize_>();
  static_assert(Rows > 0 && ValidRow <= Rows && Cols > 0 && ValidCol <= Cols,
                "Invalid Tile Layout.");
  static_assert(InnerRows != 0 && InnerCols != 0,
                "rows or cols of fractal size is 0.");
  static_assert((Loc == TileType::Vec) ||
                    (SFractalSize_ == TileConfig::fractalMxSize) ||
                    (Rows_ == 1) || (Rows % InnerRows == 0),
                "Layout rows must be divisible by inner box rows");
  static_assert(Cols % InnerCols == 0,
                "Layout cols must be divisible by inner box cols");
  static_assert(
      (BFractal_ == BLayout::RowMajor && SFractal_ == SLayout::NoneBox &&
       Cols * sizeof(DType) % TileConfig::alignedSize == 0) ||
          (BFractal_ == BLayout::ColMajor && SFractal_ == SLayout::NoneBox &&
           Rows * sizeof(DType) % TileConfig::alignedSize == 0) ||
          ((SFractal_ != SLayout::NoneBox) &&
           (((Loc == TileType::Vec) ||
             (SFractalSize_ == TileConfig::fractalMxSize) || (Rows_ == 1) ||
             (Rows % InnerRows == 0)) &&
            Cols % InnerCols == 0)),
      "BFractal_ is RowMajor and SFractal_ is NoneBox: Rows must be 32 bytes "
      "align, BFractal_ is ColMajor and SFractal_ is NoneBox: Cols must be 32 "
      "bytes align, SFractal_ in not NoneBox: Rows/Cols must be integer "
      "multiple of InnerRows/InnerCols.");
  static_assert(SFractalSize_ == TileConfig::fractalABSize ||
                    SFractalSize_ == TileConfig::fractalCSize ||
                    SFractalSize_ == TileConfig::fractalMxSize,
                "SFractalSize_ illegal");
  unsigned GetValidRow() const;
  unsigned GetValidCol() const;
  void SetValidShape(unsigned rowMask, unsigned colMask) {
    static_assert(ValidCol == DYNAMIC && ValidRow == DYNAMIC,
                  "Only Dynamic Valid Shape Support Set Value.");
    (void)rowMask;
    (void)colMask;
  }
};

// a2a3's cube tiles (common/pto_tile.hpp:1714-1773).
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_,
          int ColValid_ = Cols_>
using TileLeft =
    Tile<TileType::Left, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_,
         ColValid_, SLayout::RowMajor, TileConfig::fractalABSize>;
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_,
          int ColValid_ = Cols_>
using TileRight =
    Tile<TileType::Right, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_,
         ColValid_, SLayout::ColMajor, TileConfig::fractalABSize>;
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_,
          int ColValid_ = Cols_>
using TileAcc =
    Tile<TileType::Acc, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_,
         ColValid_, SLayout::RowMajor, TileConfig::fractalCSize>;

template <typename TileData> void TASSIGN(TileData &, uint64_t) {
  check_core<TileData::Loc>();
}

template <typename TileData, typename GlobalData>
constexpr void check_tile_transfer() {
  check_core<TileData::Loc>();
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

/// An Acc tile's store through the fixpipe, without quantization
/// (npu/a2a3/TStore.hpp:191-239, ND views only here).
template <typename TileData, typename GlobalData>
constexpr void check_acc_store() {
  check_core<TileData::Loc>();
  using T = typename GlobalData::RawDType;
  static_assert(is_one_of<typename TileData::DType, int32_t, float>,
                "The input data type must be restricted to int32_t/float!");
  static_assert(is_one_of<T, int32_t, float, half, bfloat16_t>,
                "The output data type must be restricted to "
                "int32_t/float/half/bfloat16_t!");
  static_assert(TileData::Cols >= 1 && TileData::Cols <= 4095,
                "The range of Cols is [1, 4095].");
  static_assert(TileData::Rows >= 1 && TileData::Rows <= 8192,
                "When GlobalData is ND format, the range of Rows is [1, "
                "8192].");
}

/// TSTORE's source kinds (npu/a2a3/TStore.hpp:242-266).
template <typename TileData, typename GlobalData>
constexpr void check_tile_store() {
  static_assert(TileData::Loc == TileType::Vec ||
                    TileData::Loc == TileType::Acc ||
                    TileData::Loc == TileType::Mat,
                "Source TileType only support Vec/Acc/Mat!");
  if constexpr (TileData::Loc == TileType::Acc)
    check_acc_store<TileData, GlobalData>();
  else
    check_tile_transfer<TileData, GlobalData>();
}

template <typename TileData, typename GlobalData, typename... WaitEvents>
RecordEvent TLOAD(TileData &, GlobalData &, WaitEvents &...) {
  check_tile_transfer<TileData, GlobalData>();
#if !defined(PTO_NPU_ARCH_A5)
  // common/arch/memory/tload_common.hpp:47 (A2/A3 only).
  static_assert(TileData::Loc != TileType::Vec || TileData::Rows < 4096,
                "Fix: TLOAD Rows>=4096 not supported in A2/A3");
#endif
  return {};
}
template <typename TileData, typename GlobalData, typename... WaitEvents>
RecordEvent TSTORE(GlobalData &, TileData &, WaitEvents &...) {
  check_tile_store<TileData, GlobalData>();
  return {};
}
template <typename TileData, typename GlobalData, AtomicType atomicType,
          typename... WaitEvents>
RecordEvent TSTORE(GlobalData &, TileData &, WaitEvents &...) {
  check_tile_store<TileData, GlobalData>();
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
  check_core<Dst::Loc>();
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
template <typename Dst, typename Src0, typename Src1, typename... WaitEvents>
RecordEvent TSUB(Dst &, Src0 &, Src1 &, WaitEvents &...) {
  check_tile_math<false, Dst, Src0, Src1>();
  return {};
}
// The tile-scalar forms take their tile-tile instruction's types and a
// scalar of the source's element type (common/pto_instr.hpp:1960-2040).
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TADDS(Dst &, Src &, typename Src::DType, WaitEvents &...) {
  check_tile_math<false, Dst, Src, Src>();
  return {};
}
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TSUBS(Dst &, Src &, typename Src::DType, WaitEvents &...) {
  check_tile_math<false, Dst, Src, Src>();
  return {};
}
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TMULS(Dst &, Src &, typename Src::DType, WaitEvents &...) {
  check_tile_math<true, Dst, Src, Src>();
  return {};
}
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TMAXS(Dst &, Src &, typename Src::DType, WaitEvents &...) {
  check_tile_math<false, Dst, Src, Src>();
  return {};
}
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TMINS(Dst &, Src &, typename Src::DType, WaitEvents &...) {
  check_tile_math<false, Dst, Src, Src>();
  return {};
}
// TCVT converts between two tiles of one shape (npu/a2a3/TCvt.hpp:807-895).
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TCVT(Dst &, Src &, RoundMode, WaitEvents &...) {
  check_core<Dst::Loc>();
  static_assert(Dst::Rows == Src::Rows, "TCVT: tiles of one shape");
  return {};
}
// TEXPANDS fills every tile type but 64-bit ones on a2a3
// (npu/a2a3/TExpandS.hpp:144-150), every one on a5.
template <typename Dst, typename... WaitEvents>
RecordEvent TEXPANDS(Dst &, typename Dst::DType, WaitEvents &...) {
  check_core<Dst::Loc>();
#if !defined(PTO_NPU_ARCH_A5)
  static_assert(sizeof(typename Dst::DType) < 8,
                "TEXPANDS: Invalid data type.");
#endif
  return {};
}
template <typename Dst, typename Src, typename... WaitEvents>
RecordEvent TMOV(Dst &, Src &, WaitEvents &...) {
  check_core<Dst::Loc>();
  static_assert(Src::Rows == Dst::Rows && Src::Cols == Dst::Cols,
                "TMov: The shape of src needs to be the same as that of dst.");
  static_assert(sizeof(typename Src::DType) == sizeof(typename Dst::DType),
                "TMOV: src and dst data type is different!");
  return {};
}

/// TEXTRACT from a Mat tile into L0A or L0B on a2a3: the types
/// (npu/a2a3/TExtract.hpp:18-28), the layouts (textract_common.hpp:450-501)
/// and the boxes the copy moves: L0A takes L1's as they are (TExtractToA,
/// :80-86), L0B transposes them (TExtractToB, :205-211; one-byte types
/// TExtractToBCompact, :369-384).
template <typename Dst, typename Src> constexpr void check_extract() {
  check_core<Dst::Loc>();
  using T = typename Dst::DType;
  static_assert(std::is_same_v<T, typename Src::DType>,
                "TExtract: Destination and Source tile data types must be the "
                "same.");
  static_assert(is_one_of<T, int8_t, half, bfloat16_t, float>,
                "TExtract: Invalid data type.");
  static_assert((Src::SFractal == SLayout::ColMajor && Src::isRowMajor) ||
                    (Src::SFractal == SLayout::RowMajor && !Src::isRowMajor),
                "TExtract: SrcTile Invalid Fractal");
  constexpr int c0Size = 32 / int(sizeof(T));
  constexpr int fractalSize = sizeof(T) == 1 ? 32 : 16;
  if constexpr (Dst::Loc == TileType::Left) {
    static_assert(Dst::SFractal == SLayout::RowMajor && Dst::isRowMajor,
                  "TExtract: LeftTile Invalid Fractal.");
    static_assert(Src::SFractal == SLayout::RowMajor,
                  "pld's stub models L1 -> L0A without transposing only");
    static_assert((Src::Rows % 16) == 0, "srcRow must be aligned to 16");
    static_assert((Src::Cols % c0Size) == 0,
                  "srcCol must be aligned to C0Size");
    static_assert((Dst::Rows % 16) == 0, "dstRow must be aligned to 16");
    static_assert((Dst::Cols % c0Size) == 0,
                  "dstCol must be aligned to C0Size");
  } else {
    static_assert(Dst::Loc == TileType::Right,
                  "pld's stub models TEXTRACT into Left and Right tiles only");
    static_assert(Dst::SFractal == SLayout::ColMajor && Dst::isRowMajor,
                  "TExtract: RightTile Invalid Fractal.");
    static_assert(Src::SFractal == SLayout::RowMajor,
                  "pld's stub models L1 -> L0B transposing only");
    if constexpr (sizeof(T) == 1) {
      static_assert((Dst::Rows % c0Size) == 0,
                    "dstRow must be aligned to C0Size");
      static_assert((Dst::Cols % 16) == 0, "dstCol must be aligned to 16");
    } else {
      static_assert((Dst::Rows % fractalSize) == 0, "dstRow must be aligned");
      static_assert((Dst::Cols % fractalSize) == 0, "dstCol must be aligned");
    }
    static_assert((Src::Rows % fractalSize) == 0, "srcRow must be aligned");
    static_assert((Src::Cols % fractalSize) == 0, "srcCol must be aligned");
  }
}

template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
RecordEvent TEXTRACT(DstTileData &, SrcTileData &, uint16_t indexRow = 0,
                     uint16_t indexCol = 0, WaitEvents &...) {
  check_extract<DstTileData, SrcTileData>();
  (void)indexRow;
  (void)indexCol;
  return {};
}

/// PTO's CheckStaticMad (npu/a2a3/TMatmul.hpp:77-98).
template <typename TileRes, typename TileLeft, typename TileRight>
constexpr void CheckStaticMad() {
  check_core<TileRes::Loc>();
  using AType = typename TileLeft::DType;
  using BType = typename TileRight::DType;
  using CType = typename TileRes::DType;
  static_assert(
      (std::is_same_v<CType, int32_t> && std::is_same_v<AType, int8_t> &&
       std::is_same_v<BType, int8_t>) ||
          (std::is_same_v<CType, float> && std::is_same_v<AType, half> &&
           std::is_same_v<BType, half>) ||
          (std::is_same_v<CType, float> && std::is_same_v<AType, float> &&
           std::is_same_v<BType, float>) ||
          (std::is_same_v<CType, float> && std::is_same_v<AType, bfloat16_t> &&
           std::is_same_v<BType, bfloat16_t>),
      "The data type is not supported.");
  static_assert(TileLeft::Loc == TileType::Left,
                "TileLeft TileType must be set to TileType::Left.");
  static_assert(TileRight::Loc == TileType::Right,
                "TileRight TileType must be set to TileType::Right.");
  static_assert(TileRes::Loc == TileType::Acc,
                "TileRes TileType must be set to TileType::Acc.");
}

// The overloads of common/pto_instr.hpp:728-771 that pld's device half can
// reach (not the AccPhase ones).
template <typename TileRes, typename TileLeft, typename TileRight,
          typename... WaitEvents>
RecordEvent TMATMUL(TileRes &, TileLeft &, TileRight &, WaitEvents &...) {
  CheckStaticMad<TileRes, TileLeft, TileRight>();
  return {};
}
template <typename TileRes, typename TileLeft, typename TileRight,
          typename... WaitEvents>
RecordEvent TMATMUL_ACC(TileRes &, TileRes &, TileLeft &, TileRight &,
                        WaitEvents &...) {
  CheckStaticMad<TileRes, TileLeft, TileRight>();
  return {};
}
template <typename TileRes, typename TileLeft, typename TileRight,
          typename... WaitEvents>
RecordEvent TMATMUL_ACC(TileRes &, TileLeft &, TileRight &, WaitEvents &...) {
  CheckStaticMad<TileRes, TileLeft, TileRight>();
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
  check_core<TileData::Loc>();
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

// SDMA transfers.
enum class DmaEngine : uint8_t { SDMA = 0, URMA = 1, RDMA = 2 };

namespace sdma {
constexpr uint32_t UB_ALIGN_SIZE = 256U;
constexpr uint32_t kAutoChannelGroupIdx = 0xffffffffU;
constexpr uint64_t kDefaultSdmaBlockBytes = 1024 * 1024;
struct SdmaBaseConfig {
  uint64_t block_bytes;
  uint64_t comm_block_offset;
  uint32_t queue_num;
};
} // namespace sdma

struct AsyncSession;

struct AsyncEvent {
  uint64_t handle{0};
  DmaEngine engine{DmaEngine::SDMA};
  constexpr AsyncEvent() = default;
  constexpr AsyncEvent(uint64_t h, DmaEngine e) : handle(h), engine(e) {}
  constexpr bool valid() const { return handle != 0; }
  bool Wait(const AsyncSession &session) const;
  bool Test(const AsyncSession &session) const;
};

struct AsyncSession {
  DmaEngine engine{DmaEngine::SDMA};
  bool valid{false};
  __gm__ uint8_t *contextGm{nullptr};
  uint32_t syncId{0};
  uint32_t channelGroupIdx{sdma::kAutoChannelGroupIdx};
};

template <DmaEngine engine = DmaEngine::SDMA, typename ScratchTile>
bool BuildAsyncSession(ScratchTile &, __gm__ uint8_t *workspace,
                       AsyncSession &session, uint32_t syncId = 0,
                       const sdma::SdmaBaseConfig &baseConfig =
                           {sdma::kDefaultSdmaBlockBytes, 0, 1},
                       uint32_t channelGroupIdx = sdma::kAutoChannelGroupIdx) {
  static_assert(engine == DmaEngine::SDMA,
                "This overload is for SDMA; use the engine-specific "
                "BuildAsyncSession overload for URMA or RDMA");
  static_assert(ScratchTile::Loc == TileType::Vec,
                "scratchTile must be in Vec(UB) memory");
  check_core<ScratchTile::Loc>();
  (void)workspace;
  (void)baseConfig;
  // The channel as PTO chooses it (sdma_async_intrin.hpp:107-108: the
  // block index when none is given), kept where a test can read it.
  session.syncId = syncId;
  session.channelGroupIdx = channelGroupIdx == sdma::kAutoChannelGroupIdx
                                ? static_cast<uint32_t>(get_block_idx())
                                : channelGroupIdx;
  session.valid = true;
  return true;
}

template <bool IsPut, typename GlobalDstData, typename GlobalSrcData>
constexpr void check_async_transfer() {
  // The post works through the session's scratch tile in the unified
  // buffer: the vector core's (checked where it is instantiated).
  check_core<sizeof(GlobalDstData) != 0 ? TileType::Vec : TileType::Vec>();
  constexpr bool sameType = std::is_same_v<typename GlobalSrcData::RawDType,
                                           typename GlobalDstData::RawDType>;
  constexpr bool sameLayout = GlobalSrcData::layout == GlobalDstData::layout;
  if constexpr (IsPut) {
    static_assert(sameType, "TPUT_ASYNC: src/dst element type mismatch");
    static_assert(sameLayout, "TPUT_ASYNC: src/dst layout mismatch");
  } else {
    static_assert(sameType, "TGET_ASYNC: src/dst element type mismatch");
    static_assert(sameLayout, "TGET_ASYNC: src/dst layout mismatch");
  }
}

template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData,
          typename GlobalSrcData, typename... WaitEvents>
AsyncEvent TPUT_ASYNC(GlobalDstData &, GlobalSrcData &, const AsyncSession &,
                      WaitEvents &...) {
  check_async_transfer<true, GlobalDstData, GlobalSrcData>();
  return {};
}
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData,
          typename GlobalSrcData, typename... WaitEvents>
AsyncEvent TGET_ASYNC(GlobalDstData &, GlobalSrcData &, const AsyncSession &,
                      WaitEvents &...) {
  check_async_transfer<false, GlobalDstData, GlobalSrcData>();
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
