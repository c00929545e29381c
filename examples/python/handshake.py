"""The seed's signal handshake ("Notify & Wait"), run on 2 ranks.

Rank 0 writes tag 2 into rank 1's signal cell, rank 1 writes tag 1 into rank
0's; each waits for its own cell and reads the tag it received back out.

    python examples/python/handshake.py
"""

import pld
from pld import pl


@pl.jit.incore
def handshake_step(
    out: pl.Out[pl.Tensor[[1, 1], pl.INT32]],
    signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
    peer: pl.Scalar[pl.INT32],
    tag: pl.Scalar[pl.INT32],
) -> pl.Tensor[[1, 1], pl.INT32]:
    # 1. Write our tag into the peer's signal cell.
    pld.system.notify(
        signal, peer=peer, offsets=[0, 0],
        value=tag, op=pld.NotifyOp.Set,
    )

    # 2. Wait until our own cell has been written.
    pld.system.wait(
        signal=signal, offsets=[0, 0],
        expected=1, cmp=pld.WaitCmp.Ge,
    )

    # 3. Read the received tag back out.
    received = pl.read(signal, [0, 0])
    pl.write(out, [0, 0], received)
    return out


def main():
    # Rank 0: peer 1, tag 2; rank 1: peer 0, tag 1.
    outputs = pld.run(handshake_step, ranks=2, sanitize="race", peer=[1, 0], tag=[2, 1])
    received = [o["out"].tolist() for o in outputs]
    print("outputs:", received)
    assert received == [[[1]], [[2]]], received
    return outputs


if __name__ == "__main__":
    main()
