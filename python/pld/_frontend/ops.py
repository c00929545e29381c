"""From a marker call (`pld.system.notify(...)`) to its op in the description.

A call's arguments are bound against the marker's own signature (the seed's
keyword names and defaults), then its handler checks them and emits the op
with the ODS names of its operands, attributes and results.
"""

import ast
import difflib
import inspect

from ..dtypes import DType
from ..enums import AtomicType, Level, NotifyOp, ReduceOp, SplitMode, WaitCmp
from ..markers import marker_key
from . import ir
from .coerce import describe, is_py_int
from .ir import Value

HANDLERS = {}


def handles(*keys):
    def register(fn):
        for key in keys:
            HANDLERS[key] = fn
        return fn
    return register


def bind_call(tr, fn, node):
    """The call's arguments, evaluated and bound to `fn`'s signature."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(kw.arg is None for kw in node.keywords):
        raise tr.error(node, "*args and **kwargs are not supported in a kernel")
    signature = inspect.signature(fn)
    for kw in node.keywords:
        # A misspelt keyword first: binding would report the argument it
        # leaves missing instead.
        if kw.arg not in signature.parameters:
            close = difflib.get_close_matches(kw.arg, list(signature.parameters), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise tr.error(kw.value, f"{marker_key(fn)} has no argument {kw.arg!r}{hint}; "
                                     f"it takes {', '.join(signature.parameters)}")
    args = [tr.expr(a) for a in node.args]
    kwargs = {kw.arg: tr.expr(kw.value) for kw in node.keywords}
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        raise tr.error(node, f"{marker_key(fn)}: {e}") from None
    bound.apply_defaults()
    return dict(bound.arguments)


def lower_call(tr, fn, node, target_name=None):
    key = marker_key(fn)
    if key == "pl.range":
        raise tr.error(node, "pl.range(...) is only meaningful as the iterable of a for loop")
    if key in ("pl.at", "pl.spmd", "pl.split_aiv"):
        raise tr.error(node, f"{key}(...) opens a scope: write `with {key}(...):`")
    handler = HANDLERS.get(key)
    if handler is None:
        raise tr.error(node, f"{key} is not supported by the front end yet")
    args = bind_call(tr, fn, node)
    if key == "pld.tensor.alloc_window_buffer":
        args["target_name"] = target_name
    return handler(tr, node, key=key, **args)


def one(values):
    (v,) = values
    return v


# --- helpers that check an argument --------------------------------------

def dtensor(tr, x, what, node):
    return tr.value_of(x, ir.is_dtensor, what, node, "a pld.DistributedTensor")


def memory(tr, x, what, node):
    return tr.value_of(x, lambda t: ir.is_dtensor(t) or ir.is_memref(t), what, node,
                       "a pl.Tensor or a pld.DistributedTensor")


def tile_value(tr, x, what, node):
    return tr.value_of(x, ir.is_tile, what, node, "a tile (from pl.load or pld.tile.remote_load)")


def enum(tr, x, cls, what, node):
    if not isinstance(x, cls):
        names = ", ".join(f"{cls.__name__}.{m.name}" for m in cls)
        raise tr.error(node, f"{what} must be one of {names}, got {describe(x)}")
    return {"enum": x.keyword}


def keyword(tr, x, allowed, what, node):
    """An attribute given as a keyword string (`algorithm="ring"`)."""
    x = getattr(x, "keyword", x)
    if x not in allowed:
        raise tr.error(node, f"{what} must be one of {', '.join(map(repr, allowed))}, got {describe(x)}")
    return {"enum": x}


def positive_int(tr, x, what, node, minimum=1):
    if not is_py_int(x) or x < minimum:
        raise tr.error(node, f"{what} must be a Python int >= {minimum}, got {describe(x)}")
    return {"int": x}


def optional_collective_attrs(tr, node, attrs, algorithm, core_num, algorithms):
    if algorithm is not None:
        attrs["algorithm"] = keyword(tr, algorithm, algorithms, "algorithm", node)
    if core_num is not None:
        attrs["core_num"] = positive_int(tr, core_num, "core_num", node)
    return attrs


# --- pld.system ----------------------------------------------------------

@handles("pld.system.world_size")
def world_size(tr, node, key):
    return one(tr.emit(key, node, results=[("size", [ir.I64])]))


@handles("pld.system.world_rank")
def world_rank(tr, node, key):
    return one(tr.emit(key, node, results=[("rank", [ir.INDEX])]))


@handles("pld.system.get_comm_ctx")
def get_comm_ctx(tr, node, key, dist_tensor):
    t = dtensor(tr, dist_tensor, "the argument of get_comm_ctx", node)
    return one(tr.emit(key, node, operands={"tensor": [t]}, results=[("ctx", [ir.COMM_CTX])]))


@handles("pld.system.rank", "pld.system.nranks")
def rank_or_nranks(tr, node, key, ctx):
    c = tr.value_of(ctx, lambda t: "comm_ctx" in t, "the argument of " + key, node,
                    "a comm context (from pld.get_comm_ctx)")
    result = "rank" if key.endswith(".rank") else "nranks"
    # `index`, as every peer and offset is: the op gives either type, and
    # with `i32` every use as a peer or an offset needed a cast.
    return one(tr.emit(key, node, operands={"ctx": [c]}, results=[(result, [ir.INDEX])]))


@handles("pld.system.notify")
def notify(tr, node, key, target, peer, offsets, value, op):
    t = dtensor(tr, target, "target", node)
    tr.emit(key, node,
            operands={"target": [t], "peer": [tr.to_index(peer, "peer", node)],
                      "value": [tr.to_i32(value, "value", node)]},
            mixed={"offsets": tr.index_list(offsets, "offsets", node)},
            attributes={"op": enum(tr, op, NotifyOp, "op", node)})


@handles("pld.system.wait", "pld.system.defer_wait")
def wait(tr, node, key, signal, offsets, expected, cmp):
    s = dtensor(tr, signal, "signal", node)
    tr.emit(key, node,
            operands={"signal": [s], "expected": [tr.to_i32(expected, "expected", node)]},
            mixed={"offsets": tr.index_list(offsets, "offsets", node)},
            attributes={"cmp": enum(tr, cmp, WaitCmp, "cmp", node)})


# --- windows -------------------------------------------------------------

@handles("pld.tensor.alloc_window_buffer")
def alloc_window_buffer(tr, node, key, size, shape, dtype, name, ranks, target_name):
    if isinstance(size, (list, tuple)):
        if shape is not None:
            raise tr.error(node, "give either a size in bytes or a shape, not both")
        size, shape = None, size
    attrs = {"name": {"str": name or target_name or "buffer"}}
    if shape is not None:
        if not isinstance(dtype, DType):
            raise tr.error(node, "alloc_window_buffer(shape, dtype=...) needs the dtype, e.g. dtype=pl.INT32")
        sizes = tr.index_list(shape, "shape", node)
        attrs["dtype"] = {"type": dtype.mlir_type}
    elif size is not None:
        if dtype is not None:
            raise tr.error(node, "a size in bytes takes no dtype; pass a shape with a dtype instead")
        sizes = tr.index_list([size], "size", node)
    else:
        raise tr.error(node, "alloc_window_buffer needs a size in bytes or a shape and a dtype")
    if ranks is not None:
        # A comm group: the op's verifier checks the order and the range.
        if not isinstance(ranks, (list, tuple)) or not all(is_py_int(r) for r in ranks):
            raise tr.error(node, f"ranks must be a list of world ranks (ints), got {describe(ranks)}")
        attrs["ranks"] = {"ints": list(ranks)}
    return one(tr.emit(key, node, mixed={"sizes": sizes}, attributes=attrs,
                       results=[("buffer", [ir.WINDOW_PTR])]))


@handles("pld.tensor.window")
def window(tr, node, key, buf, shape, dtype):
    b = tr.value_of(buf, lambda t: "window_ptr" in t, "buf", node, "a window buffer (from alloc_window_buffer)")
    if not isinstance(dtype, DType):
        raise tr.error(node, f"dtype must be a pl dtype such as pl.FP32, got {describe(dtype)}")
    dims = tr.index_list(shape, "shape", node)
    static = [d if is_py_int(d) else None for d in dims]
    dynamic = [d for d in dims if isinstance(d, Value)]
    return one(tr.emit(key, node, operands={"buffer": [b], "dynamic_sizes": dynamic},
                       results=[("result", [{"dtensor": static, "element": dtype.mlir_type}])]))


# --- remote memory access ------------------------------------------------

@handles("pld.tile.remote_load")
def remote_load(tr, node, key, target, peer, offsets, shape, valid_shape):
    t = dtensor(tr, target, "target", node)
    mixed = {"offsets": tr.index_list(offsets, "offsets", node)}
    if valid_shape is not None:
        mixed["valid_sizes"] = tr.index_list(valid_shape, "valid_shape", node)
    result = {"tile": tr.static_shape(shape, "shape", node), "element": t.type["element"]}
    return one(tr.emit(key, node, operands={"target": [t], "peer": [tr.to_index(peer, "peer", node)]},
                       mixed=mixed, results=[("result", [result])]))


def _atomic_attrs(tr, atomic, node):
    enum(tr, atomic, AtomicType, "atomic", node)
    # `none` is the attribute's default: leave it out, as the printer does.
    return {} if atomic is AtomicType.None_ else {"atomic": {"enum": atomic.keyword}}


@handles("pld.tile.remote_store")
def tile_remote_store(tr, node, key, src_tile, target, peer, offsets, atomic, valid_shape):
    s = tile_value(tr, src_tile, "src_tile", node)
    t = dtensor(tr, target, "target", node)
    mixed = {"offsets": tr.index_list(offsets, "offsets", node)}
    if valid_shape is not None:
        mixed["valid_sizes"] = tr.index_list(valid_shape, "valid_shape", node)
    tr.emit(key, node, operands={"source": [s], "target": [t], "peer": [tr.to_index(peer, "peer", node)]},
            mixed=mixed, attributes=_atomic_attrs(tr, atomic, node))


@handles("pld.tensor.remote_store")
def tensor_remote_store(tr, node, key, src, target, peer, offsets, atomic):
    s = tr.value_of(src, ir.is_memref, "src", node, "a pl.Tensor")
    t = dtensor(tr, target, "target", node)
    tr.emit(key, node, operands={"source": [s], "target": [t], "peer": [tr.to_index(peer, "peer", node)]},
            mixed={"offsets": tr.index_list(offsets, "offsets", node)},
            attributes=_atomic_attrs(tr, atomic, node))


@handles("pld.remote_store")
def remote_store_short(tr, node, key, src, target, peer, offsets, atomic):
    """`pld.remote_store` dispatches on `src`: a tile or a tensor."""
    if isinstance(src, Value) and ir.is_tile(src.type):
        return tile_remote_store(tr, node, "pld.tile.remote_store", src, target, peer, offsets, atomic, None)
    return tensor_remote_store(tr, node, "pld.tensor.remote_store", src, target, peer, offsets, atomic)


def _transfer(tr, node, key, dst, peer, src, dst_offsets, src_offsets, shape,
              chunk_rows, chunk_cols, pipeline, engine, attrs):
    d = memory(tr, dst, "dst", node)
    s = memory(tr, src, "src", node)
    mixed = {}
    for name, xs in (("dst_offsets", dst_offsets), ("src_offsets", src_offsets), ("sizes", shape)):
        if xs is not None:
            mixed[name] = tr.index_list(xs, "shape" if name == "sizes" else name, node)
    if not is_py_int(chunk_rows) or not is_py_int(chunk_cols) or chunk_rows < 0 or chunk_cols < 0:
        raise tr.error(node, "chunk_rows and chunk_cols are Python ints >= 0")
    if pipeline and (chunk_rows <= 0 or chunk_cols <= 0):
        raise tr.error(node, "pipeline=True requires both chunk_rows > 0 and chunk_cols > 0")
    if chunk_rows:
        attrs["chunk_rows"] = {"int": chunk_rows}
    if chunk_cols:
        attrs["chunk_cols"] = {"int": chunk_cols}
    if pipeline:
        attrs["pipeline"] = {"unit": True}
    if engine is not None:
        attrs["engine"] = keyword(tr, engine, ("mte", "sdma"), "engine", node)
    tr.emit(key, node, operands={"dst": [d], "peer": [tr.to_index(peer, "peer", node)], "src": [s]},
            mixed=mixed, attributes=attrs)


@handles("pld.tensor.put")
def put(tr, node, key, dst, peer, src, dst_offsets, src_offsets, shape, atomic,
        chunk_rows, chunk_cols, pipeline, engine):
    _transfer(tr, node, key, dst, peer, src, dst_offsets, src_offsets, shape,
              chunk_rows, chunk_cols, pipeline, engine, _atomic_attrs(tr, atomic, node))


@handles("pld.tensor.get")
def get(tr, node, key, dst, peer, src, dst_offsets, src_offsets, shape,
        chunk_rows, chunk_cols, pipeline, engine):
    _transfer(tr, node, key, dst, peer, src, dst_offsets, src_offsets, shape,
              chunk_rows, chunk_cols, pipeline, engine, {})


# --- collectives ---------------------------------------------------------

_ALLREDUCE_ALGORITHMS = ("auto", "oneshot", "twoshot", "twoshot_push", "seed_mesh", "ring", "seed_ring", "seed",
                         "oneshot_epoch", "twoshot_epoch")
_ROW_ALGORITHMS = ("auto", "direct", "seed")


@handles("pld.tensor.allreduce")
def allreduce(tr, node, key, target, signal, op, mode, algorithm, core_num, epoch, workspace):
    t, s = dtensor(tr, target, "target", node), dtensor(tr, signal, "signal", node)
    attrs = {"op": enum(tr, op, ReduceOp, "op", node)}
    if mode is not None:
        attrs["mode"] = keyword(tr, mode, ("mesh", "ring"), "mode", node)
    optional_collective_attrs(tr, node, attrs, algorithm, core_num, _ALLREDUCE_ALGORITHMS)
    operands = {"target": [t], "signal": [s]}
    if (epoch is None) != (workspace is None):
        raise tr.error(node, "pld.tensor.allreduce takes epoch and workspace together")
    if epoch is not None:
        operands["epoch"] = [tr.to_index(epoch, "epoch", node)]
        operands["workspace"] = [dtensor(tr, workspace, "workspace", node)]
    return one(tr.emit(key, node, operands=operands, attributes=attrs,
                       results=[("result", [t.type])]))


@handles("pld.tensor.reduce_scatter")
def reduce_scatter(tr, node, key, target, signal, op, algorithm, core_num):
    t, s = dtensor(tr, target, "target", node), dtensor(tr, signal, "signal", node)
    attrs = {"op": enum(tr, op, ReduceOp, "op", node)}
    optional_collective_attrs(tr, node, attrs, algorithm, core_num, _ROW_ALGORITHMS)
    return one(tr.emit(key, node, operands={"target": [t], "signal": [s]}, attributes=attrs,
                       results=[("result", [t.type])]))


@handles("pld.tensor.allgather")
def allgather(tr, node, key, local, target, signal, algorithm, core_num):
    l = memory(tr, local, "local", node)
    t, s = dtensor(tr, target, "target", node), dtensor(tr, signal, "signal", node)
    attrs = optional_collective_attrs(tr, node, {}, algorithm, core_num, _ROW_ALGORITHMS)
    return one(tr.emit(key, node, operands={"local": [l], "target": [t], "signal": [s]}, attributes=attrs,
                       results=[("result", [t.type])]))


@handles("pld.tensor.all_to_all")
def all_to_all(tr, node, key, input, target, signal, algorithm, core_num):
    i = memory(tr, input, "input", node)
    t, s = dtensor(tr, target, "target", node), dtensor(tr, signal, "signal", node)
    attrs = optional_collective_attrs(tr, node, {}, algorithm, core_num, _ROW_ALGORITHMS)
    return one(tr.emit(key, node, operands={"input": [i], "target": [t], "signal": [s]}, attributes=attrs,
                       results=[("result", [t.type])]))


@handles("pld.tensor.all_to_all_v")
def all_to_all_v(tr, node, key, input, target, signal, send_counts, recv_counts, algorithm):
    i = memory(tr, input, "input", node)
    t, s = dtensor(tr, target, "target", node), dtensor(tr, signal, "signal", node)
    send = memory(tr, send_counts, "send_counts", node)
    recv = dtensor(tr, recv_counts, "recv_counts", node)
    attrs = optional_collective_attrs(tr, node, {}, algorithm, None, ("auto", "seed"))
    return one(tr.emit(key, node, operands={"input": [i], "target": [t], "signal": [s],
                                            "send_counts": [send], "recv_counts": [recv]},
                       attributes=attrs, results=[("result", [t.type])]))


@handles("pld.tensor.broadcast")
def broadcast(tr, node, key, target, signal, root, algorithm, core_num):
    t, s = dtensor(tr, target, "target", node), dtensor(tr, signal, "signal", node)
    attrs = optional_collective_attrs(tr, node, {}, algorithm, core_num,
                                      ("auto", "star", "scatter_allgather", "seed"))
    return one(tr.emit(key, node, operands={"target": [t], "signal": [s],
                                            "root": [tr.to_index(root, "root", node)]},
                       attributes=attrs, results=[("result", [t.type])]))


@handles("pld.tensor.barrier")
def barrier(tr, node, key, signal):
    tr.emit(key, node, operands={"signal": [dtensor(tr, signal, "signal", node)]})


# --- pl: tiles and scalars -----------------------------------------------

@handles("pl.load")
def load(tr, node, key, source, offsets, shape, valid_shape):
    s = memory(tr, source, "source", node)
    mixed = {"offsets": tr.index_list(offsets, "offsets", node)}
    if valid_shape is not None:
        mixed["valid_sizes"] = tr.index_list(valid_shape, "valid_shape", node)
    result = {"tile": tr.static_shape(shape, "shape", node), "element": s.type["element"]}
    return one(tr.emit(key, node, operands={"source": [s]}, mixed=mixed, results=[("result", [result])]))


@handles("pl.store")
def store(tr, node, key, tile, dest, offsets, valid_shape):
    if isinstance(dest, (list, tuple)) and isinstance(offsets, Value):
        dest, offsets = offsets, dest  # pl.store(tile, offsets, dest), PyPTO's order
    elif isinstance(dest, (list, tuple)) and isinstance(valid_shape, Value):
        # pl.store(tile, offsets, shape, dest): the shape is the tile's own.
        dest, offsets, valid_shape = valid_shape, dest, None
    t = tile_value(tr, tile, "tile", node)
    d = memory(tr, dest, "dest", node)
    mixed = {"offsets": tr.index_list(offsets, "offsets", node)}
    if valid_shape is not None:
        mixed["valid_sizes"] = tr.index_list(valid_shape, "valid_shape", node)
    tr.emit(key, node, operands={"value": [t], "dest": [d]}, mixed=mixed)


@handles("pl.read")
def read(tr, node, key, source, offsets):
    s = memory(tr, source, "source", node)
    return one(tr.emit(key, node, operands={"source": [s]},
                       mixed={"offsets": tr.index_list(offsets, "offsets", node)},
                       results=[("result", [s.type["element"]])]))


@handles("pl.write")
def write(tr, node, key, dest, offsets, value):
    d = memory(tr, dest, "dest", node)
    v = tr.to_type(value, d.type["element"], "value", node)
    tr.emit(key, node, operands={"value": [v], "dest": [d]},
            mixed={"offsets": tr.index_list(offsets, "offsets", node)})


_COMMUTATIVE = ("pl.add", "pl.mul", "pl.max", "pl.min")


def is_tile(x):
    return isinstance(x, Value) and ir.is_tile(x.type)


@handles("pl.add", "pl.sub", "pl.mul", "pl.max", "pl.min")
def elementwise(tr, node, key, lhs, rhs):
    """Two tiles (TADD, ...), or a tile and a scalar in either order for the
    commutative ones (TADDS, ...), as PyPTO's `pl.add(tile, 2.0)`."""
    if is_tile(lhs) and not is_tile(rhs):
        return tile_scalar(tr, node, key + "s", lhs, rhs)
    if is_tile(rhs) and not is_tile(lhs) and key in _COMMUTATIVE:
        return tile_scalar(tr, node, key + "s", rhs, lhs)
    a, b = tile_value(tr, lhs, "lhs", node), tile_value(tr, rhs, "rhs", node)
    if a.type != b.type:
        raise tr.error(node, f"{key} combines tiles of one type, got {ir.show(a.type)} and {ir.show(b.type)}")
    return one(tr.emit(key, node, operands={"lhs": [a], "rhs": [b]}, results=[("result", [a.type])]))


