"""Runs one family of collectives over the matrix of pipeline §8 on the
simulator, and checks every rank's result and that the signal is all zeros
afterwards (the epilogue). Every run also checks pld's happens-before
(--sanitize race): the decompositions must be race-free.

usage: matrix.py FAMILY WORKDIR [--backend mpi [PLD-RUN-OPTION...]]

With `--backend mpi` the runs are on MPI processes (pld-run --backend mpi
and the options after it, such as --mpi-mode rma) instead of --sanitize
race on the simulator, and only a sample of two: the
first and the last run with an odd number of ranks and a ragged length (more
than one element, not a multiple of 8), as every mpirun costs a fraction of a
second.

The seed's algorithms (semantics §4, named explicitly): allreduce-mesh,
allreduce-ring, reduce_scatter, allgather, broadcast, all_to_all, barrier:
every ReduceOp (where the collective reduces) x {f16, f32} x the lengths
{1, 17, 4097, 65537 (f32) / 8193 (f16)} x ranks {2, 3, 4, 8}, with inputs
chosen so that f16 results are exact.

The faster algorithms (docs/pld-decompose-collectives.md):
allreduce-oneshot, allreduce-twoshot, allreduce-twoshot_push,
reduce_scatter-direct, allgather-direct, broadcast-star,
broadcast-scatter_allgather, all_to_all-direct, on ranks {2, 3, 5, 8} and
the lengths {1, 17, 4097, one more than a chunk}: each kernel once with a
static signal `[8, 2]` (the pulls unrolled over 8 ranks, those at or
beyond n skipped; the barriers counted on the second column) and once with
a dynamic `[?, 1]` (rolled, a cell per source); a static length of one
chunk (17 and 1000 elements, each signal) runs the one-chunk forms on 3
and 8 ranks; `sum` (or plain data) at every length and rank count,
the other ops on fewer; f16, f32 and, where the op takes it, i32. Allreduce
also runs an input whose f32 sum depends on the order of the additions and
checks that every rank holds bit-identical results. Allgather's `local`
is a distributed tensor for f32 (peers read it where it is) and a memref
for f16 and i32 (published into the window first). auto-dynamic runs
`auto` on dynamic sizes, which branches at run time between two
algorithms, on either side of the branch.

One kernel per (op, dtype, signal): shapes are dynamic and given with
--shape, so the simulator compiles each once and every length and rank
count reuses it. With PLD_MATRIX_SAMPLE set (scripts/sanitize.sh's lit run,
where pld-run's compile path is instrumented and the programs it builds are
not), each kernel still compiles but runs only its first and last case.
Prints each failed run (to stdout and stderr) and ends with
`N passed, M failed`.
"""

import concurrent.futures
import os
import pathlib
import subprocess
import sys

family, workdir = sys.argv[1], pathlib.Path(sys.argv[2])
backend_options = sys.argv[3:]
backend = backend_options[1] if backend_options[:1] == ["--backend"] else "thread"
workdir.mkdir(parents=True, exist_ok=True)

RANKS = [2, 3, 4, 8]
LENGTHS = {"f32": [1, 17, 4097, 65537], "f16": [1, 17, 4097, 8193]}
OPS = ["sum", "max", "min", "prod"]

# Per-rank inputs whose reductions f16 holds exactly, and the reduction.
INIT = {
    "sum": "(r + i) % 7",
    "max": "(r * 3 + i) % 11",
    "min": "(r * 3 + i) % 11",
    "prod": "1 + (r + i) % 2",
}
REDUCE = {"sum": "sum_r", "max": "max_r", "min": "min_r", "prod": "prod_r"}
SEED = {
    "allreduce-mesh": "seed_mesh",
    "allreduce-ring": "seed_ring",
    "reduce_scatter": "seed",
    "allgather": "seed",
    "broadcast": "seed",
    "all_to_all": "seed",
}

# The faster algorithms: ranks, and for the ops other than sum fewer cases.
NEW_RANKS = [2, 3, 5, 8]
FEW_RANKS = [3, 8]
ELEMENT_BYTES = {"f16": 2, "f32": 4, "i32": 4}
# The chunk widths of pld-decompose-collectives with its default ub-bytes
# (passes/src/decompose/{pull,choice}.rs): the widest 32-byte chunk whose
# live tiles fit the unified buffer. A reduction keeps 2N tiles (N <= 8
# unrolled) or 6 (rolled); a gather N + 1 or 3; oneshot two more than a
# reduction, twoshot the larger of the two.
UB_BYTES = 196608


