#!/usr/bin/env python3
"""Deterministic cost of pld-verify on input shapes built to hurt (issue 9,
item 6; not run in CI).

For each shape, at a size n and at 10n, it counts with callgrind the
instructions of
  verify   `pld-opt --pld-verify FILE -o /dev/null`
  floor    `pld-opt FILE -o /dev/null` (parse + op verifiers + print)
and prints verify, floor, their ratio, the pass's cost (pass = verify -
floor), the part of it inside pld-verify's own entry point (rules: what the
pass's code does, without the pass manager's work around it, such as
verifying the module again after the pass), and how verify, pass and rules
grow from n to 10n. Targets: the rules grow at most 13x (n log n at 10x is
about 13x), and the realistic modules stay within 1.5x of the floor; the
script exits 1 when a target is missed, and notes where verify or pass
grow faster than 13x for reasons outside the rules.

Every generated module is a correct program: the script first checks that
`pld-opt --pld-verify` accepts it (exit 0, no diagnostic), because a shape
that pld-verify rejects measures the error path, not the rules.

Shapes:
  signals   one InCore kernel, n rounds of atomic_add notify to a peer and a
            wait for a rising value, all on one signal cell
  windows   n row-stripe writers (pld.tile.remote_store) and n column-stripe
            readers (pld.tile.remote_load) of one n x n window: every reader
            overlaps every writer, and the union of the writers covers it
  nesting   scf.for loops nested n deep around notify, wait and an
            epilogue (semantics §4) that restores the counter; and n deep around
            a defer_wait in a waiter task
  barriers  one loop of n barriers on one signal, each with semantics §4's
            epilogue (a self-notify giving the credits back), as
            pld-decompose-collectives writes them
  views     n pld.tensor.window views of one alloc_window_buffer in host
            code, each the signal of a (mesh) allreduce, plus n views of a
            data buffer written by puts at different row offsets
  waiters   n defer_wait waiter tasks (one cell each, all published by one
            task) and one consumer task with deps on all n of them
  chain     a waiter and n tasks in a chain (each depends on the previous
            one), every one reading the payload the waiter defers on
  phases    race rule: n publish-and-read phases between two ranks on one
            window and two counters (every rank count decided)
  branches  race rule: n rank branches, each a store and a neighbour's
            remote load between barriers
  lowering  realistic: bench/gen_lowering.py (bench/lowering.sh's modules)
  kernels   realistic: bench/gen_kernels.py (bench/verify.sh's modules)

usage: python3 bench/verify-cost.py [--no-build] [--check] [--scale F]
                                    [--n SHAPE=N]... [--keep DIR] [SHAPE...]
  --check    only generate every shape at a small n and check that
             pld-verify accepts it (fast, no valgrind)
  --scale F  multiply every n by F (e.g. 0.1 for a quick look)
  --n SHAPE=N  run SHAPE at N and 10N instead of its default n
  --keep DIR write the generated modules to DIR (to profile one with
             `valgrind --tool=callgrind` and `callgrind_annotate`)
  PLD_OPT=path uses that pld-opt instead of building the release one.
"""

import argparse
import atexit
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

from release_tool import release_tool

ROOT = pathlib.Path(__file__).resolve().parent.parent


# --------------------------------------------------------------- generators


def gen_signals(n):
    """One long InCore kernel: n rounds of `notify +1` to a peer and a wait
    for the count that round reaches, all on signal cell [0, 0]."""
    out = [
        "func.func @signals(%signal: !pld.dtensor<2x1xi32>, %peer: index)",
        "    attributes {pl.kernel = #pl.kernel<incore>} {",
        "  %one = arith.constant 1 : i32",
    ]
    for i in range(n):
        out += [
            "  pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add"
            " : !pld.dtensor<2x1xi32>",
            f"  %e{i} = arith.constant {i + 1} : i32",
            f"  pld.system.wait %signal[0, 0], expected %e{i}, cmp ge : !pld.dtensor<2x1xi32>",
        ]
    out += ["  return", "}"]
    return "\n".join(out) + "\n"


