"""Runs every error-free input of the test suite and the README through the
lowering.

  all_inputs.py ascend ROOT
      each input lowers through pld-to-ascend-pipeline with --verify-each,
      and no collective, put, get or tensor.remote_store is left (but a put
      or get with `engine sdma`, which convert-pld-to-ascend lowers);
  all_inputs.py cce ROOT CXX RUNTIME_INCLUDE PTO_STUB_INCLUDE
      `pld-translate --pld-to-cce` turns each input into C++ that CXX
      accepts (-Werror) twice: as host code against the runtime's host half
      (the simulator) and as device code against the PTO ISA stub, which
      carries the real headers' static checks (those of the a5 chip for a
      module that targets Ascend950) and the task runtime's deferred
      completion API.

The inputs are the `// -----` splits of every .mlir file under test/ (but
Inputs/ folders) and examples/, and every ```mlir block of README.md, that
pld-verify accepts; a split that expects a diagnostic (an `expected-error`,
or a FileCheck line that expects an `error:`) is not an error-free input, and in cce mode neither is one already in the ascend dialect (the
translation takes pld-level input).
"""

import concurrent.futures
import pathlib
import re
import subprocess
import sys

mode, root = sys.argv[1], pathlib.Path(sys.argv[2])
# An op of these left, where an op starts (not the op a check's message or
# a site names).
REMAINING = re.compile(
    r"^\s*(?:%[^=]*= )?pld\.tensor\.(allreduce|reduce_scatter|allgather|broadcast|barrier|"
    r"all_to_all|put|get|remote_store)\b"
)


def inputs():
    paths = sorted((root / "test").rglob("*.mlir")) + sorted((root / "examples").rglob("*.mlir"))
    for path in paths:
        if "Inputs" in path.parts:
            continue
        for index, text in enumerate(path.read_text().split("// -----")):
            yield f"{path.relative_to(root)}#{index}", text
    readme = (root / "README.md").read_text()
    for index, block in enumerate(re.findall(r"```mlir\n(.*?)```", readme, re.S)):
        yield f"README.md#{index}", block


def to_ascend(text):
    """None if it lowers, else why not."""
    lowered = subprocess.run(
        ["pld-opt", "-", "--pld-to-ascend-pipeline", "--verify-each"],
        input=text,
        capture_output=True,
        text=True,
    )
    if lowered.returncode != 0:
        return lowered.stderr
    for line in lowered.stdout.splitlines():
        left = REMAINING.search(line)
        if left and not (left.group(1) in ("put", "get") and " engine sdma " in line):
            return f"'{left.group(0).strip()}' is left after the pipeline"
    return None


def to_cce(text):
    """None if it translates and both halves compile, else why not."""
    cxx, runtime, stub = sys.argv[3:6]
    translated = subprocess.run(
        ["pld-translate", "--pld-to-cce", "-"], input=text, capture_output=True, text=True
    )
    if translated.returncode != 0:
        return translated.stderr
    device = ["-DPLD_DEVICE", "-I", stub]
    if "#pld.target<Ascend950>" in text:
        device.append("-DPTO_NPU_ARCH_A5")
    for flags in [[], device]:
        compiled = subprocess.run(
            [cxx, "-std=c++20", "-fsyntax-only", "-Werror", "-x", "c++", "-", "-I", runtime]
            + flags,
            input=translated.stdout,
            capture_output=True,
            text=True,
        )
        if compiled.returncode != 0:
            half = "device" if flags else "host"
            return f"the {half} compile failed:\n{compiled.stderr}"
    return None


def run(name, text):
    expects_error = "expected-error" in text or re.search(r"CHECK[-A-Z0-9]*: .*error: ", text)
    if expects_error or (mode == "cce" and "ascend." in text):
        return name, "skipped", ""
    verify = subprocess.run(
        ["pld-opt", "-", "--pld-verify"], input=text, capture_output=True, text=True
    )
    if verify.returncode != 0:
        return name, "skipped", ""
    why = (to_ascend if mode == "ascend" else to_cce)(text)
    return (name, "failed", why) if why is not None else (name, "lowered", "")


with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    results = list(pool.map(lambda item: run(*item), inputs()))
failures = [(name, why) for name, status, why in results if status == "failed"]
for name, why in failures:
    print(f"FAILED {name}:\n{why}")
lowered = sum(status == "lowered" for _, status, _ in results)
print(f"lowered {lowered} of {len(results)} inputs ({len(failures)} failed)")
sys.exit(1 if failures else 0)
