"""Parameter annotations: `pl.Tensor[[1, 1], pl.INT32]`, `pl.Out[...]`,
`pl.InOut[...]`, `pl.Scalar[pl.INT32]`, `pld.DistributedTensor[[2, 1], pl.INT32]`.

They are plain Python objects that the front end reads from the decorated
function's annotations; a dimension of `None` is dynamic (`?`).
"""

from .dtypes import DType


class TensorSpec:
    """A global-memory tensor (`memref`) or a window view (`!pld.dtensor`)."""

    def __init__(self, kind, shape, dtype):
        self.kind = kind  # "memref" | "dtensor"
        self.shape = shape
        self.dtype = dtype

    @property
    def mlir_type(self):
        return {self.kind: list(self.shape), "element": self.dtype.mlir_type}

    def __repr__(self):
        outer = "pl.Tensor" if self.kind == "memref" else "pld.DistributedTensor"
        return f"{outer}[{list(self.shape)}, {self.dtype!r}]"


class ScalarSpec:
    """A scalar argument (`pl.Scalar[pl.INT32]`)."""

    def __init__(self, dtype):
        self.dtype = dtype

    @property
    def mlir_type(self):
        return self.dtype.mlir_type

    def __repr__(self):
        return f"pl.Scalar[{self.dtype!r}]"


class Param:
    """A parameter's type and direction: `pl.Out[T]` is written, `pl.InOut[T]`
    read and written; a bare type is an input."""

    def __init__(self, spec, direction):
        self.spec = spec
        self.direction = direction  # "in" | "out" | "inout"

    def __repr__(self):
        return f"{self.direction}:{self.spec!r}"


def _shape(shape):
    if isinstance(shape, int):
        shape = [shape]
    if not isinstance(shape, (list, tuple)) or not all(
        d is None or (isinstance(d, int) and not isinstance(d, bool)) for d in shape
    ):
        raise TypeError(f"a shape is a list of ints (None for a dynamic dimension), not {shape!r}")
    return list(shape)


class _TensorFactory:
    def __init__(self, kind):
        self.kind = kind

    def __getitem__(self, item):
        if not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[1], DType):
            raise TypeError("write Tensor[[dims...], dtype], e.g. pl.Tensor[[1, 64], pl.FP32]")
        return TensorSpec(self.kind, _shape(item[0]), item[1])


class _ScalarFactory:
    def __getitem__(self, dtype):
        if not isinstance(dtype, DType):
            raise TypeError("write pl.Scalar[dtype], e.g. pl.Scalar[pl.INT32]")
        return ScalarSpec(dtype)


class _DirectionFactory:
    def __init__(self, direction):
        self.direction = direction

    def __getitem__(self, spec):
        if not isinstance(spec, (TensorSpec, ScalarSpec)):
            raise TypeError(f"{self.direction} wraps a tensor type, not {spec!r}")
        return Param(spec, self.direction)


Tensor = _TensorFactory("memref")
DistributedTensor = _TensorFactory("dtensor")
Scalar = _ScalarFactory()
Out = _DirectionFactory("out")
InOut = _DirectionFactory("inout")


def as_param(annotation):
    """The Param of an annotation (a bare type is an input), or None."""
    if isinstance(annotation, Param):
        return annotation
    if isinstance(annotation, (TensorSpec, ScalarSpec)):
        return Param(annotation, "in")
    if isinstance(annotation, DType):
        return Param(ScalarSpec(annotation), "in")
    return None


def function_annotations(fn):
    """The evaluated annotations of `fn` (strings, as `from __future__ import
    annotations` leaves them, are evaluated in its globals)."""
    import inspect
    if hasattr(inspect, "get_annotations"):  # Python 3.10+
        return inspect.get_annotations(fn, eval_str=True)
    out = {}
    for name, value in getattr(fn, "__annotations__", {}).items():
        out[name] = eval(value, fn.__globals__) if isinstance(value, str) else value
    return out
