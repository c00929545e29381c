// PyPTO's `[world_size]` signal (one cell per rank) for every collective,
// back to back on one signal: in an InCore kernel, and in host code, where
// each runs on the HOST rail as a generated kernel (PyPTO's host builtins).
func.func @incore(%d: !pld.dtensor<1x300xf32>, %rows: !pld.dtensor<?x64xf32>, %out: !pld.dtensor<?x64xf32>,
                  %signal: !pld.dtensor<?xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 1 : index
  %a = pld.tensor.allreduce %d, %signal, op sum : !pld.dtensor<1x300xf32>, !pld.dtensor<?xi32>
  pld.tensor.barrier %signal : !pld.dtensor<?xi32>
  %b = pld.tensor.broadcast %d, %signal, root %root : !pld.dtensor<1x300xf32>, !pld.dtensor<?xi32>
  %c = pld.tensor.all_to_all %rows, %out, %signal : !pld.dtensor<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.dtensor<?xi32>
  %e = pld.tensor.reduce_scatter %rows, %signal, op sum : !pld.dtensor<?x64xf32>, !pld.dtensor<?xi32>
  return
}

func.func @host(%d: !pld.dtensor<1x300xf32>, %rows: !pld.dtensor<?x64xf32>, %out: !pld.dtensor<?x64xf32>,
                %signal: !pld.dtensor<?xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %root = arith.constant 1 : index
  %a = pld.tensor.allreduce %d, %signal, op sum : !pld.dtensor<1x300xf32>, !pld.dtensor<?xi32>
  pld.tensor.barrier %signal : !pld.dtensor<?xi32>
  %b = pld.tensor.broadcast %d, %signal, root %root : !pld.dtensor<1x300xf32>, !pld.dtensor<?xi32>
  %c = pld.tensor.all_to_all %rows, %out, %signal : !pld.dtensor<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.dtensor<?xi32>
  %e = pld.tensor.reduce_scatter %rows, %signal, op sum : !pld.dtensor<?x64xf32>, !pld.dtensor<?xi32>
  return
}

// PyPTO's HOST ring signal keeps one spare row: [2 (N - 1) + 1, N].
func.func @host_ring(%d: !pld.dtensor<1x300xf32>, %signal: !pld.dtensor<5x3xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %a = pld.tensor.allreduce %d, %signal, op sum mode ring : !pld.dtensor<1x300xf32>, !pld.dtensor<5x3xi32>
  %b = pld.tensor.allreduce %d, %signal, op sum mode ring : !pld.dtensor<1x300xf32>, !pld.dtensor<5x3xi32>
  return
}

// PyPTO's all_to_all of a plain tensor: the rows are put from the private
// input into the peers' targets (seed, which auto picks).
func.func @private_input(%input: memref<?x64xf32>, %out: !pld.dtensor<?x64xf32>,
                         %signal: !pld.dtensor<?xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c = pld.tensor.all_to_all %input, %out, %signal : memref<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.dtensor<?xi32>
  %d = pld.tensor.all_to_all %input, %out, %signal : memref<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.dtensor<?xi32>
  return
}

// Rank and rank count as `index` (no cast): every rank reads its
// successor's row once the successor has announced it.
func.func @ring_shift(%d: !pld.dtensor<1x64xf32>, %out: memref<1x64xf32>, %signal: !pld.dtensor<?xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %sum = arith.addi %me, %c1 : index
  %next = arith.remsi %sum, %n : index
  %back = arith.addi %me, %n : index
  %before = arith.subi %back, %c1 : index
  %previous = arith.remsi %before, %n : index
  pld.system.notify %signal[%me], peer %previous, value %one, op atomic_add : !pld.dtensor<?xi32>
  pld.system.wait %signal[%next], expected %one, cmp ge : !pld.dtensor<?xi32>
  %t = pld.tile.remote_load %d[0, 0], peer %next : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  return
}
