// "The Barrier in Isolation": every rank bumps its own
// row in every peer's signal, then waits for every peer's row.
// RUN: pld-opt %s --pld-verify --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @barrier
func.func @barrier(%signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %nranks = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  // CHECK: scf.for
  // CHECK: pld.system.notify %{{.*}}[%{{.*}}, 0], peer %{{.*}}, value %{{.*}}, op atomic_add
  scf.for %peer = %c0 to %nranks step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
    }
  }
  // CHECK: scf.for
  // CHECK: pld.system.wait %{{.*}}[%{{.*}}, 0], expected %{{.*}}, cmp ge
  scf.for %src = %c0 to %nranks step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
    }
  }
  return
}
