"""Budgets: a stopped search raises Stopped with what it found, never
passing for 'no solution'."""

import pytest

import exactly

from test_counts import langford, queens


def test_count_max_nodes():
    p = queens(10)
    with pytest.raises(exactly.Stopped) as stop:
        p.count(max_nodes=100)
    e = stop.value
    assert e.reason == "max_nodes"
    assert e.partial == e.count and 0 <= e.count < 724
    assert e.nodes >= 100


def test_count_limit():
    with pytest.raises(exactly.Stopped) as stop:
        queens(8).count(limit=5)
    assert stop.value.reason == "limit" and stop.value.partial == 5
    # a limit above the count is no stop
    assert queens(8).count(limit=1000) == 92


@pytest.mark.parametrize("threads", [1, 2])
def test_count_timeout(threads):
    p = queens(16)  # minutes of work
    with pytest.raises(exactly.Stopped) as stop:
        p.count(threads=threads, timeout=0.2)
    assert stop.value.reason == "timeout"
    assert stop.value.count > 0


def test_first_max_nodes():
    with pytest.raises(exactly.Stopped) as stop:
        langford(12).first(max_nodes=1)
    assert stop.value.partial is None
    # with no solution at all the answer is None, not Stopped
    assert langford(5).first() is None
    assert langford(5).count(max_nodes=10**9) == 0


def test_solutions_budgets():
    sols = list(queens(8).solutions(limit=10))
    assert len(sols) == 10
    assert list(queens(8).solutions(limit=0)) == []
    it = queens(12).solutions(max_nodes=2000)
    got = []
    with pytest.raises(exactly.Stopped) as stop:
        for s in it:
            got.append(s)
    assert stop.value.reason == "max_nodes" and stop.value.count == len(got) > 0
    assert next(it, None) is None


def test_solutions_is_lazy():
    it = queens(20).solutions()  # far too many to list
    first = next(it)
    assert len(first) == 20
    del it


def test_costs_and_cover_budgets():
    p = queens(12)
    with pytest.raises(exactly.Stopped) as stop:
        p.best(3, max_nodes=50)
    assert isinstance(stop.value.partial, list)
    with pytest.raises(exactly.Stopped):
        p.min_cost(max_nodes=50)


def test_bad_budgets():
    p = queens(4)
    for kwargs in ({"max_nodes": -1}, {"timeout": -1.0}, {"timeout": float("nan")}, {"limit": -3}):
        with pytest.raises(ValueError):
            p.count(**kwargs)
    with pytest.raises(ValueError):
        p.count(threads=0)
    with pytest.raises(ValueError):
        p.count(threads=10**6)
    with pytest.raises(ValueError):
        p.best(-1)
    assert p.best(0) == []
    # a timeout far in the future is no error
    assert p.count(timeout=1e11) == 2


def forced_queens(n):
    """n queens below one forced option, ("f", "x"): the 7,000 options on
    x that it rules out make the whole too large for the bitsets and the
    item masks, so the rest the forced option leaves is counted."""
    options = {}
    for r in range(n):
        for c in range(n):
            options[("q", r, c)] = [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
    options["f"] = ["f", "x"]
    for k in range(7000):
        options[("x", k)] = ["x", ("s", k)]
    secondary = [("up", d) for d in range(2 * n - 1)] + [("down", d) for d in range(-n + 1, n)]
    secondary += [("s", k) for k in range(7000)]
    return exactly.Problem(options, secondary=secondary)


@pytest.mark.parametrize("threads", [1, 2])
def test_budgets_count_what_forced_moves_leave(threads):
    p, plain = forced_queens(8), queens(8)
    assert p.count(threads=threads) == 92
    assert p.count(threads=threads, timeout=1000) == 92
    # The forced level is one node more; below it, the same tree, stopped
    # after the same solutions.
    for limit in (1, 10, 91):
        with pytest.raises(exactly.Stopped) as stop:
            p.count(threads=threads, limit=limit)
        assert stop.value.partial == limit
    for nodes in (50, 299, 1000):
        with pytest.raises(exactly.Stopped) as forced:
            p.count(threads=threads, max_nodes=nodes + 1)
        with pytest.raises(exactly.Stopped) as below:
            plain.count(threads=threads, max_nodes=nodes)
        assert forced.value.partial == below.value.partial
        assert forced.value.nodes == below.value.nodes + 1