def gen_windows(n):
    """n row stripes written, n column stripes read, of one n x n window."""
    win = f"!pld.dtensor<{n}x{n}xf32>"
    out = [
        f"func.func @stripes(%win: {win}, %row: !pl.tile<1x{n}xf32>, %p: index)",
        "    attributes {pl.kernel = #pl.kernel<incore>} {",
    ]
    for i in range(n):
        out.append(
            f"  pld.tile.remote_store %row, %win[{i}, 0], peer %p : !pl.tile<1x{n}xf32>, {win}"
        )
    for j in range(n):
        out.append(
            f"  %c{j} = pld.tile.remote_load %win[0, {j}], peer %p : {win} -> !pl.tile<{n}x1xf32>"
        )
    out += ["  return", "}"]
    return "\n".join(out) + "\n"


def gen_nesting(n):
    """n nested scf.for loops; the innermost notifies a peer, waits for one
    credit and gives it back with a self-notify of -1 (semantics §4's epilogue, so
    the same expected value is legal on every iteration). The nest is not
    indented (the input would grow with n squared)."""
    out = [
        "func.func @nest(%signal: !pld.dtensor<2x1xi32>, %peer: index)",
        "    attributes {pl.kernel = #pl.kernel<incore>} {",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c2 = arith.constant 2 : index",
        "  %one = arith.constant 1 : i32",
        "  %minus = arith.constant -1 : i32",
        "  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<2x1xi32>",
        "  %me32 = pld.system.rank %ctx",
        "  %me = arith.index_cast %me32 : i32 to index",
    ]
    out += [f"  scf.for %i{depth} = %c0 to %c2 step %c1 {{" for depth in range(n)]
    out += [
        "    pld.system.notify %signal[0, 0], peer %peer, value %one, op atomic_add"
        " : !pld.dtensor<2x1xi32>",
        "    pld.system.wait %signal[0, 0], expected %one, cmp ge : !pld.dtensor<2x1xi32>",
        "    pld.system.notify %signal[0, 0], peer %me, value %minus, op atomic_add"
        " : !pld.dtensor<2x1xi32>",
    ]
    out += ["  }"] * n + ["  return", "}"]
    # The same nest around a defer_wait in a waiter task: one trip per loop
    # (so one registration), and an expected value that rises with every
    # loop's induction variable (so no loop reuses it).
    out += [
        "func.func @nest_defer(%signal: !pld.dtensor<2x1xi32>)",
        "    attributes {pl.kernel = #pl.kernel<host>} {",
        '  %t = pl.at level core_group name "nest_wait" {',
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %e = arith.constant 1 : i32",
    ]
    previous = "%e"
    for depth in range(n):
        out += [
            f"    scf.for %i{depth} = %c0 to %c1 step %c1 {{",
            f"    %x{depth} = arith.index_cast %i{depth} : index to i32",
            f"    %e{depth} = arith.addi {previous}, %x{depth} : i32",
        ]
        previous = f"%e{depth}"
    out.append(
        f"    pld.system.defer_wait %signal[0, 0], expected {previous}, cmp ge"
        " : !pld.dtensor<2x1xi32>"
    )
    out += ["    }"] * n + ["  }", "  return", "}"]
    return "\n".join(out) + "\n"


