"""Every example under examples/python runs as a script (needs pld._native)."""

import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES, ROOT, needs_native

SCRIPTS = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py"))


def test_the_seed_examples_are_there():
    assert {"handshake.py", "barrier.py", "remote_accumulate.py", "deferred_completion.py"} <= set(SCRIPTS)


@needs_native
@pytest.mark.parametrize("script", SCRIPTS)
def test_example_runs(script):
    done = subprocess.run([sys.executable, os.path.join(EXAMPLES, script)], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("script", SCRIPTS)
def test_example_describes(script):
    """Without the native module: every kernel of the example translates."""
    import importlib
    import pld
    module = importlib.import_module(script[:-3])
    kernels = [v for v in vars(module).values() if isinstance(v, pld.Kernel)]
    assert kernels
    for kernel in kernels:
        assert kernel.description()["functions"]
