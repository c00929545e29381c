"""Markers: the functions of `pld.*` and `pl.*` that only mean something
inside a decorated function.

The front end recognises a marker by its `__pld_op__` key and binds the
call's arguments against the marker's signature (so keyword names and
defaults are the seed's). Called from ordinary Python, a marker raises.
"""

import functools

from .errors import Error


def marker(key):
    """Make `fn` (whose signature is the seed's) a marker named `key`."""

    def wrap(fn):
        @functools.wraps(fn)
        def outside(*args, **kwargs):
            raise Error(
                f"{key}(...) only has a meaning inside a @pl.jit or @pl.jit.incore "
                "function; call pld.run(kernel, ...) to run one"
            )

        outside.__pld_op__ = key
        return outside

    return wrap


def marker_key(obj):
    return getattr(obj, "__pld_op__", None)
