"""Type stubs for the compiled core of the ``exactly`` package."""

from os import PathLike
from typing import (
    Any,
    Hashable,
    Iterable,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

__version__: str

class Stopped(Exception):
    """A search stopped by a budget before it could finish."""

    reason: Literal["max_nodes", "timeout", "limit", "cancelled"]
    """Which budget ran out."""
    partial: Any
    """What the call found by then, in the shape the call returns."""
    count: int
    """Solutions found by then."""
    nodes: int
    """Search nodes visited."""

class ParseError(ValueError):
    """Text that is not a problem."""

    line: int
    """1-based line."""
    column: int
    """1-based column, in characters."""
    message: str
    """What was expected."""
    path: Optional[str]
    """The file read, or None for text."""

Items = Iterable[Hashable]

class Problem:
    """An exact-cover problem: options to choose so that every primary item
    is covered exactly once and every secondary item at most once, or by
    options that agree on its color."""

    def __init__(
        self,
        options: Union[Mapping[Hashable, Items], Sequence[Items]],
        *,
        secondary: Optional[Items] = None,
        colors: Optional[Mapping[Hashable, Mapping[Hashable, Hashable]]] = None,
        primary: Optional[Items] = None,
        costs: Optional[Mapping[Hashable, int]] = None,
        bounds: Optional[Mapping[Hashable, Union[int, Tuple[int, int]]]] = None,
    ) -> None:
        """Builds a problem. ``options`` maps labels to items, or is a list
        of options labelled 0, 1, ...; items not in ``secondary`` are primary
        (or list them in ``primary``); ``colors[label][item]`` colors a
        secondary item in an option; ``costs[label]`` is an option's cost;
        ``bounds[item]`` is ``u`` or ``(v, u)``: cover the item from v to u
        times. Raises ValueError or TypeError naming a bad label or item."""
    @staticmethod
    def parse(text: str, format: Literal["dlx", "matrix"] = "dlx") -> "Problem":
        """Reads Knuth's DLX format (or HUST 1017's 0/1 matrix with
        ``format="matrix"``). Labels are the options' lines. Raises
        ParseError."""
    @staticmethod
    def read(
        path: Union[str, "PathLike[str]"], format: Literal["dlx", "matrix"] = "dlx"
    ) -> "Problem":
        """Reads a problem from a file; see ``parse``."""
    def count(
        self,
        threads: Optional[int] = None,
        *,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        limit: Optional[int] = None,
        zdd: bool = False,
    ) -> int:
        """Counts the solutions, on all cores by default (a tree that ends
        within a few thousand nodes on one). Raises Stopped (``partial``:
        the count so far) when a budget runs out. ``zdd=True`` counts
        through a decision diagram of all solutions, on one thread: fast
        where the solutions are many but distinct subproblems few, as with
        independent parts (counts past 2**64 in moments)."""
    def first(
        self, *, max_nodes: Optional[int] = None, timeout: Optional[float] = None
    ) -> Optional[List[Any]]:
        """The first solution (a list of labels), or None when there is
        none."""
    def solutions(
        self,
        limit: Optional[int] = None,
        *,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> "Solutions":
        """All solutions, lazily; at most ``limit`` of them."""
    def min_cost(
        self, *, max_nodes: Optional[int] = None, timeout: Optional[float] = None
    ) -> Optional[Tuple[int, List[Any]]]:
        """The cheapest solution as ``(cost, solution)``, or None."""
    def best(
        self, k: int, *, max_nodes: Optional[int] = None, timeout: Optional[float] = None
    ) -> List[Tuple[int, List[Any]]]:
        """The ``k`` cheapest distinct costs with one solution each."""
    def min_cover(
        self,
        weighted: bool = False,
        *,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Optional[List[Any]]:
        """The fewest options (cheapest, when weighted) covering every
        primary item at least once, or None when no cover exists."""
    @property
    def num_items(self) -> int:
        """Number of items."""
    @property
    def num_primary(self) -> int:
        """Number of primary items."""
    @property
    def num_options(self) -> int:
        """Number of options kept."""
    @property
    def items(self) -> List[Any]:
        """The items, as given."""
    @property
    def labels(self) -> List[Any]:
        """The labels of the options kept."""
    @property
    def warnings(self) -> List[str]:
        """Remarks made while building."""
    @property
    def has_costs(self) -> bool:
        """Whether any option has a nonzero cost."""
    @property
    def has_multiplicities(self) -> bool:
        """Whether any primary item has bounds other than 1."""
    @property
    def has_colors(self) -> bool:
        """Whether any option colors a secondary item."""

class Solutions(Iterator[List[Any]]):
    """A lazy iterator over a problem's solutions."""

    def __iter__(self) -> "Solutions": ...
    def __next__(self) -> List[Any]: ...

class Answer:
    """The answer to a sudoku."""

    verdict: Literal["unique", "multiple", "none", "invalid", "unknown"]
    """What the search found."""
    solution: Optional[str]
    """The first solution, written as the puzzle was."""
    count: int
    """Solutions found (at most 2)."""
    error: Optional[str]
    """Why the puzzle is invalid, or which budget ran out."""
    nodes: int
    """Search nodes."""

def sudoku_solve(
    puzzle: str, *, max_nodes: Optional[int] = None, timeout: Optional[float] = None
) -> Answer: ...
def sudoku_solve_many(
    puzzles: Union[str, Iterable[str]],
    threads: Optional[int] = None,
    *,
    max_nodes: Optional[int] = None,
    timeout: Optional[float] = None,
) -> List[Answer]: ...
