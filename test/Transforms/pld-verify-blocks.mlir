// pld-verify's race rule on an entry kernel launched on several blocks
// (blocks=B, as pld-run --blocks B launches it): every block runs the
// kernel with its pl.get_block_idx, unordered with the other blocks.
// RUN: pld-opt %s --split-input-file --pld-verify="blocks=2" --verify-diagnostics
// The same kernels on one block are quiet (pld-opt checks the annotations
// wherever a file has them, so they go first):
// RUN: sed -e '/expected-/d' %s > %t.mlir
// RUN: pld-opt %t.mlir --split-input-file --pld-verify=remarks=false 2>&1 | FileCheck %s --allow-empty --check-prefix=ONE
// ONE-NOT: error
// On three blocks, block 2 writes a row the window does not have:
// RUN: not pld-opt %t.mlir --split-input-file --pld-verify="blocks=3 remarks=false" 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: error: @own_row completes on none of the rank counts tried (2, 3, 4): on 2 ranks, rank 0's pld.tile.remote_store touches [2, 3) x [0, 64) of rank 1's argument 0 of @own_row, whose shape is 2x64
// With entry=, blocks apply to that entry alone (as pld-run launches one):
// @same_row on two blocks races, and the allreduce kernel, on one, does not
// clash:
// RUN: not pld-opt %t.mlir --split-input-file --pld-verify="entry=@same_row blocks=2 remarks=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: data race on 2 ranks: this pld.tile.remote_store on rank 0 block 1
// ENTRY-NOT: every_block_allreduce
// RUN: pld-opt %t.mlir --split-input-file --pld-verify="entry=own_row blocks=2 remarks=false" -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=OWN
// OWN-NOT: error
// RUN: not pld-opt %s --pld-verify=blocks=65 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: expected blocks to be in 1..=64, found 65

// Every block pushes its tile into row 0 of the next rank's window.
func.func @same_row(%data: !pld.dtensor<2x64xf32>, %src: memref<1x64xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %data : !pld.dtensor<2x64xf32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %next = arith.addi %me, %c1 : index
  %peer = arith.remui %next, %n : index
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  // expected-error @+2 {{data race on 2 ranks: this pld.tile.remote_store on rank 0 block 1 writes [0, 1) x [0, 64) of rank 1's argument 0 of @same_row, which pld.tile.remote_store on rank 0 block 0 writes ([0, 1) x [0, 64)), and no happens-before order puts one before the other}}
  // expected-note @+1 {{the conflicting pld.tile.remote_store on rank 0 block 0}}
  pld.tile.remote_store %t, %data[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// The near miss: block b pushes into row b.
func.func @own_row(%data: !pld.dtensor<2x64xf32>, %src: memref<1x64xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %data : !pld.dtensor<2x64xf32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index
  %b = pl.get_block_idx
  %next = arith.addi %me, %c1 : index
  %peer = arith.remui %next, %n : index
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %t, %data[%b, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// -----

// A one-core collective that every block runs: each would run the whole
// algorithm on the one signal.
func.func @every_block_allreduce(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+3 {{on 3 ranks, pld.tensor.allreduce runs on one core (block) per rank}}
  // expected-note @+2 {{on 4 ranks, pld.tensor.allreduce runs on one core (block) per rank}}
  // expected-error @+1 {{@every_block_allreduce completes on none of the rank counts tried (2, 3, 4): on 2 ranks, pld.tensor.allreduce runs on one core (block) per rank, but blocks 0 and 1 of rank 0 both run it on argument 1 of @every_block_allreduce: each would run the whole algorithm on the same signal (guard it to one block with an scf.if on pl.get_block_idx)}}
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// -----

// The near miss: guarded to block 0.
func.func @block0_allreduce(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %b = pl.get_block_idx
  %first = arith.cmpi eq, %b, %c0 : index
  scf.if %first {
    %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  }
  return
}

// -----

// A collective on its core_num blocks runs a part on each: which part of
// the target a block writes is the decomposition's, so the rule does not
// decide it.
// expected-remark @+1 {{the race rule cannot decide @two_core_allreduce on 2 ranks: pld.tensor.allreduce runs on 2 cores (blocks) per rank, and the parts the blocks run are not modelled}}
func.func @two_core_allreduce(%data: !pld.dtensor<1x4096xf32>, %signal: !pld.dtensor<8x2xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  // expected-note @+1 {{here}}
  %sum = pld.tensor.allreduce %data, %signal, op sum core_num 2 : !pld.dtensor<1x4096xf32>, !pld.dtensor<8x2xi32>
  return
}

// -----

// Blocks of two tasks in sequence, each guarded to one block, run the
// allreduce on one signal in turn: no block of one launch clashes with
// another of the same launch.
func.func @tasks_in_turn(%data: !pld.dtensor<1x64xf32>, %signal: !pld.dtensor<4x1xi32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %first = pl.spmd %c2 name "first" {
    %b = pl.get_block_idx
    %last = arith.cmpi eq, %b, %c1 : index
    scf.if %last {
      %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
    }
  }
  %second = pl.spmd %c2 name "second" deps [%first] {
    %b = pl.get_block_idx
    %zero = arith.cmpi eq, %b, %c0 : index
    scf.if %zero {
      %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
    }
  }
  return
}
