// Whole-tensor transfers between dynamic shapes (shape-checks.test): the
// two shapes must be equal, and a run where they are not traps.

// Every rank pulls the next rank's whole window into its own buffer.
func.func @pull(%out: memref<?x?xf32>, %in: !pld.dtensor<?x?xf32>, %sig: !pld.dtensor<1x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %up = arith.addi %me, %c1 : index
  %next = arith.remui %up, %n : index
  pld.tensor.get %out, peer %next, %in chunk_rows 4 chunk_cols 8 : memref<?x?xf32>, !pld.dtensor<?x?xf32>
  return
}

// Every rank pushes its static [4, 8] buffer into the next rank's window,
// whose row count is dynamic, then notifies it.
func.func @push(%win: !pld.dtensor<?x8xf32>, %src: memref<4x8xf32>, %sig: !pld.dtensor<1x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %up = arith.addi %me, %c1 : index
  %next = arith.remui %up, %n : index
  pld.tensor.put %win, peer %next, %src : !pld.dtensor<?x8xf32>, memref<4x8xf32>
  pld.system.notify %sig[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<1x1xi32>
  return
}
