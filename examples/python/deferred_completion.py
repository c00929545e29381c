"""The seed's "Deferred Completion": a host orchestrator with three tasks.

Each rank publishes its payload into its peer's window and then the epoch
into its own row of the peer's signal; a dedicated waiter task registers
the peer's row with defer_wait; the consumer task depends on the waiter's
task id, so it loads the payload only once it has arrived. The last part is
the seed's inline SPMD consumer, on NUM_BLOCKS blocks.

    python examples/python/deferred_completion.py
"""

import numpy as np

import pld
from pld import pl

WIDTH = 64
NUM_BLOCKS = 8


@pl.jit
def deferred_exchange(
    signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
    peer_payload: pl.InOut[pld.DistributedTensor[[1, WIDTH], pl.FP32]],
    payload_value: pl.Tensor[[1, WIDTH], pl.FP32],
    received: pl.Out[pl.Tensor[[1, WIDTH], pl.FP32]],
    peer: pl.Scalar[pl.INT32],
    my_rank: pl.Scalar[pl.INT32],
    epoch: pl.Scalar[pl.INT32],
):
    # Each rank's publisher is independent: publish payload first, then the signal.
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="publish"):
        pld.tensor.remote_store(payload_value, peer_payload, peer, [0, 0])
        pld.system.notify(
            signal, peer=peer, offsets=[my_rank, 0],
            value=epoch, op=pld.NotifyOp.Set,
        )

    # Receiver: observe the peer publisher. There is deliberately no local
    # publisher -> waiter dependency; add deps only for real local ordering.
    with pl.at(
        level=pl.Level.CORE_GROUP,
        name_hint="payload_wait",
        allow_early_resolve=False,
    ) as wait_tid:
        pld.system.defer_wait(
            signal, offsets=[peer, 0], expected=epoch,
            cmp=pld.WaitCmp.Ge,
        )

    # The consumer is not dispatched until wait_tid is logically complete.
    with pl.at(
        level=pl.Level.CORE_GROUP,
        name_hint="consume_payload",
        deps=[wait_tid],
    ) as consume_tid:
        payload_tile = pl.load(peer_payload, [0, 0], [1, WIDTH])
        # ... consume payload_tile ...
        pl.store(payload_tile, received, [0, 0])


@pl.jit
def spmd_consumer(
    signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
    payload: pld.DistributedTensor[[NUM_BLOCKS, WIDTH], pl.FP32],
    out: pl.Out[pl.Tensor[[NUM_BLOCKS, WIDTH], pl.FP32]],
    peer: pl.Scalar[pl.INT32],
    epoch: pl.Scalar[pl.INT32],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="payload_wait") as wait_tid:
        pld.system.defer_wait(signal, offsets=[peer, 0], expected=epoch, cmp=pld.WaitCmp.Ge)

    # An inline SPMD consumer uses the captured form as well.
    with pl.spmd(
        NUM_BLOCKS,
        name_hint="consume_payload_spmd",
        deps=[wait_tid],
    ) as consume_tid:
        block = pl.get_block_idx()
        # ... each AIV block reads its payload partition ...
        part = pl.load(payload, [block, 0], [1, WIDTH])
        pl.store(part, out, [block, 0])


def payload(rank):
    return (rank * WIDTH + np.arange(WIDTH, dtype=np.float32)).reshape(1, WIDTH)


def main():
    outputs = pld.run(
        deferred_exchange, ranks=2, sanitize="race",
        payload_value=payload, peer=lambda r: 1 - r, my_rank=lambda r: r, epoch=7,
    )
    for r, o in enumerate(outputs):
        assert np.array_equal(o["received"], payload(1 - r)), (r, o["received"])
        expected_signal = np.array([[7], [0]] if r == 1 else [[0], [7]], dtype=np.int32)
        assert np.array_equal(o["signal"], expected_signal), (r, o["signal"])
    print("deferred completion on 2 ranks: each rank received its peer's payload")

    # The SPMD consumer, its waiter already satisfied (the signal row holds the epoch).
    rows = lambda r: r * NUM_BLOCKS * WIDTH + np.arange(NUM_BLOCKS * WIDTH, dtype=np.float32)
    outputs = pld.run(
        spmd_consumer, ranks=2, sanitize="race",
        signal=lambda r: np.array([[3 if i == 1 - r else 0] for i in range(2)]),
        payload=rows, peer=lambda r: 1 - r, epoch=3,
    )
    for r, o in enumerate(outputs):
        assert np.array_equal(o["out"].ravel(), rows(r)), (r, o["out"])
    print(f"SPMD consumer on {NUM_BLOCKS} blocks: each block copied its row")
    return outputs


if __name__ == "__main__":
    main()