def tiles(algorithm, static):
    reduce = 2 * 8 if static else 6
    gather = 8 + 1 if static else 3
    return {
        "oneshot": reduce + 2,
        "twoshot": max(reduce, gather),
        "twoshot_push": reduce,
        "reduce_scatter-direct": reduce,
    }.get(algorithm, gather)


def chunk(algorithm, static, dtype):
    if algorithm == "star":
        return 16384 // ELEMENT_BYTES[dtype]
    return UB_BYTES // tiles(algorithm, static) // 32 * 32 // ELEMENT_BYTES[dtype]


def lengths(algorithm, static, dtype, n):
    """1, 17, 4097 and one more than a chunk (for the algorithms that split
    the stream into segments, one more than a chunk per segment)."""
    width = chunk(algorithm, static, dtype)
    segmented = algorithm in ["twoshot", "twoshot_push", "scatter_allgather"]
    return [1, 17, 4097, n * (width + 1) if segmented else width + 1]


def kernel(name, signature, body):
    return (
        f"func.func @{name}({signature}) attributes {{pl.kernel = #pl.kernel<incore>}} {{\n"
        f"  {body}\n  return\n}}\n"
    )


def seed_runs():
    """(file name, kernel text, [pld-run arguments...]) per run of the
    seed's matrix."""
    algorithm = SEED.get(family)
    for dtype in ["f32", "f16"]:
        t = dtype
        if family.startswith("allreduce"):
            ring = family.endswith("ring")
            sig = "!pld.dtensor<?x?xi32>" if ring else "!pld.dtensor<?x1xi32>"
            mode = " mode ring" if ring else ""
            for op in OPS:
                text = kernel(
                    "allreduce",
                    f"%d: !pld.dtensor<1x?x{t}>, %s: {sig}",
                    f"%r = pld.tensor.allreduce %d, %s, op {op}{mode} algorithm {algorithm} : !pld.dtensor<1x?x{t}>, {sig}",
                )
                for n in RANKS:
                    signal = f"{2 * (n - 1)}x{n}" if ring else f"{n}x1"
                    for length in LENGTHS[dtype]:
                        yield f"allreduce-{op}-{t}-{'ring' if ring else 'mesh'}.mlir", text, [
                            "--ranks", str(n), "--shape", f"0=1x{length}", "--shape", f"1={signal}",
                            "--init", f"0={INIT[op]}", "--expect", f"0={REDUCE[op]}({INIT[op]})",
                            "--expect", "1=0",
                        ]
        elif family == "reduce_scatter":
            for op in OPS:
                text = kernel(
                    "reduce_scatter",
                    f"%d: !pld.dtensor<?x?x{t}>, %s: !pld.dtensor<?x1xi32>",
                    f"%r = pld.tensor.reduce_scatter %d, %s, op {op} algorithm {algorithm} : !pld.dtensor<?x?x{t}>, !pld.dtensor<?x1xi32>",
                )
                for n in RANKS:
                    for length in LENGTHS[dtype]:
                        init = INIT[op]
                        # Row r of rank r is reduced; the other rows are untouched.
                        expect = f"(i0 == r) * {REDUCE[op]}({init}) + (i0 != r) * ({init})"
                        yield f"reduce_scatter-{op}-{t}.mlir", text, [
                            "--ranks", str(n), "--shape", f"0={n}x{length}", "--shape", f"1={n}x1",
                            "--init", f"0={init}", "--expect", f"0={expect}", "--expect", "1=0",
                        ]
        elif family == "allgather":
            text = kernel(
                "allgather",
                f"%l: memref<1x?x{t}>, %d: !pld.dtensor<?x?x{t}>, %s: !pld.dtensor<?x1xi32>",
                f"%r = pld.tensor.allgather %l, %d, %s algorithm {algorithm} : memref<1x?x{t}>, !pld.dtensor<?x?x{t}>, !pld.dtensor<?x1xi32>",
            )
            for n in RANKS:
                for length in LENGTHS[dtype]:
                    yield f"allgather-{t}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0=1x{length}", "--shape", f"1={n}x{length}",
                        "--shape", f"2={n}x1", "--init", "0=(r * 7 + i) % 64",
                        "--expect", "1=(i0 * 7 + i1) % 64", "--expect", "2=0",
                    ]
        elif family == "broadcast":
            text = kernel(
                "broadcast",
                f"%d: !pld.dtensor<1x?x{t}>, %s: !pld.dtensor<?x1xi32>, %root: index",
                f"%r = pld.tensor.broadcast %d, %s, root %root algorithm {algorithm} : !pld.dtensor<1x?x{t}>, !pld.dtensor<?x1xi32>",
            )
            for n in RANKS:
                for length in LENGTHS[dtype]:
                    # The last rank is the root.
                    yield f"broadcast-{t}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0=1x{length}", "--shape", f"1={n}x1",
                        "--init", "0=(r * 5 + i) % 64", "--init", "2=n - 1",
                        "--expect", "0=((n - 1) * 5 + i) % 64", "--expect", "1=0",
                    ]
        elif family == "all_to_all":
            text = kernel(
                "all_to_all",
                f"%in: !pld.dtensor<?x?x{t}>, %out: !pld.dtensor<?x?x{t}>, %s: !pld.dtensor<?x1xi32>",
                f"%r = pld.tensor.all_to_all %in, %out, %s algorithm {algorithm} : !pld.dtensor<?x?x{t}>, !pld.dtensor<?x?x{t}>, !pld.dtensor<?x1xi32>",
            )
            for n in RANKS:
                for length in LENGTHS[dtype]:
                    # Row d of rank r's input lands in row r of rank d's target.
                    yield f"all_to_all-{t}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0={n}x{length}", "--shape", f"1={n}x{length}",
                        "--shape", f"2={n}x1", "--init", "0=(r * 8 + i0 * 3 + i1) % 64",
                        "--expect", "1=(i0 * 8 + r * 3 + i1) % 64", "--expect", "2=0",
                    ]
        elif family == "barrier" and dtype == "f32":
            text = kernel(
                "barrier",
                "%s: !pld.dtensor<?x1xi32>",
                "pld.tensor.barrier %s : !pld.dtensor<?x1xi32>",
            )
            for n in RANKS:
                yield "barrier.mlir", text, [
                    "--ranks", str(n), "--shape", f"0={n}x1", "--expect", "0=0",
                ]


