"""The `pl` namespace the seed's kernels use (`from pld import pl`).

Decorators (`pl.jit`, `pl.jit.incore`), parameter annotations, dtypes,
and the markers of tile work, scalar access and task scopes.
"""

from . import dtypes as _dtypes
from .annotations import InOut, Out, Scalar, Tensor
from .enums import Level, SplitMode
from .kernel import jit
from .markers import marker

INT8 = _dtypes.INT8
INT16 = _dtypes.INT16
INT32 = _dtypes.INT32
INT64 = _dtypes.INT64
FP16 = _dtypes.FP16
BF16 = _dtypes.BF16
FP32 = _dtypes.FP32
FP64 = _dtypes.FP64
BOOL = _dtypes.BOOL
INDEX = _dtypes.INDEX


@marker("pl.range")
def range(start, stop=None, step=1):
    """A loop over runtime bounds: `for i in pl.range(n)` becomes `scf.for`."""


@marker("pl.load")
def load(source, offsets, shape, valid_shape=None):
    """Load the region of `source` at `offsets` into a tile of `shape`."""


@marker("pl.store")
def store(tile, dest, offsets, valid_shape=None):
    """Store `tile` into `dest` at `offsets` (`pl.store(tile, offsets, dest)` also works)."""


@marker("pl.read")
def read(source, offsets):
    """Read one element of `source`."""


@marker("pl.write")
def write(dest, offsets, value):
    """Write one element of `dest`."""


@marker("pl.add")
def add(lhs, rhs):
    """Element-wise sum of two tiles, or of a tile and a scalar."""


@marker("pl.sub")
def sub(lhs, rhs):
    """Element-wise difference (lhs - rhs) of two tiles, or of a tile and a scalar."""


@marker("pl.mul")
def mul(lhs, rhs):
    """Element-wise product of two tiles, or of a tile and a scalar."""


@marker("pl.max")
def max(lhs, rhs):
    """Element-wise maximum of two tiles, or of a tile and a scalar."""


@marker("pl.min")
def min(lhs, rhs):
    """Element-wise minimum of two tiles, or of a tile and a scalar."""


@marker("pl.adds")
def adds(lhs, rhs):
    """Every element of a tile plus one scalar."""


@marker("pl.subs")
def subs(lhs, rhs):
    """Every element of a tile minus one scalar."""


@marker("pl.muls")
def muls(lhs, rhs):
    """Every element of a tile times one scalar."""


@marker("pl.maxs")
def maxs(lhs, rhs):
    """The maximum of every element of a tile and one scalar."""


@marker("pl.mins")
def mins(lhs, rhs):
    """The minimum of every element of a tile and one scalar."""


@marker("pl.full")
def full(shape, dtype, value):
    """A tile of `shape` and `dtype` whose every element is `value`."""


@marker("pl.expands")
def expands(target, scalar):
    """A tile of `target`'s type whose every element is `scalar`."""


@marker("pl.cast")
def cast(tile, target_type, mode="round"):
    """The tile converted to `target_type`, rounding by `mode` (PyPTO's:
    "none", "rint", "round", "floor", "ceil", "trunc", "odd", or 0-6)."""


@marker("pl.matmul")
def matmul(lhs, rhs):
    """[M, K] x [K, N] -> [M, N] on the cube."""


@marker("pl.at")
def at(level=Level.CORE_GROUP, name_hint=None, deps=None, allow_early_resolve=False,
       dispatch_if=None):
    """`with pl.at(level=..., name_hint=...) as tid:` runs the body as one task."""


@marker("pl.spmd")
def spmd(num_blocks, name_hint=None, deps=None):
    """`with pl.spmd(n, name_hint=...) as tid:` runs the body on n blocks."""


@marker("pl.split_aiv")
def split_aiv(mode=SplitMode.NONE):
    """`with pl.split_aiv(mode=...):` keeps the body off the cube lane."""


@marker("pl.get_block_idx")
def get_block_idx():
    """The index of the current SPMD block."""


@marker("pl.get_aiv_id")
def get_aiv_id():
    """The AIV sub-lane id (0 or 1)."""


__all__ = [
    "jit", "Tensor", "Out", "InOut", "Scalar", "Level", "SplitMode",
    "INT8", "INT16", "INT32", "INT64", "FP16", "BF16", "FP32", "FP64", "BOOL", "INDEX",
    "range", "load", "store", "read", "write", "add", "sub", "mul", "max", "min",
    "adds", "subs", "muls", "maxs", "mins", "full", "expands", "cast", "matmul",
    "at", "spmd", "split_aiv", "get_block_idx", "get_aiv_id",
]
