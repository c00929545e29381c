"""`import pld` gives the seed's namespaces; markers only work in kernels."""

import pytest

import pld
from pld import pl


def test_seed_namespaces():
    for name in ("world_size", "get_comm_ctx", "rank", "nranks", "notify", "wait", "defer_wait"):
        assert callable(getattr(pld.system, name))
    for name in ("window", "alloc_window_buffer", "remote_store", "put", "get", "allreduce",
                 "reduce_scatter", "allgather", "broadcast", "barrier", "all_to_all",
                 "all_to_all_v"):
        assert callable(getattr(pld.tensor, name))
    assert callable(pld.tile.remote_load) and callable(pld.tile.remote_store)
    # The short forms of the 2-segment table.
    assert pld.rank is pld.system.rank and pld.nranks is pld.system.nranks
    assert pld.get_comm_ctx is pld.system.get_comm_ctx and pld.world_size is pld.system.world_size
    assert pld.window is pld.tensor.window and pld.alloc_window_buffer is pld.tensor.alloc_window_buffer
    assert pld.remote_load is pld.tile.remote_load and callable(pld.remote_store)
    # No short form for notify, wait, put, ... (the seed's rule).
    assert not hasattr(pld, "notify") and not hasattr(pld, "put")


def test_enums():
    assert {m.name for m in pld.NotifyOp} == {"AtomicAdd", "Set"}
    assert {m.name for m in pld.WaitCmp} == {"Eq", "Ge"}
    assert {m.name for m in pld.ReduceOp} == {"Sum", "Max", "Min", "Prod"}
    assert {m.name for m in pld.AtomicType} == {"None_", "Add"}
    assert pl.Level.CORE_GROUP.keyword == "core_group"


def test_pl_namespace():
    import pld.pl as pl_module
    assert pl is pl_module and pld.pl is pl
    for name in ("INT8", "INT16", "INT32", "INT64", "FP16", "BF16", "FP32", "INDEX"):
        assert getattr(pl, name).name == name
    assert pl.INT32.get_byte() == 4
    for name in ("range", "load", "store", "read", "write", "add", "sub", "mul", "max", "min", "matmul",
                 "at", "spmd", "split_aiv", "get_block_idx", "get_aiv_id"):
        assert callable(getattr(pl, name))


def test_types():
    t = pl.Tensor[[1, 64], pl.FP32]
    assert t.mlir_type == {"memref": [1, 64], "element": {"float": "f32"}}
    d = pld.DistributedTensor[[2, 1], pl.INT32]
    assert d.mlir_type == {"dtensor": [2, 1], "element": {"int": 32}}
    assert pl.Out[t].direction == "out" and pl.InOut[d].direction == "inout"
    assert pl.Scalar[pl.INT32].mlir_type == {"int": 32}
    with pytest.raises(TypeError):
        pl.Tensor[[1, 64]]


def test_markers_raise_outside_a_kernel():
    with pytest.raises(pld.Error, match="only has a meaning inside"):
        pld.system.notify(None, 0, [0], 1, op=pld.NotifyOp.Set)
    with pytest.raises(pld.Error):
        pl.load(None, [0, 0], [1, 1])


def test_errors_hierarchy():
    for cls in (pld.FrontendError, pld.VerifyError, pld.DeadlockError, pld.RaceError, pld.TrapError):
        assert issubclass(cls, pld.Error)


def test_kernel_is_not_called_directly():
    @pl.jit.incore
    def k(x: pl.Scalar[pl.INT32]):
        pass

    assert isinstance(k, pld.Kernel) and k.kind == "incore"
    with pytest.raises(pld.Error, match="pld.run"):
        k(1)

    @pl.jit
    def h(x: pl.Scalar[pl.INT32]):
        pass

    assert h.kind == "host"
