#!/usr/bin/env python3
"""GEMMs fused with communication on the calibrated model (issue 31; a
benchmark, not a test: CI does not run it).

The cases, each decomposed by pld-decompose-collectives and run by the
release `pld-run --timing-only` (the schedule and the clocks, not the
values):

- gemm_ar: `pld.tensor.matmul_allreduce` on pto-isa's gemm_ar
  (kernels/manual/a2a3/gemm_ar/README.md, "Measured Performance": 8 x
  910B, M=5416 K=6144 N=1408 f16, 24 AIC + 24 AIV);
- sweep: the same op, M from 128 to 8192 at gemm_ar's K and N;
- allgather_gemm: `pld.tensor.allgather_matmul` on pto-isa's
  allgather_gemm (kernels/manual/a2a3/allgather_gemm/README.md, "Measured
  Performance (Reference)": fp16 in, fp32 out, M the gathered rows, on 2,
  4 and 8 ranks; main.cpp's default 20 compute blocks, so core_num 20);
- matmul_reduce_scatter: `pld.tensor.matmul_reduce_scatter` on 8 ranks,
  M=8192 K=4096 N=4096 f16 on 24 cube cores (pto-isa publishes no figure
  for it: modelled only).

Printed, in modelled us:

- compute-only: the GEMM task alone (the unfused form without its
  collective);
- sequential: the fused form's tasks one after the other (the
  communication after the GEMM, or for allgather_matmul the GEMM after the
  communication), as the vendor measures "Sequential";
- pipelined: the fused form, the communication moving each tile or chunk
  as it comes;
- unfused: the GEMM and pld's own collective (`auto`) on as many cores, in
  sequence;
- speedup: sequential / pipelined (gemm_ar's 808.9 / 560.6 = 1.443);
- auto: the form `auto` chose (pld-decompose-collectives' remark).
A "published" line follows a case with the vendor's figures (allgather_gemm
publishes its total time only, which is the pipelined one).

With --json, one object per line: name (gemm_ar, sweep, allgather_gemm or
matmul_reduce_scatter), op (matmul_allreduce, allgather_matmul or
matmul_reduce_scatter), m, k, n, ranks, compute_only_us, sequential_us,
pipelined_us, unfused_us, auto.

usage: python3 bench/fusion.py [--json] [--only gemm_ar,sweep,allgather_gemm,matmul_reduce_scatter]
                               [--m 128,512] [--ranks 2,4,8]
  --m picks the sweep's M values, --ranks allgather_gemm's rank counts.
  PLD_RUN=path and PLD_OPT=path use those tools instead of building the
  release ones.
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import pathlib

from release_tool import release_tool

# gemm_ar/README.md, "Measured Performance" (us).
GEMM_AR = {"m": 5416, "k": 6144, "n": 1408, "ranks": 8, "cores": 24,
           "compute_only_us": 368.1, "sequential_us": 808.9, "pipelined_us": 560.6}

SWEEP_M = [128, 256, 512, 1024, 2048, 4096, 8192]

# allgather_gemm/README.md, "Measured Performance (Reference)": (ranks, M, K,
# N, execution time in us), M the gathered rows.
ALLGATHER_GEMM = [
    (2, 2048, 2048, 1024, 297.0),
    (2, 4096, 4096, 2048, 1098.0),
    (2, 4096, 4096, 4096, 1231.0),
    (2, 8192, 4096, 4096, 2519.0),
    (4, 4096, 4096, 4096, 986.0),
    (4, 8192, 4096, 4096, 1648.0),
    (8, 8192, 4096, 4096, 1439.0),
    (8, 16384, 4096, 4096, 2585.0),
]
# allgather_gemm's main.cpp, CONFIG_COMPUTE_BLOCK_NUM.
ALLGATHER_GEMM_CORES = 20

MATMUL_REDUCE_SCATTER = {"m": 8192, "k": 4096, "n": 4096, "ranks": 8, "cores": 24}

TILE_ROWS, TILE_COLS, SUBTILES = 128, 256, 2  # an f16 `c`: 64-row subtiles


def ceil(a, b):
    return -(-a // b)


def signal_columns(cells, ranks, cores):
    """The fewest columns, a multiple of 2 C, whose [ranks, columns] signal
    holds `cells` (docs/pld-decompose-collectives.md)."""
    width = 2 * cores
    return width * ceil(cells, ranks * width)


def host(name, arguments, op):
    return (f"func.func @{name}({arguments})\n    attributes {{pl.kernel = #pl.kernel<host>}} {{\n"
            f"  %done = {op}\n  return\n}}\n")


def matmul_allreduce(m, k, n, ranks, cores):
    cells = SUBTILES * ceil(m, TILE_ROWS) * ceil(n, TILE_COLS) + cores + 1
    columns = signal_columns(cells, ranks, cores)
    types = (f"memref<{m}x{k}xf16>, memref<{k}x{n}xf16>, !pld.dtensor<{m}x{n}xf16>, "
             f"!pld.dtensor<{ranks}x{columns}xi32>")
    return host(
        "gemm_allreduce",
        f"%a: memref<{m}x{k}xf16>, %b: memref<{k}x{n}xf16>,\n    %c: !pld.dtensor<{m}x{n}xf16>, "
        f"%signal: !pld.dtensor<{ranks}x{columns}xi32>",
        f"pld.tensor.matmul_allreduce %a, %b, %c, %signal, op sum core_num {cores} : {types}")


def matmul_reduce_scatter(m, k, n, ranks, cores):
    """f16 in and out; `out` a window (the fused form adds into it)."""
    rows = m // ranks
    cells = ranks * ceil(rows, TILE_ROWS) * ceil(n, TILE_COLS) + 2 * cores
    columns = signal_columns(cells, ranks, cores)
    types = (f"memref<{m}x{k}xf16>, memref<{k}x{n}xf16>, !pld.dtensor<{m}x{n}xf16>, "
             f"!pld.dtensor<{rows}x{n}xf16>, !pld.dtensor<{ranks}x{columns}xi32>")
    return host(
        "gemm_reduce_scatter",
        f"%a: memref<{m}x{k}xf16>, %b: memref<{k}x{n}xf16>, %partial: !pld.dtensor<{m}x{n}xf16>,\n"
        f"    %out: !pld.dtensor<{rows}x{n}xf16>, %signal: !pld.dtensor<{ranks}x{columns}xi32>",
        f"pld.tensor.matmul_reduce_scatter %a, %b, %partial, %out, %signal, op sum "
        f"core_num {cores} : {types}")


def allgather_matmul(m, k, n, ranks, cores):
    """As allgather_gemm: fp16 `a` (M / ranks rows) in, fp32 `c` out."""
    rows = m // ranks
    cells = ranks * ceil(rows, TILE_ROWS) + ranks
    columns = signal_columns(cells, ranks, cores)
    types = (f"memref<{rows}x{k}xf16>, !pld.dtensor<{m}x{k}xf16>, memref<{k}x{n}xf16>, "
             f"memref<{m}x{n}xf32>, !pld.dtensor<{ranks}x{columns}xi32>")
    return host(
        "allgather_gemm",
        f"%a: memref<{rows}x{k}xf16>, %gathered: !pld.dtensor<{m}x{k}xf16>, %b: memref<{k}x{n}xf16>,\n"
        f"    %c: memref<{m}x{n}xf32>, %signal: !pld.dtensor<{ranks}x{columns}xi32>",
        f"pld.tensor.allgather_matmul %a, %gathered, %b, %c, %signal core_num {cores} : {types}")


# Per op: the module, the GEMM task, the fused form's communication task,
# the unfused form's tasks after the GEMM, and whether the GEMM comes first
# in the fused form (else the communication does).
OPS = {
    "matmul_allreduce": (matmul_allreduce, "matmul_allreduce.matmul",
                         "matmul_allreduce.communicate", ["matmul_allreduce.allreduce"], True),
    "matmul_reduce_scatter": (matmul_reduce_scatter, "matmul_reduce_scatter.matmul",
                              "matmul_reduce_scatter.communicate",
                              ["matmul_reduce_scatter.copy", "matmul_reduce_scatter.reduce_scatter"],
                              True),
    "allgather_matmul": (allgather_matmul, "allgather_matmul.matmul",
                         "allgather_matmul.communicate", ["allgather_matmul.allgather"], False),
}


def decompose(opt, source, algorithm):
    """The decomposed module, and pld-decompose-collectives' remarks."""
    result = subprocess.run(
        [opt, str(source), f"--pld-decompose-collectives=algorithm={algorithm}"],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"pld-opt {algorithm}:\n{result.stderr.strip()}")
    return result.stdout, result.stderr


