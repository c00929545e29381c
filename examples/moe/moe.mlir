// MoE expert-parallel dispatch and combine, at DeepSeek-V4 FLASH scale:
// PyPTO's tests/st/distributed/test_l3_ep_dispatch_combine.py (itself a
// port of the runtime's examples/workers/l3/ep_dispatch_combine) written in
// pld. docs/showcase-moe.md says how to run and check it.
//
//   T = 128 tokens per rank, TOPK = 6 experts per token, D = 4096 (hidden
//   size), L = 16 local experts per rank (global expert eid lives on rank
//   eid / L as local expert eid % L), R = 192 receive slots per local
//   expert, up to 4 ranks (the count arrays are sized for 4; any 1..4 run).
//
// Every rank runs @moe, a host orchestrator that launches three kernels one
// after the other (PyPTO's chip_orch):
//
//   @dispatch      histogram of the routes; publish the counts (atomic-add
//                  notifies into every rank's pub_counts); count barrier;
//                  prefix sums; push x (bf16), w (f32) and idx (i32) of every
//                  route into the owner's per-(local expert, slot) window
//                  rows; data barrier; stage the windows out;
//   @local_expert  recv_y = bf16(f32(recv_x) * w) for every received row;
//   @combine       push each recv_y row back to its token's owner at row
//                  t * TOPK + k; combine barrier; routed_y[t] = f32 sum over
//                  k of those rows.
//
// The windows (!pld.dtensor arguments) sit at the same offset on every
// rank, so a put to `peer %dst` of row `r` lands in row `r` of rank dst's
// window; the barriers use per-source cells (rank s notifies cell [s, 0] of
// every peer, each rank waits on [src, 0] for every src != itself), as
// PyPTO's count_done / data_done / combine_done signals [N_RANKS, 1] do.
// Every barrier's notify comes after the payload it publishes in program
// order, so a peer that has seen it reads the payload safely (pld's
// happens-before: put -> notify -> wait -> read; `pld-run --sanitize race`
// checks it on the run it makes). pld-verify decides it race-free on 2, 3
// and 4 ranks for routes spread over the experts (docs/showcase-moe.md,
// "Race freedom"): it follows the counts through the notifies, the scratch
// arrays and the windows, and the routes through the puts.

