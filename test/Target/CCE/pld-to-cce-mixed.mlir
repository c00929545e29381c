// pld-translate --pld-to-cce of mixed kernels (cube and vector work): the
// kernel, and only it (not its halves), takes the FFTS base address after
// its context and sets it at its entry (`set_ffts_base_addr`, device.h)
// before running both halves; host code's submission and the entry wrapper
// pass the runtime's address (`ffts_addr`; null in the simulator). The C++
// compiles as device code against the PTO stub (for neither core, the
// vector core and the cube core) and as host code against the simulator.
// RUN: pld-translate --pld-to-cce %s -o %t.cpp
// RUN: FileCheck %s < %t.cpp
// RUN: FileCheck %s --check-prefix=VEC < %t.cpp
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include -DPLD_DEVICE -I %S/Inputs/pto-stub
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include -DPLD_DEVICE -I %S/Inputs/pto-stub -D__DAV_C220_VEC__
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include -DPLD_DEVICE -I %S/Inputs/pto-stub -D__DAV_C220_CUBE__
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include

// CHECK-LABEL: static void mixed_aic(
// CHECK-SAME: __gm__ pld::rt::CommContext* {{v[0-9]+}}, __gm__ pld::rt::f16* {{v[0-9]+}}, __gm__ float* {{v[0-9]+}})
// CHECK-LABEL: static void mixed_aiv(
// CHECK-SAME: __gm__ pld::rt::CommContext* {{v[0-9]+}}, __gm__ pld::rt::f16* {{v[0-9]+}}, __gm__ float* {{v[0-9]+}})
// CHECK-LABEL: extern "C" __global__ __aicore__ void mixed(
// CHECK-SAME: __gm__ pld::rt::CommContext* [[CTX:v[0-9]+]], pld::rt::FftsAddr [[FFTS:v[0-9]+]], __gm__ pld::rt::f16* [[A:v[0-9]+]], __gm__ float* [[C:v[0-9]+]])
// CHECK-NEXT: pld::rt::set_ffts_base_addr([[FFTS]]);
// CHECK-NEXT: pld::rt::run_mixed([[CTX]], mixed_aic, mixed_aiv, [[A]], [[C]]);
// CHECK-LABEL: extern "C" __global__ __aicore__ void orchestrate_gemm(
// CHECK-SAME: __gm__ pld::rt::CommContext* {{v[0-9]+}}, pld::rt::DispatchPayload {{v[0-9]+}}, pld::rt::FftsAddr [[GFFTS:v[0-9]+]],
// CHECK-NEXT: pld::rt::set_ffts_base_addr([[GFFTS]]);
// CHECK-NEXT: pld::rt::run_mixed(
// CHECK-LABEL: void orchestrate(
// CHECK-SAME: __gm__ pld::rt::CommContext* [[HCTX:v[0-9]+]],
// CHECK: pld::rt::FftsAddr [[HF:v[0-9]+]] = pld::rt::ffts_addr([[HCTX]]);
// CHECK: pld::rt::submit([[HCTX]], "gemm", {{.*}}, orchestrate_gemm, [[HF]], {{v[0-9]+}}, {{v[0-9]+}});
// CHECK-LABEL: extern "C" void mixed__entry(
// CHECK-SAME: __gm__ pld::rt::CommContext* [[ECTX:v[0-9]+]],
// CHECK-NEXT: pld::rt::FftsAddr [[EF:v[0-9]+]] = pld::rt::ffts_addr([[ECTX]]);
// CHECK: mixed([[ECTX]], [[EF]], {{v[0-9]+}}, {{v[0-9]+}});
// A kernel without cube work takes no FFTS address.
// VEC: extern "C" __global__ __aicore__ void vector_only(__gm__ pld::rt::CommContext* {{v[0-9]+}}, __gm__ float* {{v[0-9]+}}) {
// VEC-LABEL: extern "C" void vector_only__entry(
// VEC-NOT: ffts
// VEC: vector_only(
// VEC-NEXT: return;
func.func @mixed(%a: memref<32x32xf16>, %c: !pld.dtensor<32x32xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ta = pl.load %a[0, 0] : memref<32x32xf16> -> !pl.tile<32x32xf16>
  %p = pl.matmul %ta, %ta : !pl.tile<32x32xf16>, !pl.tile<32x32xf16> -> !pl.tile<32x32xf32>
  pl.store %p, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
  %t = pl.load %c[0, 0] : !pld.dtensor<32x32xf32> -> !pl.tile<32x32xf32>
  %twice = pl.add %t, %t : !pl.tile<32x32xf32>
  pl.store %twice, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
  return
}

func.func @orchestrate(%a: memref<32x32xf16>, %c: !pld.dtensor<32x32xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %blocks = arith.constant 1 : index
  %k = pl.spmd %blocks name "gemm" {
    %ta = pl.load %a[0, 0] : memref<32x32xf16> -> !pl.tile<32x32xf16>
    %p = pl.matmul %ta, %ta : !pl.tile<32x32xf16>, !pl.tile<32x32xf16> -> !pl.tile<32x32xf32>
    pl.store %p, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
    %t = pl.load %c[0, 0] : !pld.dtensor<32x32xf32> -> !pl.tile<32x32xf32>
    %twice = pl.add %t, %t : !pl.tile<32x32xf32>
    pl.store %twice, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
  }
  return
}

func.func @vector_only(%c: !pld.dtensor<32x32xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %c[0, 0] : !pld.dtensor<32x32xf32> -> !pl.tile<32x32xf32>
  %twice = pl.add %t, %t : !pl.tile<32x32xf32>
  pl.store %twice, %c[0, 0] : !pl.tile<32x32xf32>, !pld.dtensor<32x32xf32>
  return
}
