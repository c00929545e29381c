#!/usr/bin/env python3
"""Writes a synthetic pld module of N kernels for the lowering benchmark:
each kernel runs a mesh or ring allreduce, a reduce_scatter, a pipelined
put, a chunked get and a barrier, on shapes that vary with the kernel."""

import sys

KERNEL = """
func.func @kernel{i}(%data: !pld.dtensor<1x{size}xf32>, %rows: !pld.dtensor<4x{width}xf32>,
                    %mesh: !pld.dtensor<4x1xi32>, %ring: !pld.dtensor<6x4xi32>,
                    %big: !pld.dtensor<8x128xf32>, %local: memref<8x128xf32>, %peer: index)
    attributes {{pl.kernel = #pl.kernel<incore>}} {{
  %a = pld.tensor.allreduce %data, {signal}, op {op}{mode} : !pld.dtensor<1x{size}xf32>, {signal_type}
  %b = pld.tensor.reduce_scatter %rows, %mesh, op sum : !pld.dtensor<4x{width}xf32>, !pld.dtensor<4x1xi32>
  pld.tensor.put %big, peer %peer, %local chunk_rows 2 chunk_cols 64 pipeline : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  pld.tensor.get %local, peer %peer, %big chunk_rows 4 chunk_cols 48 : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  pld.tensor.barrier %mesh : !pld.dtensor<4x1xi32>
  return
}}
"""

OPS = ["sum", "max", "min", "prod"]

count = int(sys.argv[1])
for i in range(count):
    ring = i % 2 == 1
    print(
        KERNEL.format(
            i=i,
            size=17 + 37 * (i % 200),
            width=64 + 16 * (i % 8),
            op=OPS[i % 4],
            mode=" mode ring" if ring else "",
            signal="%ring" if ring else "%mesh",
            signal_type="!pld.dtensor<6x4xi32>" if ring else "!pld.dtensor<4x1xi32>",
        )
    )
