// Tiles as the target has them: rows padded to whole 32-byte blocks, a valid
// shape per tile carried through loops and branches, and every store writing
// exactly its view. The last kernels break a rule each; pld-run traps on
// them, naming the op the user wrote.

// A row of five i32 (20 bytes, padded to 8 columns) and a ragged tail whose
// width is an argument, summed over the ranks in a loop (the accumulator's
// valid shape comes through scf.for and scf.if at run time), stored into the
// next rank's window with its valid shape.
func.func @ragged_sum(%narrow: !pld.dtensor<1x5xi32>, %data: !pld.dtensor<2x100xf32>,
                      %out: !pld.dtensor<2x100xf32>, %sig: !pld.dtensor<8x1xi32>,
                      %width: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %five = pl.load %narrow[0, 0] : !pld.dtensor<1x5xi32> -> !pl.tile<1x5xi32>
  %twice = pl.add %five, %five : !pl.tile<1x5xi32>
  pl.store %twice, %narrow[0, 0] : !pl.tile<1x5xi32>, !pld.dtensor<1x5xi32>
  %first = pl.load %data[0, 0] valid [%c2, %width] : !pld.dtensor<2x100xf32> -> !pl.tile<2x128xf32>
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %first) -> (!pl.tile<2x128xf32>) {
    %odd = arith.remui %k, %c2 : index
    %is_odd = arith.cmpi ne, %odd, %c0 : index
    %next = scf.if %is_odd -> (!pl.tile<2x128xf32>) {
      %more = pl.add %acc, %first : !pl.tile<2x128xf32>
      scf.yield %more : !pl.tile<2x128xf32>
    } else {
      %more = pl.mul %acc, %first : !pl.tile<2x128xf32>
      %back = pl.add %more, %first : !pl.tile<2x128xf32>
      scf.yield %acc : !pl.tile<2x128xf32>
    }
    scf.yield %next : !pl.tile<2x128xf32>
  }
  %next32 = arith.addi %me32, %one : i32
  %peer32 = arith.remsi %next32, %n32 : i32
  %peer = arith.index_cast %peer32 : i32 to index
  pld.tile.remote_store %sum, %out[0, 0], peer %peer valid [%c2, %width] : !pl.tile<2x128xf32>, !pld.dtensor<2x100xf32>
  pld.system.notify %sig[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  %prev32 = arith.addi %me32, %n32 : i32
  %prev32b = arith.subi %prev32, %one : i32
  %prev32c = arith.remsi %prev32b, %n32 : i32
  %prev = arith.index_cast %prev32c : i32 to index
  pld.system.wait %sig[%prev, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  return
}

// A ragged tile added to a whole one: the target asserts that both operands
// of tile math have the destination's valid shape.
func.func @mixed_valid(%data: !pld.dtensor<1x64xf32>, %width: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %whole = pl.load %data[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  %ragged = pl.load %data[0, 0] valid [%c1, %width] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  %sum = pl.add %whole, %ragged : !pl.tile<1x64xf32>
  pl.store %sum, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// A ragged tile stored whole: its columns past the valid width are undefined.
func.func @store_past_valid(%data: !pld.dtensor<1x64xf32>, %width: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c1 = arith.constant 1 : index
  %ragged = pl.load %data[0, 0] valid [%c1, %width] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  pl.store %ragged, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// A row written past its tensor into the next one of the same window: the
// column offset is an argument, so only the run can tell.
func.func @past_the_tensor(%a: !pld.dtensor<2x32xf32>, %b: !pld.dtensor<2x32xf32>, %col: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %row = pl.load %b[0, 0] : !pld.dtensor<2x32xf32> -> !pl.tile<1x32xf32>
  pl.store %row, %a[1, %col] : !pl.tile<1x32xf32>, !pld.dtensor<2x32xf32>
  return
}

// A notify to a cell past the signal's last row (a signal of 2 rows on more
// ranks).
func.func @cell_past_the_signal(%sig: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<2x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  pld.system.notify %sig[%me, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<2x1xi32>
  return
}
