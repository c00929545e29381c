// A kernel whose notify fires twice (on the cube and on the vector lane):
// pld-verify rejects it with notes on the cube and the vector work.
func.func @mixed_kernel(%signal: !pld.dtensor<2x1xi32>, %peer: index, %v: i32,
                        %a: !pl.tile<16x16xf16>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c = pl.matmul %a, %a : !pl.tile<16x16xf16>, !pl.tile<16x16xf16> -> !pl.tile<16x16xf32>
  %d = pl.add %c, %c : !pl.tile<16x16xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}