def gen_barriers(n):
    """One loop of n barriers on one signal, each with semantics §4's epilogue
    (notify every peer, wait for every peer, give the credits back), as
    pld-decompose-collectives writes them."""
    sig = "!pld.dtensor<8x1xi32>"
    out = [
        f"func.func @barriers(%signal: {sig}, %steps: index)",
        "    attributes {pl.kernel = #pl.kernel<incore>} {",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %one = arith.constant 1 : i32",
        "  %minus = arith.constant -1 : i32",
        f"  %ctx = pld.system.get_comm_ctx %signal : {sig}",
        "  %me32 = pld.system.rank %ctx",
        "  %n32 = pld.system.nranks %ctx",
        "  %me = arith.index_cast %me32 : i32 to index",
        "  %n = arith.index_cast %n32 : i32 to index",
        "  scf.for %i = %c0 to %steps step %c1 {",
    ]
    for _ in range(n):
        out += [
            "    scf.for %p = %c0 to %n step %c1 {",
            f"      pld.system.notify %signal[%me, 0], peer %p, value %one, op atomic_add : {sig}",
            "    }",
            "    scf.for %s = %c0 to %n step %c1 {",
            f"      pld.system.wait %signal[%s, 0], expected %one, cmp ge : {sig}",
            "    }",
            "    scf.for %s = %c0 to %n step %c1 {",
            f"      pld.system.notify %signal[%s, 0], peer %me, value %minus, op atomic_add : {sig}",
            "    }",
        ]
    out += ["  }", "  return", "}"]
    return "\n".join(out) + "\n"


def gen_views(n):
    """n views of one signal buffer (shapes vary), each the signal of a mesh
    allreduce, and n views of one data buffer, each written by a put at its
    own row, all in host code."""
    out = [
        "func.func @views(%d: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>, %p: index)",
        "    attributes {pl.kernel = #pl.kernel<host>} {",
        '  %sbuf = pld.tensor.alloc_window_buffer "signal" bytes 4096',
        f'  %dbuf = pld.tensor.alloc_window_buffer "data" shape [{n}, 64] dtype f32',
    ]
    for i in range(n):
        sig = f"!pld.dtensor<{1 + i % 64}x1xi32>"
        data = f"!pld.dtensor<{n}x64xf32>"
        out += [
            f"  %s{i} = pld.tensor.window %sbuf : {sig}",
            f"  %r{i} = pld.tensor.allreduce %d, %s{i}, op sum : !pld.dtensor<1x64xf32>, {sig}",
            f"  %v{i} = pld.tensor.window %dbuf : {data}",
            f"  pld.tensor.put %v{i}, peer %p, %src dst_offsets [{i}, 0] src_offsets [0, 0]"
            f" shape [1, 64] : {data}, memref<1x64xf32>",
        ]
    out += ["  return", "}"]
    return "\n".join(out) + "\n"


TASK_ARGS = (
    "%payload: !pld.dtensor<1x64xf32>, %value: memref<1x64xf32>, %peer: index"
)


def gen_waiters(n):
    """A publisher that writes the payload and notifies n cells, n waiter
    tasks (one defer_wait each) and one consumer that depends on all."""
    sig = f"!pld.dtensor<{n}x1xi32>"
    out = [
        f"func.func @waiters(%signal: {sig}, {TASK_ARGS})",
        "    attributes {pl.kernel = #pl.kernel<host>} {",
        '  %publish = pl.at level core_group name "publish" {',
        "    %one = arith.constant 1 : i32",
        "    pld.tensor.remote_store %value, %payload[0, 0], peer %peer"
        " : memref<1x64xf32>, !pld.dtensor<1x64xf32>",
    ]
    for i in range(n):
        out.append(
            f"    pld.system.notify %signal[{i}, 0], peer %peer, value %one, op set : {sig}"
        )
    out.append("  }")
    for i in range(n):
        out += [
            f'  %w{i} = pl.at level core_group name "wait{i}" {{',
            "    %one = arith.constant 1 : i32",
            f"    pld.system.defer_wait %signal[{i}, 0], expected %one, cmp ge : {sig}",
            "  }",
        ]
    deps = ", ".join(f"%w{i}" for i in range(n))
    out += [
        f'  %consume = pl.at level core_group name "consume" deps [{deps}] {{',
        "    %t = pl.load %payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>",
        "  }",
        "  return",
        "}",
    ]
    return "\n".join(out) + "\n"


