"""The README's Python example runs as written and prints what it says."""

import contextlib
import io
import os
import re

from conftest import ROOT, needs_native

pytestmark = needs_native


def test_the_readme_example_runs(tmp_path):
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    (block,) = re.findall(r"```python\n(.*?)```", readme, re.S)
    # The file the kernel is parsed from: inspect reads the source of a
    # function through its file, so the block is run from one.
    path = tmp_path / "readme_example.py"
    path.write_text(block)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(path), "exec"), {"__name__": "readme"})
    claimed = re.search(r"print\(.*\)\s+# (.*)", block).group(1)
    assert printed.getvalue().strip() == claimed
