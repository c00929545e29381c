"""The description as indented MLIR-like text, for reading and for tests
(the real MLIR comes from `Kernel.mlir()`, which needs `pld._native`)."""

from .ir import show


def _operand_list(op):
    parts = []
    for name, ids in op["operands"].items():
        if ids:
            parts.append(f"{name}=" + ",".join(f"%{i}" for i in ids))
    for name, entries in op["mixed"].items():
        items = [str(e["const"]) if "const" in e else f"%{e['id']}" for e in entries]
        parts.append(f"{name}=[{', '.join(items)}]")
    for name, attr in op["attributes"].items():
        parts.append(f"{name}={_attr(attr)}")
    return " ".join(parts)


def _attr(a):
    for key in ("enum", "str", "int", "ints", "bool", "float"):
        if key in a:
            return repr(a[key]) if key == "str" else str(a[key])
    if "unit" in a:
        return "unit"
    if "type" in a:
        return show(a["type"])
    return repr(a)


def _ops(ops, indent, out):
    for op in ops:
        results = [i for g in op["results"] for i in g["ids"]]
        lhs = ", ".join(f"%{i}" for i in results)
        line = " " * indent + (f"{lhs} = " if lhs else "") + op["op"]
        rest = _operand_list(op)
        if rest:
            line += " " + rest
        line += f"  @{op['loc']['line']}:{op['loc']['column']}"
        out.append(line)
        for region in op["regions"]:
            out.append(" " * (indent + 2) + f"{region['name']}:")
            for block in region["blocks"]:
                args = ", ".join(f"%{a['id']}: {show(a['type'])}" for a in block["arguments"])
                out.append(" " * (indent + 2) + f"^bb({args})")
                _ops(block["ops"], indent + 4, out)


def pretty(description):
    out = []
    for fn in description["functions"]:
        args = ", ".join(f"%{a['id']} {a['name']}: {show(a['type'])}" for a in fn["arguments"])
        out.append(f"func {fn['name']} [{fn['kind']}] ({args})")
        _ops(fn["body"], 2, out)
    return "\n".join(out)
