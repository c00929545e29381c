// One-sided protocols as users write them, racy and race-free, for
// `pld-run --sanitize race` (races.test): each kernel takes a data window,
// a signal window and, where it needs one, a scalar that picks the variant.

// Rank 0 stores a row into rank 1's window and publishes it; rank 1 loads it
// after its wait (variant 0) or before it (variant 1).
func.func @publish(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                   %early: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %is_writer = arith.cmpi eq, %me, %zero : i32
  scf.if %is_writer {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[1, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  } else {
    %read_early = arith.cmpi ne, %early, %c0 : index
    scf.if %read_early {
      %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
      pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
      pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    } else {
      pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
      %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
      pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    }
  }
  return
}

// Ranks 1 and 2 store into row 0 of rank 0's window, then notify it; rank 0
// waits for both. Variant 0: each its own half; variant 1: both the whole
// row (two writers of one region, nothing orders them).
func.func @two_writers(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                       %overlap: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    pld.system.wait %sig[0, 0], expected %two, cmp ge : !pld.dtensor<4x1xi32>
  } else {
    %whole = arith.cmpi ne, %overlap, %c0 : index
    scf.if %whole {
      %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
      pld.tile.remote_store %row, %data[0, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    } else {
      %half = arith.subi %me, %c1 : index
      %col = arith.muli %half, %c32 : index
      %part = pl.load %data[1, %col] : !pld.dtensor<2x64xf32> -> !pl.tile<1x32xf32>
      pld.tile.remote_store %part, %data[0, %col], peer %c0 : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
    }
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// Order relayed through a third rank: rank 0 stores into rank 2's window and
// notifies rank 1; rank 1 waits for it (variant 0) or not (variant 1) and
// notifies rank 2; rank 2 waits for rank 1 and loads.
func.func @relay(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                 %skip: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %is_first = arith.cmpi eq, %me, %c0 : index
  %is_middle = arith.cmpi eq, %me, %c1 : index
  scf.if %is_first {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[1, 0], peer %c2 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  } else {
    scf.if %is_middle {
      %waits = arith.cmpi eq, %skip, %c0 : index
      scf.if %waits {
        pld.system.wait %sig[0, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
      }
      pld.system.notify %sig[1, 0], peer %c2, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    } else {
      pld.system.wait %sig[1, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
      %got = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
      pl.store %got, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    }
  }
  return
}

// Counting: every other rank adds its row into row 1 of rank 0 atomically and
// adds 1 to rank 0's counter; rank 0 waits for n - 1 contributions (variant
// 0) or for `short` fewer, and loads the sum.
func.func @counting(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                    %short: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    %all = arith.subi %n32, %one : i32
    %need = arith.subi %all, %short : i32
    pld.system.wait %sig[0, 0], expected %need, cmp ge : !pld.dtensor<4x1xi32>
    %sum = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %sum, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  } else {
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[1, 0], peer %c0 atomic add : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}

// The seed's credit barrier, twice on the same cells: the second with
// expected 2 (variant 0), or with the first one's expected 1 (variant 1),
// which the first barrier's notifies already satisfy. Around each barrier
// every rank stores its rank into row 0 of the next rank and reads the row
// it received.
func.func @barrier_reuse(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                         %stale: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %next1 = arith.addi %me, %c1 : index
  %next = arith.remui %next1, %n : index
  %mine = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pld.tile.remote_store %mine, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  scf.for %p = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %p, %me : index
    scf.if %other {
      pld.system.notify %sig[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    }
  }
  scf.for %p = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %p, %me : index
    scf.if %other {
      pld.system.wait %sig[%p, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    }
  }
  %got = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  pl.store %got, %data[1, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  scf.for %p = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %p, %me : index
    scf.if %other {
      pld.system.notify %sig[%me, 0], peer %p, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    }
  }
  %second = arith.subi %two, %stale : i32
  scf.for %p = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %p, %me : index
    scf.if %other {
      pld.system.wait %sig[%p, 0], expected %second, cmp ge : !pld.dtensor<4x1xi32>
    }
  }
  // After the second barrier: overwrite the row the next rank read.
  pld.tile.remote_store %mine, %data[0, 0], peer %next : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// Two calls of a kernel that allreduces, one after the other from host
// code: the second call's entry barrier orders what the first call stored.
// Its kernel starts after the first one ended, so it knows the first
// call's signal history (its waits do not read the first call's notifies).
func.func @allreduce_step(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>
  return
}
func.func @back_to_back_launches(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  func.call @allreduce_step(%d, %s) : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  func.call @allreduce_step(%d, %s) : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x1xi32>) -> ()
  return
}

// Counting (as @counting), with an uncounted atomic add early: the last rank adds
// at once and notifies after `spin` rounds of local work, the others do the
// work first. A wait `short` of n - 1 may count the others' notifies only,
// so the add it does not order need not be the last one to reach its bytes.
func.func @counting_early_add(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                              %short: i32, %spin: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    %all = arith.subi %n32, %one : i32
    %need = arith.subi %all, %short : i32
    pld.system.wait %sig[0, 0], expected %need, cmp ge : !pld.dtensor<4x1xi32>
    %sum = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pl.store %sum, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
  } else {
    %last = arith.subi %n, %c1 : index
    %is_last = arith.cmpi eq, %me, %last : index
    %is_other = arith.cmpi ne, %me, %last : index
    scf.if %is_other {
      scf.for %i = %c0 to %spin step %c1 {
        %t = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
        pl.store %t, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
      }
    }
    %row = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[1, 0], peer %c0 atomic add : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    scf.if %is_last {
      scf.for %i = %c0 to %spin step %c1 {
        %t = pl.load %data[0, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
        pl.store %t, %data[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
      }
    }
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}