@handles("pl.adds", "pl.subs", "pl.muls", "pl.maxs", "pl.mins")
def tile_scalar(tr, node, key, lhs, rhs):
    """A tile with one scalar of its element type: a Python number becomes a
    constant of it, an integer value is cast to it."""
    a = tile_value(tr, lhs, "lhs", node)
    s = tr.to_type(rhs, a.type["element"], "the scalar", node)
    return one(tr.emit(key, node, operands={"lhs": [a], "scalar": [s]}, results=[("result", [a.type])]))


@handles("pl.full")
def full(tr, node, key, shape, dtype, value):
    """A tile of `shape` and `dtype` whose every element is `value`."""
    if not isinstance(dtype, DType):
        raise tr.error(node, f"dtype must be a pl dtype (pl.FP32, ...), got {describe(dtype)}")
    result = {"tile": tr.static_shape(shape, "shape", node), "element": dtype.mlir_type}
    v = tr.to_type(value, dtype.mlir_type, "value", node)
    return one(tr.emit(key, node, operands={"value": [v]}, results=[("result", [result])]))


# PyPTO's rounding modes, by name and by number (PTO's RoundMode values).
_ROUND_MODES = ("none", "rint", "round", "floor", "ceil", "trunc", "odd")


@handles("pl.cast")
def cast(tr, node, key, tile, target_type, mode):
    """The tile converted element by element to `target_type`."""
    t = tile_value(tr, tile, "tile", node)
    if not isinstance(target_type, DType):
        raise tr.error(node, f"target_type must be a pl dtype (pl.FP16, ...), got {describe(target_type)}")
    if is_py_int(mode) and 0 <= mode < len(_ROUND_MODES):
        mode = _ROUND_MODES[mode]
    if mode not in _ROUND_MODES:
        raise tr.error(node, f"mode must be one of {', '.join(map(repr, _ROUND_MODES))} or 0-6, "
                             f"got {describe(mode)}")
    result = {"tile": t.type["tile"], "element": target_type.mlir_type}
    return one(tr.emit(key, node, operands={"source": [t]}, attributes={"round": {"enum": mode}},
                       results=[("result", [result])]))


