// pld-verify's race rule on GEMMs fused with communication before
// pld-decompose-collectives expands them: each runs as a task of its own,
// after its `deps`, that reads its operands, meets every rank's call on its
// signal and then leaves its result written on this rank (docs/pld-verify.md).
// It used to say "a GEMM fused with communication is decided once
// pld-decompose-collectives has expanded it into its tasks".
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

// A task that reads the product without depending on the GEMM's task.
func.func @consumer_without_deps(%a: memref<200x48xf16>, %b: memref<48x300xf16>, %c: !pld.dtensor<200x300xf32>,
                                 %sig: !pld.dtensor<8x4xi32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  // expected-note @+1 {{the conflicting pld.tensor.matmul_allreduce on rank 0 task "matmul_allreduce"}}
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %sig, op sum : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  %after = pl.at level core_group name "after" {
    // expected-error @+1 {{data race on 2 ranks: this pl.load on rank 0 task "after" reads [0, 1) x [0, 64) of rank 0's argument 2 of @consumer_without_deps, which pld.tensor.matmul_allreduce on rank 0 task "matmul_allreduce" writes ([0, 200) x [0, 300)), and no happens-before order puts one before the other}}
    %x = pl.load %c[0, 0] : !pld.dtensor<200x300xf32> -> !pl.tile<1x64xf32>
    pl.store %x, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

// Near miss: the consumer depends on the GEMM's task.
func.func @consumer_with_deps(%a: memref<200x48xf16>, %b: memref<48x300xf16>, %c: !pld.dtensor<200x300xf32>,
                              %sig: !pld.dtensor<8x4xi32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %sig, op sum : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  %after = pl.at level core_group name "after" deps [%t] {
    %x = pl.load %c[0, 0] : !pld.dtensor<200x300xf32> -> !pl.tile<1x64xf32>
    pl.store %x, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

// A task that writes the GEMM's input while the GEMM may read it.
func.func @input_written_concurrently(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %p: !pld.dtensor<360x300xf32>,
                                      %o: !pld.dtensor<45x300xf32>, %sig: !pld.dtensor<8x4xi32>, %row: memref<1x40xf16>) attributes {pl.kernel = #pl.kernel<host>} {
  %fill = pl.at level core_group name "fill" {
    %x = pl.load %row[0, 0] : memref<1x40xf16> -> !pl.tile<1x40xf16>
    // expected-note @+1 {{the conflicting pl.store on rank 0 task "fill"}}
    pl.store %x, %a[0, 0] : !pl.tile<1x40xf16>, memref<360x40xf16>
  }
  // expected-error @+1 {{data race on 2 ranks: this pld.tensor.matmul_reduce_scatter on rank 0 task "matmul_reduce_scatter" reads [0, 360) x [0, 40) of rank 0's argument 0 of @input_written_concurrently, which pl.store on rank 0 task "fill" writes ([0, 1) x [0, 40)), and no happens-before order puts one before the other}}
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// -----

// Near miss: the GEMM starts after the fill, and the consumer after it.
func.func @input_filled_first(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %p: !pld.dtensor<360x300xf32>,
                              %o: !pld.dtensor<45x300xf32>, %sig: !pld.dtensor<8x4xi32>, %row: memref<1x40xf16>,
                              %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %fill = pl.at level core_group name "fill" {
    %x = pl.load %row[0, 0] : memref<1x40xf16> -> !pl.tile<1x40xf16>
    pl.store %x, %a[0, 0] : !pl.tile<1x40xf16>, memref<360x40xf16>
  }
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %sig, op sum deps [%fill] : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x4xi32>
  %after = pl.at level core_group name "after" deps [%t] {
    %y = pl.load %o[0, 0] : !pld.dtensor<45x300xf32> -> !pl.tile<1x64xf32>
    pl.store %y, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}

// -----

// allgather_matmul: a consumer of the product after the GEMM's task.
func.func @gathered_product(%a: memref<200x40xf16>, %g: !pld.dtensor<1600x40xf16>, %b: memref<40x600xf16>,
                            %c: memref<1600x600xf32>, %sig: !pld.dtensor<8x4xi32>, %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<host>} {
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %sig : memref<200x40xf16>, !pld.dtensor<1600x40xf16>, memref<40x600xf16>, memref<1600x600xf32>, !pld.dtensor<8x4xi32>
  %after = pl.at level core_group name "after" deps [%t] {
    %y = pl.load %c[0, 0] : memref<1600x600xf32> -> !pl.tile<1x64xf32>
    pl.store %y, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>
  }
  return
}
