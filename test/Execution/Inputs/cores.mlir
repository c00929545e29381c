// Allreduces on several cores of every rank (`core_num`): block b of the
// launch reduces part b of the target on its own columns of the signal.

// 4100 f32 on 4 cores, counted barriers on [N, 8]: parts of 1032 f32 (32-byte
// aligned), the last one 1004.
func.func @counted(%data: !pld.dtensor<1x4100xf32>, %signal: !pld.dtensor<4x8xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op sum core_num 4 : !pld.dtensor<1x4100xf32>, !pld.dtensor<4x8xi32>
  return
}

// Each algorithm on 3 cores, back to back on one [N, 3] signal of cells:
// the sum of the sums.
func.func @cells(%data: !pld.dtensor<2x333xf16>, %signal: !pld.dtensor<4x3xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.allreduce %data, %signal, op sum algorithm oneshot core_num 3 : !pld.dtensor<2x333xf16>, !pld.dtensor<4x3xi32>
  %b = pld.tensor.allreduce %data, %signal, op sum algorithm twoshot core_num 3 : !pld.dtensor<2x333xf16>, !pld.dtensor<4x3xi32>
  %c = pld.tensor.allreduce %data, %signal, op sum algorithm twoshot_push core_num 3 : !pld.dtensor<2x333xf16>, !pld.dtensor<4x3xi32>
  return
}

// In a loop, on counters: every iteration a max of the running values.
func.func @loop(%data: !pld.dtensor<1x1000xf32>, %signal: !pld.dtensor<4x4xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %r = pld.tensor.allreduce %data, %signal, op max core_num 2 : !pld.dtensor<1x1000xf32>, !pld.dtensor<4x4xi32>
  }
  return
}

// The row collectives and broadcast on 3 cores: block b moves part b of
// every row's 1000 columns (336, 336 and 328 f32).
func.func @reduce_scatter(%data: !pld.dtensor<4x1000xf32>, %signal: !pld.dtensor<4x6xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %data, %signal, op sum core_num 3 : !pld.dtensor<4x1000xf32>, !pld.dtensor<4x6xi32>
  return
}

// A private `local` (copied into the window first) and one in the window.
func.func @allgathers(%local: memref<1x1000xf32>, %window_local: !pld.dtensor<1x1000xf32>,
                      %data: !pld.dtensor<4x1000xf32>, %again: !pld.dtensor<4x1000xf32>,
                      %signal: !pld.dtensor<4x3xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.allgather %local, %data, %signal core_num 3 : memref<1x1000xf32>, !pld.dtensor<4x1000xf32>, !pld.dtensor<4x3xi32>
  %b = pld.tensor.allgather %window_local, %again, %signal core_num 3 : !pld.dtensor<1x1000xf32>, !pld.dtensor<4x1000xf32>, !pld.dtensor<4x3xi32>
  return
}

func.func @all_to_all(%input: !pld.dtensor<4x1000xf32>, %data: !pld.dtensor<4x1000xf32>, %signal: !pld.dtensor<4x6xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.all_to_all %input, %data, %signal core_num 3 : !pld.dtensor<4x1000xf32>, !pld.dtensor<4x1000xf32>, !pld.dtensor<4x6xi32>
  return
}

func.func @broadcast(%data: !pld.dtensor<1x5000xf32>, %signal: !pld.dtensor<4x6xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 2 : index
  %r = pld.tensor.broadcast %data, %signal, root %root core_num 3 : !pld.dtensor<1x5000xf32>, !pld.dtensor<4x6xi32>
  return
}

// star on 3 cores: block b gets part b of the root's data, twice on one
// signal; on 4 cores a short stream, whose last block has no part.
func.func @broadcast_star(%data: !pld.dtensor<1x5000xf32>, %signal: !pld.dtensor<4x6xi32>, %short: !pld.dtensor<1x40xf32>, %wide: !pld.dtensor<4x8xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 1 : index
  %r = pld.tensor.broadcast %data, %signal, root %root algorithm star core_num 3 : !pld.dtensor<1x5000xf32>, !pld.dtensor<4x6xi32>
  %again = pld.tensor.broadcast %data, %signal, root %root algorithm star core_num 3 : !pld.dtensor<1x5000xf32>, !pld.dtensor<4x6xi32>
  %s = pld.tensor.broadcast %short, %wide, root %root algorithm star core_num 4 : !pld.dtensor<1x40xf32>, !pld.dtensor<4x8xi32>
  return
}

// 40 f32 on 4 cores: parts of 16, 16 and 8 f32, and none for block 3, which
// takes no part in the algorithm on any rank.
func.func @tiny(%data: !pld.dtensor<1x40xf32>, %signal: !pld.dtensor<4x8xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op sum core_num 4 : !pld.dtensor<1x40xf32>, !pld.dtensor<4x8xi32>
  return
}