@handles("pl.expands")
def expands(tr, node, key, target, scalar):
    """A tile like `target`, every element `scalar` (PyPTO's pl.expands)."""
    t = tile_value(tr, target, "target", node)
    v = tr.to_type(scalar, t.type["element"], "scalar", node)
    return one(tr.emit("pl.full", node, operands={"value": [v]}, results=[("result", [t.type])]))


@handles("pl.matmul")
def matmul(tr, node, key, lhs, rhs):
    a, b = tile_value(tr, lhs, "lhs", node), tile_value(tr, rhs, "rhs", node)
    element = ir.I32 if a.type["element"] == {"int": 8} else {"float": "f32"}
    result = {"tile": [a.type["tile"][0], b.type["tile"][-1]], "element": element}
    return one(tr.emit(key, node, operands={"lhs": [a], "rhs": [b]}, results=[("result", [result])]))


@handles("pl.get_block_idx")
def get_block_idx(tr, node, key):
    return one(tr.emit(key, node, results=[("index", [ir.INDEX])]))


@handles("pl.get_aiv_id")
def get_aiv_id(tr, node, key):
    return one(tr.emit(key, node, results=[("lane", [ir.INDEX])]))


# --- task scopes: `with pl.at(...) as tid:` ------------------------------

def _deps(tr, deps, node):
    if deps is None:
        return []
    if not isinstance(deps, (list, tuple)):
        deps = [deps]
    return [tr.value_of(d, lambda t: "task_id" in t, "an entry of deps", node,
                        "a task id (the `as` name of a pl.at or pl.spmd)") for d in deps]


