// auto (the default): each collective runs the algorithm the closed-form
// cost model of docs/pld-decompose-collectives.md finds fastest for its
// static rank count and size, over the machine model (`model`, with
// `model-overrides`), and a remark names it with every candidate's
// modelled time. A dynamic size emits the winners at the small and the
// large end behind a runtime branch; a dynamic rank count is taken as 8.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives --verify-each --verify-diagnostics | FileCheck %s
// Slow pushes (the seed's allgather pushes) make the pulls of direct win.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives='model-overrides=link_write_bytes_per_ns=0.5 remarks=false' --verify-each | FileCheck %s --check-prefix=SLOW-PUSH
// Without remarks, auto says nothing.
// RUN: pld-opt %s --split-input-file --pld-decompose-collectives=remarks=false 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: {{: remark: }}

// A short stream: two barriers and parallel pulls (oneshot) beat the
// segments and flags of twoshot and the sequential pulls of the seed.
// CHECK-LABEL: func.func @short
// CHECK: pld.system.wait
// CHECK: pld.tile.remote_load %{{.*}}, peer %c0{{(_[0-9]+)?}} valid [1, 17]
// CHECK-NOT: arith.divsi
// CHECK: pld.system.wait
// CHECK: pl.store
func.func @short(%data: !pld.dtensor<1x17xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: oneshot for 4 ranks x 68 bytes (modelled oneshot 1.19 us, twoshot 1.81 us, twoshot_push 1.29 us, seed_mesh 1.29 us)}}
  %r = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x17xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// 4 MiB over 8 ranks on one core: the two-shot algorithms move 2 (n - 1) / n
// of the stream, and one core's pushes of its reduced segment beat the
// second round of pulls and the barrier they need; a ring signal adds the
// seed's ring to the candidates, and hosts the cells [src, 0] too. The
// segment bounds are 32-byte aligned (8 f32).
// CHECK-LABEL: func.func @large
// CHECK: arith.ceildivsi %{{.*}}, %c8 :
func.func @large(%data: !pld.dtensor<1x1048576xf32>, %signal: !pld.dtensor<14x8xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: twoshot_push for 8 ranks x 4194304 bytes (modelled oneshot 5392.87 us, twoshot 1286.38 us, twoshot_push 1251.11 us, seed_mesh 5533.80 us, seed_ring 1900.84 us)}}
  %r = pld.tensor.allreduce %data, %signal, op sum mode ring : !pld.dtensor<1x1048576xf32>, !pld.dtensor<14x8xi32>
  return
}

// -----

// A dynamic size: oneshot and twoshot_push behind a branch on the stream's
// length at the modelled crossover (in elements: 380 bytes of f16 is 190);
// a dynamic rank count is modelled as 8.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[SMALL:.*]] = arith.cmpi sle, %{{.*}}, %c190
// CHECK: scf.if %[[SMALL]]
// CHECK: } else {
// CHECK: arith.ceildivsi %{{.*}}, %c16 :
func.func @dynamic(%data: !pld.dtensor<1x?xf16>, %signal: !pld.dtensor<?x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: oneshot up to 380 bytes, twoshot_push above, chosen at run time (the size is dynamic), for 8 ranks (assumed: the rank count is dynamic)}}
  %r = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x?xf16>, !pld.dtensor<?x1xi32>
  return
}

// -----

// The row collectives, broadcast and all_to_all.
// CHECK-LABEL: func.func @rows
// SLOW-PUSH-LABEL: func.func @rows
// SLOW-PUSH-NOT: pld.tensor.put
func.func @rows(%t: !pld.dtensor<4x64xf32>, %u: !pld.dtensor<4x64xf32>, %local: memref<1x64xf32>,
                %big: !pld.dtensor<4x65536xf32>, %big_local: memref<1x65536xf32>, %s: !pld.dtensor<4x1xi32>,
                %window_local: !pld.dtensor<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{reduce_scatter auto: direct for 4 ranks x 256 bytes (modelled direct 1.30 us, seed 1.39 us)}}
  %a = pld.tensor.reduce_scatter %t, %s, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // Small rows: the seed's two barriers beat direct's three.
  // CHECK: pld.tensor.put
  // expected-remark @+1 {{allgather auto: seed for 4 ranks x 256 bytes (modelled direct 1.84 us, seed 1.50 us)}}
  %b = pld.tensor.allgather %local, %t, %s : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // A `local` in the window needs no publishing: direct's two barriers win.
  // expected-remark @+1 {{allgather auto: direct for 4 ranks x 256 bytes (modelled direct 1.30 us, seed 1.50 us)}}
  %w = pld.tensor.allgather %window_local, %t, %s : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // expected-remark @+1 {{allgather auto: direct for 4 ranks x 262144 bytes (modelled direct 142.53 us, seed 254.21 us)}}
  %c = pld.tensor.allgather %big_local, %big, %s : memref<1x65536xf32>, !pld.dtensor<4x65536xf32>, !pld.dtensor<4x1xi32>
  // expected-remark @+1 {{all_to_all auto: direct for 4 ranks x 256 bytes (modelled direct 1.30 us, seed 1.50 us)}}
  %d = pld.tensor.all_to_all %t, %u, %s : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// Broadcasts on one core: a star of pipelined gets from the root, small or
