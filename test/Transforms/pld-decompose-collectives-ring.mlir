// The seed's ring allreduce (algorithm seed_ring, semantics §4): reduce-scatter
// then allgather, pulling from the left neighbour; segment boundaries
// floor(i * L / n), for f16 rounded down to 16 elements; step s uses signal
// row s - 1 (reduce-scatter) or n - 2 + s (allgather), chunk c the barriers
// 2c + 1 and 2c + 2 of that row; the epilogue subtracts 2 * chunks from
// every row. `ring` is the same algorithm.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=algorithm=ring --verify-each | FileCheck %s
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=algorithm=seed-ring --verify-each | FileCheck %s

// CHECK-LABEL: func.func @ring_f32
// CHECK-SAME: (%[[DATA:.*]]: !pld.dtensor<1x4097xf32>, %[[SIG:.*]]: !pld.dtensor<6x4xi32>)
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : i32 to index
// Chunks per step, from the longest segment ceil(L / n).
// CHECK: %[[LONGEST:.*]] = arith.ceildivsi %{{.*}}, %[[N]]
// CHECK: %[[CHUNKS:.*]] = arith.ceildivsi %[[LONGEST]], %{{.*}}
// The left neighbour (me - 1 + n) % n.
// CHECK: %[[MEN:.*]] = arith.addi %[[ME]], %[[N]]
// CHECK: %[[MEN1:.*]] = arith.subi %[[MEN]], %{{.*}}
// CHECK: %[[LEFT:.*]] = arith.remsi %[[MEN1]], %[[N]]
// Reduce-scatter: steps 1..n-1, segment (me + 2n - (s + 1)) % n, row s - 1.
// CHECK: scf.for %[[STEP:.*]] = %{{.*}} to %[[N]]
// CHECK: %[[BACK:.*]] = arith.addi %[[STEP]], %{{.*}}
// CHECK: %[[TWON:.*]] = arith.muli %[[N]], %{{.*}}
// CHECK: %[[SHIFT:.*]] = arith.addi %[[ME]], %[[TWON]]
// CHECK: %[[SEGPRE:.*]] = arith.subi %[[SHIFT]], %[[BACK]]
// CHECK: %[[SEG:.*]] = arith.remsi %[[SEGPRE]], %[[N]]
// CHECK: %[[ROW:.*]] = arith.subi %[[STEP]], %{{.*}}
// Segment start floor(seg * L / n) and end floor((seg + 1) * L / n).
// CHECK: %[[SL:.*]] = arith.muli %[[SEG]], %{{.*}}
// CHECK: %[[START:.*]] = arith.divsi %[[SL]], %[[N]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[SEG]], %{{.*}}
// CHECK: %[[NL:.*]] = arith.muli %[[NEXT]], %{{.*}}
// CHECK: %[[END:.*]] = arith.divsi %[[NL]], %[[N]]
// CHECK: %[[LEN:.*]] = arith.subi %[[END]], %[[START]]
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[CHUNKS]]
// CHECK: %[[INTO:.*]] = arith.muli %[[C]], %{{.*}}
// CHECK: %[[LEFTOVER:.*]] = arith.subi %[[LEN]], %[[INTO]]
// CHECK: %[[AT:.*]] = arith.addi %[[START]], %[[INTO]]
// CHECK: %[[TWICE:.*]] = arith.muli %[[C]], %{{.*}}
// CHECK: %[[READY:.*]] = arith.addi %[[TWICE]], %{{.*}}
// CHECK: pld.system.notify %[[SIG]][%[[ROW]], %[[ME]]], peer %{{.*}}, value %{{.*}}, op atomic_add
// CHECK: %[[READY32:.*]] = arith.index_cast %[[READY]] : index to i32
// CHECK: pld.system.wait %[[SIG]][%[[ROW]], %{{.*}}], expected %[[READY32]], cmp ge
// CHECK: %[[LOCAL:.*]] = pl.load %[[DATA]][0, %[[AT]]]
// CHECK: %[[REMOTE:.*]] = pld.tile.remote_load %[[DATA]][0, %[[AT]]], peer %[[LEFT]]
// CHECK: %[[COMBINED:.*]] = pl.add %[[LOCAL]], %[[REMOTE]]
// CHECK: %[[DONE:.*]] = arith.addi %[[TWICE]], %{{.*}}
// CHECK: %[[DONE32:.*]] = arith.index_cast %[[DONE]] : index to i32
// CHECK: pld.system.wait %[[SIG]][%[[ROW]], %{{.*}}], expected %[[DONE32]], cmp ge
// CHECK: pl.store %[[COMBINED]], %[[DATA]]
// Allgather: segment (me + n - s) % n, row n - 2 + s; the loaded chunk is stored as is.
// CHECK: scf.for %[[ASTEP:.*]] = %{{.*}} to %[[N]]
// CHECK: %[[AMEN:.*]] = arith.addi %[[ME]], %[[N]]
// CHECK: %[[ASHIFT:.*]] = arith.subi %[[AMEN]], %[[ASTEP]]
// CHECK: %[[ASEG:.*]] = arith.remsi %[[ASHIFT]], %[[N]]
// CHECK: %[[NM2:.*]] = arith.subi %[[N]], %{{.*}}
// CHECK: %[[AROW:.*]] = arith.addi %[[NM2]], %[[ASTEP]]
// CHECK: scf.for
// CHECK: pld.system.wait %[[SIG]][%[[AROW]], %{{.*}}]
// CHECK: %[[COPY:.*]] = pld.tile.remote_load %[[DATA]]{{.*}}, peer %[[LEFT]]
// CHECK-NOT: pl.add
// CHECK: pld.system.wait %[[SIG]][%[[AROW]], %{{.*}}]
// CHECK: pl.store %[[COPY]], %[[DATA]]
// Epilogue over the 2(n - 1) rows: -2 * chunks into [row, src].
// CHECK: %[[NM1:.*]] = arith.subi %[[N]], %{{.*}}
// CHECK: %[[ROWS:.*]] = arith.muli %[[NM1]], %{{.*}}
// CHECK: %[[COUNT:.*]] = arith.muli %[[CHUNKS]], %{{.*}}
// CHECK: scf.for %[[EROW:.*]] = %{{.*}} to %[[ROWS]]
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[COUNT]]
// CHECK: %[[NEG32:.*]] = arith.index_cast %[[NEG]] : index to i32
// CHECK: pld.system.notify %[[SIG]][%[[EROW]], %{{.*}}], peer %[[ME]], value %[[NEG32]], op atomic_add
// CHECK-NOT: pld.tensor.allreduce
func.func @ring_f32(%data: !pld.dtensor<1x4097xf32>, %signal: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x4097xf32>, !pld.dtensor<6x4xi32>
  return
}

