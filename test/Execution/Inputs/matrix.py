"""Runs one family of collectives over the matrix of PIPELINE §8 on the
simulator: every ReduceOp (where the collective reduces) x {f16, f32} x the
lengths {1, 17, 4097, 65537 (f32) / 8193 (f16)} x ranks {2, 3, 4, 8}, with
inputs chosen so that f16 results are exact, and checks every rank's result
and that the signal is all zeros afterwards (the epilogue).

usage: matrix.py FAMILY WORKDIR   (FAMILY: allreduce-mesh, allreduce-ring,
                                   reduce_scatter, allgather, broadcast,
                                   all_to_all, barrier)

One kernel per (op, dtype): shapes are dynamic and given with --shape, so
the simulator compiles each once and every length and rank count reuses it.
Prints one line per failed run and ends with `N passed, M failed`.
"""

import concurrent.futures
import pathlib
import subprocess
import sys

family, workdir = sys.argv[1], pathlib.Path(sys.argv[2])
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


def kernel(name, signature, body):
    return (
        f"func.func @{name}({signature}) attributes {{pl.kernel = #pl.kernel<incore>}} {{\n"
        f"  {body}\n  return\n}}\n"
    )


def runs():
    """(file name, kernel text, [pld-run arguments...]) per run."""
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
                    f"%r = pld.tensor.allreduce %d, %s, op {op}{mode} : !pld.dtensor<1x?x{t}>, {sig}",
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
                    f"%r = pld.tensor.reduce_scatter %d, %s, op {op} : !pld.dtensor<?x?x{t}>, !pld.dtensor<?x1xi32>",
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
                f"%r = pld.tensor.allgather %l, %d, %s : memref<1x?x{t}>, !pld.dtensor<?x?x{t}>, !pld.dtensor<?x1xi32>",
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
                f"%r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x?x{t}>, !pld.dtensor<?x1xi32>",
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
                f"%r = pld.tensor.all_to_all %in, %out, %s : !pld.dtensor<?x?x{t}>, !pld.dtensor<?x?x{t}>, !pld.dtensor<?x1xi32>",
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


def run(item):
    name, _, arguments = item
    path = workdir / name
    # Every run also checks pld's happens-before: the decompositions must be
    # race-free (docs/design/races.md).
    command = ["pld-run", str(path), "--sanitize", "race"] + arguments
    result = subprocess.run(command, capture_output=True, text=True)
    return command, result


items = list(runs())
# Written before any run starts so that no run reads a half-written kernel.
for name, text, _ in items:
    (workdir / name).write_text(text)
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    results = list(pool.map(run, items))
failed = 0
for command, result in results:
    if result.returncode != 0:
        failed += 1
        print(f"FAILED (exit {result.returncode}): {' '.join(command)}")
        print(result.stderr[-3000:])
print(f"{family}: {len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