// large (one core pulls the scatter-allgather's segments no faster than the
// root's stream).
// CHECK-LABEL: func.func @broadcasts
// CHECK: pld.tensor.get {{.*}} pipeline
func.func @broadcasts(%small: !pld.dtensor<1x64xf32>, %large: !pld.dtensor<1x1048576xf32>, %s: !pld.dtensor<8x1xi32>, %root: index) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{broadcast auto: star for 8 ranks x 256 bytes (modelled star 1.33 us, scatter_allgather 1.92 us, seed 1.33 us)}}
  %a = pld.tensor.broadcast %small, %s, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<8x1xi32>
  // expected-remark @+1 {{broadcast auto: star for 8 ranks x 4194304 bytes (modelled star 734.63 us, scatter_allgather 737.84 us, seed 755.27 us)}}
  %b = pld.tensor.broadcast %large, %s, root %root : !pld.dtensor<1x1048576xf32>, !pld.dtensor<8x1xi32>
  return
}

// -----

// An op's algorithm is not auto's to change, and a barrier has one.
// CHECK-LABEL: func.func @written
func.func @written(%data: !pld.dtensor<1x17xf32>, %signal: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %data, %signal, op sum algorithm twoshot : !pld.dtensor<1x17xf32>, !pld.dtensor<4x1xi32>
  pld.tensor.barrier %signal : !pld.dtensor<4x1xi32>
  return
}

// -----

// The chunk count: a static row is split evenly into the number of chunks
// the model finds fastest. A 16 KiB row on 8 ranks pipelines in two chunks
// of 2048 f32 (the widest that fit hold 4912), a 4 KiB row in two of 512,
// and a 2 MiB row keeps chunks about as wide as fit.
// CHECK-LABEL: func.func @chunk_count
// CHECK: pld.tile.remote_load {{.*}} -> !pl.tile<1x2048xf32>
// CHECK: pld.tile.remote_load {{.*}} -> !pl.tile<1x512xf32>
// CHECK: pld.tile.remote_load {{.*}} -> !pl.tile<1x4904xf32>
func.func @chunk_count(%l: !pld.dtensor<1x4096xf32>, %d: !pld.dtensor<8x4096xf32>,
                       %l_small: !pld.dtensor<1x1024xf32>, %d_small: !pld.dtensor<8x1024xf32>,
                       %l_large: !pld.dtensor<1x524288xf32>, %d_large: !pld.dtensor<8x524288xf32>,
                       %s: !pld.dtensor<8x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allgather auto: direct for 8 ranks x 16384 bytes (modelled direct 21.79 us, seed 38.10 us)}}
  %a = pld.tensor.allgather %l, %d, %s : !pld.dtensor<1x4096xf32>, !pld.dtensor<8x4096xf32>, !pld.dtensor<8x1xi32>
  // expected-remark @+1 {{allgather auto: direct for 8 ranks x 4096 bytes (modelled direct 6.48 us, seed 10.66 us)}}
  %b = pld.tensor.allgather %l_small, %d_small, %s : !pld.dtensor<1x1024xf32>, !pld.dtensor<8x1024xf32>, !pld.dtensor<8x1xi32>
  // expected-remark @+1 {{allgather auto: direct for 8 ranks x 2097152 bytes (modelled direct 2568.69 us, seed 4683.74 us)}}
  %c = pld.tensor.allgather %l_large, %d_large, %s : !pld.dtensor<1x524288xf32>, !pld.dtensor<8x524288xf32>, !pld.dtensor<8x1xi32>
  return
}

// -----