// dispatch: 1:1 of PyPTO's dispatch_step (runtime dispatch.cpp).
// `scratch` holds the three int arrays PyPTO keeps in scalar registers
// (pl.array): row 0 send_counts[d][e], row 1 my_slot_at_dst[d][e], row 2
// cursor[d][e], for destination rank d and its local expert e.
func.func @dispatch(%indices: memref<128x6xi32>, %x_norm: memref<128x4096xbf16>,
                    %w_padded: memref<768x8xf32>, %idx_padded: memref<768x8xi32>,
                    %recv_x_out: memref<3072x4096xbf16>, %recv_w_out: memref<16x192xf32>,
                    %recv_idx_out: memref<16x192xi32>, %recv_count_out: memref<16x1xi32>,
                    %scratch: memref<3x4x16xi32>,
                    %pub_counts: !pld.dtensor<16x16xi32>, %count_done: !pld.dtensor<4x1xi32>,
                    %recv_x: !pld.dtensor<3072x4096xbf16>, %recv_w: !pld.dtensor<3072x8xf32>,
                    %recv_idx: !pld.dtensor<3072x8xi32>, %data_done: !pld.dtensor<4x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %T = arith.constant 128 : index
  %TOPK = arith.constant 6 : index
  %L = arith.constant 16 : index
  %R = arith.constant 192 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %count_done : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index

  // ---- histogram: send_counts[d][e] = routes of this rank to expert e of d.
  scf.for %d = %c0 to %n step %c1 {
    scf.for %e = %c0 to %L step %c1 {
      pl.write %zero, %scratch[0, %d, %e] : memref<3x4x16xi32>
      pl.write %zero, %scratch[2, %d, %e] : memref<3x4x16xi32>
    }
  }
  scf.for %t = %c0 to %T step %c1 {
    scf.for %k = %c0 to %TOPK step %c1 {
      %eid32 = pl.read %indices[%t, %k] : memref<128x6xi32>
      %eid = arith.index_cast %eid32 : i32 to index
      %d = arith.divui %eid, %L : index
      %e = arith.remui %eid, %L : index
      %cur = pl.read %scratch[0, %d, %e] : memref<3x4x16xi32>
      %next = arith.addi %cur, %one : i32
      pl.write %next, %scratch[0, %d, %e] : memref<3x4x16xi32>
    }
  }

  // ---- publish: this rank's whole send_counts[N][L] into rows
  // [me * n, me * n + n) of every rank's pub_counts (itself included), by
  // atomic-add notifies of the non-zero counts (PyPTO's TNOTIFY AtomicAdd).
  // Afterwards pub_counts[s * n + d][e] on every rank is what rank s sends
  // to expert e of rank d.
  %my_rows = arith.muli %me, %n : index
  scf.for %peer = %c0 to %n step %c1 {
    scf.for %d = %c0 to %n step %c1 {
      %row = arith.addi %my_rows, %d : index
      scf.for %e = %c0 to %L step %c1 {
        %v = pl.read %scratch[0, %d, %e] : memref<3x4x16xi32>
        %nonzero = arith.cmpi ne, %v, %zero : i32
        scf.if %nonzero {
          pld.system.notify %pub_counts[%row, %e], peer %peer, value %v, op atomic_add : !pld.dtensor<16x16xi32>
        }
      }
    }
  }

  // ---- count barrier (per-source cells): after it every rank's counts
  // have landed here, since each rank notified them before count_done.
  scf.for %peer = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      pld.system.notify %count_done[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    }
  }
  scf.for %src = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      pld.system.wait %count_done[%src, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    }
  }

  // ---- prefix sums: my first slot at expert e of rank d is the number of
  // routes the ranks before me send there; recv_count[e] is what all ranks
  // send to my expert e.
  scf.for %d = %c0 to %n step %c1 {
    scf.for %e = %c0 to %L step %c1 {
      %base = scf.for %s = %c0 to %me step %c1 iter_args(%acc = %zero) -> (i32) {
        %s_rows = arith.muli %s, %n : index
        %row = arith.addi %s_rows, %d : index
        %v = pl.read %pub_counts[%row, %e] : !pld.dtensor<16x16xi32>
        %sum = arith.addi %acc, %v : i32
        scf.yield %sum : i32
      }
      pl.write %base, %scratch[1, %d, %e] : memref<3x4x16xi32>
    }
  }
  scf.for %e = %c0 to %L step %c1 {
    %total = scf.for %s = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %s_rows = arith.muli %s, %n : index
      %row = arith.addi %s_rows, %me : index
      %v = pl.read %pub_counts[%row, %e] : !pld.dtensor<16x16xi32>
      %sum = arith.addi %acc, %v : i32
      scf.yield %sum : i32
    }
    pl.write %total, %recv_count_out[%e, 0] : memref<16x1xi32>
  }

  // ---- payload push, in (t, k) order: route (t, k) to expert eid goes to
  // row loc_e * R + slot of rank dst = eid / L, slot = my first slot there
  // plus how many of my routes went there before. Three channels: x (the
  // token's bf16 row), w (its f32 weight, padded to 8) and idx (t * TOPK + k,
  // padded to 8), each a one-row put into the peer's window.
  scf.for %t = %c0 to %T step %c1 {
    scf.for %k = %c0 to %TOPK step %c1 {
      %eid32 = pl.read %indices[%t, %k] : memref<128x6xi32>
      %eid = arith.index_cast %eid32 : i32 to index
      %dst = arith.divui %eid, %L : index
      %loc_e = arith.remui %eid, %L : index
      %cur = pl.read %scratch[2, %dst, %loc_e] : memref<3x4x16xi32>
      %base = pl.read %scratch[1, %dst, %loc_e] : memref<3x4x16xi32>
      %slot32 = arith.addi %base, %cur : i32
      %slot = arith.index_cast %slot32 : i32 to index
      %e_rows = arith.muli %loc_e, %R : index
      %row = arith.addi %e_rows, %slot : index
      %cur1 = arith.addi %cur, %one : i32
      pl.write %cur1, %scratch[2, %dst, %loc_e] : memref<3x4x16xi32>
      %t_routes = arith.muli %t, %TOPK : index
      %route = arith.addi %t_routes, %k : index
      pld.tensor.put %recv_x, peer %dst, %x_norm dst_offsets [%row, 0] src_offsets [%t, 0] shape [1, 4096]
          : !pld.dtensor<3072x4096xbf16>, memref<128x4096xbf16>
      pld.tensor.put %recv_w, peer %dst, %w_padded dst_offsets [%row, 0] src_offsets [%route, 0] shape [1, 8]
          : !pld.dtensor<3072x8xf32>, memref<768x8xf32>
      // The route goes into column 0 of its padded row here (PyPTO's host
      // fills the column with the same t * TOPK + k): the kernel says what
      // it sends, and pld-verify follows it to @combine's pushes back.
      %route32 = arith.index_cast %route : index to i32
      pl.write %route32, %idx_padded[%route, 0] : memref<768x8xi32>
      pld.tensor.put %recv_idx, peer %dst, %idx_padded dst_offsets [%row, 0] src_offsets [%route, 0] shape [1, 8]
          : !pld.dtensor<3072x8xi32>, memref<768x8xi32>
    }
  }

  // ---- data barrier: every rank's pushes into my window are complete.
  scf.for %peer = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      pld.system.notify %data_done[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    }
  }
  scf.for %src = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      pld.system.wait %data_done[%src, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    }
  }

  // ---- stage out, window -> host-backed outputs: x row by row (a 1 x D
  // tile), w and idx from column 0 of their padded rows by scalar reads.
  scf.for %e = %c0 to %L step %c1 {
    scf.for %slot = %c0 to %R step %c1 {
      %e_rows = arith.muli %e, %R : index
      %row = arith.addi %e_rows, %slot : index
      %x = pl.load %recv_x[%row, 0] : !pld.dtensor<3072x4096xbf16> -> !pl.tile<1x4096xbf16>
      pl.store %x, %recv_x_out[%row, 0] : !pl.tile<1x4096xbf16>, memref<3072x4096xbf16>
      %w = pl.read %recv_w[%row, 0] : !pld.dtensor<3072x8xf32>
      pl.write %w, %recv_w_out[%e, %slot] : memref<16x192xf32>
      %i = pl.read %recv_idx[%row, 0] : !pld.dtensor<3072x8xi32>
      pl.write %i, %recv_idx_out[%e, %slot] : memref<16x192xi32>
    }
  }
  return
}

