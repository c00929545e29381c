// Kernels for pld-run --timing-only (timing-only.test): a scalar read of
// data a tile store wrote meets a value --timing-only skipped and stops the
// run; one of a value pl.write wrote over it reads what was written.

// Stores a tile of %data into %out, then reads one element back and
// writes it to another: what it reads is bulk data.
func.func @read_stored(%data: memref<1x64xi32>, %out: memref<1x64xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %data[0, 0] : memref<1x64xi32> -> !pl.tile<1x64xi32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xi32>, memref<1x64xi32>
  %v = pl.read %out[0, 3] : memref<1x64xi32>
  pl.write %v, %out[0, 0] : memref<1x64xi32>
  return
}

// The same, with a scalar written over the element before it is read.
func.func @read_written(%data: memref<1x64xi32>, %out: memref<1x64xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %data[0, 0] : memref<1x64xi32> -> !pl.tile<1x64xi32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xi32>, memref<1x64xi32>
  %c7 = arith.constant 7 : i32
  pl.write %c7, %out[0, 3] : memref<1x64xi32>
  %v = pl.read %out[0, 3] : memref<1x64xi32>
  pl.write %v, %out[0, 0] : memref<1x64xi32>
  return
}
