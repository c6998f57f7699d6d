"""The engine against the tests' own Algorithm X on random problems with
secondary items and colors."""

from hypothesis import given, settings, strategies as st

import exactly

import reference

COLORS = [None, "red", "green"]


@st.composite
def problems(draw):
    n_primary = draw(st.integers(1, 6))
    n_secondary = draw(st.integers(0, 3))
    primary = [("p", i) for i in range(n_primary)]
    secondary = [frozenset({"s", i}) for i in range(n_secondary)]
    items = primary + secondary
    options = {}
    colors = {}
    # a planted solution: the primary items split into blocks
    cut = sorted(draw(st.sets(st.integers(1, n_primary - 1), max_size=3))) if n_primary > 1 else []
    blocks = [primary[a:b] for a, b in zip([0] + cut, cut + [n_primary])]
    extra = draw(st.lists(st.lists(st.sampled_from(items), min_size=1, max_size=4, unique=True), max_size=8))
    for k, opt in enumerate(blocks + extra):
        label = ("o", k) if k % 2 else k
        opt = list(opt)
        if secondary and draw(st.booleans()):
            s = draw(st.sampled_from(secondary))
            if s not in opt:
                opt.append(s)
        options[label] = opt
        shade = {i: draw(st.sampled_from(COLORS)) for i in opt if i in secondary}
        shade = {i: c for i, c in shade.items() if c is not None}
        if shade:
            colors[label] = shade
    return options, secondary, colors


@settings(max_examples=300, deadline=None)
@given(problems())
def test_solutions_match_reference(case):
    options, secondary, colors = case
    want = reference.solutions(options, secondary, colors)
    p = exactly.Problem(options, secondary=secondary, colors=colors)
    got = [frozenset(s) for s in p.solutions()]
    assert len(got) == len(set(got)), "a solution came twice"
    assert set(got) == want
    assert p.count(threads=1) == len(want)
    assert p.count(threads=3) == len(want)
    first = p.first()
    if want:
        assert frozenset(first) in want
    else:
        assert first is None
    assert [frozenset(s) for s in p.solutions(limit=2)] == got[:2]


@settings(max_examples=150, deadline=None)
@given(problems(), st.lists(st.integers(0, 9), min_size=20, max_size=20))
def test_costs_match_reference(case, prices):
    options, secondary, colors = case
    costs = {label: prices[k % 20] for k, label in enumerate(options)}
    want = sorted({sum(costs[l] for l in s) for s in reference.solutions(options, secondary, colors)})
    p = exactly.Problem(options, secondary=secondary, colors=colors, costs=costs)
    best = p.min_cost()
    if not want:
        assert best is None
        assert p.best(3) == []
        return
    cost, solution = best
    assert cost == want[0] == sum(costs[l] for l in solution)
    got = p.best(3)
    assert [c for c, _ in got] == want[:3]
    for c, s in got:
        assert sum(costs[l] for l in s) == c
        assert frozenset(s) in reference.solutions(options, secondary, colors)


def brute_min_cover(options, primary):
    """The fewest options covering every primary item, by brute force."""
    from itertools import combinations

    labels = list(options)
    for k in range(len(labels) + 1):
        for combo in combinations(labels, k):
            covered = {i for l in combo for i in options[l]}
            if primary <= covered:
                return k
    return None


@settings(max_examples=150, deadline=None)
@given(problems())
def test_min_cover_matches_brute_force(case):
    options, secondary, _ = case
    primary = {i for o in options.values() for i in o if i not in secondary}
    kept = {l: o for l, o in options.items() if any(i not in secondary for i in o)}
    want = brute_min_cover(kept, primary)
    cover = exactly.Problem(options, secondary=secondary).min_cover()
    assert len(cover) == want
    assert primary <= {i for l in cover for i in options[l]}
