"""The seed's "Remote Accumulate": load the local row, add the same row of
every peer's window, store the sum.

    python examples/python/remote_accumulate.py
"""

import numpy as np

import pld
from pld import pl

SIZE = 256
RANKS = 4


@pl.jit.incore
def remote_accumulate(
    data: pld.DistributedTensor[[1, SIZE], pl.FP32],
    out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
):
    ctx = pld.get_comm_ctx(data)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)

    acc = pl.load(data, [0, 0], [1, SIZE])
    for peer in pl.range(nranks):
        if peer != my_rank:
            peer_tile = pld.tile.remote_load(
                data, peer=peer, offsets=[0, 0], shape=[1, SIZE]
            )
            acc = pl.add(acc, peer_tile)

    pl.store(acc, out, [0, 0])


def rows(rank):
    return (rank * SIZE + np.arange(SIZE, dtype=np.float32)).reshape(1, SIZE)


def main():
    outputs = pld.run(remote_accumulate, ranks=RANKS, sanitize="race", data=rows)
    expected = sum(rows(r) for r in range(RANKS))
    for o in outputs:
        assert np.array_equal(o["out"], expected), o["out"]
    print(f"remote accumulate on {RANKS} ranks: out[0, :4] =", outputs[0]["out"][0, :4])
    return outputs


if __name__ == "__main__":
    main()
