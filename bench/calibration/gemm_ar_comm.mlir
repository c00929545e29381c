// The allreduce of pto-isa's gemm_ar (kernels/manual/a2a3/gemm_ar, its
// communication kernel as README.md, "Communication Kernel Details",
// describes it), written in pld for bench/calibrate.py: on 8 ranks and 24
// AIV blocks per rank (`pld-run --ranks 8 --blocks 24`), the sum of the
// eight 5504 x 1536 f16 GEMM outputs `gemm` into every rank's
// `reduced_output` window `red` (zero before), measured at 437.3 us
// ("Sequential": the communication alone). The 258 tiles of 128 x 256 are
// owned round-robin (tile t by rank t mod 8):
// - reduce-scatter: block b takes tiles b, b + 24, ... (its ready queue;
//   the GEMM has finished, so every tile is ready), and adds each, in two
//   64-row subtiles loaded into two tiles (ping/pong), into its owner's
//   window by atomic-add stores, then counts it in the owner's
//   subtile-ready cell;
// - allgather: block b takes its rank's own subtiles 23 - b, 47 - b, ...
//   (the reversed stripes), waits until all eight ranks added into one,
//   and stores it into every peer, the first peer rotating with the
//   subtile.
func.func @gemm_ar_comm(%gemm: memref<5504x1536xf16>, %red: !pld.dtensor<5504x1536xf16>,
                        %ready: !pld.dtensor<66x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %red : !pld.dtensor<5504x1536xf16>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %b = pl.get_block_idx
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c23 = arith.constant 23 : index
  %c24 = arith.constant 24 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c258 = arith.constant 258 : index
  %one = arith.constant 1 : i32
  // Reduce-scatter: block b drains tiles b, b + 24, ...; each 128 x 256
  // tile goes in two 64-row subtiles, atomically added into its owner's
  // reduced_output, and counted in the owner's subtile-ready cell.
  scf.for %t = %b to %c258 step %c24 {
    %tm = arith.divui %t, %c6 : index
    %tn = arith.remui %t, %c6 : index
    %row = arith.muli %tm, %c128 : index
    %col = arith.muli %tn, %c256 : index
    %row1 = arith.addi %row, %c64 : index
    %owner = arith.remui %t, %n : index
    %j = arith.divui %t, %n : index
    %s0 = arith.muli %j, %c2 : index
    %s1 = arith.addi %s0, %c1 : index
    %ping = pl.load %gemm[%row, %col] : memref<5504x1536xf16> -> !pl.tile<64x256xf16>
    %pong = pl.load %gemm[%row1, %col] : memref<5504x1536xf16> -> !pl.tile<64x256xf16>
    pld.tile.remote_store %ping, %red[%row, %col], peer %owner atomic add : !pl.tile<64x256xf16>, !pld.dtensor<5504x1536xf16>
    pld.tile.remote_store %pong, %red[%row1, %col], peer %owner atomic add : !pl.tile<64x256xf16>, !pld.dtensor<5504x1536xf16>
    pld.system.notify %ready[%s0, 0], peer %owner, value %one, op atomic_add : !pld.dtensor<66x1xi32>
    pld.system.notify %ready[%s1, 0], peer %owner, value %one, op atomic_add : !pld.dtensor<66x1xi32>
  }
  // Allgather: block b takes the owner-local subtiles 23 - b, 47 - b, ...
  // of this rank's tiles (me, me + n, ...), once every rank added into
  // them, and stores each into every peer.
  %left = arith.subi %c258, %me : index
  %mine = arith.ceildivui %left, %n : index
  %subtiles = arith.muli %mine, %c2 : index
  %first = arith.subi %c23, %b : index
  %peers = arith.subi %n, %c1 : index
  scf.for %id = %first to %subtiles step %c24 {
    pld.system.wait %ready[%id, 0], expected %n32, cmp ge : !pld.dtensor<66x1xi32>
    %j = arith.divui %id, %c2 : index
    %s = arith.remui %id, %c2 : index
    %t0 = arith.muli %j, %n : index
    %t = arith.addi %t0, %me : index
    %tm = arith.divui %t, %c6 : index
    %tn = arith.remui %t, %c6 : index
    %row0 = arith.muli %tm, %c128 : index
    %half = arith.muli %s, %c64 : index
    %row = arith.addi %row0, %half : index
    %col = arith.muli %tn, %c256 : index
    %sub = pl.load %red[%row, %col] : !pld.dtensor<5504x1536xf16> -> !pl.tile<64x256xf16>
    // The first peer rotates with the subtile, so the blocks do not all
    // start on one destination.
    %rot = arith.remui %id, %peers : index
    scf.for %k = %c0 to %peers step %c1 {
      %step0 = arith.addi %rot, %k : index
      %step = arith.remui %step0, %peers : index
      %off = arith.addi %step, %c1 : index
      %peer0 = arith.addi %me, %off : index
      %peer = arith.remui %peer0, %n : index
      pld.tile.remote_store %sub, %red[%row, %col], peer %peer : !pl.tile<64x256xf16>, !pld.dtensor<5504x1536xf16>
    }
  }
  return
}
