"""What the front end makes of each construct: the ops, the scf structure,
the casts and the Python locations of the description."""

import inspect

import pld
from pld import pl
from pld._frontend.pretty import pretty

from conftest import function, line_of, op_names, walk

HERE = __file__
ROWS = 3


def test_handshake_is_the_seed_mlir():
    import handshake
    desc = handshake.handshake_step.description()
    fn = function(desc)
    assert fn["name"] == "handshake_step" and fn["kind"] == "incore"
    assert [a["name"] for a in fn["arguments"]] == ["out", "signal", "peer", "tag"]
    assert fn["arguments"][1]["type"] == {"dtensor": [1, 1], "element": {"int": 32}}
    assert fn["results"] == [{"memref": [1, 1], "element": {"int": 32}}]
    assert op_names(fn["body"]) == ["pld.system.notify", "pld.system.wait", "pl.read", "pl.write", "func.return"]
    notify = next(op for op in fn["body"] if op["op"] == "pld.system.notify")
    assert notify["mixed"]["offsets"] == [{"const": 0}, {"const": 0}]
    assert notify["attributes"]["op"] == {"enum": "set"}
    # peer is an i32 parameter: cast to index for the op's `peer`.
    cast = next(op for op in fn["body"] if op["op"] == "arith.index_cast")
    assert cast["operands"]["in"] == [fn["arguments"][2]["id"]]
    assert notify["operands"]["peer"] == cast["results"][0]["ids"]
    assert notify["operands"]["value"] == [fn["arguments"][3]["id"]]
    wait = next(op for op in fn["body"] if op["op"] == "pld.system.wait")
    const = next(op for op in fn["body"] if op["op"] == "arith.constant")
    assert const["attributes"]["value"] == {"int": 1, "type": {"int": 32}}
    assert wait["operands"]["expected"] == const["results"][0]["ids"]
    assert fn["body"][-1]["operands"]["operands"] == [fn["arguments"][0]["id"]]


def test_locations_are_the_python_lines():
    import handshake
    fn = function(handshake.handshake_step.description())
    path = inspect.getsourcefile(handshake)
    notify = next(op for op in fn["body"] if op["op"] == "pld.system.notify")
    assert notify["loc"]["file"] == path
    assert notify["loc"]["line"] == line_of(path, "pld.system.notify(")
    assert notify["loc"]["column"] == 5
    read = next(op for op in fn["body"] if op["op"] == "pl.read")
    assert read["loc"]["line"] == line_of(path, "received = pl.read")
    assert read["loc"]["column"] == 16  # the call, after `received = `
    assert fn["arguments"][0]["loc"]["line"] == line_of(path, "out: pl.Out")


def test_barrier_loops_become_scf():
    import barrier
    fn = function(barrier.barrier.description())
    assert op_names(fn["body"], ("scf.", "pld.system.notify", "pld.system.wait")) == [
        "scf.for", "scf.if", "pld.system.notify", "scf.yield", "scf.yield",
        "scf.for", "scf.if", "pld.system.wait", "scf.yield", "scf.yield",
    ]
    loop = next(op for op in fn["body"] if op["op"] == "scf.for")
    assert loop["operands"]["initArgs"] == [] and loop["results"][0]["ids"] == []
    (block,) = loop["regions"][0]["blocks"]
    assert block["arguments"][0]["type"] == {"index": True}
    branch = next(op for op in block["ops"] if op["op"] == "scf.if")
    assert [r["name"] for r in branch["regions"]] == ["thenRegion", "elseRegion"]
    assert branch["regions"][1]["blocks"] == []  # no else, no results
    # `peer != my_rank`: the rank is an index, compared with `ne`, no cast.
    cmp = next(op for op in block["ops"] if op["op"] == "arith.cmpi")
    assert cmp["attributes"]["predicate"] == {"int": 1, "type": {"int": 64}}
    notify = next(op for op in walk(fn["body"]) if op["op"] == "pld.system.notify")
    assert notify["operands"]["peer"] == [block["arguments"][0]["id"]]
    assert notify["attributes"]["op"] == {"enum": "atomic_add"}


