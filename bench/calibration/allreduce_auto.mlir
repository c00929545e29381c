// pld's own allreduce of gemm_ar's buffer (bench/calibration/gemm_ar_comm.mlir
// writes the vendor's): `auto` on 24 vector cores of every rank
// (`pld-run --ranks 8 --blocks 24`), counted barriers on [8, 2 x 24].
func.func @allreduce_auto(%red: !pld.dtensor<5504x1536xf16>, %signal: !pld.dtensor<8x48xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %red, %signal, op sum core_num 24 : !pld.dtensor<5504x1536xf16>, !pld.dtensor<8x48xi32>
  return
}
