// pld-verify's race rule on tensors and memrefs whose shapes the host
// fixes: each dynamic dimension of an entry argument is a value the host
// passes, the same on every rank, run at a multiple of the rank count and
// at one that is not (docs/pld-verify.md). It used to stop with "the shape
// of the memory ... is dynamic".
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

// A ring with dynamic rows: each rank reads the row its predecessor pushed
// before the wait that orders the push. The race names the extents.
func.func @ring_early(%data: !pld.dtensor<?x64xf32>, %sig: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<?x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %around = arith.addi %me, %n : index
  %before = arith.subi %around, %c1 : index
  %prev = arith.remui %before, %n : index
  %row = pl.load %data[%me, 0] : !pld.dtensor<?x64xf32> -> !pl.tile<1x64xf32>
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank}}
  pld.tile.remote_store %row, %data[%me, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<?x64xf32>
  // expected-note @+1 {{rank 0 notifies cell [0, 0] of rank 1 after the write; a wait on that cell before the pl.load on rank 1 would order them}}
  pld.system.notify %sig[%me, 0], peer %next, value %one, op atomic_add : !pld.dtensor<?x1xi32>
  // expected-error @+1 {{data race on 2 ranks with each dynamic dimension = 2 on every rank: this pl.load on rank}}
  %got = pl.load %data[%prev, 0] : !pld.dtensor<?x64xf32> -> !pl.tile<1x64xf32>
  pld.system.wait %sig[%prev, 0], expected %one, cmp ge : !pld.dtensor<?x1xi32>
  pl.store %got, %data[%me, 0] : !pl.tile<1x64xf32>, !pld.dtensor<?x64xf32>
  return
}

// -----

// Near miss: the read after the wait. Decided on every rank count and
// extent: no remark.
func.func @ring_after_wait(%data: !pld.dtensor<?x64xf32>, %sig: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<?x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %after = arith.addi %me, %c1 : index
  %next = arith.remui %after, %n : index
  %around = arith.addi %me, %n : index
  %before = arith.subi %around, %c1 : index
  %prev = arith.remui %before, %n : index
  %row = pl.load %data[%me, 0] : !pld.dtensor<?x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %row, %data[%me, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<?x64xf32>
  pld.system.notify %sig[%me, 0], peer %next, value %one, op atomic_add : !pld.dtensor<?x1xi32>
  pld.system.wait %sig[%prev, 0], expected %one, cmp ge : !pld.dtensor<?x1xi32>
  %got = pl.load %data[%prev, 0] : !pld.dtensor<?x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[%me, 0] : !pl.tile<1x64xf32>, !pld.dtensor<?x64xf32>
  return
}

// -----

// A collective on a dynamic target, and a loop bounded by a dimension the
// host fixes (pld.tensor.dim): decided.
func.func @allreduce_rows(%data: !pld.dtensor<?x64xf32>, %sig: !pld.dtensor<8x1xi32>, %out: memref<?x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sum = pld.tensor.allreduce %data, %sig, op sum : !pld.dtensor<?x64xf32>, !pld.dtensor<8x1xi32>
  %rows = pld.tensor.dim %data, 0 : !pld.dtensor<?x64xf32>
  scf.for %r = %c0 to %rows step %c1 {
    %t = pl.load %data[%r, 0] : !pld.dtensor<?x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %out[%r, 0] : !pl.tile<1x64xf32>, memref<?x64xf32>
  }
  return
}

// -----

// A trap on some extents only: rows 0 to 3 need four rows, which the
// host may give. Accepted; the run with too few rows is not one a host
// means.
func.func @four_rows(%out: memref<?x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %out[3, 0] : memref<?x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<?x64xf32>
  return
}

// -----

// A remote_store pushes its whole source, whose width the host fixes: every
// rank pushes its row into row 0 of rank 0's window at column 4 * rank, so
// rows wider than 4 overlap. The region's width is the source's extent (it
// used to be "a size of pld.tensor.remote_store is not known").
func.func @push_overlap(%win: !pld.dtensor<2x64xf32>, %row: memref<1x?xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %win : !pld.dtensor<2x64xf32>
  %me = pld.system.rank %ctx : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %col = arith.muli %me, %c4 : index
  // expected-error @+2 {{data race on 2 ranks with each dynamic dimension = 5 on every rank: this pld.tensor.remote_store on rank 1 writes [0, 1) x [4, 9) of rank 0's argument 0 of @push_overlap, which pld.tensor.remote_store on rank 0 writes ([0, 1) x [0, 5))}}
  // expected-note @+1 {{the conflicting pld.tensor.remote_store on rank 0}}
  pld.tensor.remote_store %row, %win[0, %col], peer %c0 : memref<1x?xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// Near miss: each rank pushes into its own row. Decided: no remark.
func.func @push_rows(%win: !pld.dtensor<4x64xf32>, %row: memref<1x?xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %win : !pld.dtensor<4x64xf32>
  %me = pld.system.rank %ctx : index
  %c0 = arith.constant 0 : index
  pld.tensor.remote_store %row, %win[%me, 0], peer %c0 : memref<1x?xf32>, !pld.dtensor<4x64xf32>
  return
}
