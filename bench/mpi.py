"""What a rank costs on each way of hosting it (not run in CI).

Runs two loop kernels with pld-run on the thread simulator and on MPI
processes in node mode, in rma mode, and in rma mode over TCP loopback
(OMPI_MCA_btl=tcp,self, the transport between machines without RDMA), and
prints per iteration:
  barrier      one `pld.tensor.barrier` (each rank notifies every peer and
               waits for all of them: a round of notify -> wait);
  allreduce    one `pld.tensor.allreduce` of L f32 per rank (`auto`).
Each figure is (time of K iterations - time of 1) / (K - 1), wall clock of
the whole pld-run (start-up cancels; the program is compiled before the
first timed run), the best of REPEAT runs.

usage: python3 bench/mpi.py [--ranks N] [--length L] [--iterations K]
       (pld-run on PATH, or PLD_RUN=path)
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

PLD_RUN = os.environ.get("PLD_RUN", "pld-run")
REPEAT = 3

KERNELS = """
func.func @barriers(%s: !pld.dtensor<?x1xi32>, %k: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %k step %c1 {
    pld.tensor.barrier %s : !pld.dtensor<?x1xi32>
  }
  return
}
func.func @allreduces(%d: !pld.dtensor<1x?xf32>, %s: !pld.dtensor<?x1xi32>, %k: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %k step %c1 {
    %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x?xf32>, !pld.dtensor<?x1xi32>
  }
  return
}
"""

HOSTINGS = [
    ("thread", [], {}),
    ("mpi node", ["--backend", "mpi", "--mpi-mode", "node"], {}),
    ("mpi rma", ["--backend", "mpi", "--mpi-mode", "rma"], {}),
    ("mpi rma tcp", ["--backend", "mpi", "--mpi-mode", "rma"], {"OMPI_MCA_btl": "tcp,self"}),
]


def seconds(kernel, case, hosting, environment, iterations):
    """The best wall-clock time of pld-run on `case` with `iterations`."""
    arguments, count_argument = case
    command = [PLD_RUN, str(kernel), *arguments, "--init", f"{count_argument}={iterations}", *hosting]
    best = None
    for _ in range(REPEAT):
        started = time.perf_counter()
        result = subprocess.run(
            command, env={**os.environ, **environment}, capture_output=True, text=True
        )
        elapsed = time.perf_counter() - started
        if result.returncode != 0:
            sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ranks", type=int, default=4)
    parser.add_argument("--length", type=int, default=65536)
    parser.add_argument("--iterations", type=int, default=201)
    options = parser.parse_args()
    n, length, k = options.ranks, options.length, options.iterations
    # (name, (arguments, the position of the iteration count))
    cases = [
        ("barrier", (["--entry", "barriers", "--ranks", str(n), "--shape", f"0={n}x1"], 1)),
        (
            f"allreduce {length * 4 // 1024} KiB",
            (
                ["--entry", "allreduces", "--ranks", str(n), "--shape", f"0=1x{length}",
                 "--shape", f"1={n}x1", "--init", "0=r + i % 3"],
                2,
            ),
        ),
    ]
    with tempfile.TemporaryDirectory() as directory:
        kernel = pathlib.Path(directory) / "loops.mlir"
        kernel.write_text(KERNELS)
        print(f"{n} ranks, {k - 1} iterations, best of {REPEAT}; per iteration:")
        print(f"{'hosting':<14}" + "".join(f"{name:>22}" for name, _ in cases))
        for hosting_name, hosting, environment in HOSTINGS:
            row = f"{hosting_name:<14}"
            for _, case in cases:
                once = seconds(kernel, case, hosting, environment, 1)  # compiled by now
                many = seconds(kernel, case, hosting, environment, k)
                row += f"{(many - once) / (k - 1) * 1e6:>19.1f} us"
            print(row, flush=True)


if __name__ == "__main__":
    main()