// On 24 cores (gemm_ar's buffer, bench/calibration/gemm_ar_comm.mlir): block
// b of the launch reduces the b-th 32-byte-aligned part, counting on columns
// 2b and 2b + 1 of the signal; blocks beyond 24 have no part. Each core
// pulls at its own rate and shares the links and the ingress with the
// others, so the pulls of twoshot beat the slower pushes of twoshot_push.
// CHECK-LABEL: func.func @cores
// CHECK: %[[BLOCK:.*]] = pl.get_block_idx
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[BLOCK]], %c24
// CHECK: scf.if %[[RUNS]]
// CHECK: %[[COLUMN:.*]] = arith.muli %[[BLOCK]], %c2
// CHECK: %[[BASE:.*]] = arith.muli %[[BLOCK]], %c352256
// CHECK: pld.system.notify %{{.*}}[%{{.*}}, %[[COLUMN]]]
func.func @cores(%data: !pld.dtensor<5504x1536xf16>, %signal: !pld.dtensor<8x48xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-remark @+1 {{allreduce auto: twoshot for 8 ranks on 24 cores each x 704512 bytes per core (modelled oneshot 907.38 us, twoshot 218.62 us, twoshot_push 853.13 us)}}
  %r = pld.tensor.allreduce %data, %signal, op sum core_num 24 : !pld.dtensor<5504x1536xf16>, !pld.dtensor<8x48xi32>
  return
}

// -----

// A GEMM fused with communication: with one tile row per rank there is
// nothing to overlap, and the fused form's per-tile pushes lose to the GEMM
// followed by an allreduce ...
// CHECK-LABEL: func.func @one_tile_row
// CHECK: name "matmul_allreduce.matmul"
// CHECK: name "matmul_allreduce.allreduce"
func.func @one_tile_row(%a: memref<128x6144xf16>, %b: memref<6144x1408xf16>, %c: !pld.dtensor<128x1408xf16>,
                        %signal: !pld.dtensor<8x48xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-remark @+2 {{matmul_allreduce auto: unfused for 8 ranks on 24 cube cores (modelled fused 63.80 us, unfused 41.29 us: the GEMM 34.53 us, then allreduce twoshot 6.76 us)}}
  // expected-remark @+1 {{allreduce auto: twoshot for 8 ranks on 24 cores each x 15040 bytes per core (modelled oneshot 20.65 us, twoshot 6.76 us, twoshot_push 20.15 us)}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum core_num 24 : memref<128x6144xf16>, memref<6144x1408xf16>, !pld.dtensor<128x1408xf16>, !pld.dtensor<8x48xi32>
  return
}

// -----

