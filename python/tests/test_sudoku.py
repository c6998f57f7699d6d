"""Sudoku verdicts: top95, invalid input, multiple solutions, budgets."""

import pytest

import exactly
from exactly import sudoku


def check_solution(puzzle: str, solution: str) -> None:
    """The solution keeps the givens and satisfies every unit (own check)."""
    assert len(solution) == 81
    for p, s in zip(puzzle, solution):
        if p not in ".0":
            assert p == s
    grid = [solution[9 * r : 9 * r + 9] for r in range(9)]
    full = set("123456789")
    for i in range(9):
        assert set(grid[i]) == full
        assert {grid[r][i] for r in range(9)} == full
        br, bc = 3 * (i // 3), 3 * (i % 3)
        assert {grid[br + r][bc + c] for r in range(3) for c in range(3)} == full


def top95(data):
    return (data / "top95.txt").read_text().split()


def test_top95_one_by_one(data):
    puzzles = top95(data)
    assert len(puzzles) == 95
    for puzzle in puzzles:
        answer = sudoku.solve(puzzle)
        assert answer.verdict == "unique", (puzzle, answer)
        assert answer.count == 1 and answer.error is None
        check_solution(puzzle, answer.solution)


@pytest.mark.parametrize("threads", [None, 1, 3])
def test_top95_batch(data, threads):
    puzzles = top95(data)
    answers = sudoku.solve_many(puzzles, threads=threads)
    assert len(answers) == 95
    for puzzle, answer in zip(puzzles, answers):
        assert answer.verdict == "unique"
        check_solution(puzzle, answer.solution)
    # one string holding the whole batch reads the same
    assert sudoku.solve_many((data / "top95.txt").read_text()) == answers


def test_verdicts():
    assert sudoku.solve("." * 81).verdict == "multiple"
    assert sudoku.solve("." * 81).count == 2
    # two 1s in the first row
    bad = sudoku.solve("11" + "." * 79)
    assert bad.verdict == "invalid" and "clash" in bad.error and bad.solution is None
    # a row that cannot be completed: r1c9 needs 9, which column 9 holds already
    none = "12345678." + "........9" + "." * 63
    assert sudoku.solve(none).verdict == "none"
    short = sudoku.solve("123")
    assert short.verdict == "invalid" and "line 1" in short.error
    char = sudoku.solve("12x" + "." * 78)
    assert char.verdict == "invalid" and "column 3" in char.error
    four = sudoku.solve("1.3.\n..1.\n.1..\n2.4.\n")
    assert four.verdict in {"unique", "multiple", "none"}


def test_batch_keeps_going_past_bad_records():
    answers = sudoku.solve_many(["." * 81, "bad", "", "11" + "." * 79])
    assert [a.verdict for a in answers] == ["multiple", "invalid", "invalid", "invalid"]


def test_budget_gives_unknown(data):
    hard = top95(data)[0]
    with pytest.raises(exactly.Stopped) as stop:
        sudoku.solve(hard, max_nodes=1)
    assert stop.value.reason == "max_nodes"
    assert stop.value.partial.verdict == "unknown"
    answers = sudoku.solve_many([hard, "." * 81], max_nodes=1)
    assert answers[0].verdict == "unknown" and "stopped" in answers[0].error


def test_type_errors():
    with pytest.raises(TypeError):
        sudoku.solve(123)
    with pytest.raises(TypeError):
        sudoku.solve_many([1, 2])
    with pytest.raises(ValueError):
        sudoku.solve_many(["." * 81], threads=0)
