"""Sudoku through the exact-cover engine: 4x4 up to 64x64 grids, one puzzle
or a batch, each answered with a verdict that says whether the puzzle has
one solution, several, none, or is not a valid puzzle.

>>> from exactly import sudoku
>>> a = sudoku.solve("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> a.verdict, a.count
('unique', 1)
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Union

from ._exactly import Answer, sudoku_solve as _solve, sudoku_solve_many as _solve_many

__all__ = ["Answer", "solve", "solve_many"]


def solve(
    puzzle: str,
    *,
    max_nodes: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Answer:
    """Solves one puzzle, given as text: one line of n*n cells (``.``, ``0``,
    ``-`` or ``_`` for an empty cell) or n lines of n cells.

    Returns an :class:`Answer` whose verdict is ``"unique"``, ``"multiple"``,
    ``"none"`` or ``"invalid"`` (with the reason, line and column in
    ``error``). ``max_nodes`` and ``timeout`` (seconds) bound the search; when
    they run out, :class:`exactly.Stopped` is raised with the answer so far
    (verdict ``"unknown"``) in ``partial``.
    """
    return _solve(puzzle, max_nodes=max_nodes, timeout=timeout)


def solve_many(
    puzzles: Union[str, Iterable[str]],
    threads: Optional[int] = None,
    *,
    max_nodes: Optional[int] = None,
    timeout: Optional[float] = None,
) -> List[Answer]:
    """Solves many puzzles on ``threads`` threads (default: all cores) and
    returns their answers in order.

    ``puzzles`` is an iterable of puzzle texts (one answer each), or one
    string holding a whole batch (one puzzle a line, or grids separated by
    blank lines; ``#`` starts a comment). A bad record gets the verdict
    ``"invalid"`` and the batch goes on. ``max_nodes`` and ``timeout`` bound
    each puzzle's search; a puzzle that runs out gets ``"unknown"``.
    """
    return _solve_many(puzzles, threads, max_nodes=max_nodes, timeout=timeout)