def new_cases(reduces, dtypes):
    """(op, dtype, static signal, ranks, which lengths) of a faster
    algorithm: sum (or plain data) at every length and rank count with the
    static signal, at the two longer lengths with the dynamic one; the
    other ops with the static signal on fewer ranks and the two longer
    lengths."""
    for dtype in dtypes:
        for op in OPS if reduces else [None]:
            if op in [None, "sum"]:
                yield op, dtype, True, NEW_RANKS, [0, 1, 2, 3]
                yield op, dtype, False, NEW_RANKS, [1, 3]
            elif dtype != "i32":
                yield op, dtype, True, FEW_RANKS, [1, 3]


def new_runs():
    """Runs of the faster algorithms."""
    collective, algorithm = family.split("-", 1)
    attribute = f"algorithm {algorithm}"
    reduces = collective in ["allreduce", "reduce_scatter"]
    dtypes = ["f32", "f16"] if collective == "allreduce" else ["f32", "f16", "i32"]
    key = f"{collective}-direct" if collective == "reduce_scatter" else algorithm
    cases = [
        (op, t, "8x2" if static else "?x1", "?", ranks,
         lambda n, t=t, static=static, picks=picks: [lengths(key, static, t, n)[pick] for pick in picks])
        for op, t, static, ranks, picks in new_cases(reduces, dtypes)
    ] + [
        ("sum" if reduces else None, "f32", signal, str(length), [3, 8], lambda n, length=length: [length])
        for signal in ["8x2", "8x1"]
        for length in [17, 1000]
    ]
    for op, t, signal_shape, len_dim, ranks, row_lengths in cases:
        static = not signal_shape.startswith("?")
        sig = f"!pld.dtensor<{signal_shape}xi32>"
        rows = "8" if static else "?"
        tag = f"{algorithm}-{op or 'data'}-{t}-{signal_shape.replace('?', 'dyn')}-{len_dim.replace('?', 'dyn')}"
        for n in ranks:
            signal = [] if static else ["--shape", f"1={n}x1"]
            for length in row_lengths(n):
                if collective == "allreduce":
                    text = kernel(
                        "allreduce",
                        f"%d: !pld.dtensor<1x{len_dim}x{t}>, %s: {sig}",
                        f"%r = pld.tensor.allreduce %d, %s, op {op} {attribute} : !pld.dtensor<1x{len_dim}x{t}>, {sig}",
                    )
                    yield f"{tag}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0=1x{length}", *signal,
                        "--init", f"0={INIT[op]}", "--expect", f"0={REDUCE[op]}({INIT[op]})",
                        "--expect", "1=0",
                    ]
                elif collective == "reduce_scatter":
                    text = kernel(
                        "reduce_scatter",
                        f"%d: !pld.dtensor<{rows}x{len_dim}x{t}>, %s: {sig}",
                        f"%r = pld.tensor.reduce_scatter %d, %s, op {op} {attribute} : !pld.dtensor<{rows}x{len_dim}x{t}>, {sig}",
                    )
                    init = INIT[op]
                    target_rows = 8 if static else n
                    expect = f"(i0 == r) * {REDUCE[op]}({init}) + (i0 != r) * ({init})"
                    yield f"{tag}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0={target_rows}x{length}", *signal,
                        "--init", f"0={init}", "--expect", f"0={expect}", "--expect", "1=0",
                    ]
                elif collective == "allgather":
                    # `local` in the window (read where it is) for f32, in
                    # private memory (published first) for the others.
                    local = f"!pld.dtensor<1x{len_dim}x{t}>" if t == "f32" else f"memref<1x{len_dim}x{t}>"
                    text = kernel(
                        "allgather",
                        f"%l: {local}, %d: !pld.dtensor<{rows}x{len_dim}x{t}>, %s: {sig}",
                        f"%r = pld.tensor.allgather %l, %d, %s {attribute} : {local}, !pld.dtensor<{rows}x{len_dim}x{t}>, {sig}",
                    )
                    target_rows = 8 if static else n
                    signal = [] if static else ["--shape", f"2={n}x1"]
                    # Rows of ranks beyond n stay 0.
                    yield f"{tag}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0=1x{length}",
                        "--shape", f"1={target_rows}x{length}", *signal,
                        "--init", "0=(r * 7 + i) % 64",
                        "--expect", "1=(i0 < n) * ((i0 * 7 + i1) % 64)", "--expect", "2=0",
                    ]
                elif collective == "broadcast":
                    text = kernel(
                        "broadcast",
                        f"%d: !pld.dtensor<1x{len_dim}x{t}>, %s: {sig}, %root: index",
                        f"%r = pld.tensor.broadcast %d, %s, root %root {attribute} : !pld.dtensor<1x{len_dim}x{t}>, {sig}",
                    )
                    # The root is rank 1: neither the first nor the last.
                    yield f"{tag}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0=1x{length}", *signal,
                        "--init", "0=(r * 5 + i) % 64", "--init", "2=1",
                        "--expect", "0=(5 + i) % 64", "--expect", "1=0",
                    ]
                elif collective == "all_to_all":
                    text = kernel(
                        "all_to_all",
                        f"%in: !pld.dtensor<{rows}x{len_dim}x{t}>, %out: !pld.dtensor<{rows}x{len_dim}x{t}>, %s: {sig}",
                        f"%r = pld.tensor.all_to_all %in, %out, %s {attribute} : !pld.dtensor<{rows}x{len_dim}x{t}>, !pld.dtensor<{rows}x{len_dim}x{t}>, {sig}",
                    )
                    target_rows = 8 if static else n
                    signal = [] if static else ["--shape", f"2={n}x1"]
                    yield f"{tag}.mlir", text, [
                        "--ranks", str(n), "--shape", f"0={target_rows}x{length}",
                        "--shape", f"1={target_rows}x{length}", *signal,
                        "--init", "0=(r * 8 + i0 * 3 + i1) % 64",
                        "--expect", "1=(i0 < n) * ((i0 * 8 + r * 3 + i1) % 64)", "--expect", "2=0",
                    ]
    if collective == "allreduce":
        # Sums whose f32 rounding depends on the order of the additions:
        # every rank combines in the order of the ranks, so all hold the
        # same bits (compared below, from the dumps).
        text = kernel(
            "allreduce",
            "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<8x1xi32>",
            f"%r = pld.tensor.allreduce %d, %s, op sum {attribute} : !pld.dtensor<1x?xf32>, !pld.dtensor<8x1xi32>",
        )
        init = "((r * 37 + i) % 101) * 0.1 + r * 0.37"
        for n in [3, 8]:
            length = lengths(key, True, "f32", n)[3]
            yield f"{algorithm}-bits.mlir", text, [
                "--ranks", str(n), "--shape", f"0=1x{length}", "--init", f"0={init}",
                "--expect", f"0=sum_r({init})", "--expect", "1=0", "--dump", "BITS",
            ]


