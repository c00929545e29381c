// allreduce=auto: a ring allreduce with a static rank count and size runs
// the mesh algorithm (on the ring signal's [src, 0] cells) where the
// alpha-beta cost model says it is faster, and says so in a remark.
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-decompose-collectives{allreduce=auto})' --verify-each --verify-diagnostics | FileCheck %s
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives --verify-each | FileCheck %s --check-prefix=WRITTEN

// A short stream: 12 barriers of the ring cost more than 2 of the mesh.
// CHECK-LABEL: func.func @short_stream
// CHECK-NOT: arith.ceildivsi
// CHECK: pld.system.notify %{{.*}}[%{{.*}}, 0], peer
// CHECK: pld.tile.remote_load
// CHECK: arith.constant -2 : i32
// WRITTEN-LABEL: func.func @short_stream
// WRITTEN: arith.ceildivsi
func.func @short_stream(%data: !pld.dtensor<1x17xf32>, %signal: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce=auto: mesh algorithm over the ring signal for 4 ranks x 68 bytes (modelled mesh 2.01 us, ring 12.00 us)}}
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x17xf32>, !pld.dtensor<6x4xi32>
  return
}

// -----

// 4 MiB over 8 ranks: the ring's bandwidth wins.
// CHECK-LABEL: func.func @large
// CHECK: arith.ceildivsi
// CHECK: arith.remsi
func.func @large(%data: !pld.dtensor<1x1048576xf32>, %signal: !pld.dtensor<14x8xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce=auto: ring algorithm kept for 8 ranks x 4194304 bytes (modelled mesh 1431.41 us, ring 1189.60 us)}}
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x1048576xf32>, !pld.dtensor<14x8xi32>
  return
}

// -----

// Without a static size there is nothing to compare: the mode as written,
// and no remark. Mesh allreduces are never changed (a mesh signal cannot
// host a ring).
// CHECK-LABEL: func.func @dynamic
// CHECK: arith.remsi
func.func @dynamic(%data: !pld.dtensor<1x?xf32>, %signal: !pld.dtensor<6x4xi32>, %mesh: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x?xf32>, !pld.dtensor<6x4xi32>
  %q = pld.tensor.allreduce %data, %mesh, op sum : !pld.dtensor<1x?xf32>, !pld.dtensor<4x1xi32>
  return
}
