//===- tiles.h - Moving data between global memory and tiles ----*- C++ -*-===//
//
// The data movement that tload/tstore and the staged tput/tget share. The
// callers check bounds first; these only copy.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_TILES_H
#define PLD_SIM_TILES_H

#include "pld/runtime/host.h"
#include "timing.h"

#include <cstdint>
#include <string>

namespace pld::sim {

/// What the simulator fills memory the device leaves undefined with: a
/// never-written unified buffer and, for integer tiles, what a load leaves
/// outside its region (float tiles get a NaN there). 0xff bytes are a NaN
/// for f16, bf16 and f32 too.
inline constexpr unsigned char kPoisonByte = 0xa5;
inline constexpr unsigned char kUnwrittenByte = 0xff;

/// Poisons every element of the tile outside its top-left `rows` x `cols`.
void poison(const rt::detail::TileRef &tile, int64_t rows, int64_t cols);

/// Copies the `rows` x `cols` region at `src` (rows `stride` elements apart)
/// into the tile's top-left corner and poisons the rest of the tile.
void load_region(const rt::detail::TileRef &tile, const uint8_t *src,
                 int64_t rows, int64_t cols, int64_t stride);

/// Writes the tile's top-left `rows` x `cols` to `dst`, element-wise atomic
/// adds when `atomic_add`.
void store_region(uint8_t *dst, int64_t stride, const rt::detail::TileRef &tile,
                  int64_t rows, int64_t cols, bool atomic_add);

/// Accounts for a transfer of `bytes` between the tile at `tile` and global
/// memory along `route` that the simulator made since `began` (its events
/// clock): charged to the model in a timed run (`load`: into the tile),
/// recorded as a slice in a traced one.
void moved(const char *name, const void *tile, uint64_t bytes,
           timing::Route route, bool load, double began, const char *site);

/// The store into global memory that tstore and the Acc tile's store share:
/// checks, race and bounds, then writes `payload` (the tile itself, or its
/// valid shape converted to the view's type by the fixpipe) and accounts for
/// it as a transfer from `src`.
void store_tile(const char *op, const rt::detail::ViewRef &dst,
                const rt::detail::TileRef &src,
                const rt::detail::TileRef &payload, bool atomic_add,
                const char *site);

/// "2 x 64", and "a 2 x 64 tile with valid shape 1 x 64", for reports.
std::string shape(int64_t rows, int64_t cols);
std::string tile_shape(const rt::detail::TileRef &tile);

/// Traps when an atomic add is asked for an element type without one.
void check_atomic_dtype(rt::detail::DType dtype, const char *op,
                        const char *site);

} // namespace pld::sim

#endif // PLD_SIM_TILES_H
