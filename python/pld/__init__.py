"""pld: the seed's distributed primitives in Python, on the pld MLIR dialects.

    import pld
    from pld import pl

    @pl.jit.incore
    def kernel(signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], ...):
        pld.system.notify(signal, peer=..., offsets=[0, 0], value=1, op=pld.NotifyOp.Set)

    pld.run(kernel, ranks=2, ...)

See docs/python.md.
"""

from . import pl, system, tensor, tile
from .annotations import DistributedTensor
from .api import run, to_cce, verify
from .enums import AtomicType, NotifyOp, ReduceOp, WaitCmp
from .errors import DeadlockError, Error, FrontendError, RaceError, TrapError, VerifyError
from .kernel import Kernel
from .markers import marker as _marker

# The 2-segment short forms of the seed's table.
world_size = system.world_size
world_rank = system.world_rank
rank = system.rank
nranks = system.nranks
get_comm_ctx = system.get_comm_ctx
alloc_window_buffer = tensor.alloc_window_buffer
window = tensor.window
remote_load = tile.remote_load


@_marker("pld.remote_store")
def remote_store(src, target, peer, offsets, *, atomic=AtomicType.None_):
    """`pld.tile.remote_store` for a tile `src`, `pld.tensor.remote_store` for a tensor."""


__all__ = [
    "pl", "system", "tensor", "tile", "DistributedTensor", "Kernel",
    "NotifyOp", "WaitCmp", "ReduceOp", "AtomicType",
    "Error", "FrontendError", "VerifyError", "DeadlockError", "RaceError", "TrapError",
    "verify", "to_cce", "run",
    "world_size", "world_rank", "rank", "nranks", "get_comm_ctx", "alloc_window_buffer", "window",
    "remote_load", "remote_store",
]