// ... while on gemm_ar's shape (pto-isa kernels/manual/a2a3/gemm_ar) the
// communication hides behind the GEMM.
// CHECK-LABEL: func.func @gemm_ar
// CHECK: name "matmul_allreduce.matmul"
// CHECK: name "matmul_allreduce.communicate"
func.func @gemm_ar(%a: memref<5416x6144xf16>, %b: memref<6144x1408xf16>, %c: !pld.dtensor<5416x1408xf16>,
                   %signal: !pld.dtensor<8x96xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-remark @+1 {{matmul_allreduce auto: fused for 8 ranks on 24 cube cores (modelled fused 448.66 us, unfused 565.61 us: the GEMM 368.04 us, then allreduce twoshot 197.57 us)}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum core_num 24 : memref<5416x6144xf16>, memref<6144x1408xf16>, !pld.dtensor<5416x1408xf16>, !pld.dtensor<8x96xi32>
  return
}

// -----

// matmul_reduce_scatter: with one tile per rank's block, each tile's push by
// one core outlasts the GEMM followed by a reduce_scatter whose 24 cores
// pull parts of every row at once ...
// CHECK-LABEL: func.func @reduce_scatter_one_tile
// CHECK: name "matmul_reduce_scatter.matmul"
// CHECK: name "matmul_reduce_scatter.reduce_scatter"
// CHECK: name "matmul_reduce_scatter.copy"
func.func @reduce_scatter_one_tile(%a: memref<1024x64xf16>, %b: memref<64x256xf16>, %p: !pld.dtensor<1024x256xf16>,
                                   %o: !pld.dtensor<128x256xf16>, %signal: !pld.dtensor<8x48xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-remark @+2 {{matmul_reduce_scatter auto: unfused for 8 ranks on 24 cube cores (modelled fused 22.68 us, unfused 6.11 us: the GEMM 1.49 us, then reduce_scatter direct on 24 cores 4.58 us, then the copy 0.04 us)}}
  // expected-remark @+1 {{reduce_scatter auto: direct for 8 ranks on 24 cores each x 2752 bytes per core (modelled direct 4.58 us)}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %signal, op sum core_num 24 : memref<1024x64xf16>, memref<64x256xf16>, !pld.dtensor<1024x256xf16>, !pld.dtensor<128x256xf16>, !pld.dtensor<8x48xi32>
  return
}

// -----

// ... while with K = 8192 the pushes hide behind the GEMM.
// CHECK-LABEL: func.func @reduce_scatter_deep
// CHECK: name "matmul_reduce_scatter.matmul"
// CHECK: name "matmul_reduce_scatter.communicate"
func.func @reduce_scatter_deep(%a: memref<1024x8192xf16>, %b: memref<8192x4096xf16>, %p: !pld.dtensor<1024x4096xf16>,
                               %o: !pld.dtensor<128x4096xf16>, %signal: !pld.dtensor<8x48xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-remark @+1 {{matmul_reduce_scatter auto: fused for 8 ranks on 24 cube cores (modelled fused 296.04 us, unfused 328.29 us: the GEMM 272.31 us, then reduce_scatter direct on 24 cores 55.36 us, then the copy 0.62 us)}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %signal, op sum core_num 24 : memref<1024x8192xf16>, memref<8192x4096xf16>, !pld.dtensor<1024x4096xf16>, !pld.dtensor<128x4096xf16>, !pld.dtensor<8x48xi32>
  return
}

// -----

// allgather_matmul on pto-isa's allgather_gemm shapes (README.md, "Measured
// Performance"; its default 20 compute blocks): on 2 ranks, 2048 x 2048 x
// 1024, the one link at a push's rate loses to the allgather's pulls and a
// short GEMM ...
// CHECK-LABEL: func.func @allgather_two_ranks
// CHECK: name "allgather_matmul.allgather"
// CHECK: name "allgather_matmul.matmul"
func.func @allgather_two_ranks(%a: memref<1024x2048xf16>, %g: !pld.dtensor<2048x2048xf16>, %b: memref<2048x1024xf16>,
                               %c: memref<2048x1024xf32>, %signal: !pld.dtensor<2x40xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-remark @+2 {{allgather_matmul auto: unfused for 2 ranks on 20 cube cores (modelled fused 245.15 us, unfused 222.04 us: allgather direct on 20 cores 167.22 us, then the GEMM 54.82 us)}}
  // expected-remark @+1 {{allgather auto: direct for 2 ranks on 20 cores each x 209728 bytes per core (modelled direct 167.22 us)}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %signal core_num 20 : memref<1024x2048xf16>, !pld.dtensor<2048x2048xf16>, memref<2048x1024xf16>, memref<2048x1024xf32>, !pld.dtensor<2x40xi32>
  return
}

// -----

// ... and on 8 ranks, 8192 x 4096 x 4096 (measured 1439 us), the chunks
// arrive while the GEMM runs.
// CHECK-LABEL: func.func @allgather_eight_ranks
// CHECK: name "allgather_matmul.communicate"
// CHECK: name "allgather_matmul.matmul"
func.func @allgather_eight_ranks(%a: memref<1024x4096xf16>, %g: !pld.dtensor<8192x4096xf16>, %b: memref<4096x4096xf16>,
                                 %c: memref<8192x4096xf32>, %signal: !pld.dtensor<8x40xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-remark @+1 {{allgather_matmul auto: fused for 8 ranks on 20 cube cores (modelled fused 1429.06 us, unfused 1796.89 us: allgather direct on 20 cores 520.00 us, then the GEMM 1276.89 us)}}
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %signal core_num 20 : memref<1024x4096xf16>, !pld.dtensor<8192x4096xf16>, memref<4096x4096xf16>, memref<8192x4096xf32>, !pld.dtensor<8x40xi32>
  return
}

// -----

// With `out` in plain memory the peers cannot add into it: the unfused form,
// without weighing.
// CHECK-LABEL: func.func @reduce_scatter_into_memory
// CHECK: name "matmul_reduce_scatter.copy"
func.func @reduce_scatter_into_memory(%a: memref<1024x8192xf16>, %b: memref<8192x4096xf16>, %p: !pld.dtensor<1024x4096xf16>,
                                      %o: memref<128x4096xf16>, %signal: !pld.dtensor<8x48xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-remark @+2 {{matmul_reduce_scatter auto: unfused for 8 ranks on 24 cube cores (the fused form adds every rank's tiles into the owner's 'out', which is memref<128x4096xf16> (not a window tensor))}}
  // expected-remark @+1 {{reduce_scatter auto: direct}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %signal, op sum core_num 24 : memref<1024x8192xf16>, memref<8192x4096xf16>, !pld.dtensor<1024x4096xf16>, memref<128x4096xf16>, !pld.dtensor<8x48xi32>
  return
}
