"""The examples in the docs run: the package docstrings and the README's."""

import contextlib
import doctest
import io
import re
from pathlib import Path

import exactly
from exactly import sudoku


def test_docstring_examples():
    for module in (exactly, sudoku):
        failed, tried = doctest.testmod(module)
        assert tried > 0 and failed == 0


def test_readme_example():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(blocks[0], {})
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and sorted(eval(lines[0])) == ["B", "D", "F"]


def test_every_public_name_has_a_docstring():
    names = [exactly.Problem, exactly.Solutions, exactly.Stopped, exactly.ParseError,
             sudoku.Answer, sudoku.solve, sudoku.solve_many, exactly, sudoku]
    names += [getattr(exactly.Problem, n) for n in dir(exactly.Problem) if not n.startswith("_")]
    for obj in names:
        assert obj.__doc__ and obj.__doc__.strip(), obj