// local_expert: 1:1 of PyPTO's local_expert_step. The expert's work on each
// received row, with the bf16 round trip kept: recv_y = bf16(f32(x) * w).
// Local only; reads the staged outputs, as the runtime kernel does.
func.func @local_expert(%recv_x_out: memref<3072x4096xbf16>, %recv_w_out: memref<16x192xf32>,
                        %recv_count_out: memref<16x1xi32>, %recv_y: memref<3072x4096xbf16>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %L = arith.constant 16 : index
  %R = arith.constant 192 : index
  scf.for %e = %c0 to %L step %c1 {
    %rows32 = pl.read %recv_count_out[%e, 0] : memref<16x1xi32>
    %rows = arith.index_cast %rows32 : i32 to index
    scf.for %slot = %c0 to %rows step %c1 {
      %e_rows = arith.muli %e, %R : index
      %row = arith.addi %e_rows, %slot : index
      %x = pl.load %recv_x_out[%row, 0] : memref<3072x4096xbf16> -> !pl.tile<1x4096xbf16>
      %xf = pl.cast %x round rint : !pl.tile<1x4096xbf16> to !pl.tile<1x4096xf32>
      %w = pl.read %recv_w_out[%e, %slot] : memref<16x192xf32>
      %yf = pl.muls %xf, %w : !pl.tile<1x4096xf32>
      %y = pl.cast %yf round rint : !pl.tile<1x4096xf32> to !pl.tile<1x4096xbf16>
      pl.store %y, %recv_y[%row, 0] : !pl.tile<1x4096xbf16>, memref<3072x4096xbf16>
    }
  }
  return
}

