// pld-verify's race rule over several launches of each entry (launches=K,
// as pld-run --launches makes them): every rank finishes a launch before
// any starts the next, the windows keep what a launch left, and an epoch
// argument rises by one per launch. State a program leaves in a window is
// judged: a wait met by the last launch's notifies orders nothing of this
// launch's.
// RUN: pld-opt %s --split-input-file --pld-verify="launches=3 remarks=false" --verify-diagnostics
// The same programs launched once are quiet (pld-opt checks the annotations
// wherever a file has them, so they go first):
// RUN: sed -e '/expected-/d' %s > %t.mlir
// RUN: pld-opt %t.mlir --split-input-file --pld-verify=remarks=false 2>&1 | FileCheck %s --allow-empty --check-prefix=ONCE
// ONCE-NOT: error
// RUN: not pld-opt %s --pld-verify=launches=17 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: expected launches to be in 1..=16, found 17

// Credits left in the cell: the next launch's wait is met at once, and its
// read of the cell races with the next rank's new credits.
func.func @credit_kept(%signal: !pld.dtensor<1x1xi32>, %out: memref<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %four = arith.constant 4 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-note @+1 {{the conflicting pld.system.notify on rank 0 launch 1}}
    pld.system.notify %signal[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  }
  pld.system.wait %signal[0, 0], expected %four, cmp ge : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{data race on 2 ranks: this pl.read on rank 1 launch 1 reads [0, 1) x [0, 1) of rank 1's argument 0 of @credit_kept, which pld.system.notify on rank 0 launch 1 notifies (cell [0, 0])}}
  %left = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
  pl.write %left, %out[0, 0] : memref<1x1xi32>
  return
}

// -----

// Near miss: PyPTO's self-notify credit reset takes the credits back, so
// every launch starts from 0.
func.func @credit_reset(%signal: !pld.dtensor<1x1xi32>, %out: memref<1x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %four = arith.constant 4 : i32
  %back = arith.constant -4 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  scf.for %i = %c0 to %c4 step %c1 {
    pld.system.notify %signal[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<1x1xi32>
  }
  pld.system.wait %signal[0, 0], expected %four, cmp ge : !pld.dtensor<1x1xi32>
  pld.system.notify %signal[0, 0], peer %me, value %back, op atomic_add : !pld.dtensor<1x1xi32>
  %left = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
  pl.write %left, %out[0, 0] : memref<1x1xi32>
  return
}

// -----

// A payload published with the epoch the host passes, which rises per
// launch: each launch's wait is met by its own signal only.
func.func @epoch_push(%x: memref<1x64xf32>, %row: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<1x1xi32>,
                      %out: memref<1x64xf32>, %epoch: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %t = pl.load %x[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %t, %row[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[0, 0], peer %next, value %epoch, op set : !pld.dtensor<1x1xi32>
  pld.system.wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  %got = pl.load %row[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}

// -----

// The same with one epoch for every launch: the next launch's wait is met
// by the last launch's signal, and its load races with the new row.
func.func @epoch_fixed(%x: memref<1x64xf32>, %row: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<1x1xi32>,
                       %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %epoch = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<1x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %t = pl.load %x[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank}}
  pld.tile.remote_store %t, %row[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  // expected-note @+1 {{the notify on rank 0 launch 1 that it does not count}}
  pld.system.notify %signal[0, 0], peer %next, value %epoch, op set : !pld.dtensor<1x1xi32>
  // expected-note @+1 {{this wait (>= 1) is too weak to order them: it can hold before rank 0 launch 1's notify of the same cell}}
  pld.system.wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
  // expected-error @+1 {{data race on 2 ranks: this pl.load on rank}}
  %got = pl.load %row[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
