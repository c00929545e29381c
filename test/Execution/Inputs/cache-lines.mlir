// The blocks of a task write their index as a scalar into neighbouring
// elements, one 64-byte cache line (blocks.test; pld-verify rejects it).

func.func @scalars_packed(%out: memref<1x64xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c4 = arith.constant 4 : index
  %t = pl.spmd %c4 name "write" {
    %b = pl.get_block_idx
    %v = arith.index_cast %b : index to i32
    pl.write %v, %out[0, %b] : memref<1x64xi32>
  }
  return
}