def task_span(text, name):
    """The lines of the task named `name`: its first and one past its last."""
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if f'name "{name}"' in line)
    indent = len(lines[first]) - len(lines[first].lstrip())
    last = next(i for i in range(first + 1, len(lines))
                if lines[i].strip() == "}" and len(lines[i]) - len(lines[i].lstrip()) == indent)
    return lines, first, last + 1


def task_id(text, name):
    return re.search(rf'(%\w+) = pl\.spmd .* name "{re.escape(name)}"', text).group(1)


def without_task(text, name):
    """The module without the task `name`, and without it in any deps."""
    task = task_id(text, name)
    lines, first, end = task_span(text, name)
    text = "\n".join(lines[:first] + lines[end:])
    text = re.sub(rf"deps\[{task}\]", "", text)
    return re.sub(rf"(deps\[[^\]]*?)(, {task}\b|{task}, )", r"\1", text)


def after(text, first, second):
    """The module with task `second` waiting for task `first` (before it)."""
    before = task_id(text, first)
    lines, line_index, _ = task_span(text, second)
    line = lines[line_index]
    if " deps[" in line:
        line = line.replace(" deps[", f" deps[{before}, ", 1)
    else:
        line = line.replace(f'"{second}"', f'"{second}" deps[{before}]', 1)
    lines[line_index] = line
    return "\n".join(lines)


