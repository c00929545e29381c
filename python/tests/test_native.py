"""End to end through pld._native: the module text, pld-verify, the CCE
lowering and runs on simulated ranks, with failures reported at the Python
line. Skipped where the extension is not built."""

import numpy as np
import pytest

import pld
from pld import pl

from conftest import line_of, needs_native

pytestmark = needs_native
HERE = __file__


def test_mlir_text():
    import handshake
    text = handshake.handshake_step.mlir()
    assert "func.func @handshake_step" in text
    assert "pld.system.notify" in text and "#pl.kernel<incore>" in text
    located = handshake.handshake_step.mlir(debug_info=True)
    assert "handshake.py" in located


def test_handshake_runs():
    import handshake
    outputs = pld.run(handshake.handshake_step, ranks=2, peer=[1, 0], tag=[2, 1])
    assert [o["out"].tolist() for o in outputs] == [[[1]], [[2]]]
    # The window is an output too; the scalar inputs are not.
    assert set(outputs[0]) == {"out", "signal"}


def test_handshake_verifies_and_lowers():
    import handshake
    diagnostics = pld.verify(handshake.handshake_step, ranks=[2])
    assert all(d["severity"] != "error" for d in diagnostics)
    assert "handshake_step" in pld.to_cce(handshake.handshake_step)


def test_a_zero_tag_hangs():
    import handshake
    with pytest.raises((pld.DeadlockError, pld.VerifyError)):
        pld.run(handshake.handshake_step, ranks=2, peer=[1, 0], tag=[0, 0], verify=False, timeout=20)