// -----

// f16 boundaries are rounded down to 16 elements (one 32-byte block), except
// the last one, which is L; the longest segment grows by up to 15.
// CHECK-LABEL: func.func @ring_f16
// CHECK: %[[ME:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[CEIL:.*]] = arith.ceildivsi %{{.*}}, %[[N]]
// CHECK: %[[C15:.*]] = arith.constant 15 : index
// CHECK: arith.addi %[[CEIL]], %[[C15]]
// CHECK: scf.for
// CHECK: %[[SEG:.*]] = arith.remsi
// CHECK: %[[SL:.*]] = arith.muli %[[SEG]], %{{.*}}
// CHECK: %[[AT:.*]] = arith.divsi %[[SL]], %[[N]]
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[BLOCKS:.*]] = arith.divsi %[[AT]], %[[C16]]
// CHECK: %[[ALIGNED:.*]] = arith.muli %[[BLOCKS]], %{{.*}}
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[SEG]], %[[N]]
// CHECK: arith.select %[[LAST]], %{{.*}}, %[[ALIGNED]]
// CHECK: pl.max {{.*}} : !pl.tile<1x32xf16>
func.func @ring_f16(%data: !pld.dtensor<1x17xf16>, %signal: !pld.dtensor<6x4xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op max mode ring : !pld.dtensor<1x17xf16>, !pld.dtensor<6x4xi32>
  return
}