def modelled_us(run, text, ranks, scratch, label):
    path = scratch / f"{label}.mlir"
    path.write_text(text)
    result = subprocess.run(
        [run, str(path), "--ranks", str(ranks), "--timing-only", "--stats=json",
         "--timeout", "36000"],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{label}:\n{result.stderr.strip()}")
    return json.loads(result.stdout.strip().splitlines()[-1])["modelled_ns"] / 1e3


def measure(opt, run, name, op, m, k, n, ranks, cores, scratch):
    program, gemm, comm, collective, gemm_first = OPS[op]
    label = f"{name}_{ranks}_{m}_{k}_{n}"
    source = scratch / f"{label}.mlir"
    source.write_text(program(m, k, n, ranks, cores))
    _, remarks = decompose(opt, source, "auto")
    chosen = re.search(rf"{op} auto: (\w+)", remarks)
    fused, _ = decompose(opt, source, "fused")
    unfused, _ = decompose(opt, source, "unfused")
    compute_only = unfused
    for task in collective:
        compute_only = without_task(compute_only, task)
    sequential = after(fused, gemm, comm) if gemm_first else after(fused, comm, gemm)
    return {
        "name": name, "op": op, "m": m, "k": k, "n": n, "ranks": ranks,
        "compute_only_us": modelled_us(run, compute_only, ranks, scratch, label + "_compute"),
        "sequential_us": modelled_us(run, sequential, ranks, scratch, label + "_seq"),
        "pipelined_us": modelled_us(run, fused, ranks, scratch, label + "_fused"),
        "unfused_us": modelled_us(run, unfused, ranks, scratch, label + "_unfused"),
        "auto": chosen.group(1) if chosen else "?",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON line per shape")
    parser.add_argument("--only", default="gemm_ar,sweep,allgather_gemm,matmul_reduce_scatter",
                        help="gemm_ar, sweep, allgather_gemm, matmul_reduce_scatter")
    parser.add_argument("--m", default=",".join(map(str, SWEEP_M)), help="the sweep's M values")
    parser.add_argument("--ranks", default="2,4,8", help="allgather_gemm's rank counts")
    options = parser.parse_args()
    run = release_tool("pld-run", "PLD_RUN")
    opt = release_tool("pld-opt", "PLD_OPT")
    # (name, op, m, k, n, ranks, cores, published: (compute, sequential,
    # pipelined) us, any None)
    cases = []
    for name in options.only.split(","):
        if name == "gemm_ar":
            g = GEMM_AR
            cases.append(("gemm_ar", "matmul_allreduce", g["m"], g["k"], g["n"], g["ranks"],
                          g["cores"], (g["compute_only_us"], g["sequential_us"], g["pipelined_us"])))
        elif name == "sweep":
            cases += [("sweep", "matmul_allreduce", int(m), GEMM_AR["k"], GEMM_AR["n"],
                       GEMM_AR["ranks"], GEMM_AR["cores"], None) for m in options.m.split(",")]
        elif name == "allgather_gemm":
            ranks = [int(r) for r in options.ranks.split(",")]
            cases += [("allgather_gemm", "allgather_matmul", m, k, n, r, ALLGATHER_GEMM_CORES,
                       (None, None, us)) for r, m, k, n, us in ALLGATHER_GEMM if r in ranks]
        elif name == "matmul_reduce_scatter":
            c = MATMUL_REDUCE_SCATTER
            cases.append(("matmul_reduce_scatter", "matmul_reduce_scatter", c["m"], c["k"],
                          c["n"], c["ranks"], c["cores"], None))
        else:
            sys.exit(f"unknown case '{name}' (known: gemm_ar, sweep, allgather_gemm, "
                     "matmul_reduce_scatter)")
    if not options.json:
        print(f"{'case':<22}{'ranks':>6}{'M':>7}{'K':>6}{'N':>6}{'compute':>10}{'sequential':>12}"
              f"{'pipelined':>11}{'unfused':>10}{'speedup':>9}  auto")
    figure = lambda value: f"{value:.1f}" if value is not None else "-"
    with tempfile.TemporaryDirectory() as scratch:
        for name, op, m, k, n, ranks, cores, published in cases:
            row = measure(opt, run, name, op, m, k, n, ranks, cores, pathlib.Path(scratch))
            if options.json:
                print(json.dumps(row), flush=True)
                continue
            speedup = row["sequential_us"] / row["pipelined_us"]
            print(f"{name:<22}{ranks:>6}{m:>7}{k:>6}{n:>6}{row['compute_only_us']:>10.1f}"
                  f"{row['sequential_us']:>12.1f}{row['pipelined_us']:>11.1f}"
                  f"{row['unfused_us']:>10.1f}{speedup:>9.3f}  {row['auto']}", flush=True)
            if published:
                compute, sequential, pipelined = published
                ratio = f"{sequential / pipelined:.3f}" if sequential else "-"
                print(f"{'published':<22}{ranks:>6}{m:>7}{k:>6}{n:>6}{figure(compute):>10}"
                      f"{figure(sequential):>12}{figure(pipelined):>11}{'':>10}{ratio:>9}",
                      flush=True)


if __name__ == "__main__":
    main()