def test_remote_accumulate_carries_the_tile():
    import remote_accumulate
    fn = function(remote_accumulate.remote_accumulate.description())
    tile = {"tile": [1, 256], "element": {"float": "f32"}}
    load = next(op for op in fn["body"] if op["op"] == "pl.load")
    loop = next(op for op in fn["body"] if op["op"] == "scf.for")
    assert loop["operands"]["initArgs"] == load["results"][0]["ids"]
    assert loop["results"][0]["types"] == [tile]
    (block,) = loop["regions"][0]["blocks"]
    assert [a["type"] for a in block["arguments"]] == [{"index": True}, tile]
    branch = next(op for op in block["ops"] if op["op"] == "scf.if")
    assert branch["results"][0]["types"] == [tile]
    then_ops = branch["regions"][0]["blocks"][0]["ops"]
    else_ops = branch["regions"][1]["blocks"][0]["ops"]
    assert [op["op"] for op in then_ops] == ["pld.tile.remote_load", "pl.add", "scf.yield"]
    # The else branch yields the carried tile unchanged.
    assert else_ops[-1]["operands"]["results"] == [block["arguments"][1]["id"]]
    assert block["ops"][-1]["operands"]["results"] == branch["results"][0]["ids"]
    store = next(op for op in fn["body"] if op["op"] == "pl.store")
    assert store["operands"]["value"] == loop["results"][0]["ids"]


def test_deferred_completion_tasks():
    import deferred_completion
    fn = function(deferred_completion.deferred_exchange.description())
    assert fn["kind"] == "host"
    tasks = [op for op in fn["body"] if op["op"] == "pl.at"]
    assert [t["attributes"]["name_hint"] for t in tasks] == [
        {"str": "publish"}, {"str": "payload_wait"}, {"str": "consume_payload"}]
    assert all(t["attributes"]["level"] == {"enum": "core_group"} for t in tasks)
    assert "allow_early_resolve" not in tasks[1]["attributes"]
    assert tasks[2]["operands"]["deps"] == tasks[1]["results"][0]["ids"]
    assert tasks[1]["results"][0]["types"] == [{"task_id": True}]
    publish_ops = [op["op"] for op in tasks[0]["regions"][0]["blocks"][0]["ops"]]
    assert publish_ops.index("pld.tensor.remote_store") < publish_ops.index("pld.system.notify")
    spmd = function(deferred_completion.spmd_consumer.description())
    (task,) = [op for op in spmd["body"] if op["op"] == "pl.spmd"]
    assert task["attributes"]["name_hint"] == {"str": "consume_payload_spmd"}
    assert "pl.get_block_idx" in op_names(task["regions"][0]["blocks"][0]["ops"])


@pl.jit.incore
def unrolled(signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
    for i in range(ROWS):
        pld.system.wait(signal, [i, 0], i + 1, cmp=pld.WaitCmp.Ge)
    if ROWS > 5:
        pld.tensor.barrier(signal)
    else:
        pl.write(signal, [3, 0], ROWS)


def test_python_loops_and_conditions_are_unrolled():
    fn = function(unrolled.description())
    assert op_names(fn["body"]) == ["pld.system.wait"] * 3 + ["pl.write", "func.return"]
    waits = [op for op in fn["body"] if op["op"] == "pld.system.wait"]
    assert [w["mixed"]["offsets"][0] for w in waits] == [{"const": 0}, {"const": 1}, {"const": 2}]
    values = {op["results"][0]["ids"][0]: op["attributes"]["value"]["int"]
              for op in fn["body"] if op["op"] == "arith.constant"}
    assert [values[w["operands"]["expected"][0]] for w in waits] == [1, 2, 3]


@pl.jit.incore
def counted(out: pl.Out[pl.Tensor[[1, 1], pl.INT32]], n: pl.Scalar[pl.INT32],
            flag: pl.Scalar[pl.INT32]):
    total = 0
    for j in pl.range(1, n, 2):
        total = total + j
    if flag > 0:
        total = total * 2
    pl.write(out, [0, 0], total)


def test_scalar_loop_carried_and_if_results():
    fn = function(counted.description())
    loop = next(op for op in fn["body"] if op["op"] == "scf.for")
    assert loop["results"][0]["types"] == [{"int": 32}]
    (block,) = loop["regions"][0]["blocks"]
    # i32 total + index j: computed in index, yielded back as i32.
    add = next(op for op in block["ops"] if op["op"] == "arith.addi")
    assert add["results"][0]["types"] == [{"index": True}]
    assert block["ops"][-1]["op"] == "scf.yield"
    branch = next(op for op in fn["body"] if op["op"] == "scf.if")
    assert branch["results"][0]["types"] == [{"int": 32}]
    assert len(branch["regions"][1]["blocks"]) == 1  # an else that yields the old total
    write = next(op for op in fn["body"] if op["op"] == "pl.write")
    assert write["operands"]["value"] == branch["results"][0]["ids"]


@pl.jit.incore
def notify_one(signal: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INT32]:
    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
    return pl.read(signal, [0, 0])


@pl.jit.incore
def caller(signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
    me = pld.rank(pld.get_comm_ctx(signal))
    got = notify_one(signal, me + 1)
    pl.write(signal, [1, 0], got)


def test_kernel_calls_become_func_call():
    desc = caller.description()
    assert [f["name"] for f in desc["functions"]] == ["caller", "notify_one"]
    fn = function(desc)
    call = next(op for op in fn["body"] if op["op"] == "func.call")
    assert call["attributes"]["callee"] == {"str": "notify_one"}
    assert call["results"][0]["types"] == [{"int": 32}]
    # `me + 1` is an index, as the callee's peer: passed without a cast.
    args = call["operands"]["operands"]
    producer = next(op for op in fn["body"] if args[1] in op["results"][0]["ids"] if op["results"])
    assert producer["op"] == "arith.addi"
    assert producer["results"][0]["types"] == [{"index": True}]
    assert not any(op["op"] == "arith.index_cast" for op in fn["body"])
    callee = function(desc, "notify_one")
    assert callee["results"] == [{"int": 32}]


@pl.jit.incore
def windows(signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]], n: pl.Scalar[pl.INDEX]):
    buf = pld.alloc_window_buffer([4, n], dtype=pl.FP32)
    raw = pld.tensor.alloc_window_buffer(4096)
    data = pld.window(buf, [4, n], dtype=pl.FP32)
    pld.tensor.put(data, 1, data, chunk_rows=2, chunk_cols=64, pipeline=True)
    total = pld.tensor.allreduce(data, signal, pld.ReduceOp.Max, algorithm="twoshot")
    pld.tensor.barrier(signal)


