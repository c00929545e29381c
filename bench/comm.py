"""Communication figures of the decomposed collectives (not run in CI).

Runs each collective on the host simulator with `pld-run --stats=json` at a
few sizes and rank counts and prints, per rank (the mean over ranks), the
bytes it moved (remote loads + remote stores + puts + gets) next to the
bandwidth lower bound of that collective, their ratio, and the notifies and
waits (the synchronisation rounds) it took.

Bounds, with S the bytes of one rank's vector (allreduce, broadcast) or of
the whole n-row buffer (reduce_scatter, allgather, all_to_all):
  allreduce ring   2 (n-1)/n S      allreduce mesh   (n-1) S
  reduce_scatter   (n-1)/n S        allgather        (n-1)/n S
  broadcast        (n-1)/n S        all_to_all       (n-1)/n S
(broadcast: every rank but the root receives S once.) Target: the ring
within 1.05x of its bound.

usage: python3 bench/comm.py   (pld-run on PATH, or PLD_RUN=path)
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

PLD_RUN = os.environ.get("PLD_RUN", "pld-run")
RANKS = [2, 4, 8]
LENGTHS = [4096, 65536]  # f32 elements per row
ELEMENT = 4


def kernel(name, signature, body):
    return (
        f"func.func @{name}({signature}) attributes {{pl.kernel = #pl.kernel<incore>}} {{\n"
        f"  {body}\n  return\n}}\n"
    )


# (name, kernel, shapes(n, L), bound(n, L) in bytes)
COLLECTIVES = [
    (
        "allreduce ring",
        kernel(
            "k",
            "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x?xi32>",
            "%r = pld.tensor.allreduce %d, %s, op sum mode ring : !pld.dtensor<1x?xf32>, !pld.dtensor<?x?xi32>",
        ),
        lambda n, L: [f"0=1x{L}", f"1={2 * (n - 1)}x{n}"],
        lambda n, L: 2 * (n - 1) / n * L * ELEMENT,
    ),
    (
        "allreduce mesh",
        kernel(
            "k",
            "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x1xi32>",
            "%r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>",
        ),
        lambda n, L: [f"0=1x{L}", f"1={n}x1"],
        lambda n, L: (n - 1) * L * ELEMENT,
    ),
    (
        "reduce_scatter",
        kernel(
            "k",
            "%d: !pld.dtensor<?x?xf32>, %s: !pld.dtensor<?x1xi32>",
            "%r = pld.tensor.reduce_scatter %d, %s, op sum : !pld.dtensor<?x?xf32>, !pld.dtensor<?x1xi32>",
        ),
        lambda n, L: [f"0={n}x{L}", f"1={n}x1"],
        lambda n, L: (n - 1) * L * ELEMENT,
    ),
    (
        "allgather",
        kernel(
            "k",
            "%l: memref<1x?xf32>, %d: !pld.dtensor<?x?xf32>, %s: !pld.dtensor<?x1xi32>",
            "%r = pld.tensor.allgather %l, %d, %s : memref<1x?xf32>, !pld.dtensor<?x?xf32>, !pld.dtensor<?x1xi32>",
        ),
        lambda n, L: [f"0=1x{L}", f"1={n}x{L}", f"2={n}x1"],
        lambda n, L: (n - 1) * L * ELEMENT,
    ),
    (
        "broadcast",
        kernel(
            "k",
            "%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x1xi32>, %root: index",
            "%r = pld.tensor.broadcast %d, %s, root %root : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>",
        ),
        lambda n, L: [f"0=1x{L}", f"1={n}x1"],
        lambda n, L: (n - 1) / n * L * ELEMENT,
    ),
    (
        "all_to_all",
        kernel(
            "k",
            "%in: !pld.dtensor<?x?xf32>, %out: !pld.dtensor<?x?xf32>, %s: !pld.dtensor<?x1xi32>",
            "%r = pld.tensor.all_to_all %in, %out, %s : !pld.dtensor<?x?xf32>, !pld.dtensor<?x?xf32>, !pld.dtensor<?x1xi32>",
        ),
        lambda n, L: [f"0={n}x{L}", f"1={n}x{L}", f"2={n}x1"],
        lambda n, L: (n - 1) * L * ELEMENT,
    ),
]


def measure(path, ranks, shapes):
    command = [PLD_RUN, str(path), "--ranks", str(ranks), "--stats=json"]
    for shape in shapes:
        command += ["--shape", shape]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
    stats = json.loads(result.stdout.strip().splitlines()[-1])["ranks"]
    moved = [
        rank["remote_load_bytes"] + rank["remote_store_bytes"] + rank["put_bytes"] + rank["get_bytes"]
        for rank in stats
    ]
    mean = lambda values: sum(values) / len(values)
    return mean(moved), mean([r["notifies"] for r in stats]), mean([r["waits"] for r in stats])


def main():
    work = pathlib.Path(tempfile.mkdtemp(prefix="pld-comm-"))
    print("| collective | ranks | elements | bytes/rank | bound | ratio | notifies/rank | waits/rank |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for index, (name, text, shapes, bound) in enumerate(COLLECTIVES):
        path = work / f"c{index}.mlir"
        path.write_text(text)
        for n in RANKS:
            for L in LENGTHS:
                moved, notifies, waits = measure(path, n, shapes(n, L))
                limit = bound(n, L)
                print(
                    f"| {name} | {n} | {L} | {moved:.0f} | {limit:.0f} | "
                    f"{moved / limit:.3f} | {notifies:.1f} | {waits:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
