// Every collective's decomposition is race-free under pld-verify's race
// rule, with no exemption for generated code: at 2, 3 and 4 ranks, in one
// chunk and in several (chunk-bytes=64 cuts each row into 4 chunks), with
// the transfers expanded. A non-empty check, so the rule is seen deciding:
// with remarks on, an undecided function would fail --verify-diagnostics.
// RUN: pld-opt %s --pld-decompose-collectives --pld-verify --verify-diagnostics
// RUN: pld-opt %s --pld-decompose-collectives='chunk-bytes=64' --pld-expand-transfers --pld-verify --verify-diagnostics
// RUN: pld-opt %s --pld-decompose-collectives='chunk-bytes=64' --pld-expand-transfers --canonicalize --cse --pld-verify --verify-diagnostics

func.func @ar_mesh(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  %t = pl.load %d[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}
func.func @ar_ring(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op max mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<6x4xi32>
  return
}
func.func @rs(%d: !pld.dtensor<4x64xf16>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum : !pld.dtensor<4x64xf16>, !pld.dtensor<4x1xi32>
  return
}
func.func @ag(%l: memref<1x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %l, %d, %s : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @bc(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 1 : index
  %r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @a2a(%in: !pld.dtensor<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.all_to_all %in, %out, %s : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @bar(%s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.barrier %s : !pld.dtensor<4x1xi32>
  return
}
