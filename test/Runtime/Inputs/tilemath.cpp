// Tile arithmetic on one rank: element-wise add/max/min/mul (f32, and i32
// where add wraps) and a tile copy. The results go to arg 3 (f32 [5, 32])
// and arg 4 (i32 [1, 32]).
#include "pld/runtime.h"

extern "C" __global__ __aicore__ void tilemath(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ float* v3, __gm__ int32_t* v4, __gm__ float* v5, __gm__ int32_t* v6) {
  (void) v1;
  pld::rt::Tile<float, 1, 32> v9 = pld::rt::tile<float, 1, 32>(0);
  pld::rt::Tile<float, 1, 32> v10 = pld::rt::tile<float, 1, 32>(128);
  pld::rt::Tile<float, 1, 32> v11 = pld::rt::tile<float, 1, 32>(256);
  pld::rt::tload(v9, pld::rt::view(v2, 1, 32, 32), "pld.tile.load at tilemath.mlir:9:10");
  pld::rt::tload(v10, pld::rt::view(v3, 1, 32, 32), "pld.tile.load at tilemath.mlir:10:10");
  pld::rt::tadd(v11, v9, v10, "pl.add at tilemath.mlir:11:10");
  pld::rt::tstore(pld::rt::view(v5, 1, 32, 32), v11, "pld.tile.store at tilemath.mlir:12:5");
  pld::rt::tmax(v11, v9, v10, "pl.max at tilemath.mlir:13:10");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v5, 32), 1, 32, 32), v11, "pld.tile.store at tilemath.mlir:14:5");
  pld::rt::tmin(v11, v9, v10, "pl.min at tilemath.mlir:15:10");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v5, 64), 1, 32, 32), v11, "pld.tile.store at tilemath.mlir:16:5");
  pld::rt::tmul(v9, v9, v10, "pl.mul at tilemath.mlir:17:10");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v5, 96), 1, 32, 32), v9, "pld.tile.store at tilemath.mlir:18:5");
  pld::rt::tcopy(v11, v10, "ascend.tcopy at tilemath.mlir:19:5");
  pld::rt::tstore(pld::rt::view(pld::rt::offset(v5, 128), 1, 32, 32), v11, "pld.tile.store at tilemath.mlir:20:5");
  pld::rt::Tile<int32_t, 1, 32> v15 = pld::rt::tile<int32_t, 1, 32>(1024);
  pld::rt::tload(v15, pld::rt::view(v4, 1, 32, 32), "pld.tile.load at tilemath.mlir:29:10");
  pld::rt::tadd(v15, v15, v15, "pl.add at tilemath.mlir:30:10");
  pld::rt::tstore(pld::rt::view(v6, 1, 32, 32), v15, "pld.tile.store at tilemath.mlir:31:5");
}

extern "C" void tilemath_entry(__gm__ pld::rt::CommContext* v1, const pld::rt::Arg* v2) {
  tilemath(v1, pld::rt::arg_ptr<float>(v2, 0), pld::rt::arg_ptr<float>(v2, 1), pld::rt::arg_ptr<int32_t>(v2, 2), pld::rt::arg_ptr<float>(v2, 3), pld::rt::arg_ptr<int32_t>(v2, 4));
}
