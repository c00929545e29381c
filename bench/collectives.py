#!/usr/bin/env python3
"""Modelled time of every collective, size, rank count and algorithm
(issue 19; a benchmark, not a test: CI does not run it).

Each case is a kernel with static shapes (so that `auto` decides at compile
time, as a user's kernel with known sizes would), run by the release
`pld-run --timing --stats=json` on the 910b model (docs/performance.md),
and set beside the alpha-beta reference for its size under the same model
(alpha = one hop, B = one link, I = one rank's ingress, S = the
collective's buffer, n = ranks):

  allreduce, broadcast:       min(2a + max(S/B, (n-1)S/I),
                                  3a + max(2S/(nB), 2(n-1)S/(nI)))
  reduce_scatter, allgather:  2a + max(S/(nB), (n-1)S/(nI))

S is one rank's vector for allreduce and broadcast, the n-row buffer for
reduce_scatter and allgather. The allgather's `local` row is in the window
(a distributed tensor), as the in-place reference has it; with
`--allgather-local private` it is a memref, which the decomposition first
copies into the window. The mesh signals are `[n, 2]`, whose second
column lets the faster algorithms count their barriers (one wait each);
`--signal cells` gives them `[n, 1]`. With `--cores C` the collectives run
on C vector cores of every rank (`core_num C`, `pld-run --blocks C`, the
signal `[n, 2 C]` or `[n, C]`; the algorithms that run on one core are
left out). With `--epoch` the allreduces take `epoch %e workspace %w`
(the first call, e = 1) and run the epoch algorithms, which synchronise
once per call (oneshot_epoch) or twice (twoshot_epoch). Every run checks
its result (--expect), so a fast wrong algorithm shows up as a failure,
not a number.

usage: python3 bench/collectives.py [--quick] [--json] [--plot FILE.png]
                                    [--from-json FILE]
                                    [--ranks N,...] [--sizes BYTES,...]
                                    [--collectives NAME,...]
                                    [--algorithms NAME,...] [--jobs J]
                                    [--allgather-local window|private]
                                    [--signal counters|cells] [--cores C]
                                    [--epoch]
  (default: 1 KiB .. 64 MiB x ranks 2, 4, 8, 16 x every algorithm;
   --quick: 4 KiB .. 16 MiB at 8 ranks)
  PLD_RUN=path uses that pld-run instead of building the release one.
"""

import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys
import tempfile

from release_tool import release_tool


# Per collective: the algorithms beside `auto`, the seed's first.
ALGORITHMS = {
    "allreduce": ["seed_mesh", "seed_ring", "oneshot", "twoshot", "twoshot_push"],
    "reduce_scatter": ["seed", "direct"],
    "allgather": ["seed", "direct"],
    "broadcast": ["seed", "star", "scatter_allgather"],
}
ELEMENT_BYTES = 4  # f32


def pld_run():
    return release_tool("pld-run", "PLD_RUN")


def signal_shape(collective, algorithm, n, counters, cores=1):
    """The signal of `algorithm`: every one counts on one cell per source
    rank (`[n, 1]`), with a second column of counters for the faster
    algorithms' barriers where `counters` (`[n, 2]`), but the ring, which
    needs a row per ring step (docs/pld-decompose-collectives.md); on C
    cores, C times as many columns."""
    if collective == "allreduce" and algorithm in ("seed_ring", "ring"):
        return f"{2 * (n - 1)}x{n}"
    return f"{n}x{(2 if counters else 1) * cores}"


# An allreduce's algorithms with `epoch %e workspace %w`: these alone, on
# one core or several.
EPOCH_ALGORITHMS = ["oneshot_epoch", "twoshot_epoch"]


# The algorithms that run on a part of the data, on several cores
# (CollectiveOpInterface::getPartitionedAlgorithms).
PARTITIONED = {
    "allreduce": ["oneshot", "twoshot", "twoshot_push"],
    "reduce_scatter": ["direct"],
    "allgather": ["direct"],
    "broadcast": ["star", "scatter_allgather"],
}