def gen_chain(n):
    """A waiter and a chain of n tasks, each depending on the previous one
    and reading the payload the waiter defers on."""
    sig = "!pld.dtensor<2x1xi32>"
    out = [
        f"func.func @chain(%signal: {sig}, {TASK_ARGS})",
        "    attributes {pl.kernel = #pl.kernel<host>} {",
        '  %publish = pl.at level core_group name "publish" {',
        "    %one = arith.constant 1 : i32",
        "    pld.tensor.remote_store %value, %payload[0, 0], peer %peer"
        " : memref<1x64xf32>, !pld.dtensor<1x64xf32>",
        f"    pld.system.notify %signal[0, 0], peer %peer, value %one, op set : {sig}",
        "  }",
        '  %t0 = pl.at level core_group name "wait" {',
        "    %one = arith.constant 1 : i32",
        f"    pld.system.defer_wait %signal[0, 0], expected %one, cmp ge : {sig}",
        "  }",
    ]
    for i in range(1, n + 1):
        out += [
            f'  %t{i} = pl.at level core_group name "stage{i}" deps [%t{i - 1}] {{',
            "    %x = pl.load %payload[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>",
            "  }",
        ]
    out += ["  return", "}"]
    return "\n".join(out) + "\n"


def gen_phases(n):
    """The race rule's worst shape of accesses: one kernel, n phases of rank
    0 pushing a row into rank 1's window and publishing it, rank 1 waiting
    for the phase's count and reading the row; rank-dependent branches, so
    the rule decides every rank count."""
    out = [
        "func.func @phases(%data: !pld.dtensor<4x64xf32>, %sig: !pld.dtensor<4x1xi32>,",
        "                  %out: memref<4x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {",
        "  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>",
        "  %me = pld.system.rank %ctx",
        "  %zero = arith.constant 0 : i32",
        "  %one = arith.constant 1 : i32",
        "  %c1 = arith.constant 1 : index",
        "  %is0 = arith.cmpi eq, %me, %zero : i32",
        "  %is1 = arith.cmpi eq, %me, %one : i32",
    ]
    for i in range(n):
        row = i % 4
        out += [
            "  scf.if %is0 {",
            f"    %t{i} = pl.load %out[{row}, 0] : memref<4x64xf32> -> !pl.tile<1x64xf32>",
            f"    pld.tile.remote_store %t{i}, %data[{row}, 0], peer %c1 : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>",
            "    pld.system.notify %sig[0, 0], peer %c1, value %one, op atomic_add : !pld.dtensor<4x1xi32>",
            f"    %e{i} = arith.constant {i + 1} : i32",
            f"    pld.system.wait %sig[1, 0], expected %e{i}, cmp ge : !pld.dtensor<4x1xi32>",
            "  }",
            "  scf.if %is1 {",
            f"    %f{i} = arith.constant {i + 1} : i32",
            f"    pld.system.wait %sig[0, 0], expected %f{i}, cmp ge : !pld.dtensor<4x1xi32>",
            f"    %r{i} = pl.load %data[{row}, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>",
            f"    pl.store %r{i}, %out[{row}, 0] : !pl.tile<1x64xf32>, memref<4x64xf32>",
            "    %z0 = arith.constant 0 : index",
            "    pld.system.notify %sig[1, 0], peer %z0, value %one, op atomic_add : !pld.dtensor<4x1xi32>",
            "  }",
        ]
    out += ["  return", "}"]
    return "\n".join(out) + "\n"


def gen_branches(n):
    """n rank branches (`scf.if rank == k % 4`), each a store into the
    rank's own row of a window and a remote load of the next rank's row,
    between two barriers: many ranks' branches, all decided."""
    out = [
        "func.func @branches(%data: !pld.dtensor<4x64xf32>, %sig: !pld.dtensor<4x1xi32>,",
        "                    %out: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {",
        "  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>",
        "  %me32 = pld.system.rank %ctx",
        "  %n32 = pld.system.nranks %ctx",
        "  %me = arith.index_cast %me32 : i32 to index",
        "  %n = arith.index_cast %n32 : i32 to index",
        "  %c1 = arith.constant 1 : index",
        "  %nextp = arith.addi %me, %c1 : index",
        "  %next = arith.remui %nextp, %n : index",
    ]
    for i in range(n):
        out += [
            f"  %k{i} = arith.constant {i % 4} : index",
            f"  %is{i} = arith.cmpi eq, %me, %k{i} : index",
            f"  scf.if %is{i} {{",
            "    %t = pl.load %out[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>",
            "    pl.store %t, %data[%me, 0] : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>",
            "  }",
            "  pld.tensor.barrier %sig : !pld.dtensor<4x1xi32>",
            f"  scf.if %is{i} {{",
            "    %r = pld.tile.remote_load %data[%next, 0], peer %next : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>",
            "    pl.store %r, %out[0, 0] : !pl.tile<1x64xf32>, memref<1x64xf32>",
            "  }",
            "  pld.tensor.barrier %sig : !pld.dtensor<4x1xi32>",
        ]
    out += ["  return", "}"]
    return "\n".join(out) + "\n"


