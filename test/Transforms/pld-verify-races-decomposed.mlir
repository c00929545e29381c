// Every algorithm of every collective decomposes race-free under
// pld-verify's race rule, with no exemption for generated code: at 2, 3
// and 4 ranks, in one chunk and in several (chunk-bytes=64 cuts the seed's
// rows into 4 chunks, ub-bytes=640 the others' streams, rows and segments
// into 2 to 4), with the transfers expanded. The signals of 4 rows unroll
// the faster algorithms' pulls over 4 ranks (those at or beyond n
// skipped), those of 9 rows keep them in a rolled loop. A non-empty check,
// so the rule is seen deciding: with remarks on, an undecided function
// would fail --verify-diagnostics. `algorithm=seed` gives the functions
// without an algorithm attribute the seed's algorithms (semantics §4).
// RUN: pld-opt %s --pld-decompose-collectives=algorithm=seed --pld-verify --verify-diagnostics
// RUN: pld-opt %s --pld-decompose-collectives='algorithm=seed chunk-bytes=64 ub-bytes=640' --pld-expand-transfers --pld-verify --verify-diagnostics
// RUN: pld-opt %s --pld-decompose-collectives='algorithm=seed chunk-bytes=64 ub-bytes=640' --pld-expand-transfers --canonicalize --cse --pld-verify --verify-diagnostics

