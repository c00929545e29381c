"""A decorated function's source as an ast, with its absolute locations.

`inspect.getsourcelines` gives the lines from the first decorator and the
line they start at; the ast of the dedented text counts lines from 1 and
columns from the dedented margin, so both are shifted back: every `loc`
names the line and column of the original file.
"""

import ast
import os
import inspect
import textwrap

from ..errors import FrontendError


class Source:
    def __init__(self, fn):
        self.file = fn.__code__.co_filename
        if not self.file.startswith("<"):
            self.file = os.path.abspath(self.file)
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise FrontendError(
                f"{self.file}:{fn.__code__.co_firstlineno}:1: cannot read the source of "
                f"{fn.__qualname__} ({e}); define it in a file"
            ) from None
        first = lines[0]
        self.indent = len(first) - len(first.lstrip())
        self.line_offset = start - 1
        tree = ast.parse(textwrap.dedent("".join(lines)))
        node = tree.body[0]
        if not isinstance(node, ast.FunctionDef):
            raise FrontendError(f"{self.file}:{start}:1: {fn.__qualname__} is not a plain def")
        self.tree = node

    def loc(self, node):
        return {
            "file": self.file,
            "line": node.lineno + self.line_offset,
            "column": node.col_offset + 1 + self.indent,
        }

    def where(self, node):
        loc = self.loc(node)
        return f"{loc['file']}:{loc['line']}:{loc['column']}"

    def error(self, node, message):
        return FrontendError(f"{self.where(node)}: {message}")