// combine: 1:1 of PyPTO's combine_step. Rows [src_off, src_off + n) of my
// expert e came from rank dst (n = pub_counts[dst * n + me][e], src_off the
// routes of the ranks before dst); each goes back to dst's routed_y_buf at
// the row recv_idx names (t * TOPK + k on dst). Then the combine barrier and
// the weighted sum: routed_y[t] = sum over k of f32(routed_y_buf[t * TOPK + k]).
func.func @combine(%recv_y: memref<3072x4096xbf16>, %recv_idx_out: memref<16x192xi32>,
                   %routed_y: memref<128x4096xf32>, %pub_counts: !pld.dtensor<16x16xi32>,
                   %routed_y_buf: !pld.dtensor<768x4096xbf16>, %combine_done: !pld.dtensor<4x1xi32>)
    attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %T = arith.constant 128 : index
  %TOPK = arith.constant 6 : index
  %L = arith.constant 16 : index
  %R = arith.constant 192 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %combine_done : !pld.dtensor<4x1xi32>
  %me = pld.system.rank %ctx : index
  %n = pld.system.nranks %ctx : index

  // ---- push back: every received row to its token's owner.
  scf.for %dst = %c0 to %n step %c1 {
    scf.for %e = %c0 to %L step %c1 {
      %dst_rows = arith.muli %dst, %n : index
      %from_dst = arith.addi %dst_rows, %me : index
      %count32 = pl.read %pub_counts[%from_dst, %e] : !pld.dtensor<16x16xi32>
      %count = arith.index_cast %count32 : i32 to index
      %src_off32 = scf.for %s = %c0 to %dst step %c1 iter_args(%acc = %zero) -> (i32) {
        %s_rows = arith.muli %s, %n : index
        %from_s = arith.addi %s_rows, %me : index
        %v = pl.read %pub_counts[%from_s, %e] : !pld.dtensor<16x16xi32>
        %sum = arith.addi %acc, %v : i32
        scf.yield %sum : i32
      }
      %src_off = arith.index_cast %src_off32 : i32 to index
      scf.for %i = %c0 to %count step %c1 {
        %slot = arith.addi %src_off, %i : index
        %e_rows = arith.muli %e, %R : index
        %row = arith.addi %e_rows, %slot : index
        %route32 = pl.read %recv_idx_out[%e, %slot] : memref<16x192xi32>
        %route = arith.index_cast %route32 : i32 to index
        pld.tensor.put %routed_y_buf, peer %dst, %recv_y dst_offsets [%route, 0] src_offsets [%row, 0] shape [1, 4096]
            : !pld.dtensor<768x4096xbf16>, memref<3072x4096xbf16>
      }
    }
  }

  // ---- combine barrier: every row routed from this rank is back.
  scf.for %peer = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      pld.system.notify %combine_done[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<4x1xi32>
    }
  }
  scf.for %src = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      pld.system.wait %combine_done[%src, 0], expected %one, cmp ge : !pld.dtensor<4x1xi32>
    }
  }

  // ---- weighted sum: the combine proper, in f32, in k order.
  scf.for %t = %c0 to %T step %c1 {
    %first = arith.muli %t, %TOPK : index
    %y0 = pl.load %routed_y_buf[%first, 0] : !pld.dtensor<768x4096xbf16> -> !pl.tile<1x4096xbf16>
    %acc0 = pl.cast %y0 round rint : !pl.tile<1x4096xbf16> to !pl.tile<1x4096xf32>
    %sum = scf.for %k = %c1 to %TOPK step %c1 iter_args(%acc = %acc0) -> (!pl.tile<1x4096xf32>) {
      %r = arith.addi %first, %k : index
      %y = pl.load %routed_y_buf[%r, 0] : !pld.dtensor<768x4096xbf16> -> !pl.tile<1x4096xbf16>
      %yf = pl.cast %y round rint : !pl.tile<1x4096xbf16> to !pl.tile<1x4096xf32>
      %next = pl.add %acc, %yf : !pl.tile<1x4096xf32>
      scf.yield %next : !pl.tile<1x4096xf32>
    }
    pl.store %sum, %routed_y[%t, 0] : !pl.tile<1x4096xf32>, memref<128x4096xf32>
  }
  return
}

