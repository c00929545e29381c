// pld-verify on the epoch algorithms' decomposition: two calls with the
// same epoch on one signal and workspace race (the second call's waits hold
// on the first call's flags, so it reads a peer's workspace row while that
// peer rewrites it); with one more epoch per call (the near miss) they do
// not. The epoch is an entry argument: a notify's value is computed from
// it, so it runs as the value a host passes (1), though the workspace row
// (its parity) is its first use.
// RUN: not pld-opt %s --split-input-file --pld-decompose-collectives=remarks=false --pld-verify='ranks=2' -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @same_epoch(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x2xi32>, %e: index, %w: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // CHECK-COUNT-2: pld-verify-epoch.mlir:[[# @LINE + 1]]:8: error: data race on 2 ranks with argument 2 of @same_epoch = 1 on every rank: this pld.tile.remote_load on rank {{[01]}} reads [1, 2) x [0, 64) of rank {{[01]}}'s argument 3 of @same_epoch, which pl.store on rank {{[01]}} writes
  %a = pld.tensor.allreduce %d, %s, op sum algorithm oneshot_epoch epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2x64xf32>
  // CHECK-COUNT-2: pld-verify-epoch.mlir:[[# @LINE + 1]]:8: error: data race on 2 ranks with argument 2 of @same_epoch = 1 on every rank: this pld.tile.remote_load on rank {{[01]}} reads [1, 2) x [0, 64) of rank {{[01]}}'s argument 3 of @same_epoch, which pl.store on rank {{[01]}} writes
  %b = pld.tensor.allreduce %d, %s, op sum algorithm oneshot_epoch epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2x64xf32>
  return
}

// -----

func.func @next_epoch(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x2xi32>, %e: index, %w: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %next = arith.addi %e, %c1 : index
  %a = pld.tensor.allreduce %d, %s, op sum algorithm oneshot_epoch epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2x64xf32>
  %b = pld.tensor.allreduce %d, %s, op sum algorithm oneshot_epoch epoch %next workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2x64xf32>
  return
}
