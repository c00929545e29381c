"""`pld.tensor.*`: window buffers, tensor-level RMA and the collectives."""

from .enums import AtomicType, ReduceOp
from .markers import marker


@marker("pld.tensor.alloc_window_buffer")
def alloc_window_buffer(size=None, *, shape=None, dtype=None, name=None, ranks=None):
    """A per-rank window buffer of `size` bytes, or of `shape` x `dtype`
    (a list as the first argument is a shape). `name` is the assignment's
    target unless given. With `ranks` (world ranks, ascending) the buffer
    belongs to that comm group: only its members use windows over it, and
    rank, nranks and peers through them are the group's."""


@marker("pld.tensor.window")
def window(buf, shape, *, dtype):
    """View a window buffer as a DistributedTensor of `shape` and `dtype`."""


@marker("pld.tensor.remote_store")
def remote_store(src, target, peer, offsets, *, atomic=AtomicType.None_):
    """Write a local tensor into rank `peer`'s `target` at `offsets`."""


@marker("pld.tensor.put")
def put(dst, peer, src, dst_offsets=None, src_offsets=None, shape=None, *,
        atomic=AtomicType.None_, chunk_rows=0, chunk_cols=0, pipeline=False, engine=None):
    """Write local `src` into rank `peer`'s `dst`."""


@marker("pld.tensor.get")
def get(dst, peer, src, dst_offsets=None, src_offsets=None, shape=None, *,
        chunk_rows=0, chunk_cols=0, pipeline=False, engine=None):
    """Read rank `peer`'s `src` into local `dst`."""


@marker("pld.tensor.allreduce")
def allreduce(target, signal, op=ReduceOp.Sum, *, mode=None, algorithm=None, core_num=None,
              epoch=None, workspace=None):
    """Reduce `target` across all ranks in place; returns the target. With
    `epoch` (this call's number: 1, then one more per call on the signal)
    and `workspace` (a [2, L] window tensor), one synchronisation per call."""


@marker("pld.tensor.reduce_scatter")
def reduce_scatter(target, signal, op=ReduceOp.Sum, *, algorithm=None, core_num=None):
    """Row r of every rank's [N, SIZE] target reduced onto rank r."""


@marker("pld.tensor.allgather")
def allgather(local, target, signal, *, algorithm=None, core_num=None):
    """Every rank's [1, SIZE] `local` row into row r of every `target`."""


@marker("pld.tensor.broadcast")
def broadcast(target, signal, root, *, algorithm=None, core_num=None):
    """Copy rank `root`'s target to every rank."""


@marker("pld.tensor.barrier")
def barrier(signal):
    """No rank leaves before every rank has arrived."""


@marker("pld.tensor.all_to_all")
def all_to_all(input, target, signal, *, algorithm=None, core_num=None):
    """Row d of rank r's `input` lands in row r of rank d's `target`."""


@marker("pld.tensor.all_to_all_v")
def all_to_all_v(input, target, signal, send_counts, recv_counts, *, algorithm=None):
    """all_to_all with per-destination counts (MPI_Alltoallv): row d of
    `input` into row r of rank d's `target`, and `send_counts[d]` (clamped
    to the row's length) into rank d's `recv_counts[r]`."""