def kernel(collective, algorithm, n, elements, allgather_local, counters=True, cores=1,
           epoch=False):
    """The kernel text, and the pld-run arguments that check its result."""
    sig = f"!pld.dtensor<{signal_shape(collective, algorithm, n, counters, cores)}xi32>"
    attribute = "" if algorithm == "auto" else f" algorithm {algorithm}"
    if cores > 1:
        attribute += f" core_num {cores}"
    mode = " mode ring" if collective == "allreduce" and algorithm in ("seed_ring", "ring") else ""
    if collective == "allreduce" and epoch:
        t = f"!pld.dtensor<1x{elements}xf32>"
        w = f"!pld.dtensor<2x{elements}xf32>"
        body = (f"%r = pld.tensor.allreduce %d, %s, op sum{attribute} epoch %e workspace %w"
                f" : {t}, {sig}, {w}")
        signature = f"%d: {t}, %s: {sig}, %e: index, %w: {w}"
        check = ["--init", "0=(r + i) % 7", "--init", "e=1", "--expect", "0=sum_r((r + i) % 7)"]
    elif collective == "allreduce":
        t = f"!pld.dtensor<1x{elements}xf32>"
        body = f"%r = pld.tensor.allreduce %d, %s, op sum{mode}{attribute} : {t}, {sig}"
        signature = f"%d: {t}, %s: {sig}"
        check = ["--init", "0=(r + i) % 7", "--expect", "0=sum_r((r + i) % 7)"]
    elif collective == "broadcast":
        t = f"!pld.dtensor<1x{elements}xf32>"
        body = (
            f"%root = arith.constant 0 : index\n  "
            f"%r = pld.tensor.broadcast %d, %s, root %root{attribute} : {t}, {sig}"
        )
        signature = f"%d: {t}, %s: {sig}"
        check = ["--init", "0=(r == 0) * (i % 5 + 1)", "--expect", "0=i % 5 + 1"]
    elif collective == "reduce_scatter":
        size = elements // n
        t = f"!pld.dtensor<{n}x{size}xf32>"
        body = f"%r = pld.tensor.reduce_scatter %d, %s, op sum{attribute} : {t}, {sig}"
        signature = f"%d: {t}, %s: {sig}"
        check = ["--init", "0=(r + i) % 7", "--expect", "0=(i0 == r) * sum_r((r + i) % 7) + (i0 != r) * ((r + i) % 7)"]
    else:  # allgather
        size = elements // n
        local = f"!pld.dtensor<1x{size}xf32>" if allgather_local == "window" else f"memref<1x{size}xf32>"
        t = f"!pld.dtensor<{n}x{size}xf32>"
        body = f"%r = pld.tensor.allgather %l, %d, %s{attribute} : {local}, {t}, {sig}"
        signature = f"%l: {local}, %d: {t}, %s: {sig}"
        check = ["--init", "0=r * 10 + i % 10", "--expect", "1=i0 * 10 + i1 % 10"]
    text = (
        f"func.func @{collective}({signature}) attributes {{pl.kernel = #pl.kernel<incore>}} {{\n"
        f"  {body}\n  return\n}}\n"
    )
    return text, check


def reference_ns(collective, n, size_bytes, model):
    a = model["alpha_ns"]
    b = model["link_bytes_per_ns"]
    i = model["ingress_bytes_per_ns"]
    s = float(size_bytes)
    if collective in ("allreduce", "broadcast"):
        return min(
            2 * a + max(s / b, (n - 1) * s / i),
            3 * a + max(2 * s / (n * b), 2 * (n - 1) * s / (n * i)),
        )
    return 2 * a + max(s / (n * b), (n - 1) * s / (n * i))


def run_case(binary, workdir, allgather_local, counters, cores, epoch, collective, algorithm, n,
             size_bytes):
    elements = size_bytes // ELEMENT_BYTES
    text, check = kernel(collective, algorithm, n, elements, allgather_local, counters, cores,
                         epoch)
    path = workdir / f"{collective}-{algorithm}-{n}-{size_bytes}.mlir"
    path.write_text(text)
    blocks = cores
    command = [binary, str(path), "--ranks", str(n), "--blocks", str(blocks), "--timing",
               "--stats=json", "--timeout", "3600"]
    result = subprocess.run(command + check, capture_output=True, text=True)
    case = {"collective": collective, "ranks": n, "bytes": size_bytes, "algorithm": algorithm,
            "cores": blocks}
    if result.returncode != 0:
        case["error"] = (result.stderr.strip().splitlines() or ["exit %d" % result.returncode])[-1]
        return case
    stats = json.loads(result.stdout.strip().splitlines()[-1])
    case["modelled_ns"] = stats["modelled_ns"]
    case["model"] = stats["model"]
    case["reference_ns"] = reference_ns(collective, n, size_bytes, stats["model"])
    return case


def sizes_between(low, high):
    size = low
    while size <= high:
        yield size
        size *= 2


