// pld-verify's default-kind option decides the kind of unmarked functions,
// given as a pass flag option or inside --pass-pipeline.
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify{default-kind=incore remarks=false})' --verify-diagnostics
// RUN: pld-opt %s --split-input-file --pld-verify='default-kind=incore remarks=false' --verify-diagnostics

// Unmarked, hence InCore: notify is fine.
func.func @notify_unmarked(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {
  pld.system.notify %s[0, 0], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
  return
}

// -----

// expected-note @+1 {{the enclosing function has no pl.kernel attribute, so it is an InCore kernel (pld-verify default-kind=incore)}}
func.func @world_size_unmarked() {
  // expected-error @+1 {{'pld.system.world_size' is only legal in host code, but it stands in InCore code}}
  %n = pld.system.world_size
  return
}

// -----

// An explicit attribute wins over the option.
func.func @world_size_marked_host() attributes {pl.kernel = #pl.kernel<host>} {
  %n = pld.system.world_size
  return
}
