"""Two overlapping communicator groups, run on 3 ranks: PyPTO's multi-group
peer swap (hw-native-sys/pypto tests/st/distributed/test_l3_multi_group.py).

Group A is ranks {0, 1}, group B ranks {1, 2}; rank 1 is in both. Each group
has window buffers of its own. In a group, a rank stages its input in its
window, signals the other member, waits for its signal and reads its row;
the rank and the peer are the group's.

    python examples/python/comm_groups.py
"""

import numpy as np

import pld
from pld import pl

SIZE = 64


@pl.jit.incore
def swap_step(
    inp: pl.Tensor[[1, SIZE], pl.FP32],
    out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    scratch: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
    signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
):
    peer = 1 - pld.rank(pld.get_comm_ctx(signal))
    pl.store(pl.load(inp, [0, 0], [1, SIZE]), scratch, [0, 0])
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    pl.store(pld.tile.remote_load(scratch, peer=peer, offsets=[0, 0], shape=[1, SIZE]), out, [0, 0])


@pl.jit
def two_groups(
    inp: pl.Tensor[[1, SIZE], pl.FP32],
    out_a: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    out_b: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
):
    scratch_a = pld.window(pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32, ranks=[0, 1]),
                           [1, SIZE], dtype=pl.FP32)
    signal_a = pld.window(pld.alloc_window_buffer([1, 1], dtype=pl.INT32, ranks=[0, 1]),
                          [1, 1], dtype=pl.INT32)
    scratch_b = pld.window(pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32, ranks=[1, 2]),
                           [1, SIZE], dtype=pl.FP32)
    signal_b = pld.window(pld.alloc_window_buffer([1, 1], dtype=pl.INT32, ranks=[1, 2]),
                          [1, 1], dtype=pl.INT32)
    me = pld.world_rank()
    if me <= 1:
        swap_step(inp, out_a, scratch_a, signal_a)
    if me >= 1:
        swap_step(inp, out_b, scratch_b, signal_b)


def main():
    inputs = [np.full((1, SIZE), 10.0 + r, dtype=np.float32) for r in range(3)]
    outputs = pld.run(two_groups, ranks=3, sanitize="race", inp=inputs)
    got_a = [float(o["out_a"][0, 0]) for o in outputs]
    got_b = [float(o["out_b"][0, 0]) for o in outputs]
    print("out_a:", got_a, "out_b:", got_b)
    # The test's golden: A swaps ranks 0 and 1, B ranks 1 and 2.
    assert got_a == [11.0, 10.0, 0.0], got_a
    assert got_b == [0.0, 12.0, 11.0], got_b
    return outputs


if __name__ == "__main__":
    main()
