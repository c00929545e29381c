// Kernels that test/Execution/mpi.test runs on MPI processes.

// Every rank adds its rows into root 0's accumulator (`atomic add`): on
// `--mpi-mode rma` i32 adds are MPI_Accumulate and f16 ones, which MPI
// cannot add, a compare-and-swap loop; root's own add goes the same way.
func.func @atomic_adds(%acc32: !pld.dtensor<4x33xi32>, %mine32: memref<4x33xi32>,
                       %acc16: !pld.dtensor<3x17xf16>, %mine16: memref<3x17xf16>,
                       %signal: !pld.dtensor<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %root = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  pld.tensor.put %acc32, peer %root, %mine32 atomic add : !pld.dtensor<4x33xi32>, memref<4x33xi32>
  pld.tensor.put %acc16, peer %root, %mine16 atomic add : !pld.dtensor<3x17xf16>, memref<3x17xf16>
  pld.system.notify %signal[0, 0], peer %root, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  %is_root = arith.cmpi eq, %me, %zero : i32
  scf.if %is_root {
    pld.system.wait %signal[0, 0], expected %n, cmp ge : !pld.dtensor<1x1xi32>
  }
  return
}

// An allreduce sized at run time: `--shape 0=1xL --shape 1=Nx1`.
func.func @allreduce(%data: !pld.dtensor<1x?xf32>, %signal: !pld.dtensor<?x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>
  return
}
