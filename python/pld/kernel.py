"""`@pl.jit` / `@pl.jit.incore`: a decorated function becomes a Kernel.

The function is parsed when its description is first asked for (not at
decoration), so module constants and kernels defined after it are seen.
"""

import functools
import inspect
import json

from .annotations import as_param, function_annotations
from .errors import Error, FrontendError


class Kernel:
    """A decorated function: `.description()`, `.mlir()`, and the argument
    of `pld.verify`, `pld.to_cce` and `pld.run`."""

    def __init__(self, fn, kind):
        if not inspect.isfunction(fn):
            raise TypeError(f"@pl.jit decorates a function, not {fn!r}")
        self.fn = fn
        self.kind = kind  # "incore" | "host"
        self.name = fn.__name__
        functools.update_wrapper(self, fn)

    def description(self):
        """The module as the JSON-able description of docs/design/python-frontend.md."""
        from ._frontend import describe_program
        return describe_program(self)

    def mlir(self, debug_info=False):
        """The module's MLIR text (with `loc(...)` of the Python lines when `debug_info`)."""
        from .api import native
        text = json.dumps(self.description())
        try:
            return native().build(text, bool(debug_info))
        except ValueError as e:
            # `file:line:col: message`, or the op verifiers' errors, each
            # `file:line:col: error: message`.
            raise FrontendError(str(e)) from None

    def parameters(self):
        """[(name, Param)] in order; Param says the type and direction."""
        annotations = function_annotations(self.fn)
        out = []
        for name in inspect.signature(self.fn).parameters:
            param = as_param(annotations.get(name))
            if param is None:
                raise Error(f"parameter {name} of {self.name} has no pl type")
            out.append((name, param))
        return out

    def __call__(self, *args, **kwargs):
        raise Error(f"{self.name} is a pld kernel: run it with pld.run({self.name}, ranks=N, ...) "
                    "or call it from another decorated function")

    def __repr__(self):
        return f"<pld kernel {self.name} ({self.kind})>"


class _Jit:
    """`@pl.jit` (a host orchestrator) and `@pl.jit.incore` (an AI-core kernel);
    both also work called with no arguments (`@pl.jit()`)."""

    def __call__(self, fn=None):
        return Kernel(fn, "host") if fn is not None else (lambda f: Kernel(f, "host"))

    def incore(self, fn=None):
        return Kernel(fn, "incore") if fn is not None else (lambda f: Kernel(f, "incore"))


jit = _Jit()
