// Collectives of every algorithm back to back on one signal, the data
// changing between them: each starts from a signal its predecessor left at
// zero, whatever algorithm that was, and reads no stale data.

// An allreduce sum (oneshot), a per-rank bump, an allreduce max (twoshot),
// a bump, an allreduce sum of the seed's mesh, a bump, a broadcast from
// %root (scatter_allgather), a bump, a broadcast from %root (star).
func.func @streams(%d: !pld.dtensor<1x300xf32>, %bump: memref<1x300xf32>,
                   %signal: !pld.dtensor<8x1xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %b = pl.load %bump[0, 0] : memref<1x300xf32> -> !pl.tile<1x300xf32>
  %sum = pld.tensor.allreduce %d, %signal, op sum algorithm oneshot : !pld.dtensor<1x300xf32>, !pld.dtensor<8x1xi32>
  %t0 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u0 = pl.add %t0, %b : !pl.tile<1x300xf32>
  pl.store %u0, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %max = pld.tensor.allreduce %d, %signal, op max algorithm twoshot : !pld.dtensor<1x300xf32>, !pld.dtensor<8x1xi32>
  %t1 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u1 = pl.add %t1, %b : !pl.tile<1x300xf32>
  pl.store %u1, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %min = pld.tensor.allreduce %d, %signal, op min algorithm seed_mesh : !pld.dtensor<1x300xf32>, !pld.dtensor<8x1xi32>
  %t2 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u2 = pl.add %t2, %b : !pl.tile<1x300xf32>
  pl.store %u2, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %sag = pld.tensor.broadcast %d, %signal, root %root algorithm scatter_allgather : !pld.dtensor<1x300xf32>, !pld.dtensor<8x1xi32>
  %t3 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u3 = pl.add %t3, %b : !pl.tile<1x300xf32>
  pl.store %u3, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %star = pld.tensor.broadcast %d, %signal, root %root algorithm star : !pld.dtensor<1x300xf32>, !pld.dtensor<8x1xi32>
  return
}

// A reduce_scatter sum, an all_to_all of its result, an allgather into the
// reduced target, a reduce_scatter max of that: all direct.
func.func @rows(%t: !pld.dtensor<8x100xf32>, %u: !pld.dtensor<8x100xf32>, %l: memref<1x100xf32>,
                %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.reduce_scatter %t, %signal, op sum algorithm direct : !pld.dtensor<8x100xf32>, !pld.dtensor<8x1xi32>
  %b = pld.tensor.all_to_all %t, %u, %signal algorithm direct : !pld.dtensor<8x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x1xi32>
  %c = pld.tensor.allgather %l, %t, %signal algorithm direct : memref<1x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x1xi32>
  %d = pld.tensor.reduce_scatter %t, %signal, op max algorithm direct : !pld.dtensor<8x100xf32>, !pld.dtensor<8x1xi32>
  return
}

// Two direct allgathers of a `local` in the window (read where it is),
// doubled between them: the first call's exit barrier keeps the doubling
// from reaching a peer that still reads it.
func.func @gathers(%l: !pld.dtensor<1x100xf32>, %t: !pld.dtensor<8x100xf32>, %u: !pld.dtensor<8x100xf32>,
                   %signal: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.allgather %l, %t, %signal algorithm direct : !pld.dtensor<1x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x1xi32>
  %x = pl.load %l[0, 0] : !pld.dtensor<1x100xf32> -> !pl.tile<1x100xf32>
  %y = pl.add %x, %x : !pl.tile<1x100xf32>
  pl.store %y, %l[0, 0] : !pl.tile<1x100xf32>, !pld.dtensor<1x100xf32>
  %b = pld.tensor.allgather %l, %u, %signal algorithm direct : !pld.dtensor<1x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x1xi32>
  return
}

// The same three on a signal [8, 2]: the faster algorithms count their
// barriers on its second column, the seed's mesh and oneshot's flags on a
// cell per source, one after the other; the streams' twoshot pushes its
// allgather (twoshot_push).
func.func @streams_counted(%d: !pld.dtensor<1x300xf32>, %bump: memref<1x300xf32>,
                   %signal: !pld.dtensor<8x2xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %b = pl.load %bump[0, 0] : memref<1x300xf32> -> !pl.tile<1x300xf32>
  %sum = pld.tensor.allreduce %d, %signal, op sum algorithm oneshot : !pld.dtensor<1x300xf32>, !pld.dtensor<8x2xi32>
  %t0 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u0 = pl.add %t0, %b : !pl.tile<1x300xf32>
  pl.store %u0, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %max = pld.tensor.allreduce %d, %signal, op max algorithm twoshot_push : !pld.dtensor<1x300xf32>, !pld.dtensor<8x2xi32>
  %t1 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u1 = pl.add %t1, %b : !pl.tile<1x300xf32>
  pl.store %u1, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %min = pld.tensor.allreduce %d, %signal, op min algorithm seed_mesh : !pld.dtensor<1x300xf32>, !pld.dtensor<8x2xi32>
  %t2 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u2 = pl.add %t2, %b : !pl.tile<1x300xf32>
  pl.store %u2, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %sag = pld.tensor.broadcast %d, %signal, root %root algorithm scatter_allgather : !pld.dtensor<1x300xf32>, !pld.dtensor<8x2xi32>
  %t3 = pl.load %d[0, 0] : !pld.dtensor<1x300xf32> -> !pl.tile<1x300xf32>
  %u3 = pl.add %t3, %b : !pl.tile<1x300xf32>
  pl.store %u3, %d[0, 0] : !pl.tile<1x300xf32>, !pld.dtensor<1x300xf32>
  %star = pld.tensor.broadcast %d, %signal, root %root algorithm star : !pld.dtensor<1x300xf32>, !pld.dtensor<8x2xi32>
  return
}

func.func @rows_counted(%t: !pld.dtensor<8x100xf32>, %u: !pld.dtensor<8x100xf32>, %l: memref<1x100xf32>,
                %signal: !pld.dtensor<8x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.reduce_scatter %t, %signal, op sum algorithm direct : !pld.dtensor<8x100xf32>, !pld.dtensor<8x2xi32>
  %b = pld.tensor.all_to_all %t, %u, %signal algorithm direct : !pld.dtensor<8x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x2xi32>
  %c = pld.tensor.allgather %l, %t, %signal algorithm direct : memref<1x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x2xi32>
  %d = pld.tensor.reduce_scatter %t, %signal, op max algorithm direct : !pld.dtensor<8x100xf32>, !pld.dtensor<8x2xi32>
  return
}

func.func @gathers_counted(%l: !pld.dtensor<1x100xf32>, %t: !pld.dtensor<8x100xf32>, %u: !pld.dtensor<8x100xf32>,
                   %signal: !pld.dtensor<8x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.allgather %l, %t, %signal algorithm direct : !pld.dtensor<1x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x2xi32>
  %x = pl.load %l[0, 0] : !pld.dtensor<1x100xf32> -> !pl.tile<1x100xf32>
  %y = pl.add %x, %x : !pl.tile<1x100xf32>
  pl.store %y, %l[0, 0] : !pl.tile<1x100xf32>, !pld.dtensor<1x100xf32>
  %b = pld.tensor.allgather %l, %u, %signal algorithm direct : !pld.dtensor<1x100xf32>, !pld.dtensor<8x100xf32>, !pld.dtensor<8x2xi32>
  return
}