def test_windows_and_collectives():
    fn = function(windows.description())
    allocs = [op for op in fn["body"] if op["op"] == "pld.tensor.alloc_window_buffer"]
    assert [a["attributes"]["name"] for a in allocs] == [{"str": "buf"}, {"str": "raw"}]
    assert allocs[0]["attributes"]["dtype"] == {"type": {"float": "f32"}}
    assert allocs[0]["mixed"]["sizes"] == [{"const": 4}, {"id": fn["arguments"][1]["id"]}]
    assert allocs[1]["mixed"]["sizes"] == [{"const": 4096}] and "dtype" not in allocs[1]["attributes"]
    window = next(op for op in fn["body"] if op["op"] == "pld.tensor.window")
    assert window["results"][0]["types"] == [{"dtensor": [4, None], "element": {"float": "f32"}}]
    assert window["operands"]["dynamic_sizes"] == [fn["arguments"][1]["id"]]
    put = next(op for op in fn["body"] if op["op"] == "pld.tensor.put")
    assert put["attributes"] == {"chunk_rows": {"int": 2}, "chunk_cols": {"int": 64}, "pipeline": {"unit": True}}
    assert put["mixed"] == {}  # no region: the optional lists are left out
    reduce = next(op for op in fn["body"] if op["op"] == "pld.tensor.allreduce")
    assert reduce["attributes"] == {"op": {"enum": "max"}, "algorithm": {"enum": "twoshot"}}
    assert reduce["results"][0]["types"] == window["results"][0]["types"]


@pl.jit.incore
def tiles(a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16],
          c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], data: pld.DistributedTensor[[1, 64], pl.FP32]):
    with pl.split_aiv(mode=pl.SplitMode.NONE):
        lane = pl.get_aiv_id()
    x = pl.load(a, [0, 0], [16, 32])
    y = pl.load(b, [0, 0], [32, 16])
    pl.store(pl.matmul(x, y), c, [0, 0])
    t = pl.load(data, [0, 0], [1, 32], valid_shape=[1, 30])
    u = pl.max(t, t) + pl.min(t, t) * t - pl.sub(t, t)
    pld.remote_store(u, data, 0, [0, 32])


def test_tiles():
    fn = function(tiles.description())
    names = op_names(fn["body"])
    assert names[:2] == ["pl.split_aiv", "pl.get_aiv_id"]
    mm = next(op for op in fn["body"] if op["op"] == "pl.matmul")
    assert mm["results"][0]["types"] == [{"tile": [16, 16], "element": {"float": "f32"}}]
    load = [op for op in fn["body"] if op["op"] == "pl.load"][-1]
    assert load["mixed"]["valid_sizes"] == [{"const": 1}, {"const": 30}]
    # `+` and `*` on tiles are pl.add and pl.mul; the short remote_store picks the tile form.
    assert names.count("pl.add") == 1 and names.count("pl.mul") == 1 and names.count("pl.sub") == 2
    assert "pld.tile.remote_store" in names


def test_pretty_prints():
    import handshake
    text = pretty(handshake.handshake_step.description())
    assert "pld.system.notify" in text and "offsets=[0, 0]" in text


