// One kernel per collective family, for tsan.test: small shapes, since
// ThreadSanitizer checks every access rather than the sizes.
func.func @allreduce_mesh(%d: !pld.dtensor<1x4100xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x4100xf32>, !pld.dtensor<?x1xi32>
  return
}
func.func @allreduce_ring(%d: !pld.dtensor<1x4100xf32>, %s: !pld.dtensor<?x?xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op max mode ring : !pld.dtensor<1x4100xf32>, !pld.dtensor<?x?xi32>
  return
}
func.func @reduce_scatter(%d: !pld.dtensor<?x300xf16>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum : !pld.dtensor<?x300xf16>, !pld.dtensor<?x1xi32>
  return
}
func.func @allgather(%l: memref<1x300xf32>, %d: !pld.dtensor<?x300xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %l, %d, %s : memref<1x300xf32>, !pld.dtensor<?x300xf32>, !pld.dtensor<?x1xi32>
  return
}
func.func @broadcast(%d: !pld.dtensor<1x300xf32>, %s: !pld.dtensor<?x1xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x300xf32>, !pld.dtensor<?x1xi32>
  return
}
func.func @all_to_all(%in: !pld.dtensor<?x300xf32>, %out: !pld.dtensor<?x300xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.all_to_all %in, %out, %s : !pld.dtensor<?x300xf32>, !pld.dtensor<?x300xf32>, !pld.dtensor<?x1xi32>
  return
}