def lower_scope(tr, key, fn, call, as_target, stmt):
    args = bind_call(tr, fn, call)
    if as_target is not None and not isinstance(as_target, ast.Name):
        raise tr.error(as_target, "bind the task id to one name: `as tid`")
    tid_name = as_target.id if as_target is not None else None
    operands, attrs, results = {}, {}, []
    if key in ("pl.at", "pl.spmd"):
        name_hint = args["name_hint"] if args["name_hint"] is not None else (tid_name or "task")
        if not isinstance(name_hint, str):
            raise tr.error(call, f"name_hint must be a string, got {describe(name_hint)}")
        attrs["name_hint"] = {"str": name_hint}
        results = [("task", [ir.TASK_ID])]
    if key == "pl.at":
        attrs["level"] = enum(tr, args["level"], Level, "level", call)
        if args["allow_early_resolve"]:
            attrs["allow_early_resolve"] = {"unit": True}
        operands["deps"] = _deps(tr, args["deps"], call)
        cond = args["dispatch_if"]
        operands["dispatch_if"] = [] if cond is None else [tr.to_i1(cond, "dispatch_if", call)]
    elif key == "pl.spmd":
        operands["num_blocks"] = [tr.to_index(args["num_blocks"], "num_blocks", call)]
        operands["deps"] = _deps(tr, args["deps"], call)
    else:
        attrs["mode"] = enum(tr, args["mode"], SplitMode, "mode", call)
        if as_target is not None:
            raise tr.error(as_target, "pl.split_aiv has no task id to bind")
    is_task = key != "pl.split_aiv"
    saved = dict(tr.env)
    block = tr.em.open_block(sees_parent=not is_task)
    tr.statements(stmt.body)
    tr.em.close_block(block)
    from .translate import assigned_names
    line = stmt.lineno + tr.src.line_offset
    what = "task" if is_task else "pl.split_aiv region"
    tr.poison_assigned(saved, assigned_names(stmt.body),
                       "{name} is assigned inside the " + what + f" at line {line}; "
                       "its values do not leave it")
    values = tr.emit(key, stmt, operands=operands, attributes=attrs, results=results,
                     regions=[("body", [block])])
    if tid_name is not None:
        tr.env[tid_name] = values[0]


