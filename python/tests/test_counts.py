"""Counts from the literature, checked by running the solver."""

import pytest

import exactly


def queens(n):
    """n queens: rows and columns primary, diagonals secondary."""
    options = {}
    for r in range(n):
        for c in range(n):
            options[("q", r, c)] = [("row", r), ("col", c), ("up", r + c), ("down", r - c)]
    secondary = [("up", d) for d in range(2 * n - 1)] + [("down", d) for d in range(-n + 1, n)]
    return exactly.Problem(options, secondary=secondary)


def langford(n):
    """Langford pairs: numbers 1..n in 2n slots, k's two copies k apart."""
    options = {}
    for k in range(1, n + 1):
        for i in range(2 * n - k - 1):
            options[(k, i)] = [k, ("slot", i), ("slot", i + k + 1)]
    return exactly.Problem(options)


# OEIS A000170
@pytest.mark.parametrize("n,count", [(8, 92), (9, 352), (10, 724), (11, 2680), (12, 14200)])
def test_queens(n, count):
    assert queens(n).count() == count


def test_queens_one_thread_and_solutions():
    p = queens(8)
    assert p.count(threads=1) == 92
    sols = list(p.solutions())
    assert len({frozenset(s) for s in sols}) == 92
    for s in sols:
        assert sorted(r for _, r, _ in s) == list(range(8))
        assert sorted(c for _, _, c in s) == list(range(8))
        assert len({r + c for _, r, c in s}) == 8
        assert len({r - c for _, r, c in s}) == 8


# OEIS A014552 counts each pair of mirror images once; the plain encoding
# finds both.
@pytest.mark.parametrize("n,pairs", [(3, 1), (4, 1), (5, 0), (7, 26), (8, 150), (11, 17792)])
def test_langford(n, pairs):
    assert langford(n).count() == 2 * pairs


def test_langford_11_from_the_repository(testdata):
    assert exactly.Problem.read(testdata / "langford-11.dlx").count() == 35584


def test_pentominoes_6x10(testdata):
    p = exactly.Problem.read(testdata / "pentomino-6x10.dlx")
    assert p.count() == 9356


def test_knuth_example_matrix_format(testdata):
    p = exactly.Problem.read(testdata / "knuth-example.mat", format="matrix")
    assert p.count() == 1


def independent_parts(parts, problem):
    """`parts` copies of `problem` (a dict of options), each on items of its
    own: the count is the part's count to the power `parts`."""
    options = {}
    for k in range(parts):
        for label, items in problem.items():
            options[(k, label)] = [(k, i) for i in items]
    return exactly.Problem(options)


# Three solutions: {ab}, {ab'}, {a, b}.
PART = {"ab": ["a", "b"], "ab'": ["a", "b"], "a": ["a"], "b": ["b"]}


@pytest.mark.parametrize("parts", [1, 2, 5, 41, 100])
def test_zdd_counts_independent_parts_past_2_64(parts):
    p = independent_parts(parts, PART)
    assert p.count(zdd=True) == 3**parts
    if parts <= 5:
        assert p.count() == 3**parts


def test_zdd_count_past_2_128_is_a_python_int():
    # 3**81 > 2**128: past the engine's u128 counts too.
    n = independent_parts(81, PART).count(zdd=True)
    assert type(n) is int and n == 3**81 and n > 2**128


def test_zdd_count_agrees_on_queens_and_secondary_items():
    assert queens(8).count(zdd=True) == 92


def test_zdd_count_budgets_and_limit():
    with pytest.raises(exactly.Stopped) as e:
        queens(10).count(zdd=True, max_nodes=5)
    assert e.value.reason == "max_nodes"
    with pytest.raises(ValueError, match="limit"):
        queens(8).count(zdd=True, limit=3)


def test_multiplicities_count_alike_on_any_threads():
    # Random problems with `u:v|` bounds, counted by brute force over every
    # set of options, and on 1, 2 and 4 threads (split into smaller
    # problems past one).
    import itertools
    import random

    rng = random.Random(7)
    for _ in range(40):
        items = ["a", "b", "c", "d"]
        bounds = {i: sorted(rng.sample(range(0, 4), 2)) for i in items}
        options = [sorted(rng.sample(items, rng.randint(1, 3))) for _ in range(rng.randint(4, 11))]
        text = " ".join(f"{lo}:{hi}|{i}" for i, (lo, hi) in bounds.items()) + "\n"
        text += "".join(" ".join(o) + "\n" for o in options)
        expected = 0
        for chosen in itertools.product([0, 1], repeat=len(options)):
            cover = {i: 0 for i in items}
            for take, o in zip(chosen, options):
                for i in o if take else []:
                    cover[i] += 1
            expected += all(lo <= cover[i] <= hi for i, (lo, hi) in bounds.items())
        p = exactly.Problem.parse(text)
        assert [p.count(threads=t) for t in (1, 2, 4)] == [expected] * 3, text
