// pld-translate --pld-to-cce of SDMA transfers (`engine sdma`): the kernel
// takes the SDMA workspace and a sync id after its context, builds its
// session once, then posts each transfer to the SDMA engine (TGET_ASYNC,
// TPUT_ASYNC in device.h) and waits for its event; the entry wrapper passes
// the runtime's workspace and sync id 0. The C++ compiles as device code
// against the PTO stub, which declares PTO's SDMA API as the real headers
// do (for the vector core and for the cube core, where device.h keeps the
// SDMA calls out), and as host code against the simulator.
// RUN: pld-translate --pld-to-cce %s -o %t.cpp
// RUN: FileCheck %s < %t.cpp
// RUN: FileCheck %s --check-prefix=DYNAMIC < %t.cpp
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include -DPLD_DEVICE -I %S/Inputs/pto-stub
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include -DPLD_DEVICE -I %S/Inputs/pto-stub -D__DAV_C220_VEC__
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include -DPLD_DEVICE -I %S/Inputs/pto-stub -D__DAV_C220_CUBE__
// RUN: %clangxx -std=c++20 -fsyntax-only -Werror -x c++ %t.cpp -I %pld_runtime_include

// CHECK-LABEL: extern "C" __global__ __aicore__ void exchange(
// CHECK-SAME: __gm__ pld::rt::CommContext* [[CTX:v[0-9]+]], pld::rt::SdmaWorkspace [[WS:v[0-9]+]], int32_t [[ID:v[0-9]+]], __gm__ float* [[OUT:v[0-9]+]], __gm__ float* [[IN:v[0-9]+]], __gm__ int32_t* [[SIG:v[0-9]+]], size_t [[PEER:v[0-9]+]])
// The session first, on a scratch buffer at a planned offset.
// CHECK-NEXT: pld::rt::AsyncSession [[S:v[0-9]+]] = pld::rt::sdma_session([[WS]], [[ID]], {{[0-9]+}}, "pld.tensor.get at {{.*}}pld-to-cce-sdma.mlir:[[@LINE+22]]:3");
// The get: the peer's view, TGET_ASYNC, its wait.
// CHECK: __gm__ float* [[REMOTE:v[0-9]+]] = pld::rt::peer_ptr([[CTX]], [[IN]], [[PEER]], "pld.tensor.get at
// CHECK: pld::rt::View<float> [[SRC:v[0-9]+]] = pld::rt::view([[REMOTE]],
// CHECK: pld::rt::AsyncEvent [[E:v[0-9]+]] = pld::rt::tget_async({{v[0-9]+}}, [[SRC]], [[S]], "pld.tensor.get at {{.*}}pld-to-cce-sdma.mlir:[[@LINE+18]]:3");
// CHECK-NEXT: pld::rt::wait_async([[E]], [[S]], "pld.tensor.get at
// The put into the peer's window, TPUT_ASYNC; the notify after its wait
// needs no release (the engine's writes are done), the load after the
// wait an acquire.
// CHECK: pld::rt::AsyncEvent [[F:v[0-9]+]] = pld::rt::tput_async({{v[0-9]+}}, {{v[0-9]+}}, [[S]], "pld.tensor.put at
// CHECK-NEXT: pld::rt::wait_async([[F]], [[S]], "pld.tensor.put at
// CHECK-NOT: pld::rt::release();
// CHECK: pld::rt::tnotify(
// CHECK: pld::rt::twait(
// CHECK: pld::rt::acquire();
// CHECK: pld::rt::tload(
// CHECK-LABEL: extern "C" void exchange__entry(
// CHECK: pld::rt::SdmaWorkspace [[W:v[0-9]+]] = pld::rt::sdma_workspace([[ECTX:v[0-9]+]]);
// CHECK-NEXT: int32_t [[ZERO:v[0-9]+]] = 0;
// CHECK: exchange([[ECTX]], [[W]], [[ZERO]],
func.func @exchange(%out: memref<4x64xf32>, %in: !pld.dtensor<4x64xf32>, %sig: !pld.dtensor<1x1xi32>,
                    %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.get %out, peer %peer, %in engine sdma : memref<4x64xf32>, !pld.dtensor<4x64xf32>
  pld.tensor.put %in, peer %peer, %out engine sdma : !pld.dtensor<4x64xf32>, memref<4x64xf32>
  %one = arith.constant 1 : i32
  pld.system.notify %sig[0, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  %t = pl.load %in[0, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>
  return
}

// A whole-tensor get with dynamic extents: each one is checked equal before
// the transfer, a trap in the simulator and nothing on the device.
// DYNAMIC-LABEL: extern "C" __global__ __aicore__ void pull_dynamic(
// DYNAMIC: bool [[SAME:v[0-9]+]] = {{.*}} == {{.*}};
// DYNAMIC-NEXT: pld::rt::check([[SAME]], "dimension 0 of the destination differs from the source's: a pld.tensor.get without a region moves the whole tensor, so the two shapes must be equal", "pld.tensor.get at {{.*}}pld-to-cce-sdma.mlir:[[@LINE+4]]:3");
// DYNAMIC: pld::rt::tget_async(
func.func @pull_dynamic(%out: memref<?x64xf32>, %in: !pld.dtensor<?x64xf32>, %peer: index)
    attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.get %out, peer %peer, %in engine sdma : memref<?x64xf32>, !pld.dtensor<?x64xf32>
  return
}