def from_script(script):
    def generate(n):
        return subprocess.run(
            [sys.executable, str(ROOT / "bench" / script), str(n)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    return generate


# (name, generator, n, small n for --check, whether it is a realistic module)
SHAPES = [
    ("signals", gen_signals, 1000, 20, False),
    ("windows", gen_windows, 300, 8, False),
    ("nesting", gen_nesting, 200, 8, False),
    ("barriers", gen_barriers, 300, 5, False),
    ("views", gen_views, 500, 10, False),
    ("waiters", gen_waiters, 500, 10, False),
    ("chain", gen_chain, 1000, 10, False),
    ("phases", gen_phases, 200, 5, False),
    ("branches", gen_branches, 200, 5, False),
    ("lowering", from_script("gen_lowering.py"), 300, 3, True),
    ("kernels", from_script("gen_kernels.py"), 100, 3, True),
]


# ------------------------------------------------------------------ running


def pld_opt(build):
    return release_tool("pld-opt", "PLD_OPT", build)


def accepted(opt, path):
    """None when pld-verify accepts `path` quietly, else what it said. The
    race rule's remarks (what it cannot decide) are not complaints; the
    shapes that must be decided by it say so in their docstrings."""
    run = subprocess.run(
        [opt, "--pld-verify=remarks=false", str(path), "-o", "/dev/null"],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0 or run.stderr.strip():
        return f"exit {run.returncode}: {run.stderr.strip()[:2000]}"
    return None


COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
# The pass's own entry point, as callgrind_annotate names it.
RULES = "<pld_passes::verify::PldVerify as pld_ir::pass::bridge::Pass>::run"


def instructions(command, rules_in=None):
    """Instructions callgrind counts for `command` (which must succeed), and
    with `rules_in` (a scratch file) also those inside pld-verify's own entry
    point (`None` if callgrind_annotate does not find it)."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={rules_in or '/dev/null'}",
            *command,
        ],
        capture_output=True,
        text=True,
    )
    found = COLLECTED.search(run.stderr)
    if run.returncode != 0 or not found:
        sys.exit(f"failed: {' '.join(command)}\n{run.stderr[-2000:]}")
    if rules_in is None:
        return int(found.group(1))
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(rules_in)],
        capture_output=True,
        text=True,
    ).stdout
    pathlib.Path(rules_in).unlink()
    rules = next(
        (
            int(line.split()[0].replace(",", ""))
            for line in annotated.splitlines()
            if RULES in line and line.split()[0].replace(",", "").isdigit()
        ),
        None,
    )
    return int(found.group(1)), rules


def grew(large, small):
    return large / max(1, small)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("shapes", nargs="*", help="shapes to run (default: all)")
    parser.add_argument("--no-build", action="store_true", help="do not run cargo build")
    parser.add_argument("--check", action="store_true", help="only check acceptance at small n")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every n by this")
    parser.add_argument("--keep", metavar="DIR", help="write the generated modules here")
    parser.add_argument(
        "--n", action="append", default=[], metavar="SHAPE=N", help="the n of one shape"
    )
    args = parser.parse_args()
    known = [shape[0] for shape in SHAPES]
    for shape in args.shapes:
        if shape not in known:
            parser.error(f"unknown shape {shape!r}; known: {', '.join(known)}")
    shapes = [shape for shape in SHAPES if not args.shapes or shape[0] in args.shapes]
    sizes = {}
    for setting in args.n:
        shape, _, size = setting.partition("=")
        if shape not in known or not size.isdigit():
            parser.error(f"--n wants SHAPE=N with a known shape, found {setting!r}")
        sizes[shape] = int(size)
    opt = pld_opt(not args.no_build)
    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="verify-cost."))
    work.mkdir(parents=True, exist_ok=True)
    if not args.keep:
        atexit.register(shutil.rmtree, work, ignore_errors=True)

    # Every generator must produce a program that pld-verify accepts.
    for name, generate, _, small, _ in shapes:
        path = work / f"{name}-check.mlir"
        path.write_text(generate(small))
        problem = accepted(opt, path)
        if problem:
            sys.exit(f"pld-verify rejects the {name} shape at n={small}: {problem}")
    if args.check:
        print(f"every shape is accepted ({', '.join(shape[0] for shape in shapes)})")
        return

    header = (
        f"{'shape':<9} {'n':>6} {'verify':>14} {'floor':>14} {'ratio':>6} {'pass':>13} "
        f"{'rules':>13} {'growth':>7} {'pass':>6} {'rules':>6}"
    )
    print(header)
    print("-" * len(header))
    over, notes = [], []
    start = time.monotonic()
    for name, generate, base, _, realistic in shapes:
        n = sizes.get(name, max(1, round(base * args.scale)))
        rows = []
        for size in (n, 10 * n):
            path = work / f"{name}-{size}.mlir"
            path.write_text(generate(size))
            problem = accepted(opt, path)
            if problem:
                sys.exit(f"pld-verify rejects the {name} shape at n={size}: {problem}")
            verify, rules = instructions(
                [opt, "--pld-verify", str(path), "-o", "/dev/null"],
                rules_in=work / f"{name}-{size}.callgrind",
            )
            floor = instructions([opt, str(path), "-o", "/dev/null"])
            rows.append((size, verify, floor, verify - floor, rules))
        for index, (size, verify, floor, own, rules) in enumerate(rows):
            ratio = verify / floor
            growths = ["", "", ""]
            if index == 1:
                _, verify1, floor1, own1, rules1 = rows[0]
                growth = grew(verify, verify1)
                pass_growth = grew(own, own1)
                rules_growth = grew(rules, rules1) if rules and rules1 else None
                growths = [f"{growth:.1f}x", f"{pass_growth:.1f}x"]
                growths.append(f"{rules_growth:.1f}x" if rules_growth else "-")
                if rules_growth and rules_growth > 13:
                    over.append(f"{name}: the rules grow {rules_growth:.1f}x from n to 10n")
                elif pass_growth > 13:
                    notes.append(
                        f"{name}: verify - floor grows {pass_growth:.1f}x, the rules "
                        f"{rules_growth:.1f}x: the rest is MLIR's work around the pass "
                        "(the pass manager verifies the module again after it)"
                        if rules_growth
                        else f"{name}: verify - floor grows {pass_growth:.1f}x"
                    )
                if growth > 13:
                    notes.append(
                        f"{name}: verify grows {growth:.1f}x; the floor alone "
                        f"{grew(floor, floor1):.1f}x"
                    )
            if realistic and ratio > 1.5:
                over.append(f"{name}: {ratio:.2f}x the floor at n={size}")
            print(
                f"{name if index == 0 else '':<9} {size:>6} {verify:>14,} {floor:>14,} "
                f"{ratio:>5.2f}x {own:>13,} {'-' if rules is None else f'{rules:,}':>13} "
                f"{growths[0]:>7} {growths[1]:>6} {growths[2]:>6}",
                flush=True,
            )
    print(f"\n{time.monotonic() - start:.0f} s" + (f"; modules in {work}" if args.keep else ""))
    for note in notes:
        print("note:", note)
    for problem in over:
        print("over target:", problem)
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
