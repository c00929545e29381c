// The epoch algorithms of an allreduce with `epoch %e workspace %w`
// (docs/pld-decompose-collectives.md, "One synchronisation per call"):
// flags are the epoch, written with `op set` and awaited with `cmp ge`,
// never cleared; the data peers read is row `epoch mod 2` of the
// workspace. auto weighs the epoch algorithms alone, and the pass option
// names an algorithm only for the collectives whose kind it fits.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives --verify-each --verify-diagnostics | FileCheck %s
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives='algorithm=oneshot remarks=false' --verify-each | FileCheck %s --check-prefix=OPTION

// oneshot_epoch: the target copied into the workspace row, one flag per
// peer, one wait per peer, pulls from the peers' rows, the result stored
// into the target. No self-notify (no epilogue), no second flag.
// CHECK-LABEL: func.func @oneshot
// CHECK: %[[ROW:.*]] = arith.remsi %[[EPOCH:.*]], %c2
// CHECK: %[[FLAG:.*]] = arith.index_cast %[[EPOCH]] : index to i32
// CHECK: %[[OWN:.*]] = pl.load %arg0[0, 0]
// CHECK: pl.store %[[OWN]], %arg3[%[[ROW]], 0]
// CHECK: pld.system.notify %arg1[%{{.*}}, 0], peer %{{.*}}, value %[[FLAG]], op set
// CHECK: pld.system.wait %arg1[%{{.*}}, 0], expected %[[FLAG]], cmp ge
// CHECK: pld.tile.remote_load %arg3[%[[ROW]], 0], peer
// CHECK-NOT: pld.system.notify
// CHECK: pl.store %{{.*}}, %arg0[0, 0]
// CHECK-NOT: pld.system
// CHECK: return
// OPTION-LABEL: func.func @oneshot
// OPTION-NOT: op add
// OPTION: op set
func.func @oneshot(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>, %e: index, %w: !pld.dtensor<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: oneshot_epoch for 4 ranks x 256 bytes (modelled oneshot_epoch 0.80 us, twoshot_epoch 1.35 us)}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %w : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// twoshot_epoch: the first flag publishes the target where it is (no
// copy); the reduced segment goes into the target and the workspace row;
// the second flag, in the next column, says so; the allgather pulls from
// the owners' rows.
// CHECK-LABEL: func.func @twoshot
// CHECK: %[[ROW:.*]] = arith.remsi
// CHECK: pld.system.notify %arg1[%{{.*}}, 0], peer %{{.*}}, value %{{.*}}, op set
// CHECK-NOT: pl.store
// CHECK: pld.system.wait %arg1[%{{.*}}, 0], expected %{{.*}}, cmp ge
// CHECK: pld.tile.remote_load %arg0[0, %{{.*}}], peer
// CHECK: pl.store %[[REDUCED:.*]], %arg0[0, %{{.*}}]
// CHECK: pl.store %[[REDUCED]], %arg3[%[[ROW]], %{{.*}}]
// CHECK: pld.system.notify %arg1[%{{.*}}, 1], peer %{{.*}}, value %{{.*}}, op set
// CHECK: pld.system.wait %arg1[%{{.*}}, 1], expected %{{.*}}, cmp ge
// CHECK: pld.tile.remote_load %arg3[%[[ROW]], %{{.*}}], peer
// CHECK-NOT: pld.system
// CHECK: return
func.func @twoshot(%d: !pld.dtensor<1x65536xf32>, %s: !pld.dtensor<8x2xi32>, %e: index, %w: !pld.dtensor<2x65536xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: twoshot_epoch for 8 ranks x 262144 bytes}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %w : !pld.dtensor<1x65536xf32>, !pld.dtensor<8x2xi32>, !pld.dtensor<2x65536xf32>
  return
}

// -----

// One flag column: twoshot_epoch cannot run, so auto takes oneshot_epoch
// at every size.
// CHECK-LABEL: func.func @one_column
// CHECK-NOT: %arg1[%{{.*}}, 1]
func.func @one_column(%d: !pld.dtensor<1x65536xf32>, %s: !pld.dtensor<8x1xi32>, %e: index, %w: !pld.dtensor<2x65536xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: oneshot_epoch for 8 ranks x 262144 bytes (modelled oneshot_epoch}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %w : !pld.dtensor<1x65536xf32>, !pld.dtensor<8x1xi32>, !pld.dtensor<2x65536xf32>
  return
}

// -----

// A dynamic size: both epoch algorithms, behind a branch on the size.
// CHECK-LABEL: func.func @dynamic
// CHECK: scf.if
// CHECK: op set
// CHECK: } else {
// CHECK: op set
func.func @dynamic(%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<8x2xi32>, %e: index, %w: !pld.dtensor<2x?xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: oneshot_epoch up to}}
  %r = pld.tensor.allreduce %d, %s, op sum epoch %e workspace %w : !pld.dtensor<1x?xf32>, !pld.dtensor<8x2xi32>, !pld.dtensor<2x?xf32>
  return
}

// -----

// On 2 cores: block b flags on columns 2b and 2b + 1 and reads its part
// of the workspace row.
// CHECK-LABEL: func.func @cores
// CHECK: %[[BLOCK:.*]] = pl.get_block_idx
// CHECK: %[[COLUMN:.*]] = arith.muli %[[BLOCK]], %c2
// CHECK: pld.system.notify %arg1[%{{.*}}, %[[COLUMN]]], peer %{{.*}}, value %{{.*}}, op set
// CHECK: pld.system.wait %arg1[%{{.*}}, %[[COLUMN]]], expected %{{.*}}, cmp ge
// CHECK: %[[NEXT:.*]] = arith.addi %[[COLUMN]], %c1
// CHECK: pld.system.notify %arg1[%{{.*}}, %[[NEXT]]], peer %{{.*}}, value %{{.*}}, op set
func.func @cores(%d: !pld.dtensor<1x65536xf32>, %s: !pld.dtensor<8x4xi32>, %e: index, %w: !pld.dtensor<2x65536xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: twoshot_epoch for 8 ranks on 2 cores each x 131072 bytes per core}}
  %r = pld.tensor.allreduce %d, %s, op sum core_num 2 epoch %e workspace %w : !pld.dtensor<1x65536xf32>, !pld.dtensor<8x4xi32>, !pld.dtensor<2x65536xf32>
  return
}
