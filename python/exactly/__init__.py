"""Exact cover for Python: Knuth's Algorithm X (dancing links) in Rust.

Build a :class:`Problem` from a dict of options (any hashable labels and
items), or read one in Knuth's DLX format, then count its solutions, take the
first, iterate over them lazily, or find the cheapest ones and minimum covers.
Searches release the GIL, run on all cores where they can, stop within
budgets (``max_nodes=``, ``timeout=``, ``limit=``) by raising
:class:`Stopped`, and give way to Ctrl-C.

>>> import exactly
>>> p = exactly.Problem({"A": [1, 4, 7], "B": [1, 4], "C": [4, 5, 7],
...                      "D": [3, 5, 6], "E": [2, 3, 6, 7], "F": [2, 7]})
>>> p.count()
1
>>> sorted(p.first())
['B', 'D', 'F']
"""

from ._exactly import (
    ParseError,
    Problem,
    Solutions,
    Stopped,
    __version__,
)
from . import sudoku

__all__ = ["Problem", "Solutions", "Stopped", "ParseError", "sudoku", "__version__"]