def plot(cases, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("--plot needs matplotlib (pip install matplotlib)")
    collectives = [c for c in ALGORITHMS if any(x["collective"] == c for x in cases)]
    figure, axes = plt.subplots(1, len(collectives), figsize=(5 * len(collectives), 4.2), squeeze=False)
    for axis, collective in zip(axes[0], collectives):
        mine = [c for c in cases if c["collective"] == collective and "modelled_ns" in c]
        n = max(c["ranks"] for c in mine)
        mine = [c for c in mine if c["ranks"] == n]
        # auto last, wide and translucent: it lies on the algorithm it chose.
        for algorithm in ALGORITHMS[collective] + ["auto"]:
            points = sorted((c["bytes"], c["modelled_ns"] / 1e3) for c in mine if c["algorithm"] == algorithm)
            if points:
                if algorithm == "auto":
                    style = dict(linestyle="-", linewidth=5, alpha=0.35, color="gray")
                else:
                    style = dict(linestyle="--", marker="o", markersize=3)
                axis.plot(*zip(*points), label=algorithm, **style)
        reference = sorted({(c["bytes"], c["reference_ns"] / 1e3) for c in mine})
        axis.plot(*zip(*reference), ":", color="black", label="alpha-beta reference")
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.set_title(f"{collective}, {n} ranks")
        axis.set_xlabel("bytes")
        axis.set_ylabel("modelled us")
        axis.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--plot")
    parser.add_argument("--ranks")
    parser.add_argument("--sizes")
    parser.add_argument("--collectives")
    parser.add_argument("--algorithms")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--allgather-local", choices=["window", "private"], default="window")
    parser.add_argument("--signal", choices=["counters", "cells"], default="counters")
    parser.add_argument("--cores", type=int, default=1, help="vector cores per rank (core_num)")
    parser.add_argument("--epoch", action="store_true",
                        help="allreduces with an epoch and workspace (the epoch algorithms)")
    parser.add_argument("--from-json", metavar="FILE", help="tabulate and plot the lines of an earlier --json run instead of running")
    args = parser.parse_args()
    if args.from_json:
        cases = [json.loads(line) for line in open(args.from_json) if line.strip()]
        report(cases, args.plot)
        return
    ranks = [8] if args.quick else [2, 4, 8, 16]
    sizes = list(sizes_between(4096, 16 << 20) if args.quick else sizes_between(1024, 64 << 20))
    if args.ranks:
        ranks = [int(r) for r in args.ranks.split(",")]
    if args.sizes:
        sizes = [int(s) for s in args.sizes.split(",")]
    collectives = args.collectives.split(",") if args.collectives else list(ALGORITHMS)
    binary = pld_run()
    cases = []
    with tempfile.TemporaryDirectory() as directory:
        workdir = pathlib.Path(directory)
        jobs = []
        for collective in collectives:
            algorithms = ["auto"] + ALGORITHMS[collective]
            if args.epoch and collective == "allreduce":
                algorithms = ["auto"] + EPOCH_ALGORITHMS
            elif args.cores > 1:
                algorithms = [a for a in algorithms if a == "auto" or a in PARTITIONED[collective]]
            if args.algorithms:
                algorithms = [a for a in algorithms if a in args.algorithms.split(",")]
            for n in ranks:
                for size in sizes:
                    if size // ELEMENT_BYTES < n:
                        continue
                    for algorithm in algorithms:
                        jobs.append((collective, algorithm, n, size))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for case in pool.map(lambda job: run_case(binary, workdir, args.allgather_local, args.signal == "counters", args.cores, args.epoch, *job), jobs):
                cases.append(case)
                if args.json:
                    print(json.dumps(case), flush=True)
    report(cases, args.plot, table=not args.json)


def report(cases, plot_path, table=True):
    if table:
        print(f"{'collective':<15}{'ranks':>6}{'bytes':>11}  {'algorithm':<18}{'modelled us':>13}{'reference us':>14}{'ratio':>8}")
        for c in cases:
            if "error" in c:
                print(f"{c['collective']:<15}{c['ranks']:>6}{c['bytes']:>11}  {c['algorithm']:<18}  failed: {c['error']}")
                continue
            print(
                f"{c['collective']:<15}{c['ranks']:>6}{c['bytes']:>11}  {c['algorithm']:<18}"
                f"{c['modelled_ns'] / 1e3:>13.2f}{c['reference_ns'] / 1e3:>14.2f}"
                f"{c['modelled_ns'] / c['reference_ns']:>8.2f}"
            )
    if plot_path:
        plot(cases, plot_path)
    if any("error" in c for c in cases):
        sys.exit(1)


if __name__ == "__main__":
    main()
