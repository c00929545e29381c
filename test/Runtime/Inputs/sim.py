"""Inputs and checks for simulator runs, driven by the run's job file.

  sim.py init JOB [ARG=EXPR]...    write the job's `input` file
  sim.py expect JOB [ARG=EXPR]...  compare the job's `output` file
  sim.py print JOB ARG             print an argument's values, one rank a line

EXPR is a Python expression over r (rank), n (ranks), i (row-major flat
index) and i0..i7 (index per dimension); arguments not given are 0. `nan`
expects a NaN: what the simulator poisons (a tile element no load wrote,
undefined on the device). Paths in
the job file are relative to the working directory, as for the harness.
"""

import itertools
import math
import struct
import sys

FORMATS = {"i1": "b", "i8": "b", "i16": "h", "i32": "i", "i64": "q",
           "index": "q", "f16": "e", "f32": "f", "f64": "d"}
SIZES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "index": 8,
         "f16": 2, "bf16": 2, "f32": 4, "f64": 8}


def parse_job(path):
    job = {"ranks": 0, "args": {}}
    for line in open(path):
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] in ("ranks",):
            job["ranks"] = int(words[1])
        elif words[0] in ("input", "output", "stats"):
            job[words[0]] = words[1]
        elif words[0] == "arg":
            dims = [int(d) for d in words[4].split("x")] if len(words) > 4 else []
            job["args"][int(words[1])] = (words[2], words[3], dims)
    return job


def bf16_bits(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even


def pack(dtype, value):
    if dtype == "bf16":
        return struct.pack("<H", bf16_bits(float(value)))
    if dtype.startswith("f"):
        return struct.pack("<" + FORMATS[dtype], float(value))
    return struct.pack("<" + FORMATS[dtype], int(value))


def unpack(dtype, data):
    if dtype == "bf16":
        bits = struct.unpack("<H", data)[0] << 16
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return struct.unpack("<" + FORMATS[dtype], data)[0]


def indices(dims):
    return itertools.product(*[range(d) for d in dims])


def values(expr, rank, ranks, dims):
    out = []
    for flat, index in enumerate(indices(dims)):
        env = {"r": rank, "n": ranks, "i": flat, "min": min, "max": max,
               "nan": math.nan}
        env.update({"i%d" % k: v for k, v in enumerate(index)})
        out.append(eval(expr, env))
    return out


def exprs(pairs):
    table = {}
    for pair in pairs:
        arg, expr = pair.split("=", 1)
        table[int(arg)] = expr
    return table


def init(job, pairs):
    table = exprs(pairs)
    data = bytearray()
    for rank in range(job["ranks"]):
        for index in sorted(job["args"]):
            kind, dtype, dims = job["args"][index]
            expr = table.get(index, "0")
            if kind == "scalar":
                value = eval(expr, {"r": rank, "n": job["ranks"]})
                form = "<d" if dtype.startswith(("f", "bf")) else "<q"
                data += struct.pack(form, value)
            else:
                for value in values(expr, rank, job["ranks"], dims):
                    data += pack(dtype, value)
    open(job["input"], "wb").write(data)
    return 0


def read_output(job):
    data = open(job["output"], "rb").read()
    out, at = {}, 0
    for rank in range(job["ranks"]):
        for index in sorted(job["args"]):
            kind, dtype, dims = job["args"][index]
            if kind == "scalar":
                continue
            size = SIZES[dtype]
            count = math.prod(dims)
            out[rank, index] = [unpack(dtype, data[at + k * size:at + (k + 1) * size])
                                for k in range(count)]
            at += count * size
    assert at == len(data), "output has %d bytes, expected %d" % (len(data), at)
    return out


def expect(job, pairs):
    got = read_output(job)
    bad = 0
    for index, expr in sorted(exprs(pairs).items()):
        dims = job["args"][index][2]
        for rank in range(job["ranks"]):
            want = values(expr, rank, job["ranks"], dims)
            for flat, (a, b) in enumerate(zip(got[rank, index], want)):
                if a != b and not (math.isnan(a) and math.isnan(b)):
                    bad += 1
                    if bad <= 10:
                        print("rank %d arg %d index %d: got %r, expected %r"
                              % (rank, index, flat, a, b))
    print("ok" if bad == 0 else "%d mismatches" % bad)
    return 1 if bad else 0


def show(job, arg):
    got = read_output(job)
    for rank in range(job["ranks"]):
        text = " ".join("%g" % v for v in got[rank, int(arg)])
        print("rank %d: %s" % (rank, text))
    return 0


def main(argv):
    job = parse_job(argv[1])
    if argv[0] == "init":
        return init(job, argv[2:])
    if argv[0] == "expect":
        return expect(job, argv[2:])
    if argv[0] == "print":
        return show(job, argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
