// Kernels whose modelled time (pld-run --timing) follows from the model by
// hand: one transfer, two transfers over two links or one, and a signal.

// Rank 1 pulls 4096 bytes from rank 0 and keeps them.
func.func @pull_one(%data: !pld.dtensor<1x1024xf32>, %out: !pld.dtensor<1x1024xf32>,
                    %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is_one = arith.cmpi eq, %me, %c1 : index
  scf.if %is_one {
    %t = pld.tile.remote_load %data[0, 0], peer %c0 : !pld.dtensor<1x1024xf32> -> !pl.tile<1x1024xf32>
    pl.store %t, %out[0, 0] : !pl.tile<1x1024xf32>, !pld.dtensor<1x1024xf32>
  }
  return
}

// Rank 2 pulls 4096 bytes from rank 0 and 4096 from rank 1: two links at
// once, both into rank 2's ingress.
func.func @pull_two(%data: !pld.dtensor<1x1024xf32>, %out: !pld.dtensor<1x1024xf32>,
                    %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %is_two = arith.cmpi eq, %me, %c2 : index
  scf.if %is_two {
    %a = pld.tile.remote_load %data[0, 0], peer %c0 : !pld.dtensor<1x1024xf32> -> !pl.tile<1x1024xf32>
    %b = pld.tile.remote_load %data[0, 0], peer %c1 : !pld.dtensor<1x1024xf32> -> !pl.tile<1x1024xf32>
    %s = pl.add %a, %b : !pl.tile<1x1024xf32>
    pl.store %s, %out[0, 0] : !pl.tile<1x1024xf32>, !pld.dtensor<1x1024xf32>
  }
  return
}

// Rank 1 pulls the two halves of rank 0's 4096 bytes: one link, one
// transfer at a time, so no faster than pulling the whole.
func.func @pull_same_link(%data: !pld.dtensor<1x1024xf32>, %out: !pld.dtensor<1x1024xf32>,
                          %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is_one = arith.cmpi eq, %me, %c1 : index
  scf.if %is_one {
    %a = pld.tile.remote_load %data[0, 0], peer %c0 : !pld.dtensor<1x1024xf32> -> !pl.tile<1x512xf32>
    %b = pld.tile.remote_load %data[0, 512], peer %c0 : !pld.dtensor<1x1024xf32> -> !pl.tile<1x512xf32>
    pl.store %a, %out[0, 0] : !pl.tile<1x512xf32>, !pld.dtensor<1x1024xf32>
    pl.store %b, %out[0, 512] : !pl.tile<1x512xf32>, !pld.dtensor<1x1024xf32>
  }
  return
}

// Block b of rank 2 pulls half b of rank b's 4096 bytes: two cores, two
// links, one ingress.
func.func @pull_two_cores(%data: !pld.dtensor<1x1024xf32>, %out: !pld.dtensor<1x1024xf32>,
                          %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %block = pl.get_block_idx
  %c2 = arith.constant 2 : index
  %c512 = arith.constant 512 : index
  %column = arith.muli %block, %c512 : index
  %is_two = arith.cmpi eq, %me, %c2 : index
  scf.if %is_two {
    %t = pld.tile.remote_load %data[0, %column], peer %block : !pld.dtensor<1x1024xf32> -> !pl.tile<1x512xf32>
    pl.store %t, %out[0, %column] : !pl.tile<1x512xf32>, !pld.dtensor<1x1024xf32>
  }
  return
}

// Block b of rank 1 pulls half b of rank 0's 4096 bytes: two cores on one
// link.
func.func @pull_halves(%data: !pld.dtensor<1x1024xf32>, %out: !pld.dtensor<1x1024xf32>,
                       %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %block = pl.get_block_idx
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %column = arith.muli %block, %c512 : index
  %is_one = arith.cmpi eq, %me, %c1 : index
  scf.if %is_one {
    %half = pld.tile.remote_load %data[0, %column], peer %c0 : !pld.dtensor<1x1024xf32> -> !pl.tile<1x512xf32>
    pl.store %half, %out[0, %column] : !pl.tile<1x512xf32>, !pld.dtensor<1x1024xf32>
  }
  return
}

// Rank 0 notifies rank 1, which waits: one signal hop.
func.func @one_hop(%sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %is_zero = arith.cmpi eq, %me, %c0 : index
  scf.if %is_zero {
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  } else {
    pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
  }
  return
}

// Rank 0 adds 1 to rank 1's cell first, a hop away; rank 1 subtracts 1
// from it itself a little later and waits for 0. The value after both is
// there once the add has arrived, though rank 1's own notify came second.
func.func @late_add(%sig: !pld.dtensor<4x1xi32>, %other: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %is_zero = arith.cmpi eq, %me, %c0 : index
  scf.if %is_zero {
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  } else {
    pld.system.notify %other[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    pld.system.notify %sig[0, 0], peer %c1, value %minus, op atomic_add : !pld.dtensor<4x1xi32>
    pld.system.wait %sig[0, 0], expected %zero, cmp ge : !pld.dtensor<4x1xi32>
  }
  return
}

// A host orchestration with deferred completion (the seed's "Deferred
// Completion"): two waiters register the peer's flag, each with its own
// consumer after it; the publisher, submitted last, puts the payload and
// sets the flag. The consumer's time is the waiter's, which is the
// publisher's notify and its hop.
func.func @deferred(%payload: !pld.dtensor<1x8xi32>, %out: memref<2x8xi32>, %signal: !pld.dtensor<1x1xi32>,
                    %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %slot = %c0 to %c2 step %c1 {
    %wait = pl.at level core_group name "payload_wait" {
      pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<1x1xi32>
    }
    %consume = pl.at level core_group name "consume" deps [%wait] {
      %t = pl.load %payload[0, 0] : !pld.dtensor<1x8xi32> -> !pl.tile<1x8xi32>
      pl.store %t, %out[%slot, 0] : !pl.tile<1x8xi32>, memref<2x8xi32>
    }
  }
  %publish = pl.at level core_group name "publish" {
    %seven = arith.constant 7 : i32
    %t = pl.full %seven : !pl.tile<1x8xi32>
    pld.tile.remote_store %t, %payload[0, 0], peer %peer : !pl.tile<1x8xi32>, !pld.dtensor<1x8xi32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<1x1xi32>
  }
  return
}
