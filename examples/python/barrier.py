"""The seed's "Barrier in Isolation", inside a kernel that derives my_rank and
nranks from the signal's comm context.

Every rank bumps its own row in every peer's signal, then waits for every
peer's row: afterwards row i of rank r's signal is 1 for every i != r.

    python examples/python/barrier.py
"""

import numpy as np

import pld
from pld import pl

NR = 8


@pl.jit.incore
def barrier(signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
    ctx = pld.get_comm_ctx(signal)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)

    # signal: pld.DistributedTensor[[NR, 1], pl.INT32]
    for peer in pl.range(nranks):
        if peer != my_rank:
            pld.system.notify(
                signal, peer=peer, offsets=[my_rank, 0],
                value=1, op=pld.NotifyOp.AtomicAdd,
            )
    for src in pl.range(nranks):
        if src != my_rank:
            pld.system.wait(
                signal, offsets=[src, 0],
                expected=1, cmp=pld.WaitCmp.Ge,
            )


def main():
    outputs = pld.run(barrier, ranks=NR, sanitize="race")
    for r, o in enumerate(outputs):
        expected = (np.arange(NR) != r).astype(np.int32).reshape(NR, 1)
        assert (o["signal"] == expected).all(), (r, o["signal"])
    print(f"barrier on {NR} ranks: every peer's row arrived")
    return outputs


if __name__ == "__main__":
    main()
