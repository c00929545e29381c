// The signal handshake ("Notify & Wait"): write our tag
// into the peer's cell, wait until our own cell has been written, read the
// received tag back out.
// RUN: pld-opt %s --pld-verify --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @handshake_step
func.func @handshake_step(%out: memref<1x1xi32>, %signal: !pld.dtensor<1x1xi32>,
                          %peer: index, %tag: i32) -> memref<1x1xi32>
    attributes {pl.kernel = #pl.kernel<incore>} {
  // 1. Write our tag into the peer's signal cell.
  // CHECK: pld.system.notify %{{.*}}[0, 0], peer %{{.*}}, value %{{.*}}, op set
  pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
  // 2. Wait until our own cell has been written.
  %c1 = arith.constant 1 : i32
  // CHECK: pld.system.wait %{{.*}}[0, 0], expected %{{.*}}, cmp ge
  pld.system.wait %signal[0, 0], expected %c1, cmp ge : !pld.dtensor<1x1xi32>
  // 3. Read the received tag back out.
  // CHECK: pl.read
  // CHECK: pl.write
  %received = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
  pl.write %received, %out[0, 0] : memref<1x1xi32>
  return %out : memref<1x1xi32>
}
