"""`pld.verify`, `pld.to_cce` and `pld.run`: a Kernel through pld-verify, the
CCE lowering and the simulator of `pld._native`, numpy in and out."""

import io

import numpy as np

from .errors import DeadlockError, Error, RaceError, TrapError, VerifyError
from .kernel import Kernel


def native():
    """The Rust extension, imported when first needed so that `import pld`
    and `Kernel.description()` work without it."""
    try:
        from . import _native
    except ImportError as e:
        raise Error(f"the native module pld._native is not available ({e}); "
                    "install the package with `pip install ./python`") from None
    return _native


def _kernel(kernel):
    if not isinstance(kernel, Kernel):
        raise TypeError(f"expected a @pl.jit or @pl.jit.incore function, got {kernel!r}")
    return kernel


def format_diagnostic(d):
    """A diagnostic as pld-opt prints it: `file:line:col: error: ...`, the
    source line with a caret, and its notes."""
    return d["text"].rstrip("\n")


def format_diagnostics(diagnostics):
    return "\n".join(format_diagnostic(d) for d in diagnostics)


def verify(kernel, ranks=()):
    """Run pld-verify on the kernel's module for these rank counts (empty:
    pld-verify's defaults). Raises VerifyError with the report if there is an
    error; returns the other diagnostics (warnings, remarks)."""
    text = _kernel(kernel).mlir(debug_info=True)
    diagnostics = native().verify(text, kernel.name, [int(r) for r in ranks])
    if any(d["severity"] == "error" for d in diagnostics):
        raise VerifyError(format_diagnostics(diagnostics), diagnostics)
    return diagnostics


def to_cce(kernel):
    """The kernel's module lowered to CCE C++ (raises VerifyError if it does not lower)."""
    text = _kernel(kernel).mlir(debug_info=True)
    try:
        return native().to_cce(text, kernel.name)
    except ValueError as e:
        raise VerifyError(str(e)) from None


class RunResult(list):
    """One dict per rank of the outputs ({argument name: numpy array}),
    with the run's `report` and, with `timing=True`, its `timing`."""

    report = ""
    timing = None
    diagnostics = ()


def _per_rank(name, param, value, ranks):
    """The argument's value on each rank: a callable of the rank, a list of
    one value per rank, or one value for every rank."""
    if callable(value):
        return [value(r) for r in range(ranks)]
    if isinstance(value, (list, tuple)) and len(value) == ranks:
        spec = param.spec
        if not hasattr(spec, "shape") or np.shape(value) != tuple(spec.shape):
            return list(value)
    return [value] * ranks


def _to_array(name, param, value):
    spec = param.spec
    dtype = spec.dtype.numpy_dtype
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise Error(f"argument {name}: cannot make a {spec.dtype!r} array of {value!r} ({e})") from None
    if not hasattr(spec, "shape"):  # a scalar
        if arr.size != 1:
            raise Error(f"argument {name} is a scalar, got an array of shape {arr.shape}")
        return arr.reshape(())
    shape = spec.shape
    if None in shape:
        if arr.ndim != len(shape) or any(d is not None and d != a for d, a in zip(shape, arr.shape)):
            raise Error(f"argument {name}: an array of shape {arr.shape} does not fit {spec!r}")
        return np.ascontiguousarray(arr)
    if arr.shape == tuple(shape):
        return np.ascontiguousarray(arr)
    if arr.size == int(np.prod(shape)):
        return arr.reshape(shape)
    try:
        return np.ascontiguousarray(np.broadcast_to(arr, shape))
    except ValueError:
        raise Error(f"argument {name}: an array of shape {arr.shape} does not fit {spec!r}") from None


def _npy(arr):
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    return buf.getvalue()


_FAILURES = {
    "verify": VerifyError, "deadlock": DeadlockError, "timeout": DeadlockError,
    "race": RaceError, "trap": TrapError, "error": Error,
}


def run(kernel, ranks, sanitize=None, timing=False, verify=True, blocks=1, timeout=60,
        launches=1, reset_windows=False, **args):
    """Run the kernel on `ranks` simulated ranks; returns one dict per rank of
    its outputs (Out/InOut and DistributedTensor arguments) as numpy arrays.

    Each keyword argument, by parameter name, is a numpy array (or anything
    numpy converts) given to every rank, a list of one value per rank, or a
    callable of the rank. Arguments not given start as zeros.

    `launches` calls the kernel that many times, every rank finishing one
    call before any starts the next, as PyPTO's persistent workers do: the
    windows (DistributedTensor arguments) keep what a call left, or start
    every call as the first with `reset_windows`; the other arguments are
    given anew to every call, and the outputs are the last call's.
    """
    kernel = _kernel(kernel)
    ranks = int(ranks)
    if ranks < 1:
        raise Error("ranks must be at least 1")
    params = dict(kernel.parameters())
    unknown = sorted(set(args) - set(params))
    if unknown:
        raise TypeError(f"{kernel.name} has no parameter(s) {', '.join(unknown)}; "
                        f"it takes {', '.join(params)}")
    if int(launches) < 1:
        raise Error("launches must be at least 1")
    if reset_windows and int(launches) == 1:
        raise Error("reset_windows resets the windows between launches; give launches too")
    if sanitize not in (None, "race"):
        raise Error(f"sanitize is None or \"race\", not {sanitize!r}")
    positions = {name: i for i, name in enumerate(params)}
    inputs = {}
    for name, value in args.items():
        param = params[name]
        inputs[name] = [_npy(_to_array(name, param, v)) for v in _per_rank(name, param, value, ranks)]
    text = kernel.mlir(debug_info=True)
    # The extension keys arguments and outputs by position.
    result = native().run(text, kernel.name, ranks, {positions[n]: v for n, v in inputs.items()},
                          sanitize == "race", bool(timing), bool(verify), int(blocks), int(timeout),
                          int(launches), bool(reset_windows))
    names = {i: name for name, i in positions.items()}
    status = result.get("status")
    if status != "ok":
        report = result.get("report") or ""
        diagnostics = result.get("diagnostics") or []
        if diagnostics:
            report = "\n".join(x for x in (format_diagnostics(diagnostics), report) if x)
        error = _FAILURES.get(status, Error)
        if error is VerifyError:
            raise VerifyError(report, diagnostics)
        raise error(report or f"pld.run ended with status {status}")
    outputs = {name for name, p in params.items()
               if p.direction != "in" or getattr(p.spec, "kind", None) == "dtensor"}
    out = RunResult(
        {names.get(key, key): np.load(io.BytesIO(bytes(data)), allow_pickle=False)
         for key, data in rank_outputs.items() if names.get(key, key) in outputs}
        for rank_outputs in result.get("outputs") or []
    )
    out.report = result.get("report") or ""
    out.timing = result.get("timing")
    out.diagnostics = result.get("diagnostics") or []
    return out
