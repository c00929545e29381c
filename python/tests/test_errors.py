"""Front-end errors are FrontendErrors at the Python line of the mistake."""

import pytest

import pld
from pld import pl

from conftest import line_of

HERE = __file__


def raises_at(kernel, marker, match):
    with pytest.raises(pld.FrontendError, match=match) as info:
        kernel.description()
    message = str(info.value)
    where = f"{HERE}:{line_of(HERE, marker)}:"
    assert message.startswith(where), (message, where)
    return message


@pl.jit.incore
def unknown_name(signal: pld.DistributedTensor[[1, 1], pl.INT32]):
    pld.system.notify(signal, peer=no_such_peer, offsets=[0, 0], value=1, op=pld.NotifyOp.Set)  # E:unknown


def test_unknown_name():
    raises_at(unknown_name, "# E:unknown", "unknown name no_such_peer")


@pl.jit.incore
def wrong_keyword(signal: pld.DistributedTensor[[1, 1], pl.INT32]):
    pld.system.wait(signal, offsets=[0, 0], expect=1, cmp=pld.WaitCmp.Ge)  # E:keyword


def test_wrong_keyword():
    raises_at(wrong_keyword, "# E:keyword", r"pld.system.wait has no argument 'expect' \(did you mean expected\?\)")


@pl.jit.incore
def missing_op(signal: pld.DistributedTensor[[1, 1], pl.INT32]):
    pld.system.notify(signal, 0, [0, 0], 1)  # E:missing


def test_missing_keyword_only_argument():
    raises_at(missing_op, "# E:missing", "missing a required argument: 'op'")


@pl.jit.incore
def unsupported(n: pl.Scalar[pl.INT32]):
    while n > 0:  # E:while
        pass


def test_unsupported_construct():
    raises_at(unsupported, "# E:while", "while loops are not supported")


@pl.jit.incore
def wrong_enum(signal: pld.DistributedTensor[[1, 1], pl.INT32]):
    pld.system.wait(signal, [0, 0], 1, cmp=pld.NotifyOp.Set)  # E:enum


def test_wrong_enum():
    raises_at(wrong_enum, "# E:enum", "cmp must be one of WaitCmp.Eq, WaitCmp.Ge")


@pl.jit.incore
def plain_tensor_signal(signal: pl.Tensor[[1, 1], pl.INT32]):
    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)  # E:plain


def test_plain_tensor_is_not_a_window():
    raises_at(plain_tensor_signal, "# E:plain", "signal must be a pld.DistributedTensor")


@pl.jit.incore
def loop_local(data: pld.DistributedTensor[[1, 64], pl.FP32], n: pl.Scalar[pl.INT32]):
    for peer in pl.range(n):
        t = pld.tile.remote_load(data, peer, [0, 0], [1, 64])
    pld.tile.remote_store(t, data, 0, [0, 0])  # E:local


def test_value_defined_only_inside_a_loop():
    raises_at(loop_local, "# E:local", "t is assigned inside the pl.range loop")


@pl.jit
def task_local(signal: pld.DistributedTensor[[1, 1], pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="t"):
        v = pl.read(signal, [0, 0])
    pl.write(signal, [0, 0], v)  # E:task


def test_value_does_not_leave_a_task():
    raises_at(task_local, "# E:task", "v is assigned inside the task")


@pl.jit.incore
def pipeline_without_chunks(d: pld.DistributedTensor[[8, 128], pl.FP32]):
    pld.tensor.put(d, 0, d, pipeline=True)  # E:pipeline


def test_pipeline_needs_chunks():
    raises_at(pipeline_without_chunks, "# E:pipeline", "pipeline=True requires")
    with pytest.raises(ValueError):  # the seed documents a ValueError
        pipeline_without_chunks.description()


@pl.jit.incore
def no_annotation(x):  # E:annotation
    pass


def test_parameter_needs_a_type():
    raises_at(no_annotation, "# E:annotation", "parameter x needs a type")


@pl.jit.incore
def range_outside_for(n: pl.Scalar[pl.INT32]):
    r = pl.range(n)  # E:range


def test_pl_range_outside_for():
    raises_at(range_outside_for, "# E:range", "only meaningful as the iterable of a for loop")


@pl.jit.incore
def mismatched_branches(flag: pl.Scalar[pl.INT32], d: pld.DistributedTensor[[1, 64], pl.FP32]):
    t = pl.load(d, [0, 0], [1, 64])
    if flag > 0:  # E:branches
        t = pl.load(d, [0, 0], [1, 32])
    pld.tile.remote_store(t, d, 0, [0, 0])


def test_branches_must_agree_on_types():
    raises_at(mismatched_branches, "# E:branches", "changes type")


@pl.jit.incore
def mismatched_tiles(d: pld.DistributedTensor[[1, 64], pl.FP32]):
    a = pl.load(d, [0, 0], [1, 64])
    b = pl.load(d, [0, 0], [1, 32])
    c = a + b  # E:tiles


def test_tile_math_needs_one_type():
    raises_at(mismatched_tiles, "# E:tiles", "pl.add combines tiles of one type")


def test_marker_called_outside_names_the_kernel_way():
    with pytest.raises(pld.Error, match="pld.system.wait"):
        pld.system.wait(None, [0, 0], 1, cmp=pld.WaitCmp.Ge)


@pl.jit.incore
def scalar_of_another_type(a: pl.Tensor[[1, 64], pl.FP32], k: pl.Scalar[pl.INT32]):
    x = pl.load(a, [0, 0], [1, 64])
    y = x - k  # E:scalar-type
    pl.store(y, a, [0, 0])


def test_a_scalar_of_another_type_is_an_error_at_its_line():
    raises_at(scalar_of_another_type, "# E:scalar-type", r"the scalar must be f32, got a value of type i32")


@pl.jit
def group_of_a_name(out: pl.Out[pl.Tensor[[1, 1], pl.INT32]]):
    buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32, ranks="0,1")  # E:ranks
    pld.window(buf, [1, 1], dtype=pl.INT32)


def test_group_ranks_must_be_a_list_of_ints():
    raises_at(group_of_a_name, "# E:ranks", r"ranks must be a list of world ranks \(ints\), got")


@pl.jit
def group_of_two(out: pl.Out[pl.Tensor[[1, 1], pl.INT32]]):
    buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32, ranks=[0, 2])
    pld.window(buf, [1, 1], dtype=pl.INT32)


def test_group_ranks_reach_the_op():
    """The near miss: a list of ints is the op's `ranks` attribute."""
    import json
    assert '"ranks": {"ints": [0, 2]}' in json.dumps(group_of_two.description())
