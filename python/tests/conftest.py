"""Shared helpers: the examples directory on sys.path, the native marker and
ways to look at a description."""

import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples", "python")
if EXAMPLES not in sys.path:
    sys.path.insert(0, EXAMPLES)


def native_available():
    try:
        return importlib.util.find_spec("pld._native") is not None
    except ImportError:
        return False


# End-to-end tests need the Rust extension; they run wherever it is built.
needs_native = pytest.mark.skipif(not native_available(), reason="pld._native is not built")


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