// The orchestrator (PyPTO's chip_orch): the three kernels in order, each a
// launch the host waits for. Inputs first, then the host-backed outputs,
// the scratch, and the windows.
func.func @moe(%indices: memref<128x6xi32>, %x_norm: memref<128x4096xbf16>,
               %w_padded: memref<768x8xf32>, %idx_padded: memref<768x8xi32>,
               %recv_x_out: memref<3072x4096xbf16>, %recv_w_out: memref<16x192xf32>,
               %recv_idx_out: memref<16x192xi32>, %recv_count_out: memref<16x1xi32>,
               %recv_y: memref<3072x4096xbf16>, %routed_y: memref<128x4096xf32>,
               %scratch: memref<3x4x16xi32>,
               %pub_counts: !pld.dtensor<16x16xi32>, %count_done: !pld.dtensor<4x1xi32>,
               %recv_x: !pld.dtensor<3072x4096xbf16>, %recv_w: !pld.dtensor<3072x8xf32>,
               %recv_idx: !pld.dtensor<3072x8xi32>, %data_done: !pld.dtensor<4x1xi32>,
               %routed_y_buf: !pld.dtensor<768x4096xbf16>, %combine_done: !pld.dtensor<4x1xi32>)
    attributes {pl.kernel = #pl.kernel<host>} {
  func.call @dispatch(%indices, %x_norm, %w_padded, %idx_padded, %recv_x_out, %recv_w_out,
                      %recv_idx_out, %recv_count_out, %scratch, %pub_counts, %count_done,
                      %recv_x, %recv_w, %recv_idx, %data_done)
      : (memref<128x6xi32>, memref<128x4096xbf16>, memref<768x8xf32>, memref<768x8xi32>,
         memref<3072x4096xbf16>, memref<16x192xf32>, memref<16x192xi32>, memref<16x1xi32>,
         memref<3x4x16xi32>, !pld.dtensor<16x16xi32>, !pld.dtensor<4x1xi32>,
         !pld.dtensor<3072x4096xbf16>, !pld.dtensor<3072x8xf32>, !pld.dtensor<3072x8xi32>,
         !pld.dtensor<4x1xi32>) -> ()
  func.call @local_expert(%recv_x_out, %recv_w_out, %recv_count_out, %recv_y)
      : (memref<3072x4096xbf16>, memref<16x192xf32>, memref<16x1xi32>, memref<3072x4096xbf16>) -> ()
  func.call @combine(%recv_y, %recv_idx_out, %routed_y, %pub_counts, %routed_y_buf, %combine_done)
      : (memref<3072x4096xbf16>, memref<16x192xi32>, memref<128x4096xf32>, !pld.dtensor<16x16xi32>,
         !pld.dtensor<768x4096xbf16>, !pld.dtensor<4x1xi32>) -> ()
  return
}
