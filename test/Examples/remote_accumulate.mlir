// "Remote Accumulate": load the local row, add the same
// row of every peer's window.
// RUN: pld-opt %s --pld-verify --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @remote_accumulate
func.func @remote_accumulate(%data: !pld.dtensor<1x256xf32>, %out: memref<1x256xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %data : !pld.dtensor<1x256xf32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %nranks = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: pl.load %{{.*}}[0, 0] : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  %acc0 = pl.load %data[0, 0] : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  // CHECK: scf.for
  // CHECK: pld.tile.remote_load %{{.*}}[0, 0], peer %{{.*}} : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  // CHECK: pl.add
  %acc = scf.for %peer = %c0 to %nranks step %c1 iter_args(%acc_in = %acc0) -> (!pl.tile<1x256xf32>) {
    %other = arith.cmpi ne, %peer, %me : index
    %next = scf.if %other -> (!pl.tile<1x256xf32>) {
      %peer_tile = pld.tile.remote_load %data[0, 0], peer %peer : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
      %sum = pl.add %acc_in, %peer_tile : !pl.tile<1x256xf32>
      scf.yield %sum : !pl.tile<1x256xf32>
    } else {
      scf.yield %acc_in : !pl.tile<1x256xf32>
    }
    scf.yield %next : !pl.tile<1x256xf32>
  }
  pl.store %acc, %out[0, 0] : !pl.tile<1x256xf32>, memref<1x256xf32>
  return
}
