"""The ast front end: a decorated function's source -> the JSON description
of docs/design/python-frontend.md, which `pld._native.build` turns into MLIR."""

from .translate import describe_program

__all__ = ["describe_program"]
