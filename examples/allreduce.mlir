// Every rank contributes a row; afterwards every rank holds their sum.
//
//   pld-translate --pld-to-cce examples/allreduce.mlir
//   pld-run examples/allreduce.mlir --ranks 4 --init '0=r * 10 + i' \
//       --expect '0=sum_r(r * 10 + i)' --print 0
//
// The signal has a row per rank (up to 8 ranks); the allreduce leaves it all
// zeros, so the kernel can run again on the same signal.
func.func @allreduce(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>
  return
}