def auto_runs():
    """`auto` on dynamic sizes: a runtime branch between the algorithm that
    wins small and the one that wins large, run on either side."""
    text = kernel(
        "allreduce",
        "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<8x1xi32>",
        "%r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x?xf32>, !pld.dtensor<8x1xi32>",
    )
    for n in [3, 8]:
        for length in [17, 300000]:
            yield "auto-allreduce.mlir", text, [
                "--ranks", str(n), "--shape", f"0=1x{length}", "--init", "0=(r + i) % 7",
                "--expect", "0=sum_r((r + i) % 7)", "--expect", "1=0",
            ]
    text = kernel(
        "broadcast",
        "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<8x1xi32>, %root: index",
        "%r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x?xf32>, !pld.dtensor<8x1xi32>",
    )
    for n in [3, 8]:
        for length in [17, 300000]:
            yield "auto-broadcast.mlir", text, [
                "--ranks", str(n), "--shape", f"0=1x{length}", "--init", "0=(r * 5 + i) % 64",
                "--init", "2=n - 1", "--expect", "0=((n - 1) * 5 + i) % 64", "--expect", "1=0",
            ]
    text = kernel(
        "allgather",
        "%l: memref<1x?xf32>, %d: !pld.dtensor<8x?xf32>, %s: !pld.dtensor<8x1xi32>",
        "%r = pld.tensor.allgather %l, %d, %s : memref<1x?xf32>, !pld.dtensor<8x?xf32>, !pld.dtensor<8x1xi32>",
    )
    for n in [3, 8]:
        for length in [17, 100000]:
            yield "auto-allgather.mlir", text, [
                "--ranks", str(n), "--shape", f"0=1x{length}", "--shape", f"1=8x{length}",
                "--init", "0=(r * 7 + i) % 64",
                "--expect", "1=(i0 < n) * ((i0 * 7 + i1) % 64)", "--expect", "2=0",
            ]