# A protocol bug: rank 1 loads the row rank 0 pushes before the wait that
# orders the push.
@pl.jit.incore
def publish_early(data: pl.InOut[pld.DistributedTensor[[2, 64], pl.FP32]],
                  sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
    me = pld.rank(pld.get_comm_ctx(sig))
    if me == 0:
        row = pl.load(data, [0, 0], [1, 64])
        pld.tile.remote_store(row, data, 1, [1, 0])  # L:store
        pld.system.notify(sig, 1, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
    else:
        got = pl.load(data, [1, 0], [1, 64])  # L:early-load
        pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pl.store(got, data, [0, 0])


def test_protocol_bug_is_reported_at_the_python_line_by_verify():
    with pytest.raises(pld.VerifyError) as info:
        pld.verify(publish_early, ranks=[2])
    report = str(info.value)
    lines = {line_of(HERE, "# L:store"), line_of(HERE, "# L:early-load")}
    assert any(f"{HERE}:{n}:" in report for n in lines), report
    assert info.value.diagnostics
    # The race names the window by the Python parameter.
    assert "rank 1's argument 'data' of @publish_early" in report, report


def test_protocol_bug_is_reported_at_the_python_line_by_run():
    with pytest.raises(pld.VerifyError):
        pld.run(publish_early, ranks=2)  # pld-verify in the lowering refuses it
    with pytest.raises(pld.RaceError) as info:
        pld.run(publish_early, ranks=2, sanitize="race", verify=False)
    report = str(info.value)
    assert f"{HERE}:{line_of(HERE, '# L:early-load')}:" in report, report
    assert f"{HERE}:{line_of(HERE, '# L:store')}:" in report, report


def test_arguments_per_rank_and_callables():
    import remote_accumulate as ra
    outputs = pld.run(ra.remote_accumulate, ranks=2, data=lambda r: np.full((1, ra.SIZE), r + 1.0))
    for o in outputs:
        assert np.all(o["out"] == 3.0)


def test_unknown_argument_is_refused():
    import handshake
    with pytest.raises(TypeError, match="no parameter"):
        pld.run(handshake.handshake_step, ranks=2, peers=[1, 0])


@pl.jit.incore
def tagged_step(out: pl.Out[pl.Tensor[[1, 1], pl.INT32]],
                signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]):
    me = pld.rank(pld.get_comm_ctx(signal))
    pld.system.notify(signal, peer=1 - me, offsets=[0, 0], value=me + 10, op=pld.NotifyOp.Set)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    pl.write(out, [0, 0], pl.read(signal, [0, 0]))


@pl.jit
def orchestrate(out: pl.Out[pl.Tensor[[1, 1], pl.INT32]]):
    buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    signal = pld.window(buf, [1, 1], dtype=pl.INT32)
    tagged_step(out, signal)


def test_host_orchestrator_allocates_a_window_and_calls_a_kernel():
    text = orchestrate.mlir()
    assert 'pld.tensor.alloc_window_buffer "buf"' in text and "call @tagged_step" in text
    outputs = pld.run(orchestrate, ranks=2, sanitize="race")
    assert [o["out"].tolist() for o in outputs] == [[[11]], [[10]]]


def test_verify_returns_remarks():
    import deferred_completion
    diagnostics = pld.verify(deferred_completion.deferred_exchange)
    assert diagnostics and all(d["severity"] in ("warning", "remark", "note") for d in diagnostics)
    assert diagnostics[0]["file"].endswith("deferred_completion.py")


def test_timing():
    import handshake
    outputs = pld.run(handshake.handshake_step, ranks=2, peer=[1, 0], tag=[2, 1], timing=True)
    assert "modelled time" in outputs.timing


def test_every_kernel_of_the_description_tests_builds():
    """The descriptions the front end writes are what the native builder takes."""
    import test_description
    kernels = [k for k in vars(test_description).values() if isinstance(k, pld.Kernel)]
    assert len(kernels) >= 8
    for kernel in kernels:
        assert f"func.func @{kernel.name}" in kernel.mlir()


@pl.jit.incore
def scaled_difference(a: pl.Tensor[[2, 64], pl.FP32], out: pl.Out[pl.Tensor[[2, 64], pl.FP32]],
                      k: pl.Scalar[pl.FP32]):
    x = pl.load(a, [0, 0], [2, 64])
    acc = pl.full([2, 64], pl.FP32, 1.0)
    for _ in pl.range(3):
        acc = acc + x * k
    pl.store(pl.mins(acc - x, 100.0), out, [0, 0])


def test_tile_scalar_math_runs():
    a = np.arange(128, dtype=np.float32).reshape(2, 64) / 8
    outputs = pld.run(scaled_difference, ranks=2, a=a, k=[0.5, 2.0])
    for k, o in zip([0.5, 2.0], outputs):
        assert np.allclose(o["out"], np.minimum(1 + 3 * a * k - a, 100.0))


@pl.jit.incore
def to_half(a: pl.Tensor[[1, 16], pl.FP32], rounded: pl.Out[pl.Tensor[[2, 16], pl.FP16]],
            truncated: pl.Out[pl.Tensor[[1, 16], pl.INT32]]):
    x = pl.load(a, [0, 0], [1, 16])
    pl.store(pl.cast(x, pl.FP16, mode="rint"), rounded, [0, 0])
    pl.store(pl.cast(x, pl.FP16, "ceil"), rounded, [1, 0])
    pl.store(pl.cast(x, pl.INT32, 0), truncated, [0, 0])


def test_cast_rounds_by_its_mode():
    a = np.array([1024.5, 1024.25, -1024.5, 2.75] * 4, dtype=np.float32)
    (out,) = pld.run(to_half, ranks=1, a=a)
    assert out["rounded"][0, :4].tolist() == [1024, 1024, -1024, 2.75]
    assert out["rounded"][1, :4].tolist() == [1025, 1025, -1024, 2.75]
    assert out["truncated"][0, :4].tolist() == [1024, 1024, -1024, 2]


@pl.jit.incore
def first_row(a: pl.Tensor[[None, 64], pl.FP32], out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    pl.store(pl.load(a, [0, 0], [1, 64]), out, [0, 0])


def test_a_dynamic_argument_takes_its_array_shape():
    a = np.arange(3 * 64, dtype=np.float32).reshape(3, 64)
    (out,) = pld.run(first_row, ranks=1, a=a)
    assert out["out"][0].tolist() == a[0].tolist()


@pl.jit.incore
def repeated_sums(data: pl.InOut[pld.DistributedTensor[[1, 256], pl.FP32]],
                  sig: pl.InOut[pld.DistributedTensor[[3, 2], pl.INT32]],
                  ws: pl.InOut[pld.DistributedTensor[[2, 256], pl.FP32]],
                  first: pl.Scalar[pl.INDEX]):
    for k in pl.range(3):
        pld.tensor.allreduce(data, sig, pld.ReduceOp.Sum, epoch=first + k, workspace=ws)


def test_allreduce_with_an_epoch_synchronises_once_per_call():
    data = [np.full((1, 256), r + 1, dtype=np.float32) for r in range(3)]
    outputs = pld.run(repeated_sums, ranks=3, sanitize="race", data=data, first=1)
    # 1 + 2 + 3, three times over: 6 * 3 * 3.
    assert all((o["data"] == 54).all() for o in outputs)
    assert "epoch" in repeated_sums.mlir()
    # Epochs count from 1: with 0 the first call's waits hold on a zeroed
    # signal, before any peer has published its data.
    with pytest.raises(pld.RaceError):
        pld.run(repeated_sums, ranks=3, sanitize="race", data=data, first=0, verify=False)


@pl.jit.incore
def exchange(rows: pl.Tensor[[3, 64], pl.FP32], out: pl.InOut[pld.DistributedTensor[[3, 64], pl.FP32]],
             sig: pl.InOut[pld.DistributedTensor[[3], pl.INT32]], send: pl.Tensor[[3], pl.INT32],
             recv: pl.InOut[pld.DistributedTensor[[3], pl.INT32]]):
    pld.tensor.all_to_all_v(rows, out, sig, send, recv)


def test_all_to_all_v_publishes_the_counts():
    rows = [np.full((3, 64), r, dtype=np.float32) for r in range(3)]
    send = [np.array([10 * d + r for d in range(3)], dtype=np.int32) for r in range(3)]
    send[2][0] = 100  # past the row's 64: clamped
    outputs = pld.run(exchange, ranks=3, sanitize="race", rows=rows, send=send)
    for d, o in enumerate(outputs):
        assert o["out"][:, 0].tolist() == [0, 1, 2]
        assert o["recv"].tolist() == [min(int(send[r][d]), 64) for r in range(3)]


# PyPTO's self-notify credit reset (tests/st/distributed/
# test_l3_self_notify_credit_reset.py): four credits to the next rank, a
# wait for four of our own, then -4 to ourselves, so that every persistent
# call starts from 0; with `take_back=0` the credits stay in the window.
@pl.jit.incore
def credit_reset(signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
                 out: pl.Out[pl.Tensor[[1, 1], pl.INT32]], take_back: pl.Scalar[pl.INT32]):
    ctx = pld.get_comm_ctx(signal)
    me = pld.rank(ctx)
    nxt = (me + 1) % pld.nranks(ctx)
    for _ in pl.range(4):
        pld.system.notify(signal, peer=nxt, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=4, cmp=pld.WaitCmp.Ge)
    pld.system.notify(signal, peer=me, offsets=[0, 0], value=take_back, op=pld.NotifyOp.AtomicAdd)
    pl.write(out, [0, 0], pl.read(signal, [0, 0]))


def test_persistent_calls_keep_the_windows():
    outputs = pld.run(credit_reset, ranks=2, launches=3, sanitize="race", take_back=-4)
    assert [o["out"].tolist() for o in outputs] == [[[0]], [[0]]]
    # The credits kept: the next call's wait is met by the last call's, and
    # its read of the cell races with the new ones.
    with pytest.raises(pld.RaceError):
        pld.run(credit_reset, ranks=2, launches=2, sanitize="race", verify=False, take_back=0)
    outputs = pld.run(credit_reset, ranks=2, launches=2, reset_windows=True, sanitize="race",
                      verify=False, take_back=0)
    assert [o["out"].tolist() for o in outputs] == [[[4]], [[4]]]
    with pytest.raises(pld.Error):
        pld.run(credit_reset, ranks=2, reset_windows=True, take_back=-4)