@pl.jit.incore
def mixed_scalars(out: pl.Out[pl.Tensor[[1, 4], pl.INT32]], n: pl.Scalar[pl.INT32],
                  m: pl.Scalar[pl.INDEX], d: pld.DistributedTensor[[1, 4], pl.INT32]):
    acc = 0
    for i in pl.range(n):
        for j in pl.range(m):
            acc += 1
    small = 1 if not (n > m) else 2
    pl.write(out, [0, 0], acc)
    pl.write(out, [0, 1], small)
    t = pl.load(d, [0, 0], [1, 4])
    pl.store(t, [0, 0], out)
    pl.store(t, [0, 0], [1, 4], out)


def test_nested_loops_and_scalar_expressions():
    fn = function(mixed_scalars.description())
    outer = next(op for op in fn["body"] if op["op"] == "scf.for")
    (block,) = outer["regions"][0]["blocks"]
    inner = next(op for op in block["ops"] if op["op"] == "scf.for")
    # acc is carried through both loops.
    assert inner["operands"]["initArgs"] == [block["arguments"][1]["id"]]
    assert block["ops"][-1]["operands"]["results"] == inner["results"][0]["ids"]
    # n (i32) > m (index): compared as index.
    cmp = next(op for op in fn["body"] if op["op"] == "arith.cmpi")
    assert cmp["attributes"]["predicate"]["int"] == 4
    assert "arith.xori" in [op["op"] for op in fn["body"]]
    assert "arith.select" in [op["op"] for op in fn["body"]]
    stores = [op for op in fn["body"] if op["op"] == "pl.store"]
    assert len(stores) == 2 and all(s["operands"]["dest"] == [fn["arguments"][0]["id"]] for s in stores)


@pl.jit
def early_resolve(signal: pld.DistributedTensor[[2, 1], pl.INT32]):
    with pl.at(level=pl.Level.CORE, name_hint="t", allow_early_resolve=True) as tid:
        pld.tensor.barrier(signal)
    with pl.at(level=pl.Level.CORE_GROUP, deps=[tid]) as second:
        pld.tensor.barrier(signal)


def test_at_attributes():
    fn = function(early_resolve.description())
    first, second = [op for op in fn["body"] if op["op"] == "pl.at"]
    assert first["attributes"] == {"name_hint": {"str": "t"}, "level": {"enum": "core"},
                                   "allow_early_resolve": {"unit": True}}
    assert second["attributes"]["name_hint"] == {"str": "second"}  # the `as` name by default
    assert second["operands"] == {"deps": first["results"][0]["ids"], "dispatch_if": []}
    assert [r["name"] for r in first["regions"]] == ["body"]


def test_a_kernel_nested_in_a_function_reads_its_closure():
    width = 32

    @pl.jit.incore
    def nested(d: pld.DistributedTensor[[1, 64], pl.FP32], out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
        t = pl.load(d, [0, 0], [1, width])  # L:nested-load
        pl.store(t, out, [0, width])

    fn = function(nested.description())
    load = next(op for op in fn["body"] if op["op"] == "pl.load")
    assert load["results"][0]["types"] == [{"tile": [1, 32], "element": {"float": "f32"}}]
    assert load["loc"]["line"] == line_of(HERE, "# L:nested-load")
    assert load["loc"]["column"] == 13  # `pl.load` in the nested def's body
    store = next(op for op in fn["body"] if op["op"] == "pl.store")
    assert store["mixed"]["offsets"] == [{"const": 0}, {"const": 32}]


@pl.jit.incore
def tile_scalar_math(a: pl.Tensor[[1, 64], pl.FP32], out: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
                     k: pl.Scalar[pl.FP32]):
    x = pl.load(a, [0, 0], [1, 64])
    acc = pl.full([1, 64], pl.FP32, 0.0)
    acc = acc + 2.0 * x
    acc = pl.maxs(acc - k, 1)
    pl.store(acc, out, [0, 0])


def test_tile_scalar_math_and_full():
    fn = function(tile_scalar_math.description())
    ops = [op for op in walk(fn["body"]) if op["op"].startswith("pl.")]
    assert [op["op"] for op in ops] == ["pl.load", "pl.full", "pl.muls", "pl.add", "pl.subs", "pl.maxs", "pl.store"]
    full, muls, _, subs, maxs = ops[1:6]
    assert full["results"][0]["types"] == [{"tile": [1, 64], "element": {"float": "f32"}}]
    # `2.0 * x` is x times the constant; Python numbers take the element type.
    consts = {op["results"][0]["ids"][0]: op["attributes"]["value"] for op in walk(fn["body"])
              if op["op"] == "arith.constant"}
    assert consts[muls["operands"]["scalar"][0]] == {"float": 2.0, "type": {"float": "f32"}}
    assert consts[maxs["operands"]["scalar"][0]] == {"float": 1.0, "type": {"float": "f32"}}
    assert subs["operands"]["scalar"] == [fn["arguments"][2]["id"]]