# --- calls of other kernels ----------------------------------------------

def call_kernel(tr, kernel, node):
    callee = tr.program.describe(kernel)
    if node.keywords:
        # Keywords by parameter name, as for a Python call.
        names = [a["name"] for a in callee["arguments"]]
        args = bind_by_names(tr, node, names)
    else:
        args = [tr.expr(a) for a in node.args]
    params = callee["arguments"]
    if len(args) != len(params):
        raise tr.error(node, f"{kernel.name} takes {len(params)} argument(s), got {len(args)}")
    operands = [tr.to_type(a, p["type"], f"argument {p['name']} of {kernel.name}", node)
                for a, p in zip(args, params)]
    values = tr.emit("func.call", node, operands={"operands": operands},
                     attributes={"callee": {"str": kernel.name}},
                     results=[("results", callee["results"])])
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


def bind_by_names(tr, node, names):
    given = [tr.expr(a) for a in node.args]
    for kw in node.keywords:
        if kw.arg not in names:
            raise tr.error(node, f"unknown argument {kw.arg}")
    out = list(given) + [None] * (len(names) - len(given))
    for kw in node.keywords:
        i = names.index(kw.arg)
        if i < len(given):
            raise tr.error(node, f"argument {kw.arg} given twice")
        out[i] = tr.expr(kw.value)
    if any(v is None for v in out):
        raise tr.error(node, "missing argument(s) " + ", ".join(n for n, v in zip(names, out) if v is None))
    return out
