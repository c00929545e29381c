// semantics §4 mesh allreduce (Sum) of f32 [1, 100] on 3 ranks with 1 x 32
// chunks: three full chunks and a ragged tail of 4 loaded with a valid
// shape (the rest of the tile reads as zero and is never stored).
#include "pld/runtime.h"

static void barrier(__gm__ pld::rt::CommContext* v1, __gm__ int32_t* v2, int32_t v3, int32_t v4, int32_t v5) {
  pld::rt::release();
  for (int32_t v6 = 0; v6 < v4; v6 += 1) {
    if (v6 == v3) continue;
    __gm__ int32_t* v7 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, v3), (int64_t) v6, "pld.collective.allreduce at mesh.mlir:7:8");
    pld::rt::tnotify(v7, 1, pld::rt::NotifyOp::AtomicAdd, "pld.collective.allreduce at mesh.mlir:7:8", v2, (int64_t) 3, (int64_t) 1);
  }
  for (int32_t v8 = 0; v8 < v4; v8 += 1) {
    if (v8 == v3) continue;
    pld::rt::twait(pld::rt::offset(v2, v8), v5, pld::rt::WaitCmp::GE, "pld.collective.allreduce at mesh.mlir:7:8", v2, (int64_t) 3, (int64_t) 1);
  }
  pld::rt::acquire();
}

extern "C" __global__ __aicore__ void allreduce(__gm__ pld::rt::CommContext* v1, __gm__ float* v2, __gm__ int32_t* v3) {
  int32_t v4 = pld::rt::rank(v1);
  int32_t v5 = pld::rt::nranks(v1);
  barrier(v1, v3, v4, v5, 1);
  for (int64_t v6 = 0; v6 < 4; v6 += 1) {
    int64_t v7 = v6 * 32;
    int64_t v8 = 100 - v7 < 32 ? 100 - v7 : 32;
    pld::rt::Tile<float, 1, 32> v9 = pld::rt::tile<float, 1, 32>(0, 1, v8);
    pld::rt::Tile<float, 1, 32> v10 = pld::rt::tile<float, 1, 32>(128, 1, v8);
    pld::rt::tload(v9, pld::rt::view(pld::rt::offset(v2, v7), 1, v8, 100), "pld.collective.allreduce at mesh.mlir:7:8");
    for (int32_t v11 = 1; v11 < v5; v11 += 1) {
      int32_t v12 = (v4 + v11) % v5;
      __gm__ float* v13 = pld::rt::peer_ptr(v1, pld::rt::offset(v2, v7), (int64_t) v12, "pld.collective.allreduce at mesh.mlir:7:8");
      pld::rt::tload(v10, pld::rt::view(v13, 1, v8, 100), "pld.collective.allreduce at mesh.mlir:7:8");
      pld::rt::tadd(v9, v9, v10, "pl.add at mesh.mlir:20:13");
    }
    barrier(v1, v3, v4, v5, (int32_t) (2 + v6));
    pld::rt::tstore(pld::rt::view(pld::rt::offset(v2, v7), 1, v8, 100), v9, "pld.collective.allreduce at mesh.mlir:7:8");
  }
  for (int32_t v14 = 0; v14 < v5; v14 += 1) {
    if (v14 == v4) continue;
    pld::rt::tnotify(pld::rt::offset(v3, v14), -5, pld::rt::NotifyOp::AtomicAdd, "pld.collective.allreduce at mesh.mlir:7:8", v3, (int64_t) 3, (int64_t) 1);
  }
}

extern "C" void mesh_entry(__gm__ pld::rt::CommContext* ctx, const pld::rt::Arg* args) {
  allreduce(ctx, static_cast<__gm__ float*>(args[0].ptr), static_cast<__gm__ int32_t*>(args[1].ptr));
}
