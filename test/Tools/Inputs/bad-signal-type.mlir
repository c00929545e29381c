func.func @f(%s: !pld.dtensor<2x1xf32>, %v: i32, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.system.notify %s[0, 0], peer %p, value %v, op set : !pld.dtensor<2x1xf32>
  return
}
