#!/usr/bin/env python3
"""Writes a synthetic pld module with N barrier kernels (notify/wait loops,
remote accumulate, a deferred exchange each) for timing pld-verify."""

import sys

KERNEL = """
func.func @kernel{i}(%signal: !pld.dtensor<8x1xi32>, %data: !pld.dtensor<1x256xf32>, %out: memref<1x256xf32>)
    attributes {{pl.kernel = #pl.kernel<incore>}} {{
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<8x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %peer = %c0 to %n step %c1 {{
    pld.system.notify %signal[%me, 0], peer %peer, value %one, op atomic_add : !pld.dtensor<8x1xi32>
  }}
  scf.for %src = %c0 to %n step %c1 {{
    pld.system.wait %signal[%src, 0], expected %one, cmp ge : !pld.dtensor<8x1xi32>
  }}
  %acc0 = pl.load %data[0, 0] : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
  %acc = scf.for %peer = %c0 to %n step %c1 iter_args(%a = %acc0) -> (!pl.tile<1x256xf32>) {{
    %t = pld.tile.remote_load %data[0, 0], peer %peer : !pld.dtensor<1x256xf32> -> !pl.tile<1x256xf32>
    %s = pl.add %a, %t : !pl.tile<1x256xf32>
    scf.yield %s : !pl.tile<1x256xf32>
  }}
  pl.store %acc, %out[0, 0] : !pl.tile<1x256xf32>, memref<1x256xf32>
  return
}}

func.func @host{i}(%signal: !pld.dtensor<8x1xi32>, %payload: !pld.dtensor<1x64xf32>,
                   %value: memref<1x64xf32>, %peer: index, %epoch: i32)
    attributes {{pl.kernel = #pl.kernel<host>}} {{
  %publish = pl.at level core_group name "publish" {{
    pld.tensor.remote_store %value, %payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<8x1xi32>
  }}
  %wait = pl.at level core_group name "payload_wait" {{
    pld.system.defer_wait %signal[0, 0], expected %epoch, cmp ge : !pld.dtensor<8x1xi32>
  }}
  %consume = pl.at level core_group name "consume" deps [%wait] {{
    %t = pl.load %payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>
  }}
  return
}}
"""

count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
sys.stdout.write("".join(KERNEL.format(i=i) for i in range(count)))
