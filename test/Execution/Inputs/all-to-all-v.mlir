// MPI_Alltoallv as PyPTO's all_to_all_v: every rank sends rank d a block
// of `send[d]` valid elements (the whole [1, 64] row moves), and learns in
// `recv[s]` how many of rank s's row are valid. Twice on one signal, the
// counts changing between the calls (the second call's counts are the
// first's plus 10, clamped to the row's 64): a count of the first call
// left in `recv` shows in the numbers.
func.func @exchange(%input: memref<?x64xf32>, %out: !pld.dtensor<?x64xf32>, %signal: !pld.dtensor<?x2xi32>,
                    %send: memref<?xi32>, %recv: !pld.dtensor<?xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pld.tensor.all_to_all_v %input, %out, %signal counts %send to %recv : memref<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.dtensor<?x2xi32>, memref<?xi32>, !pld.dtensor<?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ten = arith.constant 10 : i32
  %n = memref.dim %send, %c0 : memref<?xi32>
  scf.for %d = %c0 to %n step %c1 {
    %count = pl.read %send[%d] : memref<?xi32>
    %more = arith.addi %count, %ten : i32
    pl.write %more, %send[%d] : memref<?xi32>
  }
  %u = pld.tensor.all_to_all_v %input, %out, %signal counts %send to %recv : memref<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.dtensor<?x2xi32>, memref<?xi32>, !pld.dtensor<?xi32>
  return
}
