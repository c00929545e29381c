#!/usr/bin/env python3
"""The machine model against what the hardware measured (issue 30; a
benchmark, not a test: CI does not run it).

Each published experiment is written in pld (bench/calibration/) and run
by the release `pld-run --timing --stats=json` on the 910b model
(docs/performance.md), its result checked with --expect; the modelled
time is printed beside the measured one, with their ratio:

- pto-isa kernels/manual/a2a3/tget_bandwidth/README.md, "Measured
  Performance" (2 NPUs, A2/A3): the device cycles (50 MHz system counter)
  of one core reading 4 KiB .. 4 MiB of f32 from its peer, by TGET (staged
  through a 1 x 1024 f32 tile) and by TGET_ASYNC (the SDMA engine);
- pto-isa kernels/manual/a2a3/gemm_ar/README.md, "Measured Performance"
  (8 x 910B): the allreduce of the 5504 x 1536 f16 GEMM output alone
  ("Sequential", comm 437.3 us), by the vendor's own algorithm on 24 AIV
  blocks per rank.

Which parameters were fitted to which of these rows is in
docs/performance.md; a row the model was fitted to checks the fit, the
others check the model. Last, set beside the vendor's measured 437.3 us,
what pld's own `auto` allreduce of the same buffer on the same 24 cores
models at (`gemm_ar_auto`: a prediction, not a calibration).

usage: python3 bench/calibrate.py [--json] [--only tget,tget_async,gemm_ar,gemm_ar_auto]
  PLD_RUN=path uses that pld-run instead of building the release one.
"""

import argparse
import json
import pathlib
import subprocess
import sys

from release_tool import release_tool

HERE = pathlib.Path(__file__).resolve().parent / "calibration"

# The system counter the tget_bandwidth cycles count: 50 MHz, 20 ns a tick
# (its README, "Overview": "device-side average execution cycles ... SYS_CNT").
NS_PER_TICK = 20.0

# tget_bandwidth/README.md, "Measured Performance": bytes, TGET and
# TGET_ASYNC device average cycles.
TGET_CYCLES = [
    (4 << 10, 36.28, 136.51),
    (16 << 10, 149.98, 161.40),
    (64 << 10, 579.62, 277.25),
    (256 << 10, 2409.72, 745.54),
    (1 << 20, 9317.93, 2624.24),
    (4 << 20, 37924.12, 10273.68),
]

# gemm_ar/README.md, "Measured Performance": the communication alone.
GEMM_AR_COMM_US = 437.3


def run(binary, program, args):
    """The modelled time of one run, in ns; raises with pld-run's error."""
    command = [binary, str(HERE / program), "--timing", "--stats=json", "--timeout", "3600"]
    result = subprocess.run(command + args, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{program} {' '.join(args)}:\n{result.stderr.strip()}")
    return json.loads(result.stdout.strip().splitlines()[-1])["modelled_ns"]


def tget_rows(binary, entry, column):
    for size, *cycles in TGET_CYCLES:
        elements = size // 4
        args = [
            "--entry", entry, "--ranks", "2",
            "--shape", f"send=1x{elements}", "--shape", f"recv=1x{elements}",
            "--init", "send=r * 1000 + i % 1000",
            "--expect", "recv=(r == 0) * (1000 + i % 1000)",
        ]
        yield (f"{entry.upper()} {size >> 10} KiB", run(binary, "tget.mlir", args),
               cycles[column] * NS_PER_TICK)


def gemm_ar_rows(binary):
    args = ["--ranks", "8", "--blocks", "24", "--init", "gemm=r + 1", "--expect", "red=36"]
    yield ("gemm_ar allreduce, 24 AIV", run(binary, "gemm_ar_comm.mlir", args),
           GEMM_AR_COMM_US * 1e3)


def gemm_ar_auto_rows(binary):
    args = ["--ranks", "8", "--blocks", "24", "--init", "red=r + 1", "--expect", "red=36"]
    yield ("pld auto allreduce, 24 AIV", run(binary, "allreduce_auto.mlir", args),
           GEMM_AR_COMM_US * 1e3)


# Each experiment's rows, and whether they calibrate (count in the worst
# ratio) or predict.
EXPERIMENTS = {
    "tget": (lambda binary: tget_rows(binary, "tget", 0), True),
    "tget_async": (lambda binary: tget_rows(binary, "tget_async", 1), True),
    "gemm_ar": (gemm_ar_rows, True),
    "gemm_ar_auto": (gemm_ar_auto_rows, False),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON line per row")
    parser.add_argument("--only", default=",".join(EXPERIMENTS),
                        help="experiments to run, comma-separated")
    options = parser.parse_args()
    binary = release_tool("pld-run", "PLD_RUN")
    worst = 1.0
    if not options.json:
        print(f"{'experiment':<28}{'modelled us':>13}{'measured us':>13}{'ratio':>8}")
    for name in options.only.split(","):
        if name not in EXPERIMENTS:
            sys.exit(f"unknown experiment '{name}' (known: {', '.join(EXPERIMENTS)})")
        rows, calibrates = EXPERIMENTS[name]
        for label, modelled, measured in rows(binary):
            ratio = modelled / measured
            if calibrates:
                worst = max(worst, ratio, 1 / ratio)
            if options.json:
                print(json.dumps({"experiment": label, "modelled_ns": modelled,
                                  "measured_ns": measured, "ratio": ratio}))
            else:
                print(f"{label:<28}{modelled / 1e3:>13.2f}{measured / 1e3:>13.2f}{ratio:>8.2f}")
    if not options.json:
        print(f"worst ratio of the calibration rows (either way): {worst:.3f}")


if __name__ == "__main__":
    main()
