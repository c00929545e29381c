"""`pld.tile.*`: tile-level remote memory access."""

from .enums import AtomicType
from .markers import marker


@marker("pld.tile.remote_load")
def remote_load(target, peer, offsets, shape, valid_shape=None):
    """Load `shape` at `offsets` of rank `peer`'s `target` into a tile."""


@marker("pld.tile.remote_store")
def remote_store(src_tile, target, peer, offsets, *, atomic=AtomicType.None_, valid_shape=None):
    """Write a tile into rank `peer`'s `target` at `offsets`."""
