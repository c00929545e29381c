"""The description's building blocks: types, values and an op emitter.

Types are the description's JSON objects (`{"int": 32}`, `{"index": True}`,
`{"tile": [1, 64], "element": {"float": "f32"}}`); two types are equal when
their objects are.
"""

I1 = {"int": 1}
I32 = {"int": 32}
I64 = {"int": 64}
INDEX = {"index": True}
COMM_CTX = {"comm_ctx": True}
WINDOW_PTR = {"window_ptr": True}
TASK_ID = {"task_id": True}


def is_int(t):
    return "int" in t and len(t) == 1


def is_index(t):
    return "index" in t


def is_integer_like(t):
    return is_int(t) or is_index(t)


def is_float(t):
    return "float" in t and len(t) == 1


def is_tile(t):
    return "tile" in t


def is_memref(t):
    return "memref" in t


def is_dtensor(t):
    return "dtensor" in t


def shape_of(t):
    for key in ("tile", "memref", "dtensor"):
        if key in t:
            return t[key]
    return None


def element_of(t):
    return t.get("element")


def show(t):
    """A type in MLIR-like words, for error messages."""
    if is_int(t):
        return f"i{t['int']}"
    if is_index(t):
        return "index"
    if is_float(t):
        return t["float"]
    for key, name in (("tile", "!pl.tile"), ("memref", "memref"), ("dtensor", "!pld.dtensor")):
        if key in t:
            dims = "x".join("?" if d is None else str(d) for d in t[key])
            return f"{name}<{dims}x{show(t['element'])}>"
    if "comm_ctx" in t:
        return "!pld.comm_ctx"
    if "window_ptr" in t:
        return "!pld.ptr"
    if "task_id" in t:
        return "!pl.task_id"
    return repr(t)


class Value:
    """An SSA value of the function being described."""

    __slots__ = ("id", "type")

    def __init__(self, id, type):
        self.id = id
        self.type = type

    def __repr__(self):
        return f"%{self.id}:{show(self.type)}"


class Block:
    def __init__(self, arguments=(), cacheable=True):
        self.arguments = list(arguments)
        self.ops = []
        # Constants and casts already made in this block, reused by later ops
        # of the block and of the regions nested in it (they dominate them).
        self.cache = {}
        # False for a task body: values made outside are not reused inside.
        self.sees_parent = cacheable

    def to_json(self):
        return {
            "arguments": [{"id": a.id, "type": a.type} for a in self.arguments],
            "ops": self.ops,
        }


class Emitter:
    """Appends ops to the innermost open block; hands out value ids."""

    def __init__(self):
        self.next_id = 0
        self.blocks = []

    def new_value(self, type):
        v = Value(self.next_id, type)
        self.next_id += 1
        return v

    def open_block(self, arg_types=(), sees_parent=True):
        block = Block([self.new_value(t) for t in arg_types], sees_parent)
        self.blocks.append(block)
        return block

    def close_block(self, block):
        assert self.blocks[-1] is block
        self.blocks.pop()
        return block

    def cached(self, key):
        for block in reversed(self.blocks):
            if key in block.cache:
                return block.cache[key]
            if not block.sees_parent:
                return None
        return None

    def remember(self, key, value):
        self.blocks[-1].cache[key] = value

    def op(self, name, loc, operands=None, mixed=None, attributes=None,
           results=(), regions=()):
        """Emit `name`; `results` is [(ods_name, [types])]; returns the new
        values of every result group, flattened in ODS order."""
        groups, values = [], []
        for group_name, types in results:
            vals = [self.new_value(t) for t in types]
            values.extend(vals)
            groups.append({"name": group_name, "types": list(types), "ids": [v.id for v in vals]})
        self.blocks[-1].ops.append({
            "op": name,
            "loc": loc,
            "operands": {k: [v.id for v in vs] for k, vs in (operands or {}).items()},
            "mixed": {k: [{"id": e.id} if isinstance(e, Value) else {"const": e} for e in es]
                      for k, es in (mixed or {}).items()},
            "attributes": dict(attributes or {}),
            "results": groups,
            "regions": [{"name": n, "blocks": [b.to_json() for b in bs]} for n, bs in regions],
        })
        return values
