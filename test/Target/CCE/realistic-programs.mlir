// Programs as users write them that the lowering once refused after
// pld-verify had accepted them (all-inputs.test compiles each split too):
// a host orchestrator named `main`, a kernel helper that returns a window,
// tiles loaded inside a split_aiv region.
// RUN: pld-translate --pld-to-cce --split-input-file %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: awk '/^\/\/ -----/{exit} {print}' %s > main.mlir
// RUN: pld-run main.mlir --ranks 3 --init 0=r+1 --expect 0=6

// `main` is the C++ program's entry point: the emitted function and its
// entry wrapper are renamed; pld-run finds them by the same rule.
// CHECK: void pld_main(
// CHECK: extern "C" void pld_main__entry(
func.func @reduce(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

func.func @main(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @reduce(%d, %s) : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  return
}

// -----

// A helper that hands back the window it was given (its signal, say)
// returns a __gm__ pointer.
// CHECK: __gm__ int32_t* signal_of(
// CHECK: __gm__ int32_t* {{v[0-9]+}} = signal_of(
func.func @signal_of(%a: !pld.dtensor<2x1xi32>, %b: !pld.dtensor<2x1xi32>) -> !pld.dtensor<2x1xi32> attributes {pl.kernel = #pl.kernel<incore>} {
  return %a : !pld.dtensor<2x1xi32>
}

func.func @ping(%a: !pld.dtensor<2x1xi32>, %b: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %a : !pld.dtensor<2x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %next0 = arith.addi %me, %c1 : index
  %next = arith.remui %next0, %n : index
  %w = func.call @signal_of(%a, %b) : (!pld.dtensor<2x1xi32>, !pld.dtensor<2x1xi32>) -> !pld.dtensor<2x1xi32>
  pld.system.notify %w[0, 0], peer %next, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  return
}

// -----

// Each AIV sub-lane loads and stores its own row inside the region.
// CHECK-LABEL: lanes
func.func @lanes(%d: !pld.dtensor<2x64xf32>, %m: memref<2x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  pl.split_aiv mode none {
    %lane = pl.get_aiv_id
    %t = pl.load %m[%lane, 0] : memref<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %t, %d[%lane, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  }
  return
}
