// pto-isa's tget_bandwidth experiment (kernels/manual/a2a3/tget_bandwidth,
// tget_bandwidth_kernel.cpp): on two ranks, the root (rank 0) reads its
// peer's `send` window into its own `recv` window, `pto::comm::TGET`
// staged through one 1 x 1024 f32 tile of the unified buffer (@tget), or
// TGET_ASYNC through the SDMA engine (@tget_async). bench/calibrate.py runs
// them at the published sizes (--shape) and sets the modelled time beside
// the measured one.
func.func @tget(%send: !pld.dtensor<1x?xf32>, %recv: !pld.dtensor<1x?xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %send : !pld.dtensor<1x?xf32>
  %rank = pld.system.rank %ctx
  %c0 = arith.constant 0 : i32
  %root = arith.cmpi eq, %rank, %c0 : i32
  %peer = arith.constant 1 : index
  scf.if %root {
    pld.tensor.get %recv, peer %peer, %send chunk_rows 1 chunk_cols 1024 : !pld.dtensor<1x?xf32>, !pld.dtensor<1x?xf32>
  }
  return
}

func.func @tget_async(%send: !pld.dtensor<1x?xf32>, %recv: !pld.dtensor<1x?xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %send : !pld.dtensor<1x?xf32>
  %rank = pld.system.rank %ctx
  %c0 = arith.constant 0 : i32
  %root = arith.cmpi eq, %rank, %c0 : i32
  %peer = arith.constant 1 : index
  scf.if %root {
    pld.tensor.get %recv, peer %peer, %send engine sdma : !pld.dtensor<1x?xf32>, !pld.dtensor<1x?xf32>
  }
  return
}