def runs():
    if family == "auto-dynamic":
        return list(auto_runs())
    if family in SEED or family == "barrier":
        return list(seed_runs())
    return list(new_runs())


def run(item):
    index, (name, _, arguments) = item
    path = workdir / name
    arguments = [
        str(workdir / f"bits{index}") if argument == "BITS" else argument
        for argument in arguments
    ]
    checks = ["--sanitize", "race"] if backend == "thread" else backend_options
    command = ["pld-run", str(path)] + checks + arguments
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode == 0 and "--dump" in arguments:
        dumps = sorted((workdir / f"bits{index}").glob("rank*.arg0.npy"))
        contents = {dump.read_bytes() for dump in dumps}
        if len(dumps) < 2 or len(contents) != 1:
            result.returncode = 1
            result.stderr += f"\nthe ranks' results differ in their bits ({len(dumps)} dumps)"
    return command, result


def row_length(item):
    """The length (last dimension) of a run's first shaped argument."""
    arguments = item[2]
    return int(arguments[arguments.index("--shape") + 1].split("x")[-1])


def sample(items):
    """The first and the last run on odd ranks with a ragged length."""
    def ragged_odd(item):
        arguments = item[2]
        ranks = int(arguments[arguments.index("--ranks") + 1])
        return ranks % 2 == 1 and row_length(item) > 1 and row_length(item) % 8 != 0
    chosen = [item for item in items if ragged_odd(item)]
    return chosen[:1] + chosen[-1:] if len(chosen) > 1 else chosen


def per_kernel(items):
    """Of each kernel, the first run and the last with at most 4097
    elements: the most ranks and more than one chunk, without the time
    pld-run's instrumented --init and --expect take on the longest rows."""
    by_kernel = {}
    for item in items:
        by_kernel.setdefault(item[0], []).append(item)
    chosen = []
    for cases in by_kernel.values():
        short = [case for case in cases[1:] if row_length(case) <= 4097]
        chosen += cases[:1] + short[-1:]
    return chosen


items = runs()
if backend != "thread":
    items = sample(items)
elif os.environ.get("PLD_MATRIX_SAMPLE"):
    items = per_kernel(items)
# Written before any run starts so that no run reads a half-written kernel.
for name, text, _ in items:
    (workdir / name).write_text(text)
# Two runs at a time on the simulator; MPI jobs one after another, as each
# already starts a process per rank.
workers = 2 if backend == "thread" else 1
with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
    results = list(pool.map(run, enumerate(items)))
failed = 0
for command, result in results:
    if result.returncode != 0:
        failed += 1
        # Also on stderr: lit shows it even when FileCheck's input is cut.
        for stream in (sys.stdout, sys.stderr):
            print(f"FAILED (exit {result.returncode}): {' '.join(command)}", file=stream)
            print(result.stdout[-1000:] + result.stderr[-3000:], file=stream)
print(f"{family}: {len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
