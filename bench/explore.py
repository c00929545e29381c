#!/usr/bin/env python3
"""How many schedules `pld-run --explore` runs to cover every distinct
interleaving of each collective's decomposition (docs/pld-run.md).

usage: bench/explore.py [--max N] [--ranks 2,3,4] [--chunks 1,2]
                        [--only "allreduce mesh,barrier"] [WORKDIR]

Each collective is written as a user writes it, naming its algorithm
(docs/pld-decompose-collectives.md), on f32 rows of 8 elements per chunk
(`chunk-bytes=32` for the seed's algorithms, a `ub-bytes` that leaves the
others 32-byte chunks; `--chunks 2` pipelines two chunks; twoshot splits
the stream into a segment per rank first), and explored with its results
and its signal's final zeros checked. Prints
one line per (collective, ranks, chunks): the summary pld-run prints and the
wall time. Needs pld-run on PATH. Not part of CI: the larger rows take
minutes.
"""

import argparse
import pathlib
import re
import subprocess
import tempfile
import time

COLLECTIVES = {
    # name: (signature, body, arguments(n, length))
    "allreduce mesh": (
        "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x1xi32>",
        "%r = pld.tensor.allreduce %d, %s, op sum algorithm seed_mesh : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0=1x{l}", "--shape", f"1={n}x1", "--init", "0=r + i",
                      "--expect", "0=sum_r(r + i)", "--expect", "1=0"],
    ),
    "allreduce oneshot": (
        "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x1xi32>",
        "%r = pld.tensor.allreduce %d, %s, op sum algorithm oneshot : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0=1x{l}", "--shape", f"1={n}x1", "--init", "0=r + i",
                      "--expect", "0=sum_r(r + i)", "--expect", "1=0"],
    ),
    "allreduce twoshot": (
        "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x1xi32>",
        "%r = pld.tensor.allreduce %d, %s, op sum algorithm twoshot : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0=1x{l * n}", "--shape", f"1={n}x1", "--init", "0=r + i",
                      "--expect", "0=sum_r(r + i)", "--expect", "1=0"],
    ),
    "allreduce ring": (
        "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x?xi32>",
        "%r = pld.tensor.allreduce %d, %s, op sum mode ring algorithm seed_ring : !pld.dtensor<1x?xf32>, !pld.dtensor<?x?xi32>",
        lambda n, l: ["--shape", f"0=1x{l}", "--shape", f"1={2 * (n - 1)}x{n}", "--init", "0=r + i",
                      "--expect", "0=sum_r(r + i)", "--expect", "1=0"],
    ),
    "reduce_scatter": (
        "%d: !pld.dtensor<?x?xf32>, %s: !pld.dtensor<?x1xi32>",
        "%r = pld.tensor.reduce_scatter %d, %s, op sum algorithm seed : !pld.dtensor<?x?xf32>, !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0={n}x{l}", "--shape", f"1={n}x1", "--init", "0=r + i",
                      "--expect", "0=(i0 == r) * sum_r(r + i) + (i0 != r) * (r + i)", "--expect", "1=0"],
    ),
    "allgather": (
        "%l: memref<1x?xf32>, %d: !pld.dtensor<?x?xf32>, %s: !pld.dtensor<?x1xi32>",
        "%r = pld.tensor.allgather %l, %d, %s algorithm seed : memref<1x?xf32>, !pld.dtensor<?x?xf32>, !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0=1x{l}", "--shape", f"1={n}x{l}", "--shape", f"2={n}x1",
                      "--init", "0=r * 7 + i", "--expect", "1=i0 * 7 + i1", "--expect", "2=0"],
    ),
    "broadcast": (
        "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x1xi32>, %root: index",
        "%r = pld.tensor.broadcast %d, %s, root %root algorithm seed : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0=1x{l}", "--shape", f"1={n}x1", "--init", "0=r * 5 + i",
                      "--init", "2=n - 1", "--expect", "0=(n - 1) * 5 + i", "--expect", "1=0"],
    ),
    "all_to_all": (
        "%in: !pld.dtensor<?x?xf32>, %out: !pld.dtensor<?x?xf32>, %s: !pld.dtensor<?x1xi32>",
        "%r = pld.tensor.all_to_all %in, %out, %s algorithm seed : !pld.dtensor<?x?xf32>, !pld.dtensor<?x?xf32>, !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0={n}x{l}", "--shape", f"1={n}x{l}", "--shape", f"2={n}x1",
                      "--init", "0=r * 8 + i0 * 3 + i1", "--expect", "1=i0 * 8 + r * 3 + i1", "--expect", "2=0"],
    ),
    "barrier": (
        "%s: !pld.dtensor<?x1xi32>",
        "pld.tensor.barrier %s : !pld.dtensor<?x1xi32>",
        lambda n, l: ["--shape", f"0={n}x1", "--expect", "0=0"],
    ),
}

ELEMENTS_PER_CHUNK = 8

# Unified-buffer bytes that leave the algorithms sized by it 32-byte chunks
# over a dynamic signal (rolled pulls): oneshot keeps 8 chunk tiles live,
# twoshot 6 (passes/src/decompose/choice.rs).
UB_BYTES = {"allreduce oneshot": 8 * 32, "allreduce twoshot": 6 * 32}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=20000)
    parser.add_argument("--ranks", default="2,3,4")
    parser.add_argument("--chunks", default="1")
    parser.add_argument("--only", help="comma-separated collectives (default: all)")
    parser.add_argument("workdir", nargs="?")
    args = parser.parse_args()
    workdir = pathlib.Path(args.workdir or tempfile.mkdtemp(prefix="pld-explore-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"{'collective':<16} {'ranks':>5} {'chunks':>6} {'schedules':>10} {'repeats':>8} {'result':<9} {'seconds':>8}")
    for name, (signature, body, arguments) in COLLECTIVES.items():
        if args.only and name not in args.only.split(","):
            continue
        options = f"chunk-bytes={4 * ELEMENTS_PER_CHUNK}"
        if name in UB_BYTES:
            options += f" ub-bytes={UB_BYTES[name]}"
        pipeline = f"builtin.module(pld-to-cce-pipeline{{{options}}})"
        path = workdir / (name.replace(" ", "_") + ".mlir")
        path.write_text(
            f"func.func @k({signature}) attributes {{pl.kernel = #pl.kernel<incore>}} {{\n"
            f"  {body}\n  return\n}}\n"
        )
        for n in map(int, args.ranks.split(",")):
            for chunks in map(int, args.chunks.split(",")):
                if name == "barrier" and chunks > 1:
                    continue
                start = time.monotonic()
                run = subprocess.run(
                    ["pld-run", str(path), "--ranks", str(n), "--pipeline", pipeline,
                     f"--explore={args.max}", *arguments(n, chunks * ELEMENTS_PER_CHUNK)],
                    capture_output=True, text=True)
                seconds = time.monotonic() - start
                found = re.search(r"explored (\d+) schedules(?:, (\d+) of them cut short as repeats)? \((complete|bounded)", run.stdout)
                if run.returncode != 0 or not found:
                    last = (run.stderr.strip().splitlines() or ["?"])[-1]
                    print(f"{name:<16} {n:>5} {chunks:>6} failed (status {run.returncode}): {last}")
                    continue
                schedules, repeats, result = found.group(1), found.group(2) or "0", found.group(3)
                print(f"{name:<16} {n:>5} {chunks:>6} {schedules:>10} {repeats:>8} {result:<9} {seconds:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
