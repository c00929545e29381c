// pld's passes count what they do into pass statistics, which
// --mlir-pass-statistics lists (from the bridge's own sums: the report of a
// release MLIR, Debian's included, is empty). The numbers are those of the
// input below: two collectives, three transfers, one host-only op in InCore
// code.
// RUN: pld-opt %s --pld-decompose-collectives --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECOMPOSE
// RUN: pld-opt %s --pld-expand-transfers --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPAND
// RUN: not pld-opt %s --pld-verify --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// DECOMPOSE: Pass statistics report (pld's passes)
// DECOMPOSE: {{^}}  pld-decompose-collectives
// DECOMPOSE-NEXT: (S) 2 collectives - Collectives decomposed (GEMMs fused with communication too)

// EXPAND: Pass statistics report (pld's passes)
// EXPAND: {{^}}  pld-expand-transfers
// EXPAND-NEXT: (S) 0 shape-checks - Run-time checks that a whole-tensor put or get moves equal dynamic extents
// EXPAND-NEXT: (S) 3 transfers    - Transfers expanded into chunk loops

// VERIFY: error: 'pld.system.world_size' is only legal in host code
// VERIFY: Pass statistics report (pld's passes)
// VERIFY: {{^}}  pld-verify
// VERIFY-NEXT: (S)  1 errors              - Errors the rules reported
// VERIFY-NEXT: (S)  2 race-entries-run    - Entry functions the race rule ran
// VERIFY-NEXT: (S)  0 race-entries-shared - Entry functions judged by the verdict of one with the same structure
// VERIFY-NEXT: (S) 17 race-runs           - Runs of the race rule
// VERIFY-NEXT: (S)  0 warnings            - Warnings: what the rules could not decide statically

func.func @collectives(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<4x2xi32>, %b: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  pld.tensor.barrier %b : !pld.dtensor<4x1xi32>
  return
}

func.func @transfers(%dst: !pld.dtensor<64xf32>, %src: memref<64xf32>, %p: index) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<64xf32>, memref<64xf32>
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<64xf32>, memref<64xf32>
  pld.tensor.get %src, peer %p, %dst : memref<64xf32>, !pld.dtensor<64xf32>
  return
}

func.func @world_size_in_incore_code() attributes {pl.kernel = #pl.kernel<incore>} {
  %n = pld.system.world_size
  return
}
