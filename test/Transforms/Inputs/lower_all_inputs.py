"""Runs every error-free input of the test suite and the README through
pld-to-ascend-pipeline.

Each `// -----` split of every .mlir file under test/ (and every ```mlir
block of README.md) that pld-verify accepts must lower with --verify-each,
and the output must hold no collective, put, get or tensor.remote_store.
"""

import concurrent.futures
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1])
REMAINING = re.compile(
    r"pld\.tensor\.(allreduce|reduce_scatter|allgather|broadcast|barrier|"
    r"all_to_all|put|get|remote_store)\b"
)


def inputs():
    for path in sorted((root / "test").rglob("*.mlir")):
        if "Inputs" in path.parts:
            continue
        for index, text in enumerate(path.read_text().split("// -----")):
            yield f"{path.relative_to(root)}#{index}", text
    readme = (root / "README.md").read_text()
    for index, block in enumerate(re.findall(r"```mlir\n(.*?)```", readme, re.S)):
        yield f"README.md#{index}", block


def run(name, text):
    if "expected-error" in text:
        # A split that tests a diagnostic is not an error-free input.
        return name, "skipped", ""
    verify = subprocess.run(
        ["pld-opt", "-", "--pld-verify"], input=text, capture_output=True, text=True
    )
    if verify.returncode != 0:
        return name, "skipped", ""
    lowered = subprocess.run(
        ["pld-opt", "-", "--pld-to-ascend-pipeline", "--verify-each"],
        input=text,
        capture_output=True,
        text=True,
    )
    if lowered.returncode != 0:
        return name, "failed", lowered.stderr
    left = REMAINING.search(lowered.stdout)
    if left:
        return name, "failed", f"'{left.group(0)}' is left after the pipeline"
    return name, "lowered", ""


with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    results = list(pool.map(lambda item: run(*item), inputs()))
failures = [(name, why) for name, status, why in results if status == "failed"]
for name, why in failures:
    print(f"FAILED {name}:\n{why}")
lowered = sum(status == "lowered" for _, status, _ in results)
print(f"lowered {lowered} of {len(results)} inputs ({len(failures)} failed)")
sys.exit(1 if failures else 0)
