"""Shared helpers: the examples directory on sys.path, the native marker and
ways to look at a description."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples", "python")
if EXAMPLES not in sys.path:
    sys.path.insert(0, EXAMPLES)


# End-to-end tests need the Rust extension. They run unless
# PLD_PYTHON_SKIP_NATIVE=1 says to test the pure-Python half alone (from a
# checkout without a build): a missing extension is a failure otherwise, so
# that scripts/test.sh cannot pass without running them.
needs_native = pytest.mark.skipif(
    os.environ.get("PLD_PYTHON_SKIP_NATIVE") == "1",
    reason="PLD_PYTHON_SKIP_NATIVE=1: the pure-Python half alone",
)


def walk(ops):
    """Every op of a body, nested regions included, in order."""
    for op in ops:
        yield op
        for region in op["regions"]:
            for block in region["blocks"]:
                yield from walk(block["ops"])


def function(description, name=None):
    fns = description["functions"]
    return fns[0] if name is None else next(f for f in fns if f["name"] == name)


def op_names(ops, prefix=("pld.", "pl.", "scf.", "func.")):
    return [op["op"] for op in walk(ops) if op["op"].startswith(prefix)]


def line_of(path, marker):
    """The 1-based line of `path` that holds `marker` (a comment in a test)."""
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if marker in line:
                return i
    raise AssertionError(f"{marker!r} not in {path}")