// The seed's algorithms.
func.func @ar_mesh(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  %t = pl.load %d[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}
func.func @ar_ring(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op max mode ring : !pld.dtensor<1x64xf32>, !pld.dtensor<6x4xi32>
  // expected-remark @-1 {{@ar_ring does not complete on 6 ranks}}
  return
}
func.func @rs(%d: !pld.dtensor<4x64xf16>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum : !pld.dtensor<4x64xf16>, !pld.dtensor<4x1xi32>
  return
}
func.func @ag(%l: memref<1x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %l, %d, %s : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @bc(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 1 : index
  %r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @a2a(%in: !pld.dtensor<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.all_to_all %in, %out, %s : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @bar(%s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  pld.tensor.barrier %s : !pld.dtensor<4x1xi32>
  return
}

// The others, unrolled over 4 ranks; a target read and written after the
// call, and the same signal reused, as a kernel would.
func.func @ar_oneshot(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  %t = pl.load %d[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  %q = pld.tensor.allreduce %d, %s, op max algorithm oneshot : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @ar_oneshot_ring_signal(%d: !pld.dtensor<1x64xf16>, %s: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op prod mode ring algorithm oneshot : !pld.dtensor<1x64xf16>, !pld.dtensor<6x4xi32>
  return
}
func.func @ar_twoshot(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot : !pld.dtensor<1x256xf32>, !pld.dtensor<4x1xi32>
  %t = pl.load %d[0, 0] : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x256xf32>, !pld.dtensor<1x256xf32>
  %q = pld.tensor.allreduce %d, %s, op min algorithm twoshot : !pld.dtensor<1x256xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @ar_twoshot_ragged(%d: !pld.dtensor<1x203xf16>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot : !pld.dtensor<1x203xf16>, !pld.dtensor<4x1xi32>
  return
}
func.func @rs_direct(%d: !pld.dtensor<4x64xf16>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op max algorithm direct : !pld.dtensor<4x64xf16>, !pld.dtensor<4x1xi32>
  %q = pld.tensor.reduce_scatter %d, %s, op sum algorithm direct : !pld.dtensor<4x64xf16>, !pld.dtensor<4x1xi32>
  return
}
func.func @ag_direct(%l: memref<1x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %l, %d, %s algorithm direct : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  %q = pld.tensor.allgather %l, %d, %s algorithm direct : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  return
}
// A `local` in the window is read where it is; the exit barrier keeps the
// store into it after the first call from racing with the peers' pulls.
func.func @ag_direct_window(%l: !pld.dtensor<1x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %l, %d, %s algorithm direct : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %t = pl.load %d[1, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %l[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  %q = pld.tensor.allgather %l, %d, %s algorithm direct : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @bc_star(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 1 : index
  %r = pld.tensor.broadcast %d, %s, root %root algorithm star : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @bc_scatter_allgather(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 1 : index
  %r = pld.tensor.broadcast %d, %s, root %root algorithm scatter_allgather : !pld.dtensor<1x256xf32>, !pld.dtensor<4x1xi32>
  %t = pl.load %d[0, 0] : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x256xf32>, !pld.dtensor<1x256xf32>
  %zero = arith.constant 0 : index
  %q = pld.tensor.broadcast %d, %s, root %zero algorithm scatter_allgather : !pld.dtensor<1x256xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @a2a_direct(%in: !pld.dtensor<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.all_to_all %in, %out, %s algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %q = pld.tensor.all_to_all %in, %out, %s algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// Rolled over the ranks (9 rows: more than are unrolled), two pulls in
// flight per iteration.
func.func @ar_oneshot_rolled(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x64xf32>, !pld.dtensor<9x1xi32>
  return
}
func.func @ar_twoshot_rolled(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot : !pld.dtensor<1x256xf32>, !pld.dtensor<9x1xi32>
  return
}
func.func @rs_direct_rolled(%d: !pld.dtensor<9x64xf32>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.reduce_scatter %d, %s, op sum algorithm direct : !pld.dtensor<9x64xf32>, !pld.dtensor<9x1xi32>
  return
}
func.func @ag_direct_rolled(%l: memref<1x64xf32>, %d: !pld.dtensor<9x64xf32>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %l, %d, %s algorithm direct : memref<1x64xf32>, !pld.dtensor<9x64xf32>, !pld.dtensor<9x1xi32>
  return
}
func.func @ag_direct_window_rolled(%l: !pld.dtensor<1x64xf32>, %d: !pld.dtensor<9x64xf32>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allgather %l, %d, %s algorithm direct : !pld.dtensor<1x64xf32>, !pld.dtensor<9x64xf32>, !pld.dtensor<9x1xi32>
  %t = pl.load %d[1, 0] : !pld.dtensor<9x64xf32> -> !pl.tile<1x64xf32>
  pl.store %t, %l[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}
func.func @bc_scatter_allgather_rolled(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 2 : index
  %r = pld.tensor.broadcast %d, %s, root %root algorithm scatter_allgather : !pld.dtensor<1x256xf32>, !pld.dtensor<9x1xi32>
  // expected-remark @-1 {{@bc_scatter_allgather_rolled does not complete on 2 ranks}}
  return
}
func.func @a2a_direct_rolled(%in: !pld.dtensor<9x64xf32>, %out: !pld.dtensor<9x64xf32>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.all_to_all %in, %out, %s algorithm direct : !pld.dtensor<9x64xf32>, !pld.dtensor<9x64xf32>, !pld.dtensor<9x1xi32>
  return
}

// twoshot_push: the reduced segments pushed into every peer, two barriers.
func.func @ar_twoshot_push(%d: !pld.dtensor<1x256xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot_push : !pld.dtensor<1x256xf32>, !pld.dtensor<4x1xi32>
  %t = pl.load %d[0, 0] : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x256xf32>, !pld.dtensor<1x256xf32>
  %q = pld.tensor.allreduce %d, %s, op max algorithm twoshot_push : !pld.dtensor<1x256xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @ar_twoshot_push_rolled(%d: !pld.dtensor<1x203xf16>, %s: !pld.dtensor<9x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot_push : !pld.dtensor<1x203xf16>, !pld.dtensor<9x1xi32>
  return
}

// A signal [4, 2]: the faster algorithms count their barriers on the second
// column, the seed's and oneshot's flags on a cell per source; back to
// back on one signal, every algorithm after every other, the data read and
// written between the calls.
func.func @counted(%d: !pld.dtensor<1x256xf32>, %rows: !pld.dtensor<4x64xf32>, %rows2: !pld.dtensor<4x64xf32>, %l: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %root = arith.constant 2 : index
  %a = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  %b = pld.tensor.allreduce %d, %s, op max algorithm twoshot : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  %t = pl.load %d[0, 0] : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  pl.store %t, %d[0, 0] : !pl.tile<1x256xf32>, !pld.dtensor<1x256xf32>
  %c = pld.tensor.allreduce %d, %s, op sum algorithm twoshot_push : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  %e = pld.tensor.allreduce %d, %s, op sum algorithm seed_mesh : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  %f = pld.tensor.reduce_scatter %rows, %s, op sum algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  %g = pld.tensor.allgather %l, %rows, %s algorithm direct : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  %u = pl.load %rows[1, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
  pl.store %u, %l[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  %h = pld.tensor.all_to_all %rows, %rows2, %s algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  %i = pld.tensor.broadcast %d, %s, root %root algorithm star : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  // expected-remark @-1 {{@counted does not complete on 2 ranks}}
  %j = pld.tensor.broadcast %d, %s, root %root algorithm scatter_allgather : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  pld.tensor.barrier %s : !pld.dtensor<4x2xi32>
  %k = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x256xf32>, !pld.dtensor<4x2xi32>
  return
}
// Several chunks (the RUN lines' ub-bytes=640): oneshot's flags per chunk
// beside the counted entry barrier.
func.func @counted_oneshot(%d: !pld.dtensor<1x1000xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %a = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x1000xf32>, !pld.dtensor<4x2xi32>
  %b = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x1000xf32>, !pld.dtensor<4x2xi32>
  return
}
// The epoch algorithms, back to back and mixed on one signal and
// workspace, each call one epoch more: the parity of the workspace rows
// orders what one synchronisation per call leaves to them. The epoch is an
// argument, run as a host passes it (1).
func.func @epochs(%d: !pld.dtensor<1x1000xf32>, %s: !pld.dtensor<4x2xi32>, %e: index, %w: !pld.dtensor<2x1000xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e1 = arith.addi %e, %c1 : index
  %e2 = arith.addi %e, %c2 : index
  %a = pld.tensor.allreduce %d, %s, op sum algorithm oneshot_epoch epoch %e workspace %w : !pld.dtensor<1x1000xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x1000xf32>
  %b = pld.tensor.allreduce %d, %s, op max algorithm twoshot_epoch epoch %e1 workspace %w : !pld.dtensor<1x1000xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x1000xf32>
  %c = pld.tensor.allreduce %d, %s, op sum algorithm oneshot_epoch epoch %e2 workspace %w : !pld.dtensor<1x1000xf32>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x1000xf32>
  return
}
// all_to_all_v: the counts, read from memory, are set between the barriers.
func.func @counts(%in: memref<4x64xf32>, %out: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>, %send: memref<4xi32>, %recv: !pld.dtensor<4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pld.tensor.all_to_all_v %in, %out, %s counts %send to %recv : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xi32>, !pld.dtensor<4xi32>
  %u = pld.tensor.all_to_all_v %in, %out, %s counts %send to %recv : memref<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xi32>, !pld.dtensor<4xi32>
  return
}
