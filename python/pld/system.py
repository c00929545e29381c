"""`pld.system.*`: the system substrate (comm context, rank, signals)."""

from .markers import marker


@marker("pld.system.world_size")
def world_size():
    """Host only: the number of ranks (INT64)."""


@marker("pld.system.world_rank")
def world_rank():
    """Host only: this rank among all world_size ranks (INDEX)."""


@marker("pld.system.get_comm_ctx")
def get_comm_ctx(dist_tensor):
    """The communication context of a DistributedTensor."""


@marker("pld.system.rank")
def rank(ctx):
    """InCore only: this rank's index (INT32)."""


@marker("pld.system.nranks")
def nranks(ctx):
    """InCore only: the number of ranks of the comm group (INT32)."""


@marker("pld.system.notify")
def notify(target, peer, offsets, value, *, op):
    """Deposit `value` into `target[offsets]` of rank `peer` (NotifyOp.Set / AtomicAdd)."""


@marker("pld.system.wait")
def wait(signal, offsets, expected, *, cmp):
    """Block until the local `signal[offsets]` satisfies `cmp(expected)`."""


@marker("pld.system.defer_wait")
def defer_wait(signal, offsets, expected, *, cmp):
    """Register `signal[offsets] >= expected` as a completion condition of the enclosing task."""
