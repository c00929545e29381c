// Which algorithm a collective runs: its `algorithm`, else the pass
// option where the collective has that algorithm, else auto. An
// allreduce's `seed` is the seed algorithm of its mode, `ring` the seed's
// ring. An algorithm the option names that the signal or the unified
// buffer cannot host is an error at the op, saying what it needs.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives='algorithm=seed-mesh' --verify-each 2>&1 | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pld-decompose-collectives='algorithm=seed-ring remarks=false' 2>&1 | FileCheck %s --check-prefix=RING
// RUN: not pld-opt %s --split-input-file --pld-decompose-collectives='algorithm=oneshot ub-bytes=256 remarks=false' 2>&1 | FileCheck %s --check-prefix=UB

// The option applies to the allreduce (seed_mesh: a barrier per chunk);
// the reduce_scatter has no seed_mesh and chooses automatically (a remark);
// the op's own algorithm wins over the option.
// CHECK: remark: reduce_scatter auto: direct for 4 ranks x 256 bytes (modelled direct
// CHECK-SAME: seed
// CHECK-NOT: remark
// CHECK-LABEL: func.func @option_and_attribute
// RING: error: pld-decompose-collectives: algorithm seed_ring needs a ring signal of shape [2 * (N - 1), N] (mode ring), found the mesh signal [4, 1]
// RING-NEXT: %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
// UB: error: pld-decompose-collectives: algorithm oneshot keeps 10 chunk tiles live for 4 ranks, which 256 bytes of unified buffer (ub-bytes) cannot hold at 32 bytes each
// UB-NEXT: %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
func.func @option_and_attribute(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>, %rows: !pld.dtensor<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // seed_mesh: the wait of barrier g = 2 before the store.
  // CHECK: pld.tile.remote_load
  // CHECK: arith.constant 2 : i32
  // CHECK: pl.store
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  // The attribute: seed (row) reduce_scatter, a barrier per chunk.
  // CHECK: scf.for
  // CHECK: pld.tile.remote_load
  // CHECK: pl.store
  %q = pld.tensor.reduce_scatter %rows, %s, op sum algorithm seed : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // auto (the remark above), which is direct: the pulls unrolled, no loop.
  // CHECK: pld.tile.remote_load %{{.*}}, peer %c1
  %p = pld.tensor.reduce_scatter %rows, %s, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// The near misses of both errors: a ring signal hosts seed_ring; the
// attribute oneshot with ub-bytes=256 on 2 ranks (6 tiles: 32 bytes each);
// an allreduce's `seed` on a ring signal is the seed's ring (its rows of
// cells), on a mesh signal the seed's mesh.
// CHECK-LABEL: func.func @near_misses
// CHECK-SAME: [[SIG:%arg[0-9]+]]: !pld.dtensor<6x4xi32>
// CHECK: pld.system.notify [[SIG]][%{{.*}}, %{{.*}}], peer
// CHECK-NOT: pld.tensor.allreduce
// RING-NOT: error
// UB-NOT: error
func.func @near_misses(%d: !pld.dtensor<1x64xf32>, %ring: !pld.dtensor<6x4xi32>, %two: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %ring, op sum mode ring algorithm seed : !pld.dtensor<1x64xf32>, !pld.dtensor<6x4xi32>
  %q = pld.tensor.allreduce %d, %two, op sum algorithm oneshot : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  return
}

// -----

// The unified buffer the chunk tiles may use is what the kernel's own
// tiles live across the collective leave: a [1, 32] f32 tile (128 bytes)
// held across the oneshot leaves 128 of 256 bytes, too few for 6 tiles of
// 32 bytes; the same tile used only before the collective leaves all 256.
// UB: error: pld-decompose-collectives: algorithm oneshot keeps 6 chunk tiles live for 2 ranks, which 256 bytes of unified buffer (ub-bytes) less the 128 bytes of tiles live across the collective cannot hold at 32 bytes each
// UB-NEXT: %r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot
// UB-NOT: error
// CHECK-LABEL: func.func @held_across
// CHECK-LABEL: func.func @used_before
func.func @held_across(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x1xi32>, %m: memref<1x32xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %m[0, 0] : memref<1x32xf32> -> !pl.tile<1x32xf32>
  %r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  pl.store %t, %m[0, 0] : !pl.tile<1x32xf32>, memref<1x32xf32>
  return
}
func.func @used_before(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<2x1xi32>, %m: memref<1x32xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %m[0, 0] : memref<1x32xf32> -> !pl.tile<1x32xf32>
  pl.store %t, %m[0, 0] : !pl.tile<1x32xf32>, memref<1x32xf32>
  %r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x64xf32>, !pld.dtensor<2x1xi32>
  return
}
