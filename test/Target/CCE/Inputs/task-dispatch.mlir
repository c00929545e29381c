// A task on two blocks whose split region writes one row per block and AIV
// lane: row 2 * block + lane holds its own number plus one. Rows are 64
// bytes apart, so no two cores share a cache line.
func.func @orchestrate(%out: memref<4x16xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c2 = arith.constant 2 : index
  %t = pl.spmd %c2 name "work" {
    %block = pl.get_block_idx
    pl.split_aiv mode none {
      %lane = pl.get_aiv_id
      %lanes = arith.constant 2 : index
      %first = arith.muli %block, %lanes : index
      %row = arith.addi %first, %lane : index
      %index = arith.index_cast %row : index to i32
      %one = arith.constant 1 : i32
      %value = arith.addi %index, %one : i32
      pl.write %value, %out[%row, 0] : memref<4x16xi32>
    }
  }
  return
}
