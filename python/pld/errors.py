"""The exceptions of the pld package.

Every error the package raises on purpose is a `pld.Error`; the message of
each is the report a user acts on (a `file:line:col:` prefix for front-end
errors, pld-verify's or pld-run's report for the others).
"""


class Error(Exception):
    """The base of every error pld raises on purpose."""


class FrontendError(Error, ValueError):
    """A decorated function uses something the front end cannot translate.

    The message starts with `file:line:col:` of the Python source. It is also
    a ValueError, as the seed documents for argument mistakes such as
    `pipeline=True` without chunk sizes.
    """


class VerifyError(Error):
    """pld-verify (or a lowering pass) rejects the kernel; the message is its report."""

    def __init__(self, report, diagnostics=None):
        super().__init__(report)
        self.diagnostics = list(diagnostics or [])


class DeadlockError(Error):
    """pld.run found every rank blocked (or the run timed out)."""


class RaceError(Error):
    """pld.run's race sanitizer found two unordered accesses."""


class TrapError(Error):
    """A rank trapped in pld.run (out of bounds, bad signal value, ...)."""
