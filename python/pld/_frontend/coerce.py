"""Constants and casts: Python ints become `arith.constant`s of the type an
operand needs, and integer values move between `i32`/`i64` and `index`
(a notify's value is `i32`, offsets and peers are `index`).

Each constant or cast is made once per block and reused by later ops of the
block and of its nested regions (a task body starts afresh: values are not
shared into a task).
"""

from . import ir
from .ir import Value


def is_py_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


class CoerceMixin:
    """Needs `self.em` (an ir.Emitter) and `self.loc(node)`, `self.error(node, msg)`."""

    def const(self, value, type, node):
        key = ("const", repr(value), repr(sorted(type.items())))
        hit = self.em.cached(key)
        if hit is not None:
            return hit
        if ir.is_float(type):
            attr = {"float": float(value), "type": type}
        else:
            attr = {"int": int(value), "type": type}
        (v,) = self.em.op("arith.constant", self.loc(node), attributes={"value": attr},
                          results=[("result", [type])])
        self.em.remember(key, v)
        return v

    def cast(self, v, type, node):
        """An integer-like value as another integer-like type."""
        if v.type == type:
            return v
        key = ("cast", v.id, repr(sorted(type.items())))
        hit = self.em.cached(key)
        if hit is not None:
            return hit
        if ir.is_index(v.type) or ir.is_index(type):
            name = "arith.index_cast"
        elif v.type["int"] == 1:
            name = "arith.extui"  # a bool is 0 or 1, not -1
        elif v.type["int"] < type["int"]:
            name = "arith.extsi"
        else:
            name = "arith.trunci"
        (out,) = self.em.op(name, self.loc(node), operands={"in": [v]}, results=[("out", [type])])
        self.em.remember(key, out)
        return out

    def to_type(self, x, type, what, node):
        """`x` (a Python number or a value) as a value of `type`."""
        if isinstance(x, Value):
            if x.type == type:
                return x
            if ir.is_integer_like(x.type) and ir.is_integer_like(type):
                return self.cast(x, type, node)
            raise self.error(node, f"{what} must be {ir.show(type)}, got a value of type {ir.show(x.type)}")
        if isinstance(x, bool) and type == ir.I1:
            return self.const(int(x), type, node)
        if is_py_int(x) and ir.is_integer_like(type):
            return self.const(x, type, node)
        if isinstance(x, (int, float)) and not isinstance(x, bool) and ir.is_float(type):
            return self.const(x, type, node)
        raise self.error(node, f"{what} must be {ir.show(type)}, got {describe(x)}")

    def to_index(self, x, what, node):
        return self.to_type(x, ir.INDEX, what, node)

    def to_i32(self, x, what, node):
        return self.to_type(x, ir.I32, what, node)

    def to_i1(self, x, what, node):
        """A runtime condition: an i1, or an integer compared with 0."""
        if isinstance(x, Value) and ir.is_integer_like(x.type) and x.type != ir.I1:
            zero = self.const(0, x.type, node)
            (c,) = self.em.op("arith.cmpi", self.loc(node),
                              operands={"lhs": [x], "rhs": [zero]},
                              attributes={"predicate": {"int": 1, "type": ir.I64}},
                              results=[("result", [ir.I1])])
            return c
        return self.to_type(x, ir.I1, what, node)

    def index_list(self, xs, what, node):
        """A mixed static/dynamic index list: ints stay static, values become index."""
        if not isinstance(xs, (list, tuple)):
            raise self.error(node, f"{what} must be a list such as [0, 0], got {describe(xs)}")
        out = []
        for i, x in enumerate(xs):
            if is_py_int(x):
                out.append(x)
            else:
                out.append(self.to_index(x, f"{what}[{i}]", node))
        return out

    def static_shape(self, xs, what, node):
        if not isinstance(xs, (list, tuple)) or not all(is_py_int(x) for x in xs):
            raise self.error(node, f"{what} must be a list of Python ints (a tile's shape is static), "
                                   f"got {describe(xs)}")
        return list(xs)

    def value_of(self, x, pred, what, node, wanted):
        if not isinstance(x, Value) or not pred(x.type):
            raise self.error(node, f"{what} must be {wanted}, got {describe(x)}")
        return x


def describe(x):
    if isinstance(x, Value):
        return f"a value of type {ir.show(x.type)}"
    if x is None:
        return "None"
    return f"the Python {type(x).__name__} {x!r}"
