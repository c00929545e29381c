// Kernels run on several blocks per rank (pld-run --blocks, pl.spmd) and
// collectives, which run on one block per rank (test/Execution/blocks.test).

// Every rank contributes a row; every rank holds the sum afterwards.
func.func @allreduce(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>
  return
}

// The same allreduce in a helper the kernel calls.
func.func private @sum_rows(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>
  return
}

func.func @allreduce_in_helper(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  func.call @sum_rows(%data, %signal) : (!pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>) -> ()
  return
}

// The allreduce on block 0 only: the other blocks skip it.
func.func @guarded_allreduce(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %block = pl.get_block_idx
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %block, %c0 : index
  scf.if %first {
    %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>
  }
  return
}

// Point to point, one row per block: block b sends row b of its data to the
// next rank's inbox, notifies cell [b, 0] there, waits for its own cell
// [b, 0] and copies what it received to row b of out.
func.func @exchange_rows(%data: !pld.dtensor<2x8xf32>, %inbox: !pld.dtensor<2x8xf32>,
                         %signal: !pld.dtensor<2x1xi32>, %out: memref<2x8xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %next32 = arith.addi %me, %one : i32
  %peer32 = arith.remsi %next32, %n : i32
  %peer = arith.index_cast %peer32 : i32 to index
  %block = pl.get_block_idx
  %row = pl.load %data[%block, 0] : !pld.dtensor<2x8xf32> -> !pl.tile<1x8xf32>
  pld.tile.remote_store %row, %inbox[%block, 0], peer %peer : !pl.tile<1x8xf32>, !pld.dtensor<2x8xf32>
  pld.system.notify %signal[%block, 0], peer %peer, value %one, op set : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[%block, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  %received = pl.load %inbox[%block, 0] : !pld.dtensor<2x8xf32> -> !pl.tile<1x8xf32>
  pl.store %received, %out[%block, 0] : !pl.tile<1x8xf32>, memref<2x8xf32>
  return
}

// The same exchange with every block pushing into row 0 of the inbox: on
// several blocks the pushes race (pld-run's pld-verify judges the launch).
func.func @shared_row(%data: !pld.dtensor<2x8xf32>, %inbox: !pld.dtensor<2x8xf32>,
                      %signal: !pld.dtensor<2x1xi32>, %out: memref<2x8xf32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>
  %me = pld.system.rank %ctx
  %n = pld.system.nranks %ctx
  %one = arith.constant 1 : i32
  %next32 = arith.addi %me, %one : i32
  %peer32 = arith.remsi %next32, %n : i32
  %peer = arith.index_cast %peer32 : i32 to index
  %block = pl.get_block_idx
  %row = pl.load %data[%block, 0] : !pld.dtensor<2x8xf32> -> !pl.tile<1x8xf32>
  pld.tile.remote_store %row, %inbox[0, 0], peer %peer : !pl.tile<1x8xf32>, !pld.dtensor<2x8xf32>
  pld.system.notify %signal[%block, 0], peer %peer, value %one, op set : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[%block, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>
  %received = pl.load %inbox[0, 0] : !pld.dtensor<2x8xf32> -> !pl.tile<1x8xf32>
  pl.store %received, %out[%block, 0] : !pl.tile<1x8xf32>, memref<2x8xf32>
  return
}

// An allreduce in a task of 1 block (a barrier in one of 2 blocks:
// Inputs/blocks-spmd.mlir).
func.func @spmd_one_block(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  %c1 = arith.constant 1 : index
  %t = pl.spmd %c1 name "sum" {
    %sum = pld.tensor.allreduce %data, %signal, op sum : !pld.dtensor<1x8xf32>, !pld.dtensor<8x1xi32>
  }
  return
}

// Each block of a task writes its index as a scalar, 16 elements (a
// 64-byte line) apart (blocks.test; Inputs/cache-lines.mlir packs them).
func.func @scalars_padded(%out: memref<1x64xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %t = pl.spmd %c4 name "write" {
    %b = pl.get_block_idx
    %col = arith.muli %b, %c16 : index
    %v = arith.index_cast %b : index to i32
    pl.write %v, %out[0, %col] : memref<1x64xi32>
  }
  return
}
